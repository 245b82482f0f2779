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
 * %d0/%d1/%a0/%a1 are caller-saved, but the caller may still need them
 * after the traced function - and %a1 carries the struct-return address
 * into it - so they are saved around every C call; the C code saves the
 * rest.  No register, and no stack word above the entry %sp, changes
 * unless the graph tracer replaces the return address at 4(%sp).
 *
 * With CONFIG_FRAME_POINTER the traced function has no frame yet, so
 * ftrace_caller builds two frame records: one for the traced function
 * (the caller's %fp, its return address) and one for itself (site + 6),
 * so a stack trace taken in a callback names the traced function, its
 * caller and the caller's callers.  Without frame pointers the stack
 * walker scans the stack and finds the two return addresses as they are.
 */

#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/ftrace.h>

#ifdef CONFIG_FRAME_POINTER
#define FTRACE_FRAMES	16		/* two frame records */
#else
#define FTRACE_FRAMES	0
#endif

/* saved %d0/%d1/%a0/%a1 */
#define FTRACE_SAVED	16

	.text

SYM_FUNC_START(ftrace_caller)
#ifdef CONFIG_FRAME_POINTER
	movel	%sp@(4),%sp@-		| the traced function's record:
	movel	%fp,%sp@-		|   { caller's %fp, return into caller }
	movel	%sp@(8),%sp@-		| ours: { the record above, site + 6 }
	pea	%sp@(4)
	movel	%sp,%fp
#endif
	moveml	%d0-%d1/%a0-%a1,%sp@-
	clrl	%sp@-			| fregs: none yet
	movel	function_trace_op,%sp@-	| op
	movel	%sp@(8+FTRACE_SAVED+FTRACE_FRAMES+4),%sp@-	| parent_ip
	movel	%sp@(12+FTRACE_SAVED+FTRACE_FRAMES),%d0
	subql	#MCOUNT_INSN_SIZE,%d0
	movel	%d0,%sp@-		| ip: the call site
	.globl	ftrace_call
ftrace_call:
	bsrl	ftrace_stub		| ftrace_update_ftrace_func() sets the target
	lea	%sp@(16),%sp
	moveml	%sp@+,%d0-%d1/%a0-%a1
#ifdef CONFIG_FRAME_POINTER
	movel	%sp@(8),%fp		| the caller's %fp
	lea	%sp@(FTRACE_FRAMES),%sp
#endif
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	.globl	ftrace_graph_call
ftrace_graph_call:
	.short	0x51fb			| trapf.l, or bra.l (0x60ff) when enabled:
	.long	ftrace_graph_caller - .	| the displacement stays the same
#endif
	rts
SYM_FUNC_END(ftrace_caller)

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/*
 * Reached from ftrace_graph_call with the stack as ftrace_caller found it:
 * hand the graph core the traced function's return-address slot, 4(%sp),
 * which it replaces with return_to_handler.  The frame-pointer test value
 * is the stack pointer the function returns with, just above that slot:
 * what return_to_handler is entered with.
 */
SYM_FUNC_START(ftrace_graph_caller)
	moveml	%d0-%d1/%a0-%a1,%sp@-
	pea	%sp@(FTRACE_SAVED+8)	| frame_pointer
	movel	%sp@(4+FTRACE_SAVED),%d0
	subql	#MCOUNT_INSN_SIZE,%d0
	movel	%d0,%sp@-		| self_addr: the call site
	pea	%sp@(8+FTRACE_SAVED+4)	| parent: the return-address slot
	jbsr	prepare_ftrace_return
	lea	%sp@(12),%sp
	moveml	%sp@+,%d0-%d1/%a0-%a1
	rts
SYM_FUNC_END(ftrace_graph_caller)
#endif /* CONFIG_FUNCTION_GRAPH_TRACER */
