#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kconfig.sh TREE KOBJ FRAGMENT...: virt_defconfig (or $KCONFIG_BASE) +
# fragments, merged with the kernel's own merge_config.sh.  Fails when a
# requested option did not survive (a missing dependency would otherwise
# silently drop it); with KCONFIG_LOOSE=1 (make bisect-build, make
# defconfigs: trees and machines that lack some options) it only lists
# the dropped options in KOBJ/dropped.txt.  With KCONFIG_NO_MODULES=1 (the
# guest kernels of make run/check) the defconfig's own modules are left
# out: the guest loads only the test modules the fragments ask for, and
# mac_defconfig alone has 420 of them (virt_defconfig none).
#
# kconfig.sh --verify KOBJ FRAGMENT...: only the check, on KOBJ/.config as
# the last build left it (kbuild's syncconfig rewrites .config when a Kconfig
# file of the tree changes, and may drop an option then: make kernel runs
# this after every build).
# GUEST_ARCH=x86_64: arch/x86's defconfigs and the host's gcc (arch.sh).
set -euo pipefail
# shellcheck source=harness/arch.sh
. "$(dirname "$0")/arch.sh"
verify=''
if [ "$1" = --verify ]; then
	verify=1
	shift
	tree='' kobj=$1
	shift
else
	tree=$1 kobj=$2
	shift 2
fi
mkdir -p "$kobj"
frags=()
for f in "$@"; do frags+=("$(realpath "$f")"); done
cd "$kobj"
if [ -z "$verify" ]; then
	base=$tree/arch/$KSRCARCH/configs/${KCONFIG_BASE:-virt_defconfig}
	[ -f "$base" ] || { echo "kconfig: no $base" >&2; exit 1; }
	if [ "${KCONFIG_NO_MODULES:-0}" = 1 ]; then
		grep -v '=m$' "$base" >"$kobj/base_defconfig"
		base=$kobj/base_defconfig
	fi
	ARCH=$KARCH CROSS_COMPILE=$CROSS "$tree/scripts/kconfig/merge_config.sh" -m -O "$kobj" \
		"$base" "${frags[@]}" >"$kobj/merge.log"
	make -s -C "$tree" O="$kobj" ARCH="$KARCH" CROSS_COMPILE="$CROSS" olddefconfig
fi

# what the fragments want of each option: a later fragment's setting
# overrides an earlier one's, as in merge_config.sh
declare -A want from
opts=()
for f in "${frags[@]}"; do
	name=$(basename "$f")
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=n) w="# ${line%=n} is not set" ;;
		CONFIG_*) w=$line ;;
		"# CONFIG_"*" is not set") w=$line ;;
		*) continue ;;
		esac
		opt=${w#\# }
		opt=${opt%%[= ]*}
		[ -n "${want[$opt]+set}" ] || opts+=("$opt")
		want[$opt]=$w from[$opt]=$name
	done <"$f"
done
bad=0
: >dropped.txt
for opt in "${opts[@]}"; do
	w=${want[$opt]}
	# "not set" is also met by an option that does not exist here
	if [ "$w" = "# $opt is not set" ] && ! grep -qE "^(# )?${opt}[= ]" .config; then
		continue
	fi
	if ! grep -qxF "$w" .config; then
		echo "$w" >>dropped.txt
		[ "${KCONFIG_LOOSE:-0}" = 1 ] && continue
		echo "kconfig: ${from[$opt]}: wanted '$w', got '$(grep -E "^(# )?${opt}[= ]" .config || echo "(absent)")'" >&2
		bad=1
	fi
done
if [ $bad -ne 0 ]; then
	# removed, so that the next make regenerates it from the fragments
	rm -f .config
	echo "kconfig: requested options are missing from the final .config (see above)" >&2
	exit 1
fi
[ -n "$verify" ] && exit 0
echo "kconfig: $(grep -c '=y' .config) options =y${KCONFIG_LOOSE:+, $(wc -l <dropped.txt) requested options dropped}"
