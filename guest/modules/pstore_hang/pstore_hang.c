// SPDX-License-Identifier: GPL-2.0
/*
 * A hang for pstore's function recorder (guest/tests/pstore.sh): loading
 * this module masks interrupts and spins for ever, calling
 * pstore_hang_spin() on each turn.  Nothing ends the hang but a reset: the
 * harness kills the guest once the console shows
 *   "pstore_hang: spinning with interrupts masked in
 *    pstore_hang_spin+0x0/SIZE [pstore_hang] at ADDR"
 * (printed from inside the loop, so the spin is under way by then), and
 * the next boot must find a call site in ADDR..ADDR+SIZE last in
 * ftrace-ramoops-0.  The function's place is printed because the next
 * boot cannot name it: the records keep addresses, and this module is not
 * loaded there.
 */
#include <linux/irqflags.h>
#include <linux/module.h>
#include <linux/printk.h>

static unsigned long pstore_hang_turns;

static noinline void pstore_hang_spin(void)
{
	WRITE_ONCE(pstore_hang_turns, pstore_hang_turns + 1);
}

static int __init pstore_hang_init(void)
{
	local_irq_disable();
	for (;;) {
		pstore_hang_spin();
		if (READ_ONCE(pstore_hang_turns) == 1000)
			pr_info("pstore_hang: spinning with interrupts masked in %pS at %px\n",
				pstore_hang_spin, pstore_hang_spin);
	}
	return 0;
}
module_init(pstore_hang_init);

MODULE_DESCRIPTION("Masks interrupts and spins for ever (a hang for pstore)");
MODULE_LICENSE("GPL");
