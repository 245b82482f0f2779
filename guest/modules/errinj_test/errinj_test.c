// SPDX-License-Identifier: GPL-2.0
/*
 * A test module for function error injection (guest/tests/errinject.sh):
 * two error-injectable functions and their caller.
 *
 *   errinj_test_get(n)    returns a pointer (&errinj_test_obj), in %a0
 *   errinj_test_count(n)  returns an int (3 * n + 1), in %d0; notrace:
 *                         no ftrace site at its entry, so the kprobe
 *                         there is a breakpoint on every kernel, while
 *                         errinj_test_get()'s goes through ftrace on a
 *                         patchable-entry kernel
 *
 * Each counts its runs.  Reading /sys/module/errinj_test/parameters/call
 * calls both and prints what the caller received and how often each ran:
 *   "get=obj count=22 get_runs=N count_runs=M"
 * with "get=<errno>" (an ERR_PTR), "get=null" or "get=<hex>" for any other
 * pointer.  With fail_function on a function, the caller must see the
 * injected value and the function must not run.
 *
 * noipa: the caller must call the functions themselves (no clone, no
 * assumption on their result), or the probe at their entry would not see
 * the call, or the caller would not read the register they return in.
 */
#include <linux/err.h>
#include <linux/error-injection.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

static int errinj_test_obj;
static unsigned long errinj_get_runs, errinj_count_runs;

static noinline __attribute__((__noipa__)) void *errinj_test_get(int n)
{
	errinj_get_runs++;
	return n ? &errinj_test_obj : NULL;
}
ALLOW_ERROR_INJECTION(errinj_test_get, ERRNO_NULL);

static noinline __attribute__((__noipa__)) notrace int errinj_test_count(int n)
{
	errinj_count_runs++;
	return 3 * n + 1;
}
ALLOW_ERROR_INJECTION(errinj_test_count, ERRNO);

static int errinj_get_call(char *buf, const struct kernel_param *kp)
{
	void *p = errinj_test_get(1);
	int c = errinj_test_count(7);
	char got[24];

	if (p == &errinj_test_obj)
		strscpy(got, "obj");
	else if (!p)
		strscpy(got, "null");
	else if (IS_ERR(p))
		snprintf(got, sizeof(got), "%ld", PTR_ERR(p));
	else
		snprintf(got, sizeof(got), "%lx", (unsigned long)p);
	return sysfs_emit(buf, "get=%s count=%d get_runs=%lu count_runs=%lu\n",
			  got, c, errinj_get_runs, errinj_count_runs);
}

static const struct kernel_param_ops errinj_call_ops = { .get = errinj_get_call };
module_param_cb(call, &errinj_call_ops, NULL, 0444);

MODULE_DESCRIPTION("Function error injection test: a pointer and an int");
MODULE_LICENSE("GPL");
