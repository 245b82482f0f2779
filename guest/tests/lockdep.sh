#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One tracing suite on the lockdep kernel (PROVE_LOCKING, DEBUG_LOCKDEP,
# DEBUG_LOCKING_API_SELFTESTS, DEBUG_IRQFLAGS): locks.suite=NAME on the
# kernel command line names guest/tests/NAME.sh.  Any lockdep report fails
# the boot (qemu-run --strict); these checks make sure lockdep was really
# watching: the locking API self tests passed at boot, and lockdep is still
# on after the suite (the first report, or a table that overflows, turns
# it off for good).
. /harness/lib.sh

suite=$(param locks.suite "")

debug_locks() {
	sed -n 's/^ *debug_locks: *//p' /proc/lockdep_stats
}

check locks-selftests "no 'Good, all N testcases passed' from the locking API self tests" \
	sh -c "dmesg | grep -q 'Good, all [0-9]* testcases passed'"
check locks-on "debug_locks is '$(debug_locks)' before $suite" [ "$(debug_locks)" = 1 ]
if [ -f "/harness/tests/$suite.sh" ]; then
	sh "/harness/tests/$suite.sh"
	status=$?
else
	fail locks-suite "no suite '$suite' (locks.suite= on the command line)"
	status=1
fi
grep -E 'lock-classes|direct dependencies|dependency chains|stack-trace entries' /proc/lockdep_stats
check locks-still-on "debug_locks is '$(debug_locks)' after $suite: lockdep turned itself off" \
	[ "$(debug_locks)" = 1 ]
check_done && [ "$status" = 0 ]
