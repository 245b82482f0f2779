/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The common part of every optimized kprobe's buffer (opt.c): the jump
 * over the probe leads to "pea (op).l; jsr m68k_optprobe_caller", so
 * here 0(%sp) is where the buffer goes on (the copied instructions) and
 * 4(%sp) the optimized_kprobe; the probed code's %sp is 8(%sp).
 *
 * Build what the breakpoint exception would have: a struct pt_regs that
 * ends at the probed code's %sp (kernel_stack_pointer()), its exception
 * frame in the place of those two longs, with the probed code's %sr
 * (the pc is the callback's to set), and under it a struct switch_stack
 * for the callee-saved registers (regs_get_register()).  The handlers
 * may change the registers in pt_regs: all are restored.  Then the
 * probed code's condition codes, which the copied instructions (or those
 * after them) may use: nothing here may change them before "move %sr"
 * has saved them, and nothing after "move ...,%ccr" (lea, movem and rts
 * leave them).  The return address of the jsr goes to the long below
 * the probed code's %sp, so that rts leaves %sp as the probed code had
 * it.
 *
 * Only what ColdFire has too: movem to (An) or (d16,An), %sr to a data
 * register, a data register to %ccr.
 */

#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/entry.h>

/* struct pt_regs: the exception frame last (see rethook_trampoline.S) */
#ifdef CONFIG_COLDFIRE
#define OPT_PT_SIZE	(PT_OFF_PC + 4)
#define OPT_FORMATVEC	0x4000
#else
#define OPT_PT_SIZE	(PT_OFF_FORMATVEC + 2)
#define OPT_FORMATVEC	0
#endif
/* the buffer's return address and op, in the exception frame's place */
#define OPT_RET		(OPT_PT_SIZE - 8)
#define OPT_OP		(OPT_PT_SIZE - 4)

	/* kprobes refuse .kprobes.text: no probe in a trampoline */
	.section .kprobes.text, "ax"
SYM_CODE_START(m68k_optprobe_caller)
	lea	%sp@(-OPT_RET),%sp	| pt_regs, up to the exception frame
	moveml	%d1-%d5/%a0-%a2,%sp@
	moveml	%d0,%sp@(PT_OFF_D0)
	movew	%sr,%d0			| the condition codes are safe from here
	moveal	%sp@(OPT_RET),%a1	| where the buffer goes on
	moveal	%sp@(OPT_OP),%a0	| the optimized_kprobe
	movew	%d0,%sp@(PT_OFF_SR)
	movew	#OPT_FORMATVEC,%d0
	movew	%d0,%sp@(PT_OFF_FORMATVEC)
	moveq	#-1,%d0			| not a system call
	movel	%d0,%sp@(PT_OFF_ORIG_D0)
	clrl	%sp@(PT_OFF_STKADJ)
	movel	%a1,%sp@-		| switch_stack.retpc: kept here
	SAVE_SWITCH_STACK
	pea	%sp@(SWITCH_STACK_SIZE)	| struct pt_regs *
	movel	%a0,%sp@-
	jbsr	m68k_optprobe_callback
	addql	#8,%sp
	RESTORE_SWITCH_STACK
	moveal	%sp@+,%a1		| switch_stack.retpc
	movel	%a1,%sp@(OPT_OP)	| the long below the probed code's %sp
	movew	%sp@(PT_OFF_SR),%d0
	movew	%d0,%ccr
	moveml	%sp@(PT_OFF_D0),%d0
	moveml	%sp@,%d1-%d5/%a0-%a2
	lea	%sp@(OPT_OP),%sp
	rts				| to the copied instructions
SYM_CODE_END(m68k_optprobe_caller)
