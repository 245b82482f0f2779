// SPDX-License-Identifier: GPL-2.0
/*
 * The target of live patching's consistency test (guest/tests/livepatch.sh,
 * with klp_consist_patch.ko): a kernel thread asleep either inside the
 * function the patch replaces, klp_ct_inner(), or in its caller,
 * klp_ct_outer(), after the call returned.
 *
 *   insmod klp_consist_target.ko where=inner|outer
 *
 * starts the thread; parameters:
 *   asleep   reads 1 once the thread sleeps where it was told
 *   release  written 1: the thread wakes, returns and ends
 *   result   calls klp_ct_inner(): 1, or 2 once the patch has it
 *   pid      the thread's pid (/proc/PID/patch_state)
 */
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/wait.h>

static char *where = "outer";
module_param(where, charp, 0444);
MODULE_PARM_DESC(where, "where the thread sleeps: inner (the patched function) or outer (its caller)");

static DECLARE_WAIT_QUEUE_HEAD(klp_ct_wq);
static bool klp_ct_released, klp_ct_asleep;
static struct task_struct *klp_ct_task;
static int pid;
module_param(pid, int, 0444);

static void klp_ct_sleep(void)
{
	WRITE_ONCE(klp_ct_asleep, true);
	/* a fake signal of the transition wakes it: it sleeps again */
	wait_event_interruptible(klp_ct_wq, READ_ONCE(klp_ct_released));
	while (!READ_ONCE(klp_ct_released))
		wait_event_interruptible(klp_ct_wq, READ_ONCE(klp_ct_released));
}

/*
 * The function klp_consist_patch.ko replaces (its version returns 2).
 * __noipa: every caller calls this very function (no clone for a constant
 * argument, which the patch would not reach).
 */
static noinline __noipa int klp_ct_inner(bool sleep)
{
	if (sleep)
		klp_ct_sleep();
	return 1;
}

static noinline __noipa int klp_ct_outer(bool inner)
{
	int ret = klp_ct_inner(inner);

	if (!inner)
		klp_ct_sleep();
	return ret;
}

static int klp_ct_thread(void *arg)
{
	klp_ct_outer((bool)arg);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 10);
	return 0;
}

static int klp_ct_get_asleep(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(klp_ct_asleep));
}

static const struct kernel_param_ops klp_ct_asleep_ops = {
	.get = klp_ct_get_asleep,
};
module_param_cb(asleep, &klp_ct_asleep_ops, NULL, 0444);

static int klp_ct_set_release(const char *val, const struct kernel_param *kp)
{
	WRITE_ONCE(klp_ct_released, true);
	wake_up_all(&klp_ct_wq);
	return 0;
}

static const struct kernel_param_ops klp_ct_release_ops = {
	.set = klp_ct_set_release,
};
module_param_cb(release, &klp_ct_release_ops, NULL, 0200);

static int klp_ct_get_result(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", klp_ct_inner(false));
}

static const struct kernel_param_ops klp_ct_result_ops = {
	.get = klp_ct_get_result,
};
module_param_cb(result, &klp_ct_result_ops, NULL, 0444);

static int __init klp_ct_init(void)
{
	bool inner;

	if (!strcmp(where, "inner"))
		inner = true;
	else if (!strcmp(where, "outer"))
		inner = false;
	else
		return -EINVAL;
	klp_ct_task = kthread_run(klp_ct_thread, (void *)inner, "klp_ct");
	if (IS_ERR(klp_ct_task))
		return PTR_ERR(klp_ct_task);
	get_task_struct(klp_ct_task);
	pid = task_pid_nr(klp_ct_task);
	return 0;
}

static void __exit klp_ct_exit(void)
{
	klp_ct_set_release(NULL, NULL);
	kthread_stop(klp_ct_task);
	put_task_struct(klp_ct_task);
}

module_init(klp_ct_init);
module_exit(klp_ct_exit);
MODULE_DESCRIPTION("Target of the live patching consistency test");
MODULE_LICENSE("GPL");
