// SPDX-License-Identifier: GPL-2.0
/*
 * Static branches (jump labels) on m68k.
 *
 * asm/jump_label.h emits each site as "trapf.w #disp16" or "bra.w disp16"
 * with the same second word, the displacement to the branch target, so a
 * switch rewrites the first word alone: one aligned 16-bit store, which
 * the CPU sees whole, through the text writer (patching.c), which flushes
 * the instruction cache (and on the 68060 the branch cache) for it.
 *
 * The core's batch mode (HAVE_JUMP_LABEL_BATCH) is not used: m68k is
 * uniprocessor, so there is no cross-call to save, and each store is
 * flushed as it is written.
 */

#include <linux/bug.h>
#include <linux/jump_label.h>
#include <linux/memory.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>
#include <linux/text-patching.h>

void arch_jump_label_transform(struct jump_entry *entry,
			       enum jump_label_type type)
{
	unsigned long site = jump_entry_code(entry);
	u16 want = type == JUMP_LABEL_JMP ? M68K_JUMP_LABEL_BRA : M68K_JUMP_LABEL_NOP;
	s32 disp = jump_entry_target(entry) - (site + 2);
	u16 cur[2];

	/*
	 * Write only over a site that is still what the compiler emitted:
	 * either form, aimed at this entry's target.
	 */
	if (WARN(copy_from_kernel_nofault(cur, (void *)site, sizeof(cur)) ||
		 (cur[0] != M68K_JUMP_LABEL_NOP && cur[0] != M68K_JUMP_LABEL_BRA) ||
		 (s16)cur[1] != disp,
		 "jump label: unexpected code at %pS\n", (void *)site))
		return;
	if (cur[0] == want)
		return;

	mutex_lock(&text_mutex);
	WARN_ON_ONCE(m68k_patch_text((void *)site, &want, sizeof(want)));
	mutex_unlock(&text_mutex);
}
