# SPDX-License-Identifier: GPL-2.0
# Sourced by guest suites: turn the kernel's boot-time tracing self tests
# (CONFIG_FTRACE_STARTUP_TEST, CONFIG_EVENT_TRACE_STARTUP_TEST) into checks.
# Each tracer or ftrace test is a check; the per-event tests are one check.
# A self test prints "Testing X: " and its verdict as a continuation, which
# another message may split from it: join them again.  The boot log is
# dmesg in a guest, or BOOT_LOG, a console log, when harness/console-checks.sh
# sources this on the host for a guest with no userland (ColdFire); the
# work files go to BOOT_TMP (default /tmp).
bst_tmp=${BOOT_TMP:-/tmp}
if [ -n "${BOOT_LOG:-}" ]; then cat "$BOOT_LOG"; else dmesg; fi | sed 's/^\[[ 0-9.]*\] //' | awk '
	/^Testing .*: $/ { if (held != "") print held; held = $0; next }
	held != "" && /^(OK|PASSED|FAILED.*|SKIPPED.*)$/ { print held $0; held = ""; next }
	# the ftrace ops test prints "(a b c d e)" progress before its verdict
	held != "" && /^\([0-9 ]*\) *$/ { next }
	held != "" && /^\([0-9 ]*\) (PASSED|FAILED.*)$/ { sub(/^\([0-9 ]*\) /, ""); print held $0; held = ""; next }
	{ print }
	END { if (held != "") print held }' >"$bst_tmp/dmesg.txt"
# "<n> <total> <line>": a test that runs twice (again with the function
# tracer on) gets its run number in its name
grep '^Testing ' "$bst_tmp/dmesg.txt" | grep -v '^Testing event' | awk -F': ' '
	{ line[NR] = $0; key[NR] = $1; total[$1]++ }
	END { for (i = 1; i <= NR; i++) print ++seen[key[i]], total[key[i]], line[i] }' >"$bst_tmp/selftests.txt"
while read -r n total line; do
	what=${line#Testing }
	what=${what%%:*}
	name=selftest:$(echo "$what" | tr ' #' '_-')
	[ "$total" -gt 1 ] && name=$name-$n
	case $line in
	*": PASSED"|*": OK") pass "$name" ;;
	*"SKIPPED"*) skip "$name" "${line##*: }" ;;
	*) fail "$name" "${line##*: }" ;;
	esac
done <"$bst_tmp/selftests.txt"
# bst_built SYMBOL: is SYMBOL, which only the self tests' code defines, in
# the kernel?  (A guest asks its kallsyms; on the host, every kernel that
# boots without userland is built with the self tests.)  A kernel built
# without them (the Atari ones: at ~2-3 MIPS they would take the boot
# hours) skips their checks with that reason; an expectation of PASS then
# fails, so they cannot go missing from the kernels that have them.
bst_built() {
	[ -n "${BOOT_LOG:-}" ] || grep -q " $1\$" /proc/kallsyms
}
if bst_built trace_selftest_startup_nop; then
	check selftest:ran "no 'Testing tracer' line in the boot log" grep -q ' Testing tracer' "$bst_tmp/selftests.txt"
else
	skip selftest:ran "built without CONFIG_FTRACE_STARTUP_TEST"
fi
if bst_built event_trace_self_tests; then
	nev=$(grep -c '^Testing event .*: OK$' "$bst_tmp/dmesg.txt")
	bad=$(grep '^Testing event ' "$bst_tmp/dmesg.txt" | grep -v ': OK$' | head -5 | tr '\n' ';')
	check selftest:events "event self tests not OK: $bad (OK: $nev)" test -z "$bad" -a "$nev" -gt 100
else
	skip selftest:events "built without CONFIG_EVENT_TRACE_STARTUP_TEST"
fi
# lib/atomic64_test.c (CONFIG_ATOMIC64_SELFTEST): BUG()s on a wrong result
check selftest:atomic64 "no 'atomic64_test: passed' in the boot log" \
	grep -q '^atomic64_test: passed$' "$bst_tmp/dmesg.txt"
