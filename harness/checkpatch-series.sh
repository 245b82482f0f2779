#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch-series.sh TREE SERIESDIR LOG: scripts/checkpatch.pl --strict
# (from TREE) on every patch of SERIESDIR but the cover letter.  One
# summary line per patch; the full report goes to LOG.  Fails unless every
# patch has 0 errors, 0 warnings and 0 checks.
set -euo pipefail
tree=$(realpath "$1") series=$(realpath "$2") log=$(realpath -m "$3")
mkdir -p "$(dirname "$log")"
: >"$log"
shopt -s nullglob
patches=("$series"/[0-9][0-9][0-9][0-9]-*.patch)
[ ${#patches[@]} -gt 1 ] || { echo "checkpatch: no patches in $series (run make series)" >&2; exit 1; }
bad=0
for p in "${patches[@]}"; do
	case $(basename "$p") in 0000-cover-letter.patch) continue ;; esac
	out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --color=never "$p" 2>&1) || true
	printf '### %s\n%s\n\n' "$(basename "$p")" "$out" >>"$log"
	total=$(grep -E '^total: [0-9]+ errors, [0-9]+ warnings, [0-9]+ checks' <<<"$out" || true)
	[ -n "$total" ] || total="no checkpatch summary line"
	echo "checkpatch: $(basename "$p"): $total"
	[ "${total#total: 0 errors, 0 warnings, 0 checks}" != "$total" ] || bad=1
done
if [ $bad -ne 0 ]; then
	echo "checkpatch: FAILED, full report: $log" >&2
	exit 1
fi
echo "checkpatch: all $((${#patches[@]} - 1)) patches clean with --strict ($log)"
