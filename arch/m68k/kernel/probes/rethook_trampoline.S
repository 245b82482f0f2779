/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The return trampoline of rethook (kretprobes, fprobe exit handlers):
 * a hooked function's rts lands here, with %sp one long above the slot
 * that held its return address (see rethook.c).
 *
 * Build, from the top down: that slot again, holding this trampoline's
 * address until the handler writes the real return address into it; the
 * caller's %a6, which with the slot makes a frame record for the
 * unwinder; a format-0 exception frame (%pc = the trampoline, %sr); the
 * rest of a struct pt_regs as the trap entry saves it; and a struct
 * switch_stack, so that handlers see every register, as a kprobe handler
 * does.  The handlers may change the saved registers: all of them are
 * restored, then rts goes to the real return address.
 */

#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/entry.h>

/* from %sp after SAVE_SWITCH_STACK: struct pt_regs, and the frame record */
#define RT_REGS		SWITCH_STACK_SIZE
#define RT_RECORD	(SWITCH_STACK_SIZE + PT_OFF_FORMATVEC + 2)

	.text
SYM_CODE_START(arch_rethook_trampoline)
	pea	arch_rethook_trampoline	| the return address slot
	movel	%a6,%sp@-		| frame record: {caller's %a6, slot}
	clrw	%sp@-			| format 0, vector 0
	pea	arch_rethook_trampoline	| pc
	movew	%sr,%sp@-		| sr
	SAVE_ALL_INT
	subql	#4,%sp			| switch_stack.retpc, unused
	SAVE_SWITCH_STACK
	lea	%sp@(RT_RECORD),%a6	| the handlers' frames chain to the record
	pea	%sp@(RT_REGS)		| struct pt_regs *
	jbsr	arch_rethook_trampoline_callback
	addql	#4,%sp
	RESTORE_SWITCH_STACK		| %a6 too
	addql	#4,%sp
	moveml	%sp@+,%d1-%d5/%a0-%a2
	movel	%sp@+,%d0
	lea	%sp@(20),%sp		| orig_d0, stkadj, sr, pc, format, %a6
	rts
SYM_CODE_END(arch_rethook_trampoline)
