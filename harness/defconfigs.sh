#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# defconfigs.sh SERIES_GIT WORK JOBS TARGET...: build vmlinux of each TARGET
# with the whole series (and on the pristine base, when that is needed to
# judge the result), and compare.
#
# TARGET is NAME (arch/m68k/configs/NAME_defconfig as it is), NAME+ftrace
# (that defconfig plus the FTRACE_FRAGS fragments: function tracers on
# mcount with frame pointers) or NAME+pfe (plus the PFE_FRAGS fragments:
# patchable function entries, entry registers, fprobe, direct calls), as
# far as Kconfig allows them on that machine (harness/kconfig.sh with
# KCONFIG_LOOSE=1).
# A target fails when the series build fails where the base one built, or
# shows a warning the base build does not have (compared without line
# numbers, as the patches move lines).
#
# The series side is built first.  When it builds without a single warning
# it cannot add one, and the base build is skipped ("not needed"): that
# halves the cost of the common case (each side is a full build, as the
# series changes headers that every file includes).  Otherwise the base is
# built in the same object directory and its full list of warnings is the
# reference.  A target already compared for the same trees, fragments and
# compiler is skipped: the table WALK_RECORD (default WORK/record.md; make
# defconfigs: docs/defconfigs-KERNEL.md, as all targets take about 20
# hours, many sessions) holds them, harness/walk-record.sh.
# Each compile holds /tmp/kbuild.lock.  Logs: WORK/logs/; table:
# WORK/summary.md.
set -euo pipefail
gitdir=$(realpath "$1") work=$(realpath -m "$2") jobs=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=harness/walk-record.sh
. "$here/walk-record.sh"
read -r -a ftrace_frags <<<"${FTRACE_FRAGS:-}"
read -r -a pfe_frags <<<"${PFE_FRAGS:-}"
for i in "${!ftrace_frags[@]}"; do ftrace_frags[i]=$(realpath "${ftrace_frags[$i]}"); done
for i in "${!pfe_frags[@]}"; do pfe_frags[i]=$(realpath "${pfe_frags[$i]}"); done
src=$work/src logs=$work/logs
mkdir -p "$logs"

if ! base=$(git --git-dir="$gitdir" rev-parse -q --verify 'refs/tags/base^{commit}') ||
	! head=$(git --git-dir="$gitdir" rev-parse -q --verify 'refs/heads/series^{commit}'); then
	echo "defconfigs: no series in $gitdir (run make series)" >&2
	exit 1
fi
walk_setup defconfigs "$gitdir" "$work" "$base"
fraghash=$( (echo "${ftrace_frags[@]}" / "${pfe_frags[@]}"
	cat "${ftrace_frags[@]}" /dev/null; echo /; cat "${pfe_frags[@]}" /dev/null
	echo "$gccver") | sha1sum | cut -c1-12)
# keyed by trees: the series' commits change with every make series
trees=$(git --git-dir="$gitdir" rev-parse "$base^{tree}" "$head^{tree}" | cut -c1-12 | paste -sd-)
record_open "$work"
# shellcheck disable=SC2016 # markdown
record_text="# m68k defconfigs with the series (\`make defconfigs\`)

Written by harness/defconfigs.sh after each target compared: vmlinux of
the defconfig (NAME), with the tracing fragments (NAME+ftrace) or on
patchable entries (NAME+pfe), with the series against the pristine tree;
a run skips the targets listed.  Key: the target, the trees of the base
and of the series, a hash of the fragments and of the compiler
($gccver)."
# target_frags TARGET: its fragments into frags[] (none for NAME)
target_frags() {
	frags=()
	case $1 in
	*+ftrace) frags=("${ftrace_frags[@]}") ;;
	*+pfe) frags=("${pfe_frags[@]}") ;;
	esac
}
# a misspelt target is a usage error, not a build that "fails without
# the series too"
for target in "$@"; do
	target_frags "$target"
	[ "$target" = "${target%%+*}" ] || [ ${#frags[@]} -ne 0 ] ||
		{ echo "defconfigs: $target: no fragments for it: FTRACE_FRAGS or PFE_FRAGS is empty (make defconfigs sets both)" >&2; exit 1; }
	git --git-dir="$gitdir" cat-file -e "$base:arch/m68k/configs/${target%%+*}_defconfig" 2>/dev/null ||
		{ echo "defconfigs: $target: there is no arch/m68k/configs/${target%%+*}_defconfig" >&2; exit 1; }
done

# configure + build one side; prints "ok|FAILED seconds"
build() {
	local target=$1 side=$2 commit=$3 obj=$4 log=$logs/$1.$2.log name=${1%%+*}
	local frags
	target_frags "$target"
	git -C "$src" checkout -q --detach "$commit"
	local t0 rc=0
	t0=$(date +%s)
	rm -f "$obj/.locked"
	# (set -e does not apply inside "|| rc=$?": chain with &&)
	# shellcheck disable=SC2016 # $0/$@ of the inner sh
	{
		if [ "$target" = "$name" ]; then
			make -s -C "$src" O="$obj" ARCH=m68k CROSS_COMPILE=m68k-linux-gnu- \
				"${name}_defconfig"
		else
			KCONFIG_BASE=${name}_defconfig KCONFIG_LOOSE=1 \
				"$here/kconfig.sh" "$src" "$obj" "${frags[@]}"
		fi &&
			flock /tmp/kbuild.lock sh -c 'date +%s >"$0" && exec "$@"' "$obj/.locked" \
				make -C "$src" O="$obj" ARCH=m68k \
				CROSS_COMPILE=m68k-linux-gnu- CC="$cc" -j"$jobs" vmlinux
	} >"$log" 2>&1 || rc=$?
	# time from when the lock was taken
	t0=$(cat "$obj/.locked" 2>/dev/null || echo "$t0")
	# warnings without line/column numbers, one of each
	grep -E 'warning:|WARNING:' "$log" | sed -E 's/:[0-9]+:([0-9]+:)? /: /' |
		sort -u >"$logs/$target.$side.warn" || true
	if [ $rc -eq 0 ]; then
		echo "ok $(($(date +%s) - t0))"
	else
		echo "FAILED $(($(date +%s) - t0))"
	fi
}

summary=$work/summary.md
summary_head=("| target | pristine | with the series | new warnings | verdict |"
	"|---|---|---|---:|---|")
printf '%s\n' "${summary_head[@]}" >"$summary"
# the record keeps, after this run's targets, the other targets compared
# on the same trees
save_record() {
	local saved=("${record_rows[@]}") k t
	for k in $(printf '%s\n' "${!recorded[@]}" | sort); do
		t=${k%-"$trees-$fraghash"}
		[ "$t" != "$k" ] && [[ " $* " != *" $t "* ]] && record_add "${recorded[$k]}" "$k"
	done
	record_write "$record" "$record_text" "${summary_head[0]}" "${summary_head[1]}"
	record_rows=("${saved[@]}")
}
bad=0
for target in "$@"; do
	key=$target-$trees-$fraghash
	if [ -n "${recorded[$key]:-}" ]; then
		echo "defconfigs: $target: compared before ($record), skipped"
		row=${recorded[$key]}
		echo "$row" >>"$summary"
		record_add "$row" "$key"
		continue
	fi
	obj=$work/obj/$target
	mkdir -p "$obj"
	echo "==> [defconfigs $target] $(date +%T) with the series"
	read -r s_res s_t < <(build "$target" series "$head" "$obj")
	sw=$(wc -l <"$logs/$target.series.warn")
	if [ "$s_res" = ok ] && [ "$sw" -eq 0 ]; then
		b_res="not needed"
		: >"$logs/$target.base.warn"
		basecol="not needed (the series build has no warning)"
	else
		echo "==> [defconfigs $target] $(date +%T) pristine (series: $s_res, $sw warnings, ${s_t}s)"
		read -r b_res b_t < <(build "$target" base "$base" "$obj")
		bw=$(wc -l <"$logs/$target.base.warn")
		basecol="$b_res, $bw warnings, ${b_t}s"
	fi
	new=$(comm -13 "$logs/$target.base.warn" "$logs/$target.series.warn" | tee "$logs/$target.new-warnings" | wc -l)
	if [ "$s_res" = ok ] && [ "$new" -eq 0 ]; then
		verdict=ok
	elif [ "$s_res" != ok ] && [ "$b_res" != ok ]; then
		verdict="fails without the series too"
	else
		verdict="**NEW $([ "$s_res" != ok ] && echo FAILURE || echo WARNINGS)**"
	fi
	row="| $target | $basecol | $s_res, $sw warnings, ${s_t}s | $new | $verdict |"
	echo "$row" >>"$summary"
	echo "defconfigs: $row"
	case $verdict in
	"**NEW"*)
		bad=1
		head -20 "$logs/$target.new-warnings" >&2
		;;
	*)
		record_add "$row" "$key"
		save_record "$@"
		;;
	esac
done
save_record "$@"
cat "$summary"
if [ $bad -ne 0 ]; then
	echo "defconfigs: FAILED: the series adds a failure or a warning (logs in $logs)" >&2
	exit 1
fi
echo "defconfigs: no new failure or warning in $# targets"
