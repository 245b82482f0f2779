// SPDX-License-Identifier: GPL-2.0
/*
 * Function error injection (fail_function, BPF's override) for m68k.
 *
 * The injector's kprobe sits at the entry of the function: its pt_regs
 * hold the entry state, 0(%sp) the return address into the caller.  The
 * return value is set by regs_set_return_value() (%d0, and %a0 for a
 * function returning a pointer, which the caller reads there); the
 * function is then skipped by resuming at an rts, which returns to the
 * caller with the stack as the call left it.  The rts lives in
 * .kprobes.text: no probe can be put on it.
 */

#include <linux/error-injection.h>
#include <linux/kprobes.h>
#include <linux/linkage.h>

asmlinkage void m68k_just_return(void);

asm("	.section .kprobes.text, \"ax\"\n"
"	.globl	m68k_just_return\n"
"	.type	m68k_just_return, @function\n"
"m68k_just_return:\n"
"	rts\n"
"	.size	m68k_just_return, .-m68k_just_return\n"
"	.previous\n");

void override_function_with_return(struct pt_regs *regs)
{
	instruction_pointer_set(regs, (unsigned long)m68k_just_return);
}
NOKPROBE_SYMBOL(override_function_with_return);
