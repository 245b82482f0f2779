// SPDX-License-Identifier: GPL-2.0
/*
 * Writing to live kernel text on m68k.
 *
 * Every write goes through m68k_write_words() (m68k_patch_text() for live
 * text, m68k_patch_copy() for code nothing runs yet, m68k_patch_data32()
 * for a word of data in text), which flushes the instruction cache for
 * what it wrote, and on ColdFire pushes the data cache first.  A change of
 * one aligned 16-bit word is a single store; a longer one is written in
 * three steps (illegal opcode, tail, first word), and code that reaches
 * the site meanwhile traps to m68k_patch_trap(), which emulates the new
 * instruction.  One site is in flight at a time: every multi-word writer
 * holds text_mutex.  The protocol and the caches of each CPU:
 * Documentation/arch/m68k/ftrace.rst.
 */

#include <linux/bug.h>
#include <linux/cacheflush.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/linkage.h>
#include <linux/lockdep.h>
#include <linux/memory.h>
#include <linux/types.h>
#include <asm/ptrace.h>
#include <linux/text-patching.h>

enum m68k_emul { EMUL_NONE, EMUL_SKIP, EMUL_JUMP, EMUL_CALL };

/* The site in flight; read by the trap handler and the call trampoline. */
static struct {
	unsigned long addr;		/* site, 0 when none */
	enum m68k_emul kind;
	unsigned long next;		/* address after the instruction */
	unsigned long target;		/* jump or call target */
} m68k_inflight;

/* Read by m68k_patch_call_tramp (patching_tramp.S) */
unsigned long m68k_patch_call_ret;
unsigned long m68k_patch_call_target;

/* after every write to text: make the fetch see the written bytes */
static notrace void m68k_text_written(unsigned long addr, size_t len)
{
	if (IS_ENABLED(CONFIG_COLDFIRE))
		flush_cache_all();
	flush_icache_range(addr, addr + len);
}

static notrace void m68k_write_words(unsigned long addr, const u16 *words,
				     size_t len)
{
	size_t i;

	for (i = 0; i < len / 2; i++)
		WRITE_ONCE(((u16 *)addr)[i], words[i]);
	m68k_text_written(addr, len);
}

static notrace int m68k_decode(unsigned long addr, const u16 *w, size_t len)
{
	u32 imm = ((u32)w[1] << 16) | w[2];

	if (len != 6)
		return -EINVAL;
	m68k_inflight.next = addr + 6;
	switch (w[0]) {
	case M68K_INSN_TRAPF_L:
		m68k_inflight.kind = EMUL_SKIP;
		break;
	case M68K_INSN_BRA_L:
		m68k_inflight.kind = EMUL_JUMP;
		m68k_inflight.target = addr + 2 + (s32)imm;
		break;
	case M68K_INSN_JMP_ABS:
		m68k_inflight.kind = EMUL_JUMP;
		m68k_inflight.target = imm;
		break;
	case M68K_INSN_BSR_L:
		m68k_inflight.kind = EMUL_CALL;
		m68k_inflight.target = addr + 2 + (s32)imm;
		break;
	case M68K_INSN_JSR_ABS:
		m68k_inflight.kind = EMUL_CALL;
		m68k_inflight.target = imm;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

/**
 * m68k_patch_text - write an instruction into live kernel text
 * @addr: where, 2-byte aligned
 * @insn: the new instruction words
 * @len: its length in bytes: 2, or 6 for the forms in asm/text-patching.h
 *
 * Return: 0, or -EINVAL for a length, alignment or instruction this
 * cannot write safely (nothing is written then).
 */
int notrace m68k_patch_text(void *addr, const void *insn, size_t len)
{
	unsigned long a = (unsigned long)addr;
	const u16 *w = insn;
	int ret;

	if ((a & 1) || !len || (len & 1) || len > 6)
		return -EINVAL;

	if (len == 2) {
		m68k_write_words(a, w, 2);
		return 0;
	}

	ret = m68k_patch_begin(addr, insn, len);
	if (ret)
		return ret;
	m68k_patch_finish(insn, len);
	return 0;
}

/**
 * m68k_patch_copy - write instructions to text that nothing executes yet
 * @dst: where, 2-byte aligned: e.g. a kprobe's out-of-line slot
 * @src: the instruction words
 * @len: their length in bytes, even
 *
 * Return: 0, or -EINVAL for an odd address or length.
 */
int notrace m68k_patch_copy(void *dst, const void *src, size_t len)
{
	if (((unsigned long)dst & 1) || (len & 1))
		return -EINVAL;
	m68k_write_words((unsigned long)dst, src, len);
	return 0;
}

/**
 * m68k_patch_data32 - replace a 32-bit word of data kept in kernel text
 * @addr: where, 2-byte aligned (4-byte aligned is faster): e.g. the
 *	ftrace_ops slot in front of a traced function (call ops)
 * @val: the new word
 *
 * The word is written with one store, a single instruction, so code that
 * reads it - an interrupt on this uniprocessor included - sees the old or
 * the new word, never a mix.  It is flushed like any write to text.
 *
 * Return: 0, or -EINVAL for an odd address (nothing is written then).
 */
int notrace m68k_patch_data32(void *addr, u32 val)
{
	unsigned long a = (unsigned long)addr;

	if (a & 1)
		return -EINVAL;
	WRITE_ONCE(*(u32 *)addr, val);
	m68k_text_written(a, sizeof(val));
	return 0;
}

/*
 * The two halves of a multi-word write, separate so that the KUnit test
 * can run code through the site while it is in flight.
 */
int notrace m68k_patch_begin(void *addr, const void *insn, size_t len)
{
	unsigned long a = (unsigned long)addr;
	int ret;

	lockdep_assert_held(&text_mutex);
	if (WARN_ON_ONCE(m68k_inflight.addr))
		return -EBUSY;
	if (a & 1)
		return -EINVAL;
	ret = m68k_decode(a, insn, len);
	if (ret)
		return ret;
	barrier();
	WRITE_ONCE(m68k_inflight.addr, a);
	barrier();
	m68k_write_words(a, (const u16[]){ M68K_INSN_ILLEGAL }, 2);
	return 0;
}

void notrace m68k_patch_finish(const void *insn, size_t len)
{
	unsigned long a = m68k_inflight.addr;
	const u16 *w = insn;

	if (WARN_ON_ONCE(!a))
		return;
	m68k_write_words(a + 2, w + 1, len - 2);
	m68k_write_words(a, w, 2);
	barrier();
	WRITE_ONCE(m68k_inflight.addr, 0);
}

/**
 * m68k_patch_trap - emulate the new instruction of a site in flight
 * @regs: the illegal-instruction trap's registers (kernel mode)
 *
 * Return: true if @regs->pc was the site being patched; the trap then
 * returns to the emulated instruction's successor.
 */
bool notrace m68k_patch_trap(struct pt_regs *regs)
{
	unsigned long site = READ_ONCE(m68k_inflight.addr);

	if (!site || regs->pc != site)
		return false;

	switch (m68k_inflight.kind) {
	case EMUL_SKIP:
		regs->pc = m68k_inflight.next;
		break;
	case EMUL_JUMP:
		regs->pc = m68k_inflight.target;
		break;
	case EMUL_CALL:
		m68k_patch_call_ret = m68k_inflight.next;
		m68k_patch_call_target = m68k_inflight.target;
		regs->pc = (unsigned long)m68k_patch_call_tramp;
		break;
	default:
		return false;
	}
	return true;
}
