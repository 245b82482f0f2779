// SPDX-License-Identifier: GPL-2.0
/*
 * Function tracer support for m68k.
 *
 * The entry points are in mcount.S and, for patchable function entries,
 * ftrace_entry.S; this file holds the C side of the function-graph
 * tracer and of dynamic ftrace.  Built without -pg: the
 * tracer must not trace itself.
 */

#include <linux/ftrace.h>
#include <linux/memory.h>
#include <linux/sched.h>
#include <linux/stop_machine.h>
#include <linux/uaccess.h>
#include <linux/text-patching.h>

#ifdef CONFIG_DYNAMIC_FTRACE
/*
 * A call site is the compiler's 6-byte call (bsr.l, or jsr abs.l on
 * ColdFire V2) or the trapf.l no-op that keeps the call's operand, so
 * turning a site on or off is one 16-bit store of its first word; only a
 * new target (ftrace_call) takes patching.c's three-step write.  With
 * patchable function entries ftrace_init_nop() turns the compiler's nops
 * into that no-op; with call ops the two words before the function hold
 * the site's ftrace_ops.  The encodings and why they were chosen:
 * Documentation/arch/m68k/ftrace.rst.
 */

#ifdef CONFIG_COLDFIRE
#define M68K_FTRACE_CALL	M68K_INSN_JSR_ABS
#define M68K_FTRACE_JUMP	M68K_INSN_JMP_ABS

/* the 32-bit operand of a call or jump at @ip to @target */
static inline u32 m68k_ftrace_operand(unsigned long ip, unsigned long target)
{
	return target;
}
#else
#define M68K_FTRACE_CALL	M68K_INSN_BSR_L
#define M68K_FTRACE_JUMP	M68K_INSN_BRA_L

static inline u32 m68k_ftrace_operand(unsigned long ip, unsigned long target)
{
	return target - (ip + 2);
}
#endif

/*
 * Rewrite the site at @ip from the instruction @old_op (to @old_target) to
 * @new_op (to @new_target), after checking that it is the old one.  With
 * call ops, @ops (not NULL) goes into the site's slot first, so a call
 * that the new instruction makes finds it.
 */
static int notrace m68k_ftrace_modify(unsigned long ip,
				      u16 old_op, unsigned long old_target,
				      u16 new_op, unsigned long new_target,
				      const struct ftrace_ops *ops)
{
	u32 disp = m68k_ftrace_operand(ip, old_target);
	size_t len = 2;
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
	if (ops && m68k_patch_data32((void *)(ip - 4), (unsigned long)ops))
		return -EPERM;
	if (new_op == old_op && new_target == old_target)
		return 0;		/* only the site's ops changed */
	insn[0] = new_op;
	if (new_target != old_target) {
		/*
		 * A direct trampoline: the displacement changes too, a
		 * three-step write.  No PC can be inside the site (it is one
		 * instruction), and one reaching it meanwhile traps and runs
		 * the new instruction.
		 */
		disp = m68k_ftrace_operand(ip, new_target);
		insn[1] = disp >> 16;
		insn[2] = disp;
		len = sizeof(insn);
	}
	if (m68k_patch_text((void *)ip, insn, len))
		return -EPERM;
	return 0;
}

/* with call ops, the ops a traced site calls: its only one, or the list */
static const struct ftrace_ops *m68k_ftrace_rec_ops(struct dyn_ftrace *rec)
{
	const struct ftrace_ops *ops = NULL;

	if (!IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS))
		return NULL;
	if (rec->flags & FTRACE_FL_CALL_OPS_EN) {
		ops = ftrace_find_unique_ops(rec);
		WARN_ON_ONCE(!ops);
	}
	return ops ?: &ftrace_list_ops;
}

/* with call ops, the ops of a site that is off */
static const struct ftrace_ops *m68k_ftrace_nop_ops(void)
{
	if (!IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS))
		return NULL;
	return &ftrace_nop_ops;
}

/*
 * The no-op form always keeps FTRACE_ADDR's displacement.  A site may
 * call another target, a direct trampoline (DYNAMIC_FTRACE_WITH_DIRECT_CALLS):
 * switching between the no-op and such a call rewrites the whole site.
 */
int ftrace_make_nop(struct module *mod, struct dyn_ftrace *rec,
		    unsigned long addr)
{
	return m68k_ftrace_modify(rec->ip, M68K_FTRACE_CALL, addr,
				  M68K_INSN_TRAPF_L, FTRACE_ADDR,
				  m68k_ftrace_nop_ops());
}

int ftrace_make_call(struct dyn_ftrace *rec, unsigned long addr)
{
	return m68k_ftrace_modify(rec->ip, M68K_INSN_TRAPF_L, FTRACE_ADDR,
				  M68K_FTRACE_CALL, addr,
				  m68k_ftrace_rec_ops(rec));
}

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_REGS
/*
 * Retarget a traced site: ftrace_caller <-> a direct trampoline, or, with
 * call ops, only its ops (old_addr == addr: the call stays as it is).
 */
int ftrace_modify_call(struct dyn_ftrace *rec, unsigned long old_addr,
		       unsigned long addr)
{
	return m68k_ftrace_modify(rec->ip, M68K_INSN_BSR_L, old_addr,
				  M68K_INSN_BSR_L, addr, m68k_ftrace_rec_ops(rec));
}
#endif

#ifdef CONFIG_FTRACE_MCOUNT_USE_PATCHABLE_FUNCTION_ENTRY
/*
 * Called once per site: at boot from ftrace_init(), with interrupts still
 * disabled, and for a module from load_module() before any of its code
 * runs.  Nothing can be executing the site, so the three words are simply
 * written (and the instruction cache flushed), not through the patcher's
 * trap-and-emulate protocol: a module's sites are written without
 * text_mutex, which that protocol needs.
 */
int ftrace_init_nop(struct module *mod, struct dyn_ftrace *rec)
{
	static const u16 nops[3] = {
		M68K_INSN_NOP, M68K_INSN_NOP, M68K_INSN_NOP
	};
	unsigned long ip = rec->ip;
	u32 disp = FTRACE_ADDR - (ip + 2);
	u16 insn[3] = { M68K_INSN_TRAPF_L, disp >> 16, (u16)disp };
	u16 cur[3];

	if (copy_from_kernel_nofault(cur, (void *)ip, sizeof(cur)))
		return -EFAULT;
	if (memcmp(cur, nops, sizeof(cur))) {
		ftrace_expected = nops;
		return -EINVAL;
	}
	if (IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS)) {
		/* the slot: two more nops just before the function */
		if (copy_from_kernel_nofault(cur, (void *)(ip - 4), 4))
			return -EFAULT;
		if (memcmp(cur, nops, 4)) {
			pr_err("ftrace: no ftrace_ops slot before %pS: %04x %04x\n",
			       (void *)ip, cur[0], cur[1]);
			return -EINVAL;
		}
		if (m68k_patch_data32((void *)(ip - 4),
				      (unsigned long)&ftrace_nop_ops))
			return -EPERM;
	}
	if (m68k_patch_copy((void *)ip, insn, sizeof(insn)))
		return -EPERM;
	return 0;
}
#endif /* CONFIG_FTRACE_MCOUNT_USE_PATCHABLE_FUNCTION_ENTRY */

int ftrace_update_ftrace_func(ftrace_func_t func)
{
	unsigned long ip = (unsigned long)&ftrace_call;
	u32 disp = m68k_ftrace_operand(ip, (unsigned long)func);
	u16 insn[3] = { M68K_FTRACE_CALL, disp >> 16, (u16)disp };
	u16 cur;

	/* with call ops, ftrace_caller calls the function of the site's ops */
	if (IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS))
		return 0;
	if (copy_from_kernel_nofault(&cur, (void *)ip, sizeof(cur)))
		return -EFAULT;
	if (cur != M68K_FTRACE_CALL)
		return -EINVAL;
	return m68k_patch_text((void *)ip, insn, sizeof(insn));
}

/*
 * Patch with interrupts enabled: every call-site change is one atomic
 * 16-bit store, and the one multi-word change (ftrace_call) uses the
 * trap-and-emulate protocol, so nothing needs stop_machine() with
 * interrupts off for the whole update.  ftrace_patch_stop_machine on the
 * command line selects the generic stop_machine() path instead: when
 * turning a tracer on or off misbehaves, it tells whether the
 * interrupts-on path is at fault.
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

/*
 * Every update holds text_mutex, the lock of all writers of kernel text:
 * the patcher has one multi-word site in flight at a time (patching.c),
 * and a writer can be preempted in the middle of one (ColdFire kernels
 * can be preemptible).  Without SMP, stop_machine() runs its callback in
 * this same task.
 */
void ftrace_arch_code_modify_prepare(void)
	__acquires(&text_mutex)
{
	mutex_lock(&text_mutex);
}

void ftrace_arch_code_modify_post_process(void)
	__releases(&text_mutex)
{
	mutex_unlock(&text_mutex);
}

#if defined(CONFIG_FUNCTION_GRAPH_TRACER) && \
	!defined(CONFIG_DYNAMIC_FTRACE_WITH_ARGS)
extern void ftrace_graph_call(void);

int ftrace_enable_ftrace_graph_caller(void)
{
	unsigned long target = (unsigned long)&ftrace_graph_caller;

	return m68k_ftrace_modify((unsigned long)&ftrace_graph_call,
				  M68K_INSN_TRAPF_L, target,
				  M68K_FTRACE_JUMP, target, NULL);
}

int ftrace_disable_ftrace_graph_caller(void)
{
	unsigned long target = (unsigned long)&ftrace_graph_caller;

	return m68k_ftrace_modify((unsigned long)&ftrace_graph_call,
				  M68K_FTRACE_JUMP, target,
				  M68K_INSN_TRAPF_L, target, NULL);
}
#endif /* CONFIG_FUNCTION_GRAPH_TRACER && !CONFIG_DYNAMIC_FTRACE_WITH_ARGS */
#endif /* CONFIG_DYNAMIC_FTRACE */

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/*
 * Enter the function graph for the function whose return-address slot is
 * @parent and whose call site is @self_addr.  If the graph core accepts
 * the entry, the function returns through return_to_handler, which asks
 * the core for the real return address.  @fregs, the entry registers, is
 * NULL from the mcount sites, which save none.
 */
static void m68k_graph_enter(unsigned long *parent, unsigned long self_addr,
			     unsigned long frame_pointer,
			     struct ftrace_regs *fregs)
{
	unsigned long old;

	if (unlikely(ftrace_graph_is_dead()))
		return;
	if (unlikely(atomic_read(&current->tracing_graph_pause)))
		return;

	old = *parent;
	if (!function_graph_enter_regs(old, self_addr, frame_pointer, parent,
				       fregs))
		*parent = (unsigned long)&return_to_handler;
}

/* called from ftrace_graph_caller (mcount sites) */
void prepare_ftrace_return(unsigned long *parent, unsigned long self_addr,
			   unsigned long frame_pointer)
{
	m68k_graph_enter(parent, self_addr, frame_pointer, NULL);
}

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_ARGS
/*
 * The function-graph tracer as an ftrace_ops callback of the entry
 * trampoline: the traced function's return address is at its entry stack
 * pointer, which is also just below the stack pointer it returns with.
 */
void ftrace_graph_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	unsigned long *parent;

	parent = (unsigned long *)ftrace_regs_get_stack_pointer(fregs);
	m68k_graph_enter(parent, ip, (unsigned long)(parent + 1), fregs);
}
#endif /* CONFIG_DYNAMIC_FTRACE_WITH_ARGS */
#endif /* CONFIG_FUNCTION_GRAPH_TRACER */
