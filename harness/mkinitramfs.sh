#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mkinitramfs.sh [--opt NAME=DIR]... KOBJ BUSYBOX TREE OUT.cpio.gz [BINDIR...]:
# the guest's root filesystem.
#
#   /init, /harness/*   the repo's guest/ directory (/init = guest/init)
#   /bin/busybox        + applet symlinks; /bin/sh is a real copy of busybox
#   /opt/sweep          busybox.sites (beside BUSYBOX): its certain instruction
#                       starts, for the uprobe sweep (harness/uprobe-sites.py;
#                       m68k only: GUEST_ARCH=x86_64, the anchor, has none)
#   /lib/modules        KOBJ/modroot/lib/modules, when the kernel has modules
#   /opt/ftrace         TREE/tools/testing/selftests/ftrace, unmodified, and
#                       the programs its Makefile generates (poll), static
#   /opt/livepatch      TREE/tools/testing/selftests/livepatch's scripts,
#                       unmodified, and test_klp-call_getpid (static), when
#                       the kernel has CONFIG_LIVEPATCH
#   /etc                passwd, group (several groups), hosts
#   /usr/bin            the programs in each BINDIR (harness/build-guest-bin.sh,
#                       harness/build-trace-cmd.sh, ...); they replace busybox
#                       applets of the same name (awk by GNU awk)
#   /opt/NAME           the files of DIR, for each --opt NAME=DIR (NAME a
#                       relative path; none of DIR's files may be there
#                       already, from /opt/ftrace or another --opt):
#                       programs that must not replace busybox's applets,
#                       e.g. --opt livepatch/bin=build/klp-tools/bin
#                       (harness/build-klp-tools.sh: bash, GNU date, stat,
#                       diff, sysctl and kmod for the livepatch selftests)
#
# The tree is staged in KOBJ/initramfs-root and packed with the kernel's
# gen_init_cpio, so every entry is owned by root and /dev/console and
# /dev/null exist without root privileges.  Nothing is rebuilt when no input
# changed (hashes in OUT.inputs).
set -euo pipefail
# shellcheck source=harness/arch.sh
. "$(dirname "$0")/arch.sh"
me=mkinitramfs
# shellcheck source=harness/lib.sh
. "$(dirname "$0")/lib.sh"

usage="usage: $0 [--opt NAME=DIR]... KOBJ BUSYBOX TREE OUT.cpio.gz [BINDIR...]"
# optnames[i] is put in /opt from optdirs[i]
optnames=()
optdirs=()
while [ $# -gt 0 ] && [ "$1" = --opt ]; do
	[ $# -ge 2 ] || die "$usage"
	name=${2%%=*}
	d=${2#*=}
	[ "$name" != "$2" ] || die "--opt $2: not NAME=DIR"
	case /$name/ in
	//* | */../* | */./* | *[[:space:]]*) die "--opt $2: NAME must be a relative path without blanks, . or .." ;;
	esac
	[ -d "$d" ] || die "--opt $2: no directory $d"
	optnames+=("${name%/}")
	optdirs+=("$(realpath "$d")")
	shift 2
done
[ $# -ge 4 ] || die "$usage"
kobj=$(realpath "$1")
busybox=$(realpath "$2")
tree=$(realpath "$3")
out=$(realpath -m "$4")
shift 4
bindirs=()
for d in "$@"; do
	[ -d "$d" ] || die "no program directory $d"
	bindirs+=("$(realpath "$d")")
done
self=$(realpath "$0")
guest=$(realpath "$(dirname "$0")/../guest")
links=$(dirname "$busybox")/busybox.links
sites=$(dirname "$busybox")/busybox.sites
modules=$kobj/modroot/lib/modules
selftests=$tree/tools/testing/selftests/ftrace
klpselftests=$tree/tools/testing/selftests/livepatch

[ -f "$busybox" ] || die "no busybox binary at $busybox"
[ -f "$links" ] || die "no applet list at $links (made by harness/build-busybox.sh)"
[ -f "$sites" ] || [ "$KARCH" != m68k ] ||
	die "no instruction starts at $sites (made by harness/uprobe-sites.py)"
[ -x "$guest/init" ] || die "$guest/init missing or not executable"
[ -x "$selftests/ftracetest" ] || die "no ftrace selftests in $selftests"

# One line "NAME HASH" per input; a directory hashes names, modes, link
# targets and contents.
hash_dir() {
	if [ -d "$1" ]; then
		tar -C "$1" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
			-cf - . | sha256sum | cut -d' ' -f1
	else
		echo none
	fi
}
hash_inputs() {
	echo "script $(sha256sum <"$self" | cut -d' ' -f1)"
	echo "busybox $({ cat "$busybox" "$links"; [ ! -f "$sites" ] || cat "$sites"; } |
		sha256sum | cut -d' ' -f1)"
	echo "modules $(hash_dir "$modules")"
	echo "guest $(hash_dir "$guest")"
	echo "selftests $(hash_dir "$selftests")"
	echo "klpselftests $(hash_dir "$klpselftests") $(grep -x 'CONFIG_LIVEPATCH=y' "$kobj/.config" || true)"
	for d in "${bindirs[@]}"; do
		echo "bin:$d $(hash_dir "$d")"
	done
	local i
	for i in "${!optnames[@]}"; do
		echo "opt:${optnames[i]}:${optdirs[i]} $(hash_dir "${optdirs[i]}")"
	done
}
stamp=$out.inputs
now=$(hash_inputs)
if [ -f "$out" ] && [ -f "$stamp" ] && [ "$now" = "$(cat "$stamp")" ]; then
	echo "$me: $out is up to date"
	exit 0
fi
if [ -f "$out" ] && [ -f "$stamp" ]; then
	changed=$({ diff <(echo "$now") "$stamp" || true; } | sed -n 's/^[<>] \([^ ]*\) .*/\1/p' | sort -u | tr '\n' ' ')
	echo "$me: rebuilding, changed: $changed"
else
	echo "$me: building $out"
fi

root=$kobj/initramfs-root
rm -rf "$root"
mkdir -p "$root"
cd "$root"
mkdir -p bin sbin usr/bin usr/sbin etc dev proc sys tmp run mnt root opt harness lib/modules var/tmp
chmod 1777 tmp var/tmp
chmod 700 root

cp "$busybox" bin/busybox
chmod 755 bin/busybox
# The uprobe selftest needs a mapping of a file named .../bin/sh: a copy, not a link.
cp bin/busybox bin/sh
if [ -f "$sites" ]; then
	mkdir -p opt/sweep
	cp "$sites" opt/sweep/busybox.sites
fi
# ~400 applet links in one process (a fork per link takes seconds).
perl -nle 'next if m{^(/bin/sh|/linuxrc)?$};
	symlink("/bin/busybox", ".$_") or die "'"$me"': applet link $_: $!\n"' "$links"

if [ -d "$modules" ]; then
	cp -a "$modules/." lib/modules/
	# modules_install leaves build/source links pointing into the host.
	find lib/modules -mindepth 2 -maxdepth 2 -type l \( -name build -o -name source \) -delete
	nmod=$(find lib/modules -name '*.ko*' | wc -l)
else
	nmod=0
fi

cp -a "$selftests" opt/ftrace
# The suite's TEST_GEN_FILES, built by its own Makefile (lib.mk).
gen_out=$kobj/kselftest-ftrace
rm -rf "$gen_out"
mkdir -p "$gen_out"
make -s -C "$selftests" ARCH="$KARCH" CROSS_COMPILE="$CROSS" CC="$GUEST_CC" \
	LDFLAGS=-static OUTPUT="$gen_out" >"$gen_out.log" 2>&1 ||
	die "building the ftrace selftests' programs failed (log: $gen_out.log)"
for f in "$gen_out"/*; do
	[ -f "$f" ] || continue
	"${CROSS}strip" -o "opt/ftrace/$(basename "$f")" "$f"
done
# With live patching, the livepatch selftests' scripts, unmodified, and
# their test_klp-call_getpid program (static); their test modules are
# built against the kernel and installed with its modules
# (harness/build-kernel.sh), so the sources stay out.  The program is
# compiled here, not by the suite's Makefile, whose lib.mk would also
# build the modules against the build machine's kernel.
if grep -qx 'CONFIG_LIVEPATCH=y' "$kobj/.config"; then
	cp -a "$klpselftests" opt/livepatch
	rm -rf opt/livepatch/test_modules
	"$GUEST_CC" -static -O2 -o "$kobj/test_klp-call_getpid" \
		"$klpselftests/test_klp-call_getpid.c" ||
		die "building the livepatch selftests' test_klp-call_getpid failed"
	"${CROSS}strip" -o opt/livepatch/test_klp-call_getpid "$kobj/test_klp-call_getpid"
fi
for d in "${bindirs[@]}"; do
	for f in "$d"/*; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		rm -f "usr/bin/$(basename "$f")"
	done
	cp -a "$d/." usr/bin/
done
for i in "${!optnames[@]}"; do
	o=opt/${optnames[i]}
	for f in "${optdirs[i]}"/* "${optdirs[i]}"/.[!.]*; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		if [ -e "$o/${f##*/}" ] || [ -L "$o/${f##*/}" ]; then
			die "--opt ${optnames[i]}=${optdirs[i]}: /$o/${f##*/} exists already"
		fi
	done
	mkdir -p "$o"
	cp -a "${optdirs[i]}/." "$o/"
done
cp -a "$guest/." harness/
cp "$guest/init" init
chmod 755 init

cat >etc/passwd <<'EOF'
root:x:0:0:root:/root:/bin/sh
daemon:x:1:1:daemon:/usr/sbin:/bin/false
bin:x:2:2:bin:/bin:/bin/false
sys:x:3:3:sys:/dev:/bin/false
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
EOF
cat >etc/group <<'EOF'
root:x:0:
daemon:x:1:
bin:x:2:
sys:x:3:
adm:x:4:
tty:x:5:
disk:x:6:
lp:x:7:
mail:x:8:
kmem:x:15:
dialout:x:20:
audio:x:29:
video:x:44:
staff:x:50:
users:x:100:
nogroup:x:65534:
EOF
cat >etc/hosts <<'EOF'
127.0.0.1	localhost
::1		localhost ip6-localhost
EOF
echo "$KARCH" >etc/hostname

# gen_init_cpio takes whitespace-separated fields: no blanks in names.
bad=$(find . -name '*[[:space:]]*' | head -n 3)
[ -z "$bad" ] || die "file names with blanks cannot be packed: $bad"

gen=$kobj/usr/gen_init_cpio
if [ ! -x "$gen" ]; then
	gen=$kobj/initramfs-gen_init_cpio
	if [ ! -x "$gen" ] || [ "$gen" -ot "$tree/usr/gen_init_cpio.c" ]; then
		echo "$me: building $gen"
		gcc -O2 -o "$gen" "$tree/usr/gen_init_cpio.c" || die "cannot build gen_init_cpio"
	fi
fi

list=$kobj/initramfs.list
{
	find . -mindepth 1 -printf '%y %P %m %l\n' | LC_ALL=C sort -k2,2 | while read -r type path mode target; do
		case $type in
		d) echo "dir /$path $mode 0 0" ;;
		f) echo "file /$path $root/$path $mode 0 0" ;;
		l) echo "slink /$path $target 0777 0 0" ;;
		*) die "unexpected file type '$type': $path" ;;
		esac
	done
	# After /dev itself: the kernel does not create missing parents.
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
} >"$list"

"$gen" "$list" | gzip -9 >"$out.tmp" || die "gen_init_cpio failed (list: $list)"
mv "$out.tmp" "$out"
echo "$now" >"$stamp"
echo "$me: $out: $(du -h "$out" | cut -f1), $(wc -l <"$list") entries, $nmod modules"
