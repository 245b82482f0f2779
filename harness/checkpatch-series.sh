#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch-series.sh TREE SERIESDIR LOG: scripts/checkpatch.pl --strict
# (from TREE) on every patch of SERIESDIR but the cover letter.  One
# summary line per patch; the full report goes to LOG.  Fails unless every
# patch has 0 errors, 0 warnings and 0 checks.
#
# checkpatch asks "does MAINTAINERS need updating?" (FILE_PATH_CHANGES) of
# every patch that adds a file.  That one is answered here instead: it is
# ignored, and every added file must have a maintainer in TREE's
# MAINTAINERS (scripts/get_maintainer.pl -f).
#
# TREE is a source tarball's tree with no upstream history, where checkpatch
# calls every commit id of a Fixes: tag unknown (UNKNOWN_COMMIT_ID): that
# one is ignored too; each Fixes: id is looked up in the upstream history
# by hand when the tag is written.
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
	out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --color=never \
		--ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID "$p" 2>&1) || true
	printf '### %s\n%s\n\n' "$(basename "$p")" "$out" >>"$log"
	total=$(grep -E '^total: [0-9]+ errors, [0-9]+ warnings, [0-9]+ checks' <<<"$out" || true)
	[ -n "$total" ] || total="no checkpatch summary line"
	# CamelCase register names the kernel's own m68k headers define
	# (vT2CH of asm/mac_via.h): checkpatch seeds its list from include/
	# only.  Any other check counts.
	old=0
	while read -r id; do
		grep -rqw -- "$id" "$tree/../pristine/arch/m68k/include" && old=$((old + 1))
	done < <(sed -n 's/^CHECK: Avoid CamelCase: <\(.*\)>$/\1/p' <<<"$out")
	checks=$(sed -n 's/^total: 0 errors, 0 warnings, \([0-9]*\) checks.*/\1/p' <<<"$total")
	[ "$old" -eq 0 ] || total="$total ($old of them CamelCase names of arch/m68k/include)"
	echo "checkpatch: $(basename "$p"): $total"
	[ -n "$checks" ] && [ "$checks" -eq "$old" ] || bad=1
done
# checkpatch caches its CamelCase list in the tree: leave TREE as the build made it
rm -f "$tree"/.checkpatch-camelcase.*

# the files the series adds, and their maintainers
added=$(awk '/^diff --git / { f = substr($4, 3) } /^new file mode/ { print f }' "${patches[@]}" | sort -u)
for f in $added; do
	who=$(cd "$tree" && perl scripts/get_maintainer.pl --no-git --no-git-fallback -f "$f" 2>&1 |
		sed -n 's/.*(maintainer:\(.*\))/\1/p' | sort -u | paste -sd,) || who=
	echo "checkpatch: new file $f: ${who:-NO MAINTAINER}" | tee -a "$log"
	[ -n "$who" ] || bad=1
done

if [ $bad -ne 0 ]; then
	echo "checkpatch: FAILED, full report: $log" >&2
	exit 1
fi
echo "checkpatch: all $((${#patches[@]} - 1)) patches clean with --strict ($log)"
