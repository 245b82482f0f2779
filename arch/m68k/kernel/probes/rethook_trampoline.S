/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The return trampoline of rethook (kretprobes, fprobe exit handlers):
 * a hooked function's rts lands here, with %sp one long above the slot
 * that held its return address (see rethook.c).
 *
 * Build, from the top down: that slot again, holding this trampoline's
 * address until the handler writes the real return address into it; the
 * caller's %a6, which with the slot makes a frame record for the
 * unwinder; a struct pt_regs as the trap entry saves it, its exception
 * frame holding the trampoline as %pc and the current %sr; and a struct
 * switch_stack, so that handlers see every register, as a kprobe handler
 * does.  The handlers may change the saved registers: all of them are
 * restored, then rts goes to the real return address.
 *
 * The pt_regs is filled in by hand, with what ColdFire has too (no
 * movem with predecrement or postincrement, %sr only to a data
 * register): SAVE_ALL_INT would mask interrupts on ColdFire, and its
 * frame would need the exception the trampoline does not take.
 */

#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/entry.h>

/*
 * struct pt_regs ends with the exception frame: %sr, %pc, format/vector
 * on the 680x0 (format 0), format/vector, %sr, %pc on ColdFire (format 4:
 * %sp was long aligned).
 */
#ifdef CONFIG_COLDFIRE
#define RT_PT_SIZE	(PT_OFF_PC + 4)
#define RT_FORMATVEC	0x4000
#else
#define RT_PT_SIZE	(PT_OFF_FORMATVEC + 2)
#define RT_FORMATVEC	0
#endif

/* from %sp after SAVE_SWITCH_STACK: struct pt_regs, and the frame record */
#define RT_REGS		SWITCH_STACK_SIZE
#define RT_RECORD	(SWITCH_STACK_SIZE + RT_PT_SIZE)

	.text
SYM_CODE_START(arch_rethook_trampoline)
	pea	arch_rethook_trampoline	| the return address slot
	movel	%a6,%sp@-		| frame record: {caller's %a6, slot}
	lea	%sp@(-RT_PT_SIZE),%sp	| struct pt_regs
	moveml	%d1-%d5/%a0-%a2,%sp@
	movel	%d0,%sp@(PT_OFF_D0)
	moveq	#-1,%d0			| not a system call
	movel	%d0,%sp@(PT_OFF_ORIG_D0)
	clrl	%sp@(PT_OFF_STKADJ)
	movew	#RT_FORMATVEC,%d0
	movew	%d0,%sp@(PT_OFF_FORMATVEC)
	movew	%sr,%d0
	movew	%d0,%sp@(PT_OFF_SR)
	lea	arch_rethook_trampoline,%a0
	movel	%a0,%sp@(PT_OFF_PC)
	subql	#4,%sp			| switch_stack.retpc, unused
	SAVE_SWITCH_STACK
	lea	%sp@(RT_RECORD),%a6	| the handlers' frames chain to the record
	pea	%sp@(RT_REGS)		| struct pt_regs *
	jbsr	arch_rethook_trampoline_callback
	addql	#4,%sp
	RESTORE_SWITCH_STACK		| %a6 too
	addql	#4,%sp
	moveml	%sp@,%d1-%d5/%a0-%a2
	movel	%sp@(PT_OFF_D0),%d0
	lea	%sp@(RT_PT_SIZE + 4),%sp	| struct pt_regs, %a6
	rts
SYM_CODE_END(arch_rethook_trampoline)
