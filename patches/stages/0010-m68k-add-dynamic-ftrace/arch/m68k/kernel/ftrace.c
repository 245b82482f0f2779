// SPDX-License-Identifier: GPL-2.0
/*
 * Function tracer support for m68k.
 *
 * The entry points are in mcount.S; this file holds the C side of the
 * function-graph tracer and of dynamic ftrace.  Built without -pg: the
 * tracer must not trace itself.
 */

#include <linux/ftrace.h>
#include <linux/sched.h>
#include <linux/stop_machine.h>
#include <linux/uaccess.h>
#include <linux/text-patching.h>

#ifdef CONFIG_DYNAMIC_FTRACE
/*
 * The encodings of a call site, in one place.  gcc emits a 6-byte,
 * 2-byte-aligned "bsr.l _mcount" in every traced function's prologue;
 * recordmcount lists their addresses.  With disp = target - (site + 2):
 *
 *   call   0x61ff disp32   bsr.l target	(as compiled; _mcount is
 *						 ftrace_caller)
 *   nop    0x51fb disp32   trapf.l #disp32	never traps, does nothing
 *   trap   0x4afc ......   illegal		only while patching.c rewrites
 *						 more than one word
 *
 * Why trapf.l: "nop" (0x4e71) synchronises the pipeline on the 68040
 * and 68060 and would cost far more than a skipped call, and a 2-byte nop
 * plus a branch is two instructions; trapf.l is one 6-byte instruction
 * that the 68020 through 68060 execute as a no-op (the 68000 has no
 * TRAPcc: it would need "bra.s .+6", 0x6004, and is not supported here).
 *
 * The no-op keeps the call's displacement as its ignored immediate, so
 * turning a site on or off rewrites only its first word: one aligned
 * 16-bit store, atomic for the CPU, no breakpoint needed.  The same holds
 * for ftrace_graph_call (0x51fb <-> 0x60ff, bra.l ftrace_graph_caller).
 * Only ftrace_call, whose target changes, needs the three-step write.
 */

static int notrace m68k_ftrace_flip(unsigned long ip, u16 old_op, u16 new_op,
				    unsigned long target)
{
	u32 disp = target - (ip + 2);
	u16 insn[3];

	if (copy_from_kernel_nofault(insn, (void *)ip, sizeof(insn)))
		return -EFAULT;
	/* never write over anything but the expected instruction */
	if (insn[0] != old_op || insn[1] != disp >> 16 || insn[2] != (u16)disp) {
		/* for ftrace_bug()'s report; updates are serialised */
		static u16 expected[3];

		expected[0] = old_op;
		expected[1] = disp >> 16;
		expected[2] = disp;
		ftrace_expected = expected;
		return -EINVAL;
	}
	if (m68k_patch_text((void *)ip, &new_op, 2))
		return -EPERM;
	return 0;
}

int ftrace_make_nop(struct module *mod, struct dyn_ftrace *rec,
		    unsigned long addr)
{
	return m68k_ftrace_flip(rec->ip, M68K_INSN_BSR_L, M68K_INSN_TRAPF_L,
				addr);
}

int ftrace_make_call(struct dyn_ftrace *rec, unsigned long addr)
{
	return m68k_ftrace_flip(rec->ip, M68K_INSN_TRAPF_L, M68K_INSN_BSR_L,
				addr);
}

int ftrace_update_ftrace_func(ftrace_func_t func)
{
	unsigned long ip = (unsigned long)&ftrace_call;
	u32 disp = (unsigned long)func - (ip + 2);
	u16 insn[3] = { M68K_INSN_BSR_L, disp >> 16, (u16)disp };
	u16 cur;

	if (copy_from_kernel_nofault(&cur, (void *)ip, sizeof(cur)))
		return -EFAULT;
	if (cur != M68K_INSN_BSR_L)
		return -EINVAL;
	return m68k_patch_text((void *)ip, insn, sizeof(insn));
}

/*
 * Patch with interrupts enabled: every call-site change is one atomic
 * 16-bit store, and the one multi-word change (ftrace_call) uses the
 * trap-and-emulate protocol, so nothing needs stop_machine() with
 * interrupts off for the whole update.  ftrace_patch_stop_machine=1 on
 * the command line selects the generic stop_machine() path instead, for
 * comparison.
 */
static bool ftrace_patch_stop_machine;

static int __init ftrace_patch_stop_machine_setup(char *str)
{
	ftrace_patch_stop_machine = true;
	return 1;
}
__setup("ftrace_patch_stop_machine", ftrace_patch_stop_machine_setup);

void arch_ftrace_update_code(int command)
{
	if (ftrace_patch_stop_machine)
		ftrace_run_stop_machine(command);
	else
		ftrace_modify_all_code(command);
}

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
extern void ftrace_graph_call(void);

int ftrace_enable_ftrace_graph_caller(void)
{
	return m68k_ftrace_flip((unsigned long)&ftrace_graph_call,
				M68K_INSN_TRAPF_L, M68K_INSN_BRA_L,
				(unsigned long)&ftrace_graph_caller);
}

int ftrace_disable_ftrace_graph_caller(void)
{
	return m68k_ftrace_flip((unsigned long)&ftrace_graph_call,
				M68K_INSN_BRA_L, M68K_INSN_TRAPF_L,
				(unsigned long)&ftrace_graph_caller);
}
#endif /* CONFIG_FUNCTION_GRAPH_TRACER */
#endif /* CONFIG_DYNAMIC_FTRACE */

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/*
 * Called from ftrace_graph_caller with @parent pointing at the traced
 * function's return-address slot (4(%fp) of its frame) and @self_addr its
 * mcount call site.  If the graph core accepts the entry, the function
 * returns through return_to_handler, which asks the core for the real
 * return address.
 */
void prepare_ftrace_return(unsigned long *parent, unsigned long self_addr,
			   unsigned long frame_pointer)
{
	unsigned long old;

	if (unlikely(ftrace_graph_is_dead()))
		return;
	if (unlikely(atomic_read(&current->tracing_graph_pause)))
		return;

	old = *parent;
	if (!function_graph_enter(old, self_addr, frame_pointer, parent))
		*parent = (unsigned long)&return_to_handler;
}
#endif /* CONFIG_FUNCTION_GRAPH_TRACER */
