#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-klp-tools.sh OUTDIR: static m68k bash, GNU date and stat
# (coreutils), GNU diff (diffutils), procps' sysctl, kmod and glibc's
# getconf from Debian's source packages (bash, coreutils, diffutils,
# procps, kmod, glibc), left in OUTDIR/bin as bash, date, stat, diff,
# sysctl, kmod and getconf, with insmod, rmmod, modinfo, modprobe and
# lsmod links to kmod; with GUEST_ARCH=x86_64 (arch.sh) the x86_64
# anchor's, by the host's gcc.
#
# The kernel's livepatch selftests (tools/testing/selftests/livepatch) need
# them where busybox falls short: the scripts are bash's (`[[ ]]`, `<( )`,
# `&>`), they call `sysctl --values`/`sysctl -q`, `date --rfc-3339=ns`,
# `/bin/stat --format '%A'`, `diff -upr --label`, insmod, rmmod and
# modinfo, and `getconf _NPROCESSORS_ONLN`.  mkinitramfs.sh puts them in the guest's /opt/livepatch/bin
# (`--opt livepatch/bin=OUTDIR/bin`), not in /usr/bin: the other suites
# rely on busybox's applets of the same names.
# Only these programs are built of each package: coreutils' and diffutils'
# generated headers (BUILT_SOURCES) and then `make src/date src/stat` and
# `make -C src diff`; procps' src/sysctl, without ncurses or systemd;
# kmod's tools/kmod, without compression or openssl (the kernel's modules
# are not compressed); glibc's posix/getconf.c alone, against the C
# library it is linked with (the cross compiler's, the same glibc
# version), with the header glibc's build generates for it.  bash takes /proc/self/fd for process substitution
# and emulates /dev/stdin (the guest's devtmpfs /dev has neither /dev/fd
# nor /dev/stdin; configure would find the build machine's).  The kmod
# source package is a git snapshot without a configure script:
# autoreconf makes it (harness/deps.sh installs autoconf, automake and
# libtool).  The link warns that getpwnam and the like need glibc's
# shared libraries at run time: not for /etc/passwd and /etc/group, which
# the static programs read (stat's %U says root).
# functions.sh runs /bin/stat by its path, which is busybox's stat (no
# --format): whatever runs the suite in the guest has to put this one
# there for the run, or run the scripts with /opt/livepatch/bin first in
# PATH and that path rewritten.
#
# Does nothing when the programs were built by this script as it is
# (OUTDIR/script.hash: a hash of it, arch.sh and debsrc.sh; a file's time would
# change with every git checkout, and rebuild for nothing).  The source
# packages are downloaded once into build/dl; build logs are OUTDIR/*.log.
# The six are built at the same time: most of each build is a configure
# script, which keeps one core busy.
# Environment: JOBS (default: nproc).
set -euo pipefail
# shellcheck source=harness/arch.sh
. "$(dirname "$0")/arch.sh"
# shellcheck source=harness/debsrc.sh
. "$(dirname "$0")/debsrc.sh"
me=build-klp-tools
# shellcheck source=harness/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: $0 OUTDIR"
out=$(realpath -m "$1")
dl=$(realpath -m "$(dirname "$0")/../build/dl")
jobs=${JOBS:-$(nproc)}
cc=$GUEST_CC

progs=(bash date stat diff sysctl kmod getconf)
kmod_links=(insmod rmmod modinfo modprobe lsmod)
key=$(cat "$0" "$(dirname "$0")/arch.sh" "$(dirname "$0")/debsrc.sh" | sha1sum | cut -c1-16)
uptodate=1
for p in "${progs[@]}" "${kmod_links[@]}"; do
	[ -x "$out/bin/$p" ] || uptodate=
done
if [ -n "$uptodate" ] && [ "$(cat "$out/script.hash" 2>/dev/null)" = "$key" ]; then
	echo "$me: $out/bin is up to date, nothing to do"
	exit 0
fi
command -v "$cc" >/dev/null || die "$cc not found (harness/deps.sh installs it)"
command -v autoreconf >/dev/null ||
	die "autoreconf not found, kmod needs it (harness/deps.sh installs autoconf, automake, libtool)"
mkdir -p "$out/bin" "$dl"

# The source packages, each with the versions it is taken in.
declare -A version=([bash]='5.*' [coreutils]='9.*' [diffutils]='3.*' [procps]='4.*'
	[kmod]='[0-9]*' [glibc]='2.*')
# the GNU triplet configure builds for
host=${CROSS%-}
[ -n "$host" ] || host=$(gcc -dumpmachine)
# The Debian patches leave some autotools inputs newer than their outputs:
# make is told not to regenerate them (nor the manuals).
noregen=(ACLOCAL=true AUTOMAKE=true AUTOCONF=true AUTOHEADER=true MAKEINFO=true)
# built_sources DIR: make the BUILT_SOURCES of DIR's Makefile (generated
# headers that only `make all` makes before compiling), so that single
# programs can be built.
built_sources() {
	# shellcheck disable=SC2016 # $(BUILT_SOURCES) is make's
	printf 'klp-built-sources: $(BUILT_SOURCES)\n' |
		make -C "$1" "${noregen[@]}" -f Makefile -f - klp-built-sources
}
t0=$(date +%s)
for pkg in "${!version[@]}"; do
	: >"$out/$pkg.log"
	download "$pkg"
done

# configure_pkg PACKAGE ARGS...: configure PACKAGE in $out/src/PACKAGE-build
configure_pkg() {
	local pkg=$1
	shift
	mkdir -p "$out/src/$pkg-build"
	(cd "$out/src/$pkg-build" && "../$pkg/configure" --host="$host" CC="$cc" "$@") \
		>>"$out/$pkg.log" 2>&1 || fail "$pkg" "configure failed"
}

# bash: /proc/self/fd for <( ) (named pipes as well), /dev/stdin emulated
# (see above); the bundled readline and termcap, no bash malloc.
build_bash() {
	unpack bash
	local b=$out/src/bash-build
	echo "$me: building bash (-j$jobs), log: $out/bash.log"
	configure_pkg bash --disable-nls --without-bash-malloc --enable-static-link \
		bash_cv_dev_fd=whacky bash_cv_dev_stdin=absent bash_cv_sys_named_pipes=present
	make -C "$b" -j"$jobs" bash >>"$out/bash.log" 2>&1 || fail bash "make bash failed"
	install_bin "$b/bash" bash
}

# coreutils' configure refuses to run as root (as make run and CI do)
# unless told; it asks only when it is not cross-compiling (x86_64).
build_coreutils() {
	unpack coreutils
	local b=$out/src/coreutils-build
	echo "$me: building date and stat (-j$jobs), log: $out/coreutils.log"
	configure_pkg coreutils --disable-nls --without-selinux --disable-acl --disable-xattr \
		--disable-libcap --without-openssl --without-libgmp FORCE_UNSAFE_CONFIGURE=1
	built_sources "$b" >>"$out/coreutils.log" 2>&1 || fail coreutils "generating the headers failed"
	make -C "$b" -j"$jobs" "${noregen[@]}" src/date src/stat LDFLAGS=-static \
		>>"$out/coreutils.log" 2>&1 || fail coreutils "make src/date src/stat failed"
	install_bin "$b/src/date" date
	install_bin "$b/src/stat" stat
}

build_diffutils() {
	unpack diffutils
	local b=$out/src/diffutils-build
	echo "$me: building diff (-j$jobs), log: $out/diffutils.log"
	configure_pkg diffutils --disable-nls
	make -C "$b/lib" -j"$jobs" "${noregen[@]}" >>"$out/diffutils.log" 2>&1 ||
		fail diffutils "make -C lib failed"
	built_sources "$b/src" >>"$out/diffutils.log" 2>&1 || fail diffutils "generating the headers failed"
	make -C "$b/src" -j"$jobs" "${noregen[@]}" diff LDFLAGS=-static >>"$out/diffutils.log" 2>&1 ||
		fail diffutils "make -C src diff failed"
	install_bin "$b/src/diff" diff
}

# sysctl alone of procps; cross-compiling, configure cannot run its
# malloc(0) and realloc(0) checks and would replace both by rpl_ ones
# nothing defines: glibc's return non-NULL.
build_procps() {
	unpack procps
	local b=$out/src/procps-build
	echo "$me: building sysctl (-j$jobs), log: $out/procps.log"
	configure_pkg procps --disable-shared --enable-static --disable-nls --without-ncurses \
		--without-systemd --without-elogind \
		ac_cv_func_malloc_0_nonnull=yes ac_cv_func_realloc_0_nonnull=yes
	# libtool drops a plain -static; -all-static links everything statically.
	make -C "$b" -j"$jobs" "${noregen[@]}" src/sysctl LDFLAGS=-all-static \
		>>"$out/procps.log" 2>&1 || fail procps "make src/sysctl failed"
	install_bin "$b/src/sysctl" sysctl
}

# tools/kmod links libkmod as a libtool convenience library (kmod's
# configure refuses --enable-static for the installed one); its insmod,
# rmmod, ... are links to it.  gtk-doc is not installed: an empty
# gtk-doc.make stands in for it, as kmod's own autogen.sh does.
build_kmod() {
	unpack kmod
	local b=$out/src/kmod-build s=$out/src/kmod
	echo "$me: building kmod (-j$jobs), log: $out/kmod.log"
	touch "$s/libkmod/docs/gtk-doc.make"
	(cd "$s" && autoreconf --force --install) >>"$out/kmod.log" 2>&1 || fail kmod "autoreconf failed"
	configure_pkg kmod --disable-manpages --disable-test-modules --disable-python \
		--without-zstd --without-xz --without-zlib --without-openssl
	make -C "$b" -j"$jobs" tools/kmod LDFLAGS=-all-static >>"$out/kmod.log" 2>&1 ||
		fail kmod "make tools/kmod failed"
	install_bin "$b/tools/kmod" kmod
	local l
	for l in "${kmod_links[@]}"; do
		ln -sfn kmod "$out/bin/$l"
	done
}

# glibc's getconf: posix/getconf.c and what it includes from the upstream
# tarball of the source package (no Debian patch touches them), the
# posix-conf-vars-def.h that glibc's build generates with
# scripts/gen-posix-conf-vars.awk, and the strings its configure and
# internal headers would define (the version, where to report bugs, the
# message catalogue and its _() macro).
build_glibc() {
	local orig ver s=$out/src/glibc log=$out/glibc.log
	ver=$(sed -n 's/^Version: //p' "${dsc[glibc]}")
	orig=$(find "$dl" -maxdepth 1 -name "glibc_${ver%%-*}.orig.tar.*" | head -n 1)
	[ -f "$orig" ] || fail glibc "no upstream tarball of glibc $ver in $dl"
	echo "$me: building getconf (glibc $ver), log: $log"
	rm -rf "$s" && mkdir -p "$s/gen"
	tar -C "$s" --strip-components=1 -xf "$orig" "glibc-${ver%%-*}/posix" \
		"glibc-${ver%%-*}/scripts/gen-posix-conf-vars.awk" "glibc-${ver%%-*}/version.h" \
		>>"$log" 2>&1 || fail glibc "unpacking $(basename "$orig") failed"
	awk -f "$s/scripts/gen-posix-conf-vars.awk" "$s/posix/posix-conf-vars.list" \
		>"$s/gen/posix-conf-vars-def.h" 2>>"$log" || fail glibc "gen-posix-conf-vars.awk failed"
	"$cc" -static -O2 -I"$s/posix" -I"$s/gen" -DGETCONF_DIR='"/usr/libexec/getconf"' \
		-DPKGVERSION="\"(Debian GLIBC $ver) \"" -DREPORT_BUGS_TO='"<http://www.debian.org/Bugs/>"' \
		-D_libc_intl_domainname='"libc"' '-D_(s)=dgettext(_libc_intl_domainname, s)' \
		'-DN_(s)=s' -o "$s/getconf" "$s/posix/getconf.c" >>"$log" 2>&1 ||
		fail glibc "compiling getconf.c failed"
	install_bin "$s/getconf" getconf
}

# Each build in a subshell of its own (a failure says which and exits
# it); the step fails when any of them did, after all of them ended.
run_parallel build_ bash coreutils diffutils procps kmod glibc

rm -rf "$out/src"
echo "$key" >"$out/script.hash"
sizes=
for p in "${progs[@]}"; do
	sizes="$sizes${sizes:+, }$p $(du -h "$out/bin/$p" | cut -f1)"
done
echo "$me: $out/bin: $sizes, built in $(($(date +%s) - t0))s"
