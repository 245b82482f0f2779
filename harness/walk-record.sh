# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# walk-record.sh (sourced): a result table kept in the repository by the walks
# that outlast a session and the machine it ran on (make bisect-build, make
# defconfigs): a markdown table whose rows each end with the key of what
# was built, "| `KEY` |".  A run skips what the table holds for its key,
# and rewrites the table after each new row, so that a session cut off
# keeps what it built (commit the file with the session's work).
# WALK_FRESH=1 reads nothing from it.  Also the set-up both walks share
# (walk_setup).

# shellcheck disable=SC2034 # read by the scripts that source this
declare -A recorded=()
record_rows=()

# record_open WORK: record = the table of this walk, WALK_RECORD if set
# (make sets it to the one under docs/), else WORK/record.md, as an
# absolute path (the walks change directory); its rows into recorded[]
record_open() {
	[ -n "$1" ] || { echo "record_open: no work directory" >&2; return 1; }
	record=$(realpath -m "${WALK_RECORD:-$1/record.md}")
	record_load "$record"
}

# record_load FILE: the rows of FILE, by key, into recorded[]
record_load() {
	local line key
	[ -f "$1" ] && [ "${WALK_FRESH:-0}" != 1 ] || return 0
	# shellcheck disable=SC2016 # the backquotes are markdown
	while IFS= read -r line; do
		key=${line##*| \`}
		key=${key%\` |}
		recorded[$key]=${line% \`*}
	done < <(grep -E '^\|.*\| `[^`|]+` \|$' "$1")
}

# record_add ROW KEY: ROW ("| a | b |") goes into this run's table
record_add() {
	record_rows+=("$1 \`$2\` |")
}

# record_write FILE TEXT HEADER ALIGN: FILE = TEXT (title and paragraphs),
# then the table: HEADER and ALIGN rows (without the key column), the rows
record_write() {
	{
		printf '%s\n\n' "$2"
		echo "$3 key |"
		echo "$4---|"
		[ ${#record_rows[@]} -eq 0 ] || printf '%s\n' "${record_rows[@]}"
	} >"$1.tmp" && mv "$1.tmp" "$1"
}

# walk_setup NAME GITDIR WORK COMMIT: before a walk's first build: the
# cross compiler on PATH (without it every side fails to configure, which
# would read as "fails without the series too": refuse to start instead);
# WORK/src a git worktree of GITDIR at COMMIT unless it is one already
# (kept between runs, so a build rewrites only the files that changed);
# gccver, which every key includes (a new gcc can warn where the old one
# did not), and cc, through ccache when it is installed (its cache beside
# WORK unless CCACHE_DIR says otherwise)
walk_setup() {
	command -v m68k-linux-gnu-gcc >/dev/null || {
		echo "$1: m68k-linux-gnu-gcc is not on PATH (run it through make," \
			"which puts build/bin first)" >&2
		return 1
	}
	if [ ! -e "$3/src/.git" ]; then
		rm -rf "$3/src"
		git --git-dir="$2" worktree prune
		echo "$1: checking out the base tree into $3/src"
		git --git-dir="$2" worktree add -q --detach "$3/src" "$4"
	fi
	gccver=$(m68k-linux-gnu-gcc --version | head -1)
	cc=m68k-linux-gnu-gcc
	command -v ccache >/dev/null && cc="ccache $cc"
	export CCACHE_DIR=${CCACHE_DIR:-$3/../ccache}
}
