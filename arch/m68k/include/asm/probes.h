/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kprobes and uprobes share on m68k: the breakpoint, the size of an
 * instruction and of its out-of-line copy, and the status register's trace
 * bits that single-step the copy.  What to do with a given instruction is
 * the decoder's answer, arch/m68k/kernel/probes/decode-insn.h.
 */
#ifndef _ASM_M68K_PROBES_H
#define _ASM_M68K_PROBES_H

/*
 * The breakpoint, and the exception vector it raises with the PC at the
 * instruction.  On the 680x0 a line-A opcode: every 680x0 takes it as an
 * unimplemented instruction (vector 10), and Linux gives line-A no
 * meaning, in the kernel or in user space (where it is SIGILL).  (bkpt
 * would do on real CPUs, but QEMU before 8.0 stops the whole machine on it
 * in system mode.)  On ColdFire line A is the MAC/EMAC unit's (0xa000 is a
 * mac.w on the 5208) and there is no bkpt: the breakpoint is the illegal
 * opcode (vector 4), which the text patcher also writes over a call site
 * in flight; the trap handler asks the patcher first.
 */
#ifdef CONFIG_COLDFIRE
#define M68K_PROBE_BKPT		0x4afc
#define M68K_PROBE_VEC		4	/* VEC_ILLEGAL */
#else
#define M68K_PROBE_BKPT		0xa000
#define M68K_PROBE_VEC		10	/* VEC_LINE10 */
#endif
#define M68K_PROBE_BKPT_SIZE	2

/* bytes: the longest 68020-060 integer or FPU instruction (ColdFire: 6) */
#define M68K_INSN_MAX_LEN	22
/*
 * bytes: room for the copy to step.  Making a PC-relative operand absolute
 * lengthens an instruction by up to 4 bytes; the decoder refuses a copy
 * that would not fit.  The trace exception ends the step: nothing follows.
 */
#define M68K_INSN_SLOT_LEN	32

/*
 * SR: T1 traces every instruction, T0 (68020/030) every change of flow.
 * ColdFire's one trace bit, T, is T1's.
 */
#define M68K_SR_T1		0x8000
#define M68K_SR_T0		0x4000
#define M68K_SR_TRACE		(M68K_SR_T1 | M68K_SR_T0)

#endif /* _ASM_M68K_PROBES_H */
