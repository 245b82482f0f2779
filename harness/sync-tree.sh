#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make the work tree = pristine tree + overlay files + patches/series.
#   sync-tree.sh REPO PRISTINE WORKTREE
#
# Only files whose content changed are rewritten, so kbuild rebuilds just
# what depends on them; a file that left the overlay or the patch set goes
# back to its pristine content (or is removed when it is new).
set -euo pipefail
repo=$(realpath "$1") pristine=$(realpath "$2") tree=$(realpath -m "$3")
self=$(realpath "$0")
# Top-level kernel directories the overlay may hold.
KDIRS="arch block certs crypto Documentation drivers fs include init io_uring
ipc kernel lib mm net rust samples scripts security sound tools usr virt"

if [ ! -d "$tree" ]; then
	echo "sync-tree: creating work tree (hard links to the pristine tree)"
	cp -al "$pristine" "$tree.tmp"
	mv "$tree.tmp" "$tree"
fi

stage=$tree.stage
# The overlay files (KDIRS of the repository), and what the tree is made
# of: those and the patches (names and contents), this script and the
# pristine tree's version.  When it is what the last sync recorded, the
# tree is already right (make check syncs once per kernel; each full pass
# forks some thousand processes).
(cd "$repo" && for d in $KDIRS; do
	if [ -d "$d" ]; then git ls-files -co --exclude-standard "$d"; fi
done) | sort -u >"$stage.overlay"
fingerprint=$( (cd "$repo" &&
	{ cat "$stage.overlay"; git ls-files -co --exclude-standard patches; } >"$stage.fp-files" &&
	cat "$stage.fp-files" && xargs -r -d '\n' cat <"$stage.fp-files" && cat "$self" &&
	{ cat "$pristine/.debian-version" 2>/dev/null || true; }) | md5sum)
rm -f "$stage.fp-files"
if [ -f "$tree/.overlay-files" ] &&
   [ "$(cat "$tree/.sync-fingerprint" 2>/dev/null)" = "$fingerprint" ]; then
	rm -f "$stage.overlay"
	echo "sync-tree: $(wc -l <"$tree/.overlay-files") overlay/patched files, up to date"
	exit 0
fi
rm -f "$tree/.sync-fingerprint"

rm -rf "$stage" && mkdir -p "$stage"
new_list=$stage.list
: >"$new_list"

# 1. overlay files
while read -r f; do
	mkdir -p "$stage/$(dirname "$f")"
	cp -p "$repo/$f" "$stage/$f"
	echo "$f" >>"$new_list"
done <"$stage.overlay"

# 2. patches, in series order, applied to pristine copies of the files they touch
series=$repo/patches/series
if [ -f "$series" ]; then
	{ grep -v '^\s*\(#\|$\)' "$series" || true; } | while read -r p; do
		pf=$repo/patches/$p
		[ -f "$pf" ] || { echo "sync-tree: patches/series names missing patch $p" >&2; exit 1; }
		# files the patch touches (+++ b/path)
		sed -n 's|^+++ b/\([^\t ]*\).*|\1|p' "$pf" | while read -r f; do
			if [ ! -e "$stage/$f" ] && [ -e "$pristine/$f" ]; then
				mkdir -p "$stage/$(dirname "$f")"
				cp -p "$pristine/$f" "$stage/$f"
			fi
			echo "$f" >>"$new_list"
		done
		if ! out=$(patch -p1 -d "$stage" --no-backup-if-mismatch -f -s <"$pf" 2>&1); then
			echo "sync-tree: patch FAILED to apply: patches/$p" >&2
			echo "$out" >&2
			exit 1
		fi
	done
fi
sort -u -o "$new_list" "$new_list"

# 3. copy changed files into the tree (a rename breaks the hard link to pristine)
changed=0
while read -r f; do
	[ -e "$stage/$f" ] || continue
	if ! cmp -s "$stage/$f" "$tree/$f"; then
		mkdir -p "$tree/$(dirname "$f")"
		cp -p "$stage/$f" "$tree/$f.sync-tmp"
		touch "$tree/$f.sync-tmp"
		mv -f "$tree/$f.sync-tmp" "$tree/$f"
		changed=$((changed + 1))
	fi
done <"$new_list"

# 4. files we touched last time but not now: restore them
old_list=$tree/.overlay-files
if [ -f "$old_list" ]; then
	comm -23 "$old_list" "$new_list" | while read -r f; do
		if [ -e "$pristine/$f" ]; then
			cp -p "$pristine/$f" "$tree/$f.sync-tmp"
			touch "$tree/$f.sync-tmp"
			mv -f "$tree/$f.sync-tmp" "$tree/$f"
		else
			rm -f "$tree/$f"
		fi
		echo "sync-tree: restored $f"
	done
fi
cp "$new_list" "$old_list"
echo "$fingerprint" >"$tree/.sync-fingerprint"
rm -rf "$stage" "$stage.list" "$stage.overlay"
echo "sync-tree: $(wc -l <"$old_list") overlay/patched files, $changed updated"
