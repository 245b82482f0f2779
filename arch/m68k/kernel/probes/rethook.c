// SPDX-License-Identifier: GPL-2.0
/*
 * Return hooks (kretprobes, fprobe exit handlers) for m68k.
 *
 * At a function's first instruction 0(%sp) holds its return address.
 * arch_rethook_prepare() keeps it in the rethook node, with the address
 * of that stack slot as the frame, and puts arch_rethook_trampoline there
 * instead.  When the function returns into the trampoline, the trampoline
 * (rethook_trampoline.S) takes the same slot back, still holding the
 * trampoline's address, and makes it part of a frame record
 * {caller's %a6, slot} with a pt_regs below it; rethook_trampoline_handler()
 * runs the handlers and writes the real return address into the slot
 * through arch_rethook_fixup_return(); the trampoline restores the
 * registers and returns through it.  While a handler runs, the
 * frame-pointer unwinder reaches the slot through that record and
 * translates the trampoline address with rethook_find_ret_addr(), as it
 * does for any hooked return address on the stack (stacktrace.c).
 */

#include <linux/kprobes.h>
#include <linux/rethook.h>

unsigned long arch_rethook_trampoline_callback(struct pt_regs *regs);

/* the return address slot: above the trampoline's pt_regs and saved %a6 */
static unsigned long *m68k_rethook_slot(struct pt_regs *regs)
{
	return (unsigned long *)(regs + 1) + 1;
}

NOKPROBE_SYMBOL(m68k_rethook_slot);

/* Called from arch_rethook_trampoline; returns the real return address. */
unsigned long arch_rethook_trampoline_callback(struct pt_regs *regs)
{
	unsigned long *slot = m68k_rethook_slot(regs);

	rethook_trampoline_handler(regs, (unsigned long)slot);
	return *slot;
}

NOKPROBE_SYMBOL(arch_rethook_trampoline_callback);

void arch_rethook_fixup_return(struct pt_regs *regs,
			       unsigned long correct_ret_addr)
{
	*m68k_rethook_slot(regs) = correct_ret_addr;
}

NOKPROBE_SYMBOL(arch_rethook_fixup_return);

void arch_rethook_prepare(struct rethook_node *rh, struct pt_regs *regs,
			  bool mcount)
{
	unsigned long *sp = (unsigned long *)kernel_stack_pointer(regs);

	rh->ret_addr = *sp;
	rh->frame = (unsigned long)sp;
	*sp = (unsigned long)arch_rethook_trampoline;
}

NOKPROBE_SYMBOL(arch_rethook_prepare);

/* the trampoline itself runs on every hooked return */
NOKPROBE_SYMBOL(arch_rethook_trampoline);
