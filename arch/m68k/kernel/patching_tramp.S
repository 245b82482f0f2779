/* SPDX-License-Identifier: GPL-2.0 */
/*
 * m68k_patch_trap() returns here to emulate a call at a site in flight:
 * push the return address, then "return" into the call's target.  No
 * register is touched, as for the real call.
 */

#include <linux/linkage.h>

	/* kprobes refuse .kprobes.text: no probe in a trampoline */
	.section .kprobes.text, "ax"
SYM_CODE_START(m68k_patch_call_tramp)
	movel	m68k_patch_call_ret,%sp@-
	movel	m68k_patch_call_target,%sp@-
	rts
SYM_CODE_END(m68k_patch_call_tramp)
