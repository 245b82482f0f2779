/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_M68K_TEXT_PATCHING_H
#define _ASM_M68K_TEXT_PATCHING_H

#include <linux/types.h>

struct pt_regs;

/*
 * Instruction words the patcher knows how to emulate while a site is in
 * flight (see arch/m68k/kernel/patching.c).  All are 6 bytes long.
 */
#define M68K_INSN_ILLEGAL	0x4afc	/* illegal: traps, vector 4 */
#define M68K_INSN_TRAPF_L	0x51fb	/* trapf.l #imm32: 6-byte no-op */
#define M68K_INSN_BRA_L		0x60ff	/* bra.l disp32 (from insn + 2) */
#define M68K_INSN_BSR_L		0x61ff	/* bsr.l disp32 (from insn + 2) */
#define M68K_INSN_JSR_ABS	0x4eb9	/* jsr abs32 */
#define M68K_INSN_JMP_ABS	0x4ef9	/* jmp abs32 */

/* nop: 2 bytes; -fpatchable-function-entry=3 fills an entry with three */
#define M68K_INSN_NOP		0x4e71

int m68k_patch_text(void *addr, const void *insn, size_t len);
int m68k_patch_copy(void *dst, const void *src, size_t len);
int m68k_patch_data32(void *addr, u32 val);
int m68k_patch_begin(void *addr, const void *insn, size_t len);
void m68k_patch_finish(const void *insn, size_t len);
bool m68k_patch_trap(struct pt_regs *regs);

/* emulates a call for m68k_patch_trap(): pushes ..._ret, jumps to ..._target */
void m68k_patch_call_tramp(void);
extern unsigned long m68k_patch_call_ret;
extern unsigned long m68k_patch_call_target;

#endif /* _ASM_M68K_TEXT_PATCHING_H */
