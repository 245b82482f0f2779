// SPDX-License-Identifier: GPL-2.0
/*
 * The target of live patching's consistency test (guest/tests/livepatch.sh,
 * with klp_consist_patch.ko): a kernel thread asleep either inside the
 * function the patch replaces, klp_ct_inner(), or in its caller,
 * klp_ct_outer(), after the call returned; or (where=fault) a kernel
 * thread that holds the mmap lock of user process fault_pid for writing,
 * so that the process, at its next page fault, sleeps in the fault.
 *
 *   insmod klp_consist_target.ko where=inner|outer
 *   insmod klp_consist_target.ko where=fault fault_pid=PID
 *
 * starts the thread; parameters:
 *   asleep   reads 1 once the thread sleeps where it was told (fault:
 *            with the lock held)
 *   release  written 1: the thread wakes, returns (fault: drops the
 *            lock) and ends
 *   result   calls klp_ct_inner(): 1, or 2 once the patch has it
 *   pid      the thread's pid (/proc/PID/patch_state)
 */
#include <linux/kthread.h>
#include <linux/mmap_lock.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/wait.h>

static char *where = "outer";
module_param(where, charp, 0444);
MODULE_PARM_DESC(where, "where the thread sleeps: inner (the patched function) or outer (its caller)");

static int fault_pid;
module_param(fault_pid, int, 0444);
MODULE_PARM_DESC(fault_pid, "where=fault: the process whose mmap lock the thread holds");

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

/* where=fault: hold @arg's mmap lock until released */
static int klp_ct_locker(void *arg)
{
	struct mm_struct *mm = arg;

	mmap_write_lock(mm);
	klp_ct_sleep();
	mmap_write_unlock(mm);
	mmput(mm);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 10);
	return 0;
}

/* the mm of process @nr, with a reference, or NULL */
static struct mm_struct *klp_ct_get_mm(int nr)
{
	struct task_struct *task;
	struct mm_struct *mm;
	struct pid *pid;

	pid = find_get_pid(nr);
	task = pid ? get_pid_task(pid, PIDTYPE_PID) : NULL;
	put_pid(pid);
	if (!task)
		return NULL;
	mm = get_task_mm(task);
	put_task_struct(task);
	return mm;
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
	struct mm_struct *mm;
	bool inner;

	if (!strcmp(where, "fault")) {
		mm = klp_ct_get_mm(fault_pid);
		if (!mm)
			return -ESRCH;
		klp_ct_task = kthread_run(klp_ct_locker, mm, "klp_ct");
		if (IS_ERR(klp_ct_task))
			mmput(mm);
	} else if (!strcmp(where, "inner") || !strcmp(where, "outer")) {
		inner = !strcmp(where, "inner");
		klp_ct_task = kthread_run(klp_ct_thread, (void *)inner, "klp_ct");
	} else {
		return -EINVAL;
	}
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
