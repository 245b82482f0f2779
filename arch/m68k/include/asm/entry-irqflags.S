/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interrupt-state tracking (TRACE_IRQFLAGS) for the exception entry code,
 * included by the entry code that reports to it (kernel/entry.S,
 * coldfire/entry.S) after asm/asm-offsets.h and asm/entry.h.
 *
 * For tracing, interrupts are "disabled" exactly when
 * arch_irqs_disabled_flags(SR) says so: the interrupt priority mask is
 * above 0.  The hardware changes the mask behind the kernel's back in two
 * places only: taking an interrupt raises it to the interrupt's level, and
 * the rte at the end of every exception reloads it from the saved SR.
 * Exceptions that are not interrupts leave the mask as it was.  So:
 *
 *  - every interrupt entry calls trace_hardirqs_off();
 *  - the return to user mode, which lowers the mask to 0 before the
 *    exit work, calls trace_hardirqs_on() first;
 *  - the return to kernel mode calls trace_hardirqs_on() when the SR the
 *    rte restores has the mask at 0, and leaves the state alone when it
 *    restores a raised mask (a nested interrupt returning to a handler,
 *    or code that had interrupts disabled).
 *
 * The hooks find their caller's caller through the frame-pointer chain,
 * so give them a frame whose return address is the interrupted PC.  The
 * chain continues into interrupted kernel code; it ends here for user
 * mode, whose %a6 and PC mean nothing to the kernel (with no caller's
 * caller, the irqsoff tracer names the hook's call site instead of a
 * user address).  Expects %sp to point at pt_regs; clobbers
 * %d0/%d1/%a0/%a1 (saved in pt_regs).  Only instructions ColdFire has
 * too, so that its entry code can share the hooks.
 */

#ifdef CONFIG_TRACE_IRQFLAGS
.macro	trace_irqs_hook func
	movel	%fp,%sp@-		/* the interrupted %a6, restored below */
	movel	%sp@(PT_OFF_PC+4),%sp@-	/* frame: return address */
	movel	%fp,%sp@-		/* frame: caller's frame */
	btst	#5,%sp@(PT_OFF_SR+12)	/* interrupted in kernel mode? */
	jne	.Lkeep_chain\@
	clrl	%sp@
	clrl	%sp@(4)
.Lkeep_chain\@:
	movel	%sp,%fp
	jbsr	\func
	addql	#8,%sp
	movel	%sp@+,%fp
.endm
#define TRACE_IRQS_OFF		trace_irqs_hook trace_hardirqs_off
#define TRACE_IRQS_ON		trace_irqs_hook trace_hardirqs_on
/* trace_hardirqs_on() if the SR that rte will restore enables interrupts */
.macro	trace_irqs_rte
	movew	%sp@(PT_OFF_SR),%d0
	andl	#~ALLOWINT,%d0
	jne	.Lstays_off\@
	TRACE_IRQS_ON
.Lstays_off\@:
.endm
#define TRACE_IRQS_RTE		trace_irqs_rte
#else
#define TRACE_IRQS_OFF
#define TRACE_IRQS_ON
#define TRACE_IRQS_RTE
#endif /* CONFIG_TRACE_IRQFLAGS */
