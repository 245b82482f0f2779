/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function tracer entry for call sites at function entry
 * (-fpatchable-function-entry=3, CONFIG_FTRACE_MCOUNT_USE_PATCHABLE_FUNCTION_ENTRY).
 *
 * gcc starts every traced function with three 2-byte nops, before the
 * prologue and whether or not frame pointers are on.  Boot (and module
 * load) turn them into one 6-byte no-op, and tracing the function turns
 * that into "bsr.l ftrace_caller" (see ftrace.c for the encodings).  The
 * traced function has not run a single instruction when the call lands
 * here, so:
 *
 *	0(%sp)	return address into the traced function: site + 6
 *	4(%sp)	the traced function's return address into its caller
 *	8(%sp)	its first argument (all arguments are on the stack)
 *
 * ftrace_caller serves every ftrace_ops, with or without
 * FTRACE_OPS_FL_SAVE_REGS (FTRACE_REGS_ADDR == FTRACE_ADDR): it saves the
 * traced function's entry state as an exception would, a struct pt_regs
 * (format 0) ending where the function's stack begins, so that
 * kernel_stack_pointer() of it is the function's entry %sp, with the
 * struct switch_stack that the kprobe trap entry also saves below it
 * (%d6, %d7, %a3-%a6 for regs_get_register()).  Offsets from the lowest
 * saved word, E being the entry %sp of the traced function:
 *
 *	  0	switch_stack: %d6 %d7 %a3 %a4 %a5 %a6, retpc = site + 6
 *	 28	pt_regs: %d1-%d5 %a0-%a2 (+0), %d0 (+32), orig_d0 = -1,
 *		stkadj (the direct trampoline, 0 if none), %sr (+44),
 *		pc = site + 6 (+46), format/vector 0 (+50)
 *	 80	E: return address into the caller; 84 = E + 4: argument 1
 *
 * Our own return address (site + 6) was at E - 4, inside pt_regs: it is
 * read before pt_regs is written over it.  The callback gets the pt_regs
 * as its ftrace_regs, and may change it: every register is reloaded from
 * it, and the traced function continues at regs->pc (site + 6, unless a
 * callback moved it, e.g. livepatch or a kprobe handler), with the stack
 * as it was at the function's entry.  A direct trampoline set by
 * arch_ftrace_set_direct_caller() is entered instead, as if the site had
 * called it: 0(%sp) = regs->pc, 4(%sp) the return into the caller.
 *
 * With call ops (CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS) the ops is not
 * function_trace_op but the one in the slot the 4 bytes before the traced
 * function (site - 4, see ftrace.c), and ftrace_caller calls its func: a
 * site traced by one ops reaches it without ftrace_ops_list_func().
 *
 * The function-graph tracer is an ftrace_ops callback like any other here
 * (ftrace_graph_func() in ftrace.c): it replaces the return address at E.
 *
 * With CONFIG_FRAME_POINTER the traced function has no frame yet, so
 * ftrace_caller also builds two frame records below the switch_stack: one
 * for the traced function (the caller's %fp, its return address) and one
 * for itself (site + 6), so a stack trace taken in a callback names the
 * traced function, its caller and the caller's callers.  Without frame
 * pointers the stack walker scans the stack and finds the return
 * addresses as they are.
 */

#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/entry.h>
#include <asm/ftrace.h>

#ifdef CONFIG_FRAME_POINTER
#define FTRACE_FRAMES	16		/* two frame records */
#else
#define FTRACE_FRAMES	0
#endif

/* the entry %sp of the traced function, from the switch_stack */
#define FRAME_SIZE	(SWITCH_STACK_SIZE + FREGS_SIZE)

	/* kprobes refuse .kprobes.text: no probe in a trampoline */
	.section .kprobes.text, "ax"

SYM_FUNC_START(ftrace_caller)
	lea	%sp@(-(FREGS_SIZE - 4)),%sp	| pt_regs, up to E
	moveml	%d1-%d5/%a0-%a2,%sp@
	movel	%d0,%sp@(PT_OFF_D0)
	movel	%sp@(FREGS_SIZE - 4),%d0	| site + 6, before pc covers it
	movel	%d0,%sp@(PT_OFF_PC)
	moveq	#-1,%d1
	movel	%d1,%sp@(PT_OFF_ORIG_D0)
	clrl	%sp@(PT_OFF_STKADJ)
	movew	%sr,%sp@(PT_OFF_SR)
	clrw	%sp@(PT_OFF_FORMATVEC)
	movel	%d0,%sp@-			| switch_stack.retpc
	moveml	%d6-%d7/%a3-%a6,%sp@-
#ifdef CONFIG_FRAME_POINTER
	movel	%sp@(FRAME_SIZE),%sp@-		| the traced function's record:
	movel	%fp,%sp@-			|   { caller's %fp, return into caller }
	movel	%d0,%sp@-			| ours: { the record above, site + 6 }
	pea	%sp@(4)
	movel	%sp,%fp
#endif
	pea	%sp@(FTRACE_FRAMES + SWITCH_STACK_SIZE)	| fregs: the pt_regs
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS
	movel	%d0,%a1
	movel	%a1@(-MCOUNT_INSN_SIZE - 4),%a1	| the site's ops, from its slot
	movel	%a1,%sp@-			| op
#else
	movel	function_trace_op,%sp@-		| op
#endif
	movel	%sp@(8 + FTRACE_FRAMES + FRAME_SIZE),%sp@-	| parent_ip
	subql	#MCOUNT_INSN_SIZE,%d0
	movel	%d0,%sp@-			| ip: the call site
	.globl	ftrace_call
ftrace_call:
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS
	movel	%a1@(FTRACE_OPS_FUNC),%a1
	jsr	%a1@			| op->func(ip, parent_ip, op, fregs)
#else
	bsrl	ftrace_stub		| ftrace_update_ftrace_func() sets the target
#endif
	lea	%sp@(16 + FTRACE_FRAMES),%sp
	moveml	%sp@+,%d6-%d7/%a3-%a6	| also the caller's %fp
	addql	#4,%sp			| retpc: %sp is the pt_regs
	movel	%sp@(PT_OFF_PC),%sp@(FREGS_SIZE - 4)	| where to continue
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
	movel	%sp@(PT_OFF_STKADJ),%d0
	jne	.Ldirect
#endif
	moveml	%sp@,%d1-%d5/%a0-%a2
	movel	%sp@(PT_OFF_D0),%d0
	lea	%sp@(FREGS_SIZE - 4),%sp
	rts

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
	/* "call" the direct trampoline from regs->pc */
.Ldirect:
	movel	%d0,%sp@(FREGS_SIZE - 8)
	moveml	%sp@,%d1-%d5/%a0-%a2
	movel	%sp@(PT_OFF_D0),%d0
	lea	%sp@(FREGS_SIZE - 8),%sp
	rts
#endif
SYM_FUNC_END(ftrace_caller)

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
/*
 * The direct trampoline that does nothing: entered as if called from the
 * site, it returns into the traced function.
 */
SYM_FUNC_START(ftrace_stub_direct_tramp)
	rts
SYM_FUNC_END(ftrace_stub_direct_tramp)
#endif
