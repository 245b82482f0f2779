// SPDX-License-Identifier: GPL-2.0
/*
 * A test module that corrupts one of its own ftrace call sites, for
 * guest/tests/ftrace-bug.sh: ftrace must refuse to patch a site that does
 * not hold the expected bytes and report it through ftrace_bug(), without
 * a crash and without writing over the foreign bytes.
 *
 * Parameters (in /sys/module/ftrace_site_test/parameters/):
 *   call     read: fst_victim(13), which is 40 however the site is patched
 *   site     read: the 6 bytes of fst_victim's call site, in hex words
 *   corrupt  write 1: replace the site (the dynamic-ftrace no-op, trapf.l
 *            with the tracer's displacement) with three "nop"s
 */
#include <linux/cacheflush.h>
#include <linux/ftrace.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

static u16 *fst_site;

static noinline int fst_victim(int x)
{
	return x * 3 + 1;
}

/*
 * The call site: the trapf.l no-op near the entry (after "link" on an
 * mcount kernel, at the entry itself on a patchable-entry one).
 */
static u16 *fst_find_site(void)
{
	u16 *p = (u16 *)dereference_function_descriptor(fst_victim);
	int i;

	for (i = 0; i < 8; i++, p++)
		if (p[0] == 0x51fb)
			return p;
	return NULL;
}

static int fst_get_call(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", fst_victim(13));
}

static int fst_get_site(char *buf, const struct kernel_param *kp)
{
	if (!fst_site)
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "%04x %04x %04x\n", fst_site[0], fst_site[1],
			  fst_site[2]);
}

static int fst_set_corrupt(const char *val, const struct kernel_param *kp)
{
	static const u16 nops[3] = { 0x4e71, 0x4e71, 0x4e71 };
	bool on;
	int ret;

	ret = kstrtobool(val, &on);
	if (ret || !on)
		return ret ? ret : -EINVAL;
	if (!fst_site)
		return -ENOENT;
	/* module text is writable on m68k; flush what was written */
	memcpy(fst_site, nops, sizeof(nops));
	flush_icache_range((unsigned long)fst_site,
			   (unsigned long)fst_site + sizeof(nops));
	return 0;
}

static const struct kernel_param_ops fst_call_ops = { .get = fst_get_call };
static const struct kernel_param_ops fst_site_ops = { .get = fst_get_site };
static const struct kernel_param_ops fst_corrupt_ops = {
	.set = fst_set_corrupt,
};

module_param_cb(call, &fst_call_ops, NULL, 0444);
module_param_cb(site, &fst_site_ops, NULL, 0444);
module_param_cb(corrupt, &fst_corrupt_ops, NULL, 0200);

static int __init fst_init(void)
{
	fst_site = fst_find_site();
	pr_info("ftrace_site_test: call site %pS\n", fst_site);
	return 0;
}
module_init(fst_init);

static void __exit fst_exit(void)
{
}
module_exit(fst_exit);

MODULE_DESCRIPTION("Corrupts one of its own ftrace call sites (ftrace_bug test)");
MODULE_LICENSE("GPL");
