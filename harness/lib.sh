# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by the harness scripts: die(), and the machines of
# harness/machines with the kernel ids and object directories built on
# them.  A script sets `me` (its name in messages) before it sources this,
# and die_status when its errors exit with another status than 1.

die() { echo "${me:-harness}: $*" >&2; exit "${die_status:-1}"; }

HARNESS_MACHINES=$(dirname "${BASH_SOURCE[0]}")/machines

# machine_field MACHINE FIELD: one field of MACHINE's line (FIELD: defconfig,
# emulator, board, cpu, console, shift, config or label); fails for an
# unknown machine.
machine_field() {
	awk -v m="$1" -v f="$2" '
		BEGIN { split("machine defconfig emulator board cpu console shift config", n)
			for (i in n) col[n[i]] = i }
		/^#/ || NF == 0 { next }
		$1 == m { found = 1
			  if (f == "label") { for (i = 1; i <= 8; i++) $i = ""; sub(/^ +/, ""); print }
			  else if (f in col) print $col[f]
			  else exit 2
			  exit }
		END { exit found ? 0 : 1 }' "$HARNESS_MACHINES"
}

# machines: every machine's name, in the table's order.
machines() {
	awk '!/^#/ && NF { print $1 }' "$HARNESS_MACHINES"
}

# kernel_id MACHINE VARIANT: the kernel's id (virt's kernels: VARIANT).
kernel_id() {
	if [ "$1" = virt ]; then echo "$2"; else echo "$1-$2"; fi
}

# kernel_of ID: kernel ID itself, or the id an object directory kobj-ID
# is named by.
kernel_of() {
	local id=${1##*/}
	echo "${id#kobj-}"
}

# kernel_machine ID: the machine of kernel ID (or of kobj-ID).
kernel_machine() {
	local id
	id=$(kernel_of "$1")
	case $id in
	*-*) echo "${id%%-*}" ;;
	*) echo virt ;;
	esac
}

# kernel_variant ID: the variant of kernel ID (or of kobj-ID).
kernel_variant() {
	local id
	id=$(kernel_of "$1")
	echo "${id#*-}"
}

# kobj BUILD_DIR ID: the kernel's object directory.
kobj() {
	echo "$1/kobj-$2"
}

# The ramoops region of the pstore kernels (the pstore suite, make bench):
# 1 MiB reserved by the generic reserve_mem= and named to ramoops, which
# holds the oops/panic records, the console, pmsg and the function
# recorder's zone.  m68k's command line holds 255 characters: the sizes
# are short.  One line: the callers put it on a command line.
PSTORE_ARGS='reserve_mem=1M:1M:oops ramoops.mem_name=oops ramoops.record_size=65536'
PSTORE_ARGS+=' ramoops.console_size=65536 ramoops.ftrace_size=65536'
