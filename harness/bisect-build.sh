#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bisect-build.sh SERIES_GIT WORK JOBS FRAGMENT...: build vmlinux at every
# step of the series (the pristine base, then each commit of `make
# series`) with virt_defconfig + FRAGMENTs, as far as each tree has the
# options (harness/kconfig.sh, KCONFIG_LOOSE=1).
#
# Incremental: one work tree (a git worktree of SERIES_GIT, so a step
# rewrites only the files that step changes) and one object directory;
# a step whose tree already built with the same fragments and compiler
# is skipped: the table WALK_RECORD (default WORK/record.md; make
# bisect-build: docs/bisect-build-KERNEL.md, as the walk takes longer than
# a session) holds them, harness/walk-record.sh.  Each compile holds
# /tmp/kbuild.lock.  Logs: WORK/logs/NN.log; the table of steps:
# WORK/summary.md.  Fails if any step fails to build.
set -euo pipefail
gitdir=$(realpath "$1") work=$(realpath -m "$2") jobs=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=harness/walk-record.sh
. "$here/walk-record.sh"
frags=()
for f in "$@"; do frags+=("$(realpath "$f")"); done
src=$work/src obj=$work/obj logs=$work/logs
mkdir -p "$obj" "$logs"

git --git-dir="$gitdir" rev-parse -q --verify refs/heads/series >/dev/null ||
	{ echo "bisect-build: no series in $gitdir (run make series)" >&2; exit 1; }
mapfile -t steps < <(git --git-dir="$gitdir" rev-parse 'refs/tags/base^{commit}';
	git --git-dir="$gitdir" rev-list --reverse base..series)
walk_setup bisect-build "$gitdir" "$work" "${steps[0]}"
# the key: the tree of each step, the fragments and the compiler
fraghash=$({ cat "${frags[@]}"; echo "$gccver"; } | sha1sum | cut -c1-12)
record_open "$work"
# shellcheck disable=SC2016 # markdown
record_text="# Steps of the series that build (\`make bisect-build\`)

Written by harness/bisect-build.sh after each step that builds vmlinux
of virt_defconfig with the dynamic test fragments; a run skips the steps
listed.  Key: the step's tree, then a hash of the fragments and of the
compiler ($gccver)."

summary=$work/summary.md
summary_head=("| step | commit | result | build time | lock wait | warnings | options dropped |"
	"|---|---|---|---:|---:|---:|---:|")
printf '%s\n' "${summary_head[@]}" >"$summary"
failed=0
for i in "${!steps[@]}"; do
	c=${steps[$i]}
	n=$(printf '%02d' "$i")
	subject=$(git --git-dir="$gitdir" log -1 --format=%s "$c")
	[ "$i" = 0 ] && subject="(pristine base)"
	# keyed by the tree: a reworded or renamed patch builds nothing again
	tree=$(git --git-dir="$gitdir" rev-parse "$c^{tree}")
	key=$tree-$fraghash
	log=$logs/$n.log
	if [ -n "${recorded[$key]:-}" ]; then
		# today's number and subject, the result of then
		row="| $n | $subject |${recorded[$key]#| * | * |}"
		echo "bisect-build: [$n] $subject: built before ($record), skipped"
		echo "$row" >>"$summary"
		record_add "$row" "$key"
		continue
	fi
	echo "==> [bisect-build $n/$((${#steps[@]} - 1))] $(date +%T) $subject"
	git -C "$src" checkout -q --detach "$c"
	t0=$(date +%s)
	rm -f "$work/locked"
	rc=0
	{
		# shellcheck disable=SC2016 # $0/$@ of the inner sh
		KCONFIG_LOOSE=1 "$here/kconfig.sh" "$src" "$obj" "${frags[@]}" &&
			flock /tmp/kbuild.lock sh -c 'date +%s >"$0" && exec "$@"' "$work/locked" \
				make -C "$src" O="$obj" ARCH=m68k \
				CROSS_COMPILE=m68k-linux-gnu- CC="$cc" -j"$jobs" vmlinux
	} >"$log" 2>&1 || rc=$?
	# build time from when the lock was taken; the wait is shown apart
	t1=$(cat "$work/locked" 2>/dev/null || echo "$t0")
	t=$(($(date +%s) - t1))
	wait=$((t1 - t0))
	warn=$(grep -c 'warning:' "$log" || true)
	dropped=$(wc -l <"$obj/dropped.txt" 2>/dev/null || echo "?")
	if [ $rc -eq 0 ]; then
		result=ok
	else
		result="**FAILED**"
		failed=1
		grep -E 'error|Error|\*\*\*' "$log" | head -20 >&2 || true
	fi
	row="| $n | $subject | $result | ${t}s | ${wait}s | $warn | $dropped |"
	echo "$row" >>"$summary"
	echo "bisect-build: [$n] $result in ${t}s, $warn warning lines ($log)"
	if [ $rc -eq 0 ]; then
		record_add "$row" "$key"
		record_write "$record" "$record_text" "${summary_head[0]}" "${summary_head[1]}"
	fi
done
record_write "$record" "$record_text" "${summary_head[0]}" "${summary_head[1]}"
cat "$summary"
if [ $failed -ne 0 ]; then
	echo "bisect-build: FAILED: some steps do not build (logs in $logs)" >&2
	exit 1
fi
echo "bisect-build: all ${#steps[@]} steps build"
