# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by the harness' build scripts of Debian source packages
# (build-gnu-tools.sh, build-klp-tools.sh, build-elfutils.sh), which
# define die().
#
# run_parallel PREFIX NAME...: run the shell functions PREFIX<NAME>, each
# in a subshell of its own and all at the same time (most of each build
# is a configure script, which keeps one core busy); when any of them
# failed (each says which and where its log is), die once all have ended.
run_parallel() {
	local prefix=$1 name pid failed=0
	local pids=()
	shift
	for name in "$@"; do
		"$prefix$name" &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid" || failed=1
	done
	[ $failed -eq 0 ] || die "a build failed (its log is named above)"
}
