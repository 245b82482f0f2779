/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_M68K_JUMP_LABEL_H
#define _ASM_M68K_JUMP_LABEL_H

#ifndef __ASSEMBLER__

#include <linux/stringify.h>
#include <linux/types.h>

/*
 * A static branch site is four bytes: a first word that is either
 * trapf.w (a no-op that skips its one-word operand) or bra.w, and a second
 * word that is the displacement of the branch from the site + 2.  Both
 * states keep that word, so a switch is one aligned 16-bit store of the
 * first word.  The 68020 and later and every ColdFire have both
 * instructions; the 68000 has no trapcc (HAVE_ARCH_JUMP_LABEL is not
 * selected for it).
 */
#define JUMP_LABEL_NOP_SIZE	4

#define M68K_JUMP_LABEL_NOP	0x51fa	/* trapf.w #imm16 (ColdFire: tpf.w) */
#define M68K_JUMP_LABEL_BRA	0x6000	/* bra.w disp16 */

/*
 * The site, then its struct jump_entry in the relative form: the site, its
 * target and the key (with the branch's sense in bit 0), each as an offset
 * from the field.  The displacement is assembled from the label, so a
 * target beyond the reach of bra.w stops the build instead of branching
 * elsewhere.  Operand 0 is the key, l_yes the target.
 */
#define M68K_STATIC_BRANCH(first)				\
	"1:\t.word " __stringify(first) "\n\t"			\
	".word %l[l_yes] - (1b + 2)\n\t"			\
	".pushsection __jump_table, \"aw\"\n\t"			\
	".balign 4\n\t"						\
	".long 1b - ., %l[l_yes] - ., %c0 - .\n\t"		\
	".popsection\n\t"

static __always_inline bool arch_static_branch(struct static_key * const key,
					       const bool branch)
{
	asm goto(M68K_STATIC_BRANCH(M68K_JUMP_LABEL_NOP)
		 : : "i" (&((char *)key)[branch]) : : l_yes);
	return false;
l_yes:
	return true;
}

static __always_inline bool arch_static_branch_jump(struct static_key * const key,
						    const bool branch)
{
	asm goto(M68K_STATIC_BRANCH(M68K_JUMP_LABEL_BRA)
		 : : "i" (&((char *)key)[branch]) : : l_yes);
	return false;
l_yes:
	return true;
}

#endif /* __ASSEMBLER__ */
#endif /* _ASM_M68K_JUMP_LABEL_H */
