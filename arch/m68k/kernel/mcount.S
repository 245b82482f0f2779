/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function tracer entry points for m68k.
 *
 * gcc -pg, with the frame pointers the function tracer requires, starts
 * every traced function with
 *
 *	movel %fp,%sp@- ; movel %sp,%fp	(or link %fp,#-n)
 *	[callee-saved register saves]
 *	bsr.l _mcount			(6 bytes: MCOUNT_INSN_SIZE)
 *
 * so when the call lands here:
 *
 *	0(%sp)	return address into the traced function: call site + 6
 *	%fp	the traced function's frame; 4(%fp) is its return address
 *		into its caller, 0(%fp) its caller's %fp
 *
 * Arguments are passed on the stack, but %d0/%d1/%a0/%a1 may still be
 * live (%a1 carries the struct-return address), so the slow paths save
 * them.  The fast path, with no tracer, touches no register at all.
 *
 * The slow paths open a frame of their own ("link"), so a stack trace
 * taken inside a tracer callback runs through the traced function.
 *
 * ColdFire (ISA_A) has no bsr.l (gcc calls "jsr _mcount", also 6 bytes),
 * no movem with predecrement or postincrement and no compare of memory
 * with an immediate: the macros below give both instruction sets their
 * own form, and on ColdFire the fast path saves and restores %a0.
 *
 * With -fpatchable-function-entry the call sites are at function entry
 * instead and ftrace_caller/ftrace_graph_caller are in ftrace_entry.S;
 * ftrace_stub and return_to_handler, here, serve both.
 */

#include <linux/export.h>
#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/ftrace.h>

/* Save and restore the registers the traced function may still need. */
.macro	save_scratch
#ifdef CONFIG_COLDFIRE
	lea	%sp@(-16),%sp
	moveml	%d0-%d1/%a0-%a1,%sp@
#else
	moveml	%d0-%d1/%a0-%a1,%sp@-
#endif
.endm

.macro	restore_scratch
#ifdef CONFIG_COLDFIRE
	moveml	%sp@,%d0-%d1/%a0-%a1
	lea	%sp@(16),%sp
#else
	moveml	%sp@+,%d0-%d1/%a0-%a1
#endif
.endm

/*
 * Set the condition codes for a compare of the function pointer at \ptr
 * with \stub.  ColdFire compares in %a0, saved around it: movea leaves
 * the condition codes alone.
 */
.macro	cmp_func ptr, stub
#ifdef CONFIG_COLDFIRE
	movel	%a0,%sp@-
	moveal	\ptr,%a0
	cmpal	#\stub,%a0
	moveal	%sp@+,%a0
#else
	cmpil	#\stub,\ptr
#endif
.endm

/*
 * Enter/leave a tracer callback: open a frame, save the registers the
 * traced function may still need, and push the arguments
 * (ip, parent_ip, op, fregs) of ftrace_func_t.
 */
.macro	tracer_call_enter
	link	%fp,#0
	save_scratch
	clrl	%sp@-			| fregs: none
	movel	function_trace_op,%sp@-	| op
	movel	%fp@,%a0		| the traced function's frame
	movel	%a0@(4),%sp@-		| parent_ip: its return address
	movel	%fp@(4),%d0
	subql	#MCOUNT_INSN_SIZE,%d0
	movel	%d0,%sp@-		| ip: the call site
.endm

.macro	tracer_call_leave
	lea	%sp@(16),%sp
	restore_scratch
	unlk	%fp
.endm

	/* kprobes refuse .kprobes.text: no probe in a trampoline */
	.section .kprobes.text, "ax"

SYM_FUNC_START(ftrace_stub)
	rts
SYM_FUNC_END(ftrace_stub)

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
SYM_FUNC_START(ftrace_stub_graph)
	rts
SYM_FUNC_END(ftrace_stub_graph)
#endif

#ifndef CONFIG_DYNAMIC_FTRACE

SYM_FUNC_START(_mcount)
	cmp_func ftrace_trace_function, ftrace_stub
	jne	.Lcall_tracer
.Lcheck_graph:
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	cmp_func ftrace_graph_return, ftrace_stub_graph
	jne	ftrace_graph_caller
	cmp_func ftrace_graph_entry, ftrace_graph_entry_stub
	jne	ftrace_graph_caller
#endif
	rts

.Lcall_tracer:
	tracer_call_enter
	movel	ftrace_trace_function,%a0
	jsr	%a0@
	tracer_call_leave
	jra	.Lcheck_graph
SYM_FUNC_END(_mcount)
EXPORT_SYMBOL(_mcount)

#endif /* !CONFIG_DYNAMIC_FTRACE */

#if defined(CONFIG_DYNAMIC_FTRACE) && \
	!defined(CONFIG_FTRACE_MCOUNT_USE_PATCHABLE_FUNCTION_ENTRY)
/*
 * Dynamic ftrace (see ftrace.c for the call-site encodings): boot turns
 * every "bsr.l _mcount" into a no-op, and tracing a function turns it back
 * into the same call, so _mcount is this function.  The callback is
 * called through the patchable ftrace_call; ftrace_graph_call is a no-op
 * or a bra.l to ftrace_graph_caller.
 */
SYM_FUNC_START(ftrace_caller)
	.globl	_mcount
_mcount:
	tracer_call_enter
	.globl	ftrace_call
ftrace_call:
#ifdef CONFIG_COLDFIRE
	.short	0x4eb9			| jsr abs.l, whatever gas would pick:
	.long	ftrace_stub		| ftrace_update_ftrace_func() sets the target
#else
	bsrl	ftrace_stub		| ftrace_update_ftrace_func() sets the target
#endif
	tracer_call_leave
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	.globl	ftrace_graph_call
ftrace_graph_call:
#ifdef CONFIG_COLDFIRE
	.short	0x51fb			| tpf.l, or jmp abs.l (0x4ef9) when enabled:
	.long	ftrace_graph_caller	| the address stays the same
#else
	.short	0x51fb			| trapf.l, or bra.l (0x60ff) when enabled:
	.long	ftrace_graph_caller - .	| the displacement stays the same
#endif
#endif
	rts
SYM_FUNC_END(ftrace_caller)
EXPORT_SYMBOL(_mcount)
#endif /* CONFIG_DYNAMIC_FTRACE with mcount call sites */

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
#ifndef CONFIG_FTRACE_MCOUNT_USE_PATCHABLE_FUNCTION_ENTRY
/*
 * Reached from _mcount (or ftrace_caller) with the stack as _mcount found
 * it: replace the traced function's return address with return_to_handler.
 *
 * The frame-pointer test value is the stack pointer the traced function
 * will return with, just above its return-address slot; return_to_handler
 * passes the %sp it is entered with, which must be the same.
 */
SYM_FUNC_START(ftrace_graph_caller)
	link	%fp,#0
	save_scratch
	movel	%fp@,%a0		| the traced function's frame
	pea	%a0@(8)			| frame_pointer
	movel	%fp@(4),%d0
	subql	#MCOUNT_INSN_SIZE,%d0
	movel	%d0,%sp@-		| self_addr: the call site
	pea	%a0@(4)			| parent: its return-address slot
	jbsr	prepare_ftrace_return
	lea	%sp@(12),%sp
	restore_scratch
	unlk	%fp
	rts
SYM_FUNC_END(ftrace_graph_caller)
#endif /* !CONFIG_FTRACE_MCOUNT_USE_PATCHABLE_FUNCTION_ENTRY */

/*
 * A traced function "returns" here.  Its return value is in %d0, %d0/%d1
 * (64-bit) or %a0 (pointers): keep all three in a struct ftrace_regs
 * (asm/ftrace.h) on the stack, a pt_regs ending at the stack pointer we
 * are entered with, which is the frame-pointer test value; %sr = 0 says
 * it is no full pt_regs.  The core reads the return value
 * (funcgraph-retval) and the test value while it looks up the real
 * return address, which goes into the pt_regs' last word, unused here:
 * return there with the three registers restored.
 */
SYM_FUNC_START(return_to_handler)
	lea	%sp@(-FREGS_SIZE),%sp
	movel	%d0,%sp@(FREGS_D0)
	movel	%d1,%sp@(FREGS_D1)
	movel	%a0,%sp@(FREGS_A0)
	clrw	%sp@(FREGS_SR)
	movel	%sp,%sp@-		| fregs
	jbsr	ftrace_return_to_handler
	addql	#4,%sp
	movel	%d0,%sp@(FREGS_SIZE-4)
	movel	%sp@(FREGS_D0),%d0
	movel	%sp@(FREGS_D1),%d1
	movel	%sp@(FREGS_A0),%a0
	lea	%sp@(FREGS_SIZE-4),%sp
	rts
SYM_FUNC_END(return_to_handler)
#endif /* CONFIG_FUNCTION_GRAPH_TRACER */
