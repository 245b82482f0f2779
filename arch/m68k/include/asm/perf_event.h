/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf events on m68k: software and tracepoint events only.  The 680x0
 * processors have no performance monitoring unit, so there is no hardware
 * PMU driver and no hardware event.
 */
#ifndef _ASM_M68K_PERF_EVENT_H
#define _ASM_M68K_PERF_EVENT_H

#include <asm/ptrace.h>

/*
 * The registers of an event raised in line (software events, tracepoints):
 * where it was raised, and a supervisor status register so that it counts
 * as kernel mode.  perf_callchain_kernel() finds the stack from pc.
 */
static inline void perf_arch_fetch_caller_regs(struct pt_regs *regs,
					       unsigned long ip)
{
	regs->pc = ip;
	regs->sr = PS_S;
}

#define perf_arch_fetch_caller_regs perf_arch_fetch_caller_regs

#endif /* _ASM_M68K_PERF_EVENT_H */
