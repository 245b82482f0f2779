#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf probe on the kernel itself (perf probe -k vmlinux), on a kernel with
# DWARF (the btf kernel), twice: the host's perf read vmlinux and the tree's
# source and wrote definitions for vfs_read() into /opt/perf-probe/vmlinux
# (harness/perf-probe-defs.sh); the guest's own perf writes the same ones
# from the DWARF perf-probe-defs.sh put beside them (vmlinux.debug, with
# fs/read_write.c for -L).
#
# The work: `dd bs=7 count=1` reads 7 bytes of ppv.txt, one vfs_read() call
# in the dd process.  Each definition is checked against the same values
# written by hand with BTF (the argument by name, the struct members by
# '->' and '.'), which reaches them without DWARF:
#   entry   file->f_path.dentry->d_name.name = ppv.txt, count = 7
#   line    ret (a local, in a register at the fsnotify_access() line) = 7
#   return  $retval = 7
# and perf probe -L numbers that line, -V lists ret there.
. /harness/lib.sh

pp_host=/opt/perf-probe/vmlinux
K=$pp_host/vmlinux.debug
# shellcheck disable=SC2034 # used by guest_probe_defs (guest/lib.sh)
P=/usr/bin/perf

# guest_defs DIR: the guest's perf writes what perf-probe-defs.sh writes
guest_defs() {
	guest_probe_defs "$1" vfs_read 'fsnotify_access(file);' \
		'file->f_path.dentry->d_name.name:string count' ret -k $K -s $pp_host/src/kobj
}

# field EVENT NAME: NAME's value in EVENT's first line of dd's trace
field() {
	grep " ${1#*/}: " /tmp/ppv.trace | head -n 1 |
		sed -n "s/.* $2=\\([^ ]*\\).*/\\1/p"
}

# vmlinux_checks PREFIX DIR WHOSE: the checks PREFIX-{defs,args,...} on
# the definitions and listings in DIR
vmlinux_checks() {
	_p=$1 pp=$2 _who=$3
	probe_defs_missing $pp >/tmp/ppv.missing
	check "$_p-defs" "perf probe -k vmlinux ($_who) gave no definition for: $(cat /tmp/ppv.missing)" \
		test ! -s /tmp/ppv.missing
	trace_reset
	probe_defs_add $pp
	# shellcheck disable=SC2016 # $retval: the kprobe event's
	{
		echo 'p:hand/vr vfs_read name=file->f_path.dentry->d_name.name:string count=count:u32'
		echo 'r:hand/vrr vfs_read ret=$retval:s32'
	} >>$T/kprobe_events
	printf '0123456789abcdef' >/tmp/ppv.txt
	echo >$T/trace
	echo 1 >$T/events/hand/enable
	echo 1 >$T/events/probe/enable
	dd if=/tmp/ppv.txt of=/dev/null bs=7 count=1 2>/dev/null
	echo 0 >$T/events/probe/enable
	echo 0 >$T/events/hand/enable
	# dd's lines only (the shell reads too)
	grep ' dd-[0-9]' $T/trace >/tmp/ppv.trace
	e=$(evname "$(head -n 1 $pp/entry.def 2>/dev/null)")
	n=$(field "$e" name) c=$(field "$e" count)
	hn=$(field hand/vr name) hc=$(field hand/vr count)
	# perf gives size_t the type x32: the count prints in hex
	check "$_p-args" "$_who's $e: name=$n count=$c, by hand: name=$hn count=$hc, expected \"ppv.txt\" 7" \
		sh -c "[ '$n' = '\"ppv.txt\"' ] && [ '$c' = 0x7 ] && [ '$hn' = '\"ppv.txt\"' ] && [ '$hc' = 7 ]"
	e=$(evname "$(head -n 1 $pp/line.def 2>/dev/null)")
	r=$(field "$e" ret) hr=$(field hand/vrr ret)
	check "$_p-line" "$_who's $e: ret=$r, by hand at the return: ret=$hr, expected 7" \
		sh -c "[ '$r' = 7 ] && [ '$hr' = 7 ]"
	e=$(evname "$(head -n 1 $pp/return.def 2>/dev/null)")
	# perf gives $retval no type.  The host's event names vfs_read, whose
	# return type the kprobe event takes from BTF (ssize_t: decimal); the
	# guest's perf names the place _text+OFFSET (it reads the running
	# kernel's symbols), which has no BTF type: hex, as the module's
	r=$(field "$e" arg1)
	check "$_p-return" "$_who's $e: arg1=$r, expected 7" \
		sh -c "[ '$r' = 7 ] || [ '$r' = 0x7 ]"
	echo "PPV-TRACE ($_who): $(grep -c . /tmp/ppv.trace) lines of dd; definitions:"
	cat $pp/*.def 2>/dev/null
	sed 's/^/PPV-TRACE /' /tmp/ppv.trace | head -n 10
	echo >$T/kprobe_events
	rel=$(cat $pp/rel 2>/dev/null)
	check "$_p-L" "$_who: perf probe -L vfs_read does not number line $rel, fsnotify_access: $(head -c 400 $pp/lines.txt 2>/dev/null) $(head -c 200 $pp/lines.err 2>/dev/null)" \
		grep -qE "^ +${rel:-x} +.*fsnotify_access\\(file\\)" $pp/lines.txt
	check "$_p-V" "$_who: perf probe -V vfs_read:$rel does not list ret: $(head -c 400 $pp/vars.txt 2>/dev/null) $(head -c 200 $pp/vars.err 2>/dev/null)" \
		grep -qE 'ssize_t[[:space:]]+ret' $pp/vars.txt
	trace_reset
}

vmlinux_checks perf-vmlinux $pp_host "the host's perf"
guest_defs /tmp/ppv-guest
vmlinux_checks perf-vmlinux-guest /tmp/ppv-guest "the guest's perf"
check_done
