// SPDX-License-Identifier: GPL-2.0
/*
 * A live patch of klp_consist_target.ko's klp_ct_inner(): the new version
 * returns 2 and never sleeps (guest/tests/livepatch.sh).
 */
#include <linux/livepatch.h>
#include <linux/module.h>

static noinline int klp_cp_inner(bool sleep)
{
	return 2;
}

static struct klp_func klp_cp_funcs[] = {
	{
		.old_name = "klp_ct_inner",
		.new_func = klp_cp_inner,
	}, { }
};

static struct klp_object klp_cp_objs[] = {
	{
		.name = "klp_consist_target",
		.funcs = klp_cp_funcs,
	}, { }
};

static struct klp_patch klp_cp_patch = {
	.mod = THIS_MODULE,
	.objs = klp_cp_objs,
};

static int __init klp_cp_init(void)
{
	return klp_enable_patch(&klp_cp_patch);
}

/* disabled first (the patch then drops its reference), then removable */
static void __exit klp_cp_exit(void)
{
}

module_init(klp_cp_init);
module_exit(klp_cp_exit);
MODULE_DESCRIPTION("Live patch of klp_consist_target's klp_ct_inner()");
MODULE_LICENSE("GPL");
MODULE_INFO(livepatch, "Y");
