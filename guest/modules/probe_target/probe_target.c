// SPDX-License-Identifier: GPL-2.0
/*
 * A test module for perf probe (guest/tests/perf-probe.sh): a function
 * whose argument, local variable and return value are known, so that
 * probes placed from its DWARF (by function, by line, on a variable) can
 * be checked against them and against the same probes written by hand.
 *
 *   pt_mix(a, b)   sq = a * a; mixed = sq ^ b; returns sq + mixed
 *
 * Writing N to /sys/module/probe_target/parameters/run calls pt_mix(N,
 * 3 * N + 1) once.  The module is built with debug information (Kbuild).
 *
 * noipa: the caller must call pt_mix() itself with its two arguments on
 * the stack (m68k's convention), or the probes would not see the call.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>

static int pt_sink;

static noinline __attribute__((__noipa__)) int pt_mix(int a, int b)
{
	int sq = a * a;
	int mixed = sq ^ b;

	WRITE_ONCE(pt_sink, mixed);	/* PT_LINE: sq and mixed are known here */
	return sq + mixed;
}

static int pt_run_set(const char *val, const struct kernel_param *kp)
{
	int n, ret;

	ret = kstrtoint(val, 0, &n);
	if (ret)
		return ret;
	pt_mix(n, 3 * n + 1);
	return 0;
}

static const struct kernel_param_ops pt_run_ops = {
	.set = pt_run_set,
};
module_param_cb(run, &pt_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "write N: call pt_mix(N, 3 * N + 1)");

MODULE_DESCRIPTION("perf probe test target");
MODULE_LICENSE("GPL");
