/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 64-bit atomics for m68k.
 *
 * m68k has no SMP, so these need only be atomic against interrupts (and
 * exceptions) on the one CPU, which are taken between instructions only:
 *
 *  - a read or a write is one "movem.l" of the two words;
 *  - a read-modify-write is a CAS2 loop on the two words where the CPU
 *    has CAS2 in hardware (68020-68040 with CONFIG_RMW_INSNS; ColdFire
 *    and the 68000 have none, the 68060 emulates it in a trap handler),
 *    and otherwise a plain read-modify-write with interrupts off, which
 *    is the fast choice on the 68060 too.
 *
 * Both read-modify-write flavours are built where the CPU can run them
 * (__m68k_atomic64_*_cas2 / _irq) so that the KUnit test
 * (arch/m68k/kernel/atomic64_kunit.c) checks each.  The generic atomic64
 * (lib/atomic64.c) calls out of line and takes a hashed spinlock with
 * interrupts off on every operation, reads included.
 *
 * The counter keeps the generic layout (s64: 2-byte aligned in the m68k
 * ABI; neither movem nor CAS2 needs more on the 68020-68040).
 */
#ifndef __ASM_M68K_ATOMIC64_H
#define __ASM_M68K_ATOMIC64_H

#include <linux/compiler.h>
#include <linux/irqflags.h>
#include <linux/types.h>

typedef struct { s64 counter; } atomic64_t;

#define ATOMIC64_INIT(i)	{ (i) }

#if defined(CONFIG_RMW_INSNS) && !defined(CONFIG_M68060)
#define M68K_ATOMIC64_CAS2
#endif

/*
 * ColdFire's movem takes only (An) and (d16,An) operands, so it gets the
 * address in a register; the 680x0 takes any memory operand.
 */
static __always_inline s64 arch_atomic64_read(const atomic64_t *v)
{
	s64 val;

#ifdef CONFIG_COLDFIRE
	asm volatile ("movem.l (%1),%0/%R0"
		      : "=d" (val) : "a" (&v->counter), "m" (v->counter));
#else
	asm volatile ("movem.l %1,%0/%R0" : "=d" (val) : "m" (v->counter));
#endif
	return val;
}

static __always_inline void arch_atomic64_set(atomic64_t *v, s64 i)
{
#ifdef CONFIG_COLDFIRE
	asm volatile ("movem.l %1/%R1,(%2)"
		      : "=m" (v->counter) : "d" (i), "a" (&v->counter));
#else
	asm volatile ("movem.l %1/%R1,%0" : "=m" (v->counter) : "d" (i));
#endif
}

#define arch_atomic64_read		arch_atomic64_read
#define arch_atomic64_set		arch_atomic64_set
#define arch_atomic64_set_release	arch_atomic64_set

/* The interrupts-off flavour: any m68k, and the choice for the 68060. */

#define ATOMIC64_IRQ_OPS(op, c_op)					\
static __always_inline s64						\
__m68k_atomic64_fetch_##op##_irq(s64 i, atomic64_t *v)		\
{									\
	unsigned long flags;						\
	s64 old;							\
									\
	raw_local_irq_save(flags);					\
	old = v->counter;						\
	v->counter = old c_op i;					\
	raw_local_irq_restore(flags);					\
	return old;							\
}

ATOMIC64_IRQ_OPS(add, +)
ATOMIC64_IRQ_OPS(sub, -)
ATOMIC64_IRQ_OPS(and, &)
ATOMIC64_IRQ_OPS(or, |)
ATOMIC64_IRQ_OPS(xor, ^)

#undef ATOMIC64_IRQ_OPS

static __always_inline s64
__m68k_atomic64_cmpxchg_irq(atomic64_t *v, s64 old, s64 new)
{
	unsigned long flags;
	s64 prev;

	raw_local_irq_save(flags);
	prev = v->counter;
	if (prev == old)
		v->counter = new;
	raw_local_irq_restore(flags);
	return prev;
}

static __always_inline s64 __m68k_atomic64_xchg_irq(atomic64_t *v, s64 new)
{
	unsigned long flags;
	s64 prev;

	raw_local_irq_save(flags);
	prev = v->counter;
	v->counter = new;
	raw_local_irq_restore(flags);
	return prev;
}

#ifdef CONFIG_RMW_INSNS
/*
 * The CAS2 flavour.  "cas2.l Dc1:Dc2,Du1:Du2,(Rn1):(Rn2)" compares the
 * two words at Rn1 and Rn2 with Dc1:Dc2 and, when both are equal, stores
 * Du1:Du2 there; otherwise it loads them into Dc1:Dc2.  The high word is
 * at the lower address (big endian).  A loop computes the new value from
 * the one CAS2 last saw, op_lo/op_hi combining the low and high words of
 * the operand into it.
 */
#define ATOMIC64_CAS2_OPS(op, op_lo, op_hi)				\
static __always_inline s64						\
__m68k_atomic64_fetch_##op##_cas2(s64 i, atomic64_t *v)		\
{									\
	s64 old = arch_atomic64_read(v), new;				\
									\
	asm volatile ("1:	move.l %0,%1\n"				\
		      "	move.l %R0,%R1\n"				\
		      "	" op_lo " %R3,%R1\n"				\
		      "	" op_hi " %3,%1\n"				\
		      "	cas2.l %0:%R0,%1:%R1,(%4):(%5)\n"		\
		      "	jne 1b"						\
		      : "+&d" (old), "=&d" (new), "+m" (v->counter)	\
		      : "d" (i), "a" (&v->counter),			\
			"a" ((u32 *)&v->counter + 1)			\
		      : "cc");						\
	return old;							\
}

ATOMIC64_CAS2_OPS(add, "add.l", "addx.l")
ATOMIC64_CAS2_OPS(sub, "sub.l", "subx.l")
ATOMIC64_CAS2_OPS(and, "and.l", "and.l")
ATOMIC64_CAS2_OPS(or, "or.l", "or.l")
ATOMIC64_CAS2_OPS(xor, "eor.l", "eor.l")

#undef ATOMIC64_CAS2_OPS

static __always_inline s64
__m68k_atomic64_cmpxchg_cas2(atomic64_t *v, s64 old, s64 new)
{
	asm volatile ("cas2.l %0:%R0,%2:%R2,(%3):(%4)"
		      : "+d" (old), "+m" (v->counter)
		      : "d" (new), "a" (&v->counter),
			"a" ((u32 *)&v->counter + 1)
		      : "cc");
	return old;	/* what was there: CAS2 loaded it on a mismatch */
}

static __always_inline s64 __m68k_atomic64_xchg_cas2(atomic64_t *v, s64 new)
{
	s64 old = arch_atomic64_read(v);

	asm volatile ("1:	cas2.l %0:%R0,%2:%R2,(%3):(%4)\n"
		      "	jne 1b"
		      : "+d" (old), "+m" (v->counter)
		      : "d" (new), "a" (&v->counter),
			"a" ((u32 *)&v->counter + 1)
		      : "cc");
	return old;
}
#endif /* CONFIG_RMW_INSNS */

#ifdef M68K_ATOMIC64_CAS2
#define __M68K_ATOMIC64(name)	__m68k_atomic64_##name##_cas2
#else
#define __M68K_ATOMIC64(name)	__m68k_atomic64_##name##_irq
#endif

#define ATOMIC64_OPS(op)							\
static __always_inline s64 arch_atomic64_fetch_##op(s64 i, atomic64_t *v) \
{									\
	return __M68K_ATOMIC64(fetch_##op)(i, v);			\
}									\
static __always_inline void arch_atomic64_##op(s64 i, atomic64_t *v)	\
{									\
	__M68K_ATOMIC64(fetch_##op)(i, v);				\
}

ATOMIC64_OPS(add)
ATOMIC64_OPS(sub)
ATOMIC64_OPS(and)
ATOMIC64_OPS(or)
ATOMIC64_OPS(xor)

#undef ATOMIC64_OPS

static __always_inline s64 arch_atomic64_add_return(s64 i, atomic64_t *v)
{
	return arch_atomic64_fetch_add(i, v) + i;
}

static __always_inline s64 arch_atomic64_sub_return(s64 i, atomic64_t *v)
{
	return arch_atomic64_fetch_sub(i, v) - i;
}

static __always_inline s64 arch_atomic64_cmpxchg(atomic64_t *v, s64 old, s64 new)
{
	return __M68K_ATOMIC64(cmpxchg)(v, old, new);
}

static __always_inline s64 arch_atomic64_xchg(atomic64_t *v, s64 new)
{
	return __M68K_ATOMIC64(xchg)(v, new);
}

#define arch_atomic64_add		arch_atomic64_add
#define arch_atomic64_add_return	arch_atomic64_add_return
#define arch_atomic64_fetch_add		arch_atomic64_fetch_add
#define arch_atomic64_sub		arch_atomic64_sub
#define arch_atomic64_sub_return	arch_atomic64_sub_return
#define arch_atomic64_fetch_sub		arch_atomic64_fetch_sub
#define arch_atomic64_and		arch_atomic64_and
#define arch_atomic64_fetch_and		arch_atomic64_fetch_and
#define arch_atomic64_or		arch_atomic64_or
#define arch_atomic64_fetch_or		arch_atomic64_fetch_or
#define arch_atomic64_xor		arch_atomic64_xor
#define arch_atomic64_fetch_xor		arch_atomic64_fetch_xor
#define arch_atomic64_cmpxchg		arch_atomic64_cmpxchg
#define arch_atomic64_xchg		arch_atomic64_xchg

#endif /* __ASM_M68K_ATOMIC64_H */
