// SPDX-License-Identifier: GPL-2.0
/*
 * Register and stack access by name and offset, for kprobe, uprobe and
 * rethook events (HAVE_REGS_AND_STACK_ACCESS_API).  See asm/ptrace.h for
 * where %d6, %d7, %a3-%a6 and %sp come from.
 */

#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/thread_info.h>
#include <asm/traps.h>

struct m68k_reg_name {
	const char *name;
	unsigned int offset;
};

#define PT_REG(r)	{ #r, offsetof(struct pt_regs, r) }
#define SW_REG(r)	{ #r, M68K_REGS_SW_OFFSET(r) }

static const struct m68k_reg_name m68k_regs[] = {
	PT_REG(d0), PT_REG(d1), PT_REG(d2), PT_REG(d3),
	PT_REG(d4), PT_REG(d5), SW_REG(d6), SW_REG(d7),
	PT_REG(a0), PT_REG(a1), PT_REG(a2), SW_REG(a3),
	SW_REG(a4), SW_REG(a5), SW_REG(a6),
	{ "sp", M68K_REGS_SP_OFFSET },
	PT_REG(pc), PT_REG(sr), PT_REG(orig_d0),
	/* aliases, looked up by name only */
	{ "fp", M68K_REGS_SW_OFFSET(a6) },
	{ "a7", M68K_REGS_SP_OFFSET },
	{ "usp", M68K_REGS_SP_OFFSET },
};

int regs_query_register_offset(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(m68k_regs); i++)
		if (!strcmp(name, m68k_regs[i].name))
			return m68k_regs[i].offset;
	return -EINVAL;
}

const char *regs_query_register_name(unsigned int offset)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(m68k_regs); i++)
		if (m68k_regs[i].offset == offset)
			return m68k_regs[i].name;
	return NULL;
}

/* bytes an exception frame of @format has beyond struct pt_regs */
static unsigned int m68k_frame_extra(unsigned int format)
{
	switch (format) {
	case 2:
		return sizeof_field(struct frame, un.fmt2);
	case 3:
		return sizeof_field(struct frame, un.fmt3);
	case 4:
		return sizeof_field(struct frame, un.fmt4);
	case 7:
		return sizeof_field(struct frame, un.fmt7);
	case 9:
		return sizeof_field(struct frame, un.fmt9);
	case 10:
		return sizeof_field(struct frame, un.fmta);
	case 11:
		return sizeof_field(struct frame, un.fmtb);
	default:
		return 0;
	}
}

/*
 * The kernel %sp before the exception that saved @regs.  A ColdFire frame
 * is always the 8 bytes that end struct pt_regs: its format (4-7) says
 * by how many bytes (0-3) the CPU aligned %sp down before pushing it.
 */
unsigned long kernel_stack_pointer(struct pt_regs *regs)
{
	if (IS_ENABLED(CONFIG_COLDFIRE))
		return (unsigned long)(regs + 1) + (regs->format & 3);
	return (unsigned long)(regs + 1) + m68k_frame_extra(regs->format);
}

NOKPROBE_SYMBOL(kernel_stack_pointer);

unsigned long regs_get_register(struct pt_regs *regs, unsigned int offset)
{
	struct switch_stack *sw = (struct switch_stack *)regs - 1;

	if (offset > MAX_REG_OFFSET || (offset & 1))
		return 0;
	if (offset == M68K_REGS_SP_OFFSET)
		return user_mode(regs) ? rdusp() : kernel_stack_pointer(regs);
	if (offset >= sizeof(struct pt_regs))
		return *(unsigned long *)((char *)sw + offset -
					  sizeof(struct pt_regs));
	if (offset == offsetof(struct pt_regs, sr))
		return regs->sr;
	return *(unsigned long *)((char *)regs + offset);
}

NOKPROBE_SYMBOL(regs_get_register);

int regs_within_kernel_stack(struct pt_regs *regs, unsigned long addr)
{
	return (addr & ~(THREAD_SIZE - 1)) ==
		(kernel_stack_pointer(regs) & ~(THREAD_SIZE - 1));
}

NOKPROBE_SYMBOL(regs_within_kernel_stack);

unsigned long regs_get_kernel_stack_nth(struct pt_regs *regs, unsigned int n)
{
	unsigned long addr = kernel_stack_pointer(regs) + n * sizeof(long);

	if (!regs_within_kernel_stack(regs, addr))
		return 0;
	return *(unsigned long *)addr;
}

NOKPROBE_SYMBOL(regs_get_kernel_stack_nth);
