// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the m68k static branch sites (asm/jump_label.h,
 * jump_label.c): what the compiler emitted for a key's sites, and what a
 * switch of the key changes in them.  Two keys, each used by one function
 * of this file: a false key tested with static_branch_unlikely() (the
 * site is assembled as the no-op) and a true key tested the same way (the
 * site is assembled as the branch).
 */

#include <kunit/test.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>

static DEFINE_STATIC_KEY_FALSE(m68k_jl_key_false);
static DEFINE_STATIC_KEY_TRUE(m68k_jl_key_true);

static noinline int m68k_jl_false(void)
{
	if (static_branch_unlikely(&m68k_jl_key_false))
		return 1;
	return 0;
}

static noinline int m68k_jl_true(void)
{
	if (static_branch_unlikely(&m68k_jl_key_true))
		return 1;
	return 0;
}

/* the one site of @key (built-in: in the kernel's own table) */
static struct jump_entry *key_site(struct kunit *test, struct static_key *key)
{
	struct jump_entry *e, *found = NULL;
	int n = 0;

	for (e = __start___jump_table; e < __stop___jump_table; e++) {
		if (jump_entry_key(e) != key)
			continue;
		found = e;
		n++;
	}
	KUNIT_ASSERT_EQ_MSG(test, n, 1, "sites of the key in __jump_table");
	return found;
}

static u16 *site_words(struct jump_entry *e)
{
	return (u16 *)jump_entry_code(e);
}

/* @addr is inside the function @fn */
static void expect_in(struct kunit *test, unsigned long addr, void *fn)
{
	unsigned long size, off;

	KUNIT_ASSERT_TRUE(test, kallsyms_lookup_size_offset(addr, &size, &off));
	KUNIT_EXPECT_PTR_EQ(test, (void *)(addr - off), fn);
}

/*
 * @e is @first with the displacement to its target; the site and its
 * target belong to the function that tests the key, @fn
 */
static void expect_site(struct kunit *test, struct jump_entry *e, u16 first,
			void *fn)
{
	unsigned long code = jump_entry_code(e);
	unsigned long target = jump_entry_target(e);

	KUNIT_EXPECT_EQ(test, site_words(e)[0], first);
	KUNIT_EXPECT_EQ(test, (long)(s16)site_words(e)[1],
			(long)(target - (code + 2)));
	expect_in(test, code, fn);
	expect_in(test, target, fn);
}

static void jl_encoding(struct kunit *test)
{
	struct jump_entry *f = key_site(test, &m68k_jl_key_false.key);
	struct jump_entry *t = key_site(test, &m68k_jl_key_true.key);

	/*
	 * static_branch_unlikely() records the same sense for both keys; the
	 * key's initial value alone makes one site a no-op, the other a branch
	 */
	KUNIT_EXPECT_FALSE(test, jump_entry_is_branch(f));
	KUNIT_EXPECT_EQ(test, m68k_jl_false(), 0);
	expect_site(test, f, M68K_JUMP_LABEL_NOP, m68k_jl_false);

	KUNIT_EXPECT_FALSE(test, jump_entry_is_branch(t));
	KUNIT_EXPECT_EQ(test, m68k_jl_true(), 1);
	expect_site(test, t, M68K_JUMP_LABEL_BRA, m68k_jl_true);
}

/* a switch writes the first word and leaves the displacement alone */
static void jl_switch(struct kunit *test)
{
	struct jump_entry *f = key_site(test, &m68k_jl_key_false.key);
	struct jump_entry *t = key_site(test, &m68k_jl_key_true.key);
	u16 disp_f = site_words(f)[1], disp_t = site_words(t)[1];
	int i;

	for (i = 0; i < 3; i++) {
		static_branch_enable(&m68k_jl_key_false);
		KUNIT_EXPECT_EQ(test, site_words(f)[0], M68K_JUMP_LABEL_BRA);
		KUNIT_EXPECT_EQ(test, m68k_jl_false(), 1);

		static_branch_disable(&m68k_jl_key_true);
		KUNIT_EXPECT_EQ(test, site_words(t)[0], M68K_JUMP_LABEL_NOP);
		KUNIT_EXPECT_EQ(test, m68k_jl_true(), 0);

		static_branch_disable(&m68k_jl_key_false);
		KUNIT_EXPECT_EQ(test, site_words(f)[0], M68K_JUMP_LABEL_NOP);
		KUNIT_EXPECT_EQ(test, m68k_jl_false(), 0);

		static_branch_enable(&m68k_jl_key_true);
		KUNIT_EXPECT_EQ(test, site_words(t)[0], M68K_JUMP_LABEL_BRA);
		KUNIT_EXPECT_EQ(test, m68k_jl_true(), 1);
	}
	KUNIT_EXPECT_EQ(test, site_words(f)[1], disp_f);
	KUNIT_EXPECT_EQ(test, site_words(t)[1], disp_t);
}

/* the core keeps flags in the two low bits of a key's address */
static void jl_key_alignment(struct kunit *test)
{
	static struct {
		char c;
		struct static_key_false k;
	} packed_after_char;

	KUNIT_EXPECT_EQ(test, (unsigned long)&packed_after_char.k & 3, 0UL);
	KUNIT_EXPECT_EQ(test, (unsigned long)&m68k_jl_key_false & 3, 0UL);
	KUNIT_EXPECT_EQ(test, (unsigned long)&m68k_jl_key_true & 3, 0UL);
}

static struct kunit_case m68k_jump_label_cases[] = {
	KUNIT_CASE(jl_encoding),
	KUNIT_CASE(jl_switch),
	KUNIT_CASE(jl_key_alignment),
	{}
};

static struct kunit_suite m68k_jump_label_suite = {
	.name = "m68k_jump_label",
	.test_cases = m68k_jump_label_cases,
};

kunit_test_suite(m68k_jump_label_suite);

MODULE_DESCRIPTION("KUnit tests of the m68k static branch sites");
MODULE_LICENSE("GPL");
