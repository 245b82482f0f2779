// SPDX-License-Identifier: GPL-2.0
/*
 * tp_count: how many times the kernel passes its tracepoints, for make
 * bench's figure of what an off tracepoint costs (guest/bench/bench.sh,
 * the tp kernel).  A probe that counts is attached to every tracepoint of
 * the kernel, events or not (the scheduler's bare _tp tracepoints have no
 * event to enable), except those whose registration switches something
 * else on (sys_enter and sys_exit set a flag on every task: when off they
 * are no static branch but the entry code's flag test, in a kernel
 * without tracepoints too).
 *
 *   hits   the passes counted since the module was loaded
 *   top    the twenty tracepoints passed most, "name count" a line
 *
 * A probe is called with the tracepoint's arguments after its data; it
 * takes the data alone, which the m68k calling convention (the caller
 * pops the arguments) allows, as does x86_64's (make bench counts the
 * anchor's tracepoints with this module too).
 */
#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/tracepoint.h>

struct tpc_point {
	struct tracepoint *tp;
	atomic_long_t hits;
};

static struct tpc_point *tpc_points;
static unsigned int tpc_n, tpc_max;

static void tpc_probe(void *data)
{
	atomic_long_inc(&((struct tpc_point *)data)->hits);
}

static void tpc_size(struct tracepoint *tp, void *priv)
{
	tpc_max++;
}

static void tpc_attach(struct tracepoint *tp, void *priv)
{
	struct tpc_point *p;

	if (tpc_n == tpc_max || (tp->ext && tp->ext->regfunc))
		return;
	p = &tpc_points[tpc_n];
	p->tp = tp;
	if (!tracepoint_probe_register(tp, tpc_probe, p))
		tpc_n++;
}

static int tpc_get_hits(char *buf, const struct kernel_param *kp)
{
	long sum = 0;
	unsigned int i;

	for (i = 0; i < tpc_n; i++)
		sum += atomic_long_read(&tpc_points[i].hits);
	return sysfs_emit(buf, "%ld\n", sum);
}

static const struct kernel_param_ops tpc_hits_ops = {
	.get = tpc_get_hits,
};
module_param_cb(hits, &tpc_hits_ops, NULL, 0444);

static int tpc_cmp(const void *a, const void *b)
{
	long x = atomic_long_read(&((const struct tpc_point *)a)->hits);
	long y = atomic_long_read(&((const struct tpc_point *)b)->hits);

	return x < y ? 1 : x > y ? -1 : 0;
}

static int tpc_get_top(char *buf, const struct kernel_param *kp)
{
	struct tpc_point *copy;
	unsigned int i;
	int len = 0;

	copy = kmemdup_array(tpc_points, tpc_n, sizeof(*copy), GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	sort(copy, tpc_n, sizeof(*copy), tpc_cmp, NULL);
	for (i = 0; i < tpc_n && i < 20; i++)
		len += sysfs_emit_at(buf, len, "%s %ld\n", copy[i].tp->name,
				     atomic_long_read(&copy[i].hits));
	kfree(copy);
	return len;
}

static const struct kernel_param_ops tpc_top_ops = {
	.get = tpc_get_top,
};
module_param_cb(top, &tpc_top_ops, NULL, 0444);

static int __init tpc_init(void)
{
	for_each_kernel_tracepoint(tpc_size, NULL);
	tpc_points = kcalloc(tpc_max, sizeof(*tpc_points), GFP_KERNEL);
	if (!tpc_points)
		return -ENOMEM;
	for_each_kernel_tracepoint(tpc_attach, NULL);
	pr_info("tp_count: counting %u of %u tracepoints\n", tpc_n, tpc_max);
	return 0;
}

static void __exit tpc_exit(void)
{
	unsigned int i;

	for (i = 0; i < tpc_n; i++)
		tracepoint_probe_unregister(tpc_points[i].tp, tpc_probe, &tpc_points[i]);
	tracepoint_synchronize_unregister();
	kfree(tpc_points);
}

module_init(tpc_init);
module_exit(tpc_exit);
MODULE_DESCRIPTION("Counts the passes of every kernel tracepoint");
MODULE_LICENSE("GPL");
