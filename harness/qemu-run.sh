#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# qemu-run.sh: the one place where a guest is booted (every m68k machine,
# and x86_64, the anchor of make bench).
#
#   qemu-run.sh --kernel VMLINUX --initrd INITRAMFS [--timeout SECS]
#               [--log FILE] [--strict [--expect-warning FUNC]] [--icount]
#               [--append "CMDLINE"] [--cpu-cycle-div N] [--machine M]
#               [--ram-file FILE] [--kill-at REGEX] SCRIPT
#   qemu-run.sh --kernel VMLINUX --initrd INITRAMFS [--append "CMDLINE"]
#               [--ram-file FILE] --interactive
#   qemu-run.sh --kernel VMLINUX --no-userland [--timeout SECS] [--log FILE]
#               [--strict] [--icount] [--ram-file FILE]
#               [--kill-at REGEX]
#
# SCRIPT is appended to the initramfs as /harness/run.sh and run as root by
# guest/init, which prints "HARNESS-EXIT: <status>" and powers off.  The
# console goes to stdout and to the log (default: a temporary file).
# Exit status: the script's status; 124 on timeout (default 600 s); 1 when
# the guest ended without the marker, and with --strict when the console
# shows any of STRICT_PATTERNS.  --expect-warning FUNC: the console must
# show exactly one warning report ("cut here" to "end trace") whose WARNING
# line names FUNC; that report is exempt from STRICT_PATTERNS.  Extra QEMU options come from $QEMU_EXTRA.
# --icount: guest time counts guest instructions (1 ns each on virt, 8 on
# the Macintosh; idle time is skipped) and the goldfish clock runs on that virtual clock, so what the
# guest measures does not depend on how busy the host is.
# --ram-file FILE (QEMU only): the guest's RAM is FILE, mapped shared, so
# that what one boot left in RAM is there for the next one with the same
# FILE (made, zeroed, when missing; it must have the RAM's size): pstore's
# RAM regions across a crash, a reset or a killed guest.
# --kill-at REGEX: once a console line matches REGEX (grep -E), the guest
# is killed (a hang: what it left in --ram-file is what a reset leaves),
# and the exit status is 0; 1 when it ended before such a line.
# --cpu-cycle-div N (Hatari only, 1-256; default 128): each instruction
# counts a Nth of its cycles (below).
# A QEMU guest has 256 MiB of RAM, 1 GiB when the initramfs is over 24 MiB.
# The machine is the one the kernel's object directory names
# (kobj-[MACHINE-]VARIANT, harness/lib.sh), or --machine MACHINE; its
# line in harness/machines gives the emulator, the board, the CPU and the
# console, and the option the kernel's .config must have for that board.
# virt and q800 boot a 68040 (neither QEMU model of the 68060 or the
# 68030 runs Linux: make qemu-cpus); mcf5208 boots --no-userland;
# atari060 and atari030 boot on Hatari's Falcon; x86_64 (the anchor of
# make bench) boots the bzImage beside VMLINUX on QEMU's pc board.
#
# --no-userland (ColdFire: no MMU, no libc): no initramfs and no script
# from here.  The kernel's command line is built in (QEMU passes none to
# this board), and the boot ends at the root mount, "Kernel panic - not
# syncing: VFS: Unable to mount root fs", or, with the FLAT init built into
# the kernel (guest/flat/init.c), at the panic of that init's exit after
# it printed "HARNESS-EXIT: <status>".  The board cannot reset: QEMU is
# stopped once the panic's report has ended.  Exit status: the init's
# status, or 0 when the console reached the root mount (--strict:
# nothing before that end shows a problem), 124 on timeout, 1 otherwise.
set -euo pipefail
me='qemu-run'
# shellcheck source=harness/lib.sh
. "$(dirname "$0")/lib.sh"

# Console text that --strict treats as a failure, whatever the script said.
STRICT_PATTERNS=(
	'WARNING:'
	'BUG:'
	'Oops'
	'Kernel panic'
	'Unable to handle kernel'
	'------------[ cut here ]'
	'INFO: possible'
	# lockdep's own messages (every report starts with WARNING: or BUG:);
	# not the word itself, which 7.3's locking self tests print in a
	# table header ("lockdep_set_subclass() name test")
	'lockdep:'
	'lockdep is turned off'
	'needs lockdep annotation'
	'turning off the locking correctness validator'
	'Call Trace'
)

usage() { sed -n 's/^#   //p' "$0" >&2; exit 2; }
kernel='' initrd='' timeout=600 log='' strict='' append='' script='' interactive='' icount=''
nouser=''
warning=''
cycle_div=''
machine=''
ramfile=''
killat=''
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=${2:?}; shift 2 ;;
	--initrd) initrd=${2:?}; shift 2 ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	--log) log=${2:?}; shift 2 ;;
	--append) append=${2:?}; shift 2 ;;
	--strict) strict=1; shift ;;
	--expect-warning) warning=${2:?}; shift 2 ;;
	--icount) icount=1; shift ;;
	--interactive) interactive=1; shift ;;
	--no-userland) nouser=1; shift ;;
	--cpu-cycle-div) cycle_div=${2:?}; shift 2 ;;
	--machine) machine=${2:?}; shift 2 ;;
	--ram-file) ramfile=${2:?}; shift 2 ;;
	--kill-at) killat=${2:?}; shift 2 ;;
	-*) echo "$me: unknown option $1" >&2; usage ;;
	*) [ -z "$script" ] || usage; script=$1; shift ;;
	esac
done
[ -n "$kernel" ] || usage
if [ -n "$nouser" ]; then
	[ -z "$initrd$script$interactive$warning" ] || usage
else
	[ -n "$initrd" ] || usage
	if [ -n "$script" ] && [ -n "$interactive" ] || [ -z "$script$interactive" ]; then
		usage
	fi
fi
[ -f "$kernel" ] || die "no kernel at $kernel"
[ -n "$nouser" ] || [ -f "$initrd" ] || die "no initramfs at $initrd"
[[ $timeout =~ ^[0-9]+$ ]] || die "--timeout wants seconds, got '$timeout'"
[ -z "$warning" ] || [ -n "$strict" ] || die "--expect-warning goes with --strict"
if [ -n "$cycle_div" ] && ! { [[ $cycle_div =~ ^[1-9][0-9]*$ ]] && [ "$cycle_div" -le 256 ]; }; then
	die "--cpu-cycle-div wants 1-256 (Hatari's limit), got '$cycle_div'"
fi

config=$(dirname "$kernel")/.config
[ -f "$config" ] || die "no $config beside the kernel"
machine=${machine:-$(kernel_machine "$(dirname "$(realpath "$kernel")")")}
emu=$(machine_field "$machine" emulator) ||
	die "unknown machine '$machine' (harness/machines: $(machines | paste -sd' ' -))"
want=$(machine_field "$machine" config)
grep -qx "$want=y" "$config" || die "$kernel is not a $machine kernel (its .config has no $want=y)"
console=$(machine_field "$machine" console)
cpu=$(machine_field "$machine" cpu)
shift=$(machine_field "$machine" shift)
arch=m68k
# --icount's instruction time: 1 ns on virt.  The Macintosh's clocksource
# infers timer 1 wraps from how long VIA accesses take on a real Quadra
# (arch/m68k/mac/via.c, mac_read_clk()); on a guest running 1 ns
# instructions under QEMU 7.2 it goes backwards and time jumps by 2^32
# cycles (5483 s).  At 8 ns an instruction (shift=3, 125 MIPS, about four
# times the Quadra 800's 33 MHz 68040) it holds, and a timer tick is 1.25
# million instructions: at 32 ns (shift=5, the real machine's speed) the
# tick's own tracing nearly filled each period when every function was
# graph-traced, and those suites stalled for many minutes.  (The ColdFire
# board's 8 ns match the Mac's.)
case $machine in
mcf5208)
	[ -n "$nouser" ] || die "$kernel is a ColdFire kernel: it boots only --no-userland"
	;;
x86_64)
	arch=x86_64
	kernel=$(dirname "$kernel")/arch/x86/boot/bzImage
	[ -f "$kernel" ] || die "no bzImage at $kernel"
	;;
esac
if [ "$emu" = hatari ]; then
	# The Atari Falcon of Hatari (harness/build-hatari.sh), not QEMU:
	# its CPU core emulates the 68060 and the 68030 with their MMUs and
	# instruction caches (--compatible on).  Its time is emulated cycles
	# (a fixed 32 MHz clock), so the guest's time does not depend on the
	# host's load either: --icount changes nothing here.  The CPU is the
	# one the kernel is built for, not cycle-exact, each instruction
	# counted a 128th of its table's cycles (our Hatari patch 0004): 63
	# BogoMIPS instead of 1.6, enough for function_graph on every
	# function (at the tables' speed, and still at a 64th, each traced
	# timer tick took longer than the tick).
	kernel=$(realpath "$kernel")
	board=(--machine "$(machine_field "$machine" board)" --cpulevel "${cpu%/*}" --fpu "${cpu#*/}")
	shift=''
else
	board=(-M "$(machine_field "$machine" board)")
fi
[ -z "$nouser" ] || [ "$machine" = mcf5208 ] || die "--no-userland is for the ColdFire board only"
[ -z "$cycle_div" ] || [ "$emu" = hatari ] || die "--cpu-cycle-div is for Hatari's guests (an Atari kernel) only"
[ -z "$ramfile$killat" ] || [ "$emu" = qemu ] || die "--ram-file and --kill-at are for QEMU's guests only"
[ -z "$killat" ] || [ -z "$interactive" ] || die "--kill-at is not for --interactive"

# 256 MiB, unless the initramfs is large: it is unpacked into RAM, and
# its files stay there (the btf kernel's, with that kernel's DWARF for the
# guest's perf probe, is ~80 MiB: 1 GiB then).
mem=256M
if [ -n "$initrd" ] && [ "$(stat -c %s "$initrd")" -gt $((24 << 20)) ]; then
	mem=1G
fi
# QEMU_EXTRA is split on blanks on purpose.
# shellcheck disable=SC2206
qemu=("qemu-system-$arch" "${board[@]}" -cpu "$cpu" -m "$mem" -nographic -no-reboot
	-kernel "$kernel" ${icount:+-icount shift=$shift,sleep=off -rtc clock=vm} ${QEMU_EXTRA:-})
if [ -n "$ramfile" ]; then
	bytes=$(numfmt --from=iec "$mem")
	if [ ! -e "$ramfile" ]; then
		mkdir -p "$(dirname "$ramfile")"
		truncate -s "$bytes" "$ramfile"
	fi
	[ "$(stat -c %s "$ramfile")" = "$bytes" ] ||
		die "--ram-file $ramfile has $(stat -c %s "$ramfile") bytes, not the guest's $mem"
	qemu+=(-object "memory-backend-file,id=ram,size=$mem,mem-path=$ramfile,share=on"
		-machine memory-backend=ram)
fi
cmdline="console=$console panic=-1"
if [ "$emu" = hatari ]; then
	cmdline="debug=nfcon $cmdline"
	[ -z "$interactive" ] || die "Hatari's NatFeats console has no input: no --interactive on $kernel"
fi

if [ -n "$interactive" ]; then
	exec "${qemu[@]}" -initrd "$initrd" -append "$cmdline harness.mode=shell $append"
fi

tmp=$(mktemp -d /tmp/qemu-run.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
if [ -n "$nouser" ]; then
	kargs="$cmdline $append"
	run=(-append "$kargs")
else
	[ -f "$script" ] || die "no script at $script"
	mkdir -p "$tmp/root/harness"
	install -m 755 "$script" "$tmp/root/harness/run.sh"
	(cd "$tmp/root" && find harness | cpio -o -H newc -R 0:0 --quiet) | gzip >"$tmp/run.cpio.gz"
	# Linux unpacks concatenated (separately compressed) cpio archives in order.
	cat "$initrd" "$tmp/run.cpio.gz" >"$tmp/initrd"
	kargs="$cmdline harness.mode=script $append"
	run=(-initrd "$tmp/initrd" -append "$kargs")
fi
[ "$emu" = hatari ] || run+=(-pidfile "$tmp/qemu.pid")
if [ "$emu" = hatari ]; then
	# lilo.cfg: the kernel in ST-RAM (below ~8 MiB: the NatFeats console
	# reads the guest's buffers by physical address), the initramfs in
	# TT-RAM, Hatari ends at the guest's power-off and at its reboot (a
	# panic); the command line goes with --lilo (255 characters at most)
	hatari=${HATARI:-$(dirname "$0")/../build/hatari/bin/hatari}
	[ -x "$hatari" ] || die "no Hatari at $hatari (harness/build-hatari.sh builds it)"
	[ ${#kargs} -le 255 ] || die "Hatari passes at most 255 characters of command line, not ${#kargs}: $kargs"
	cat >"$tmp/lilo.cfg" <<-EOC
		[LILO]
		Kernel = $kernel
		Symbols =
		Ramdisk = $tmp/initrd
		Args =
		KernelToFastRam = FALSE
		RamdiskToFastRam = TRUE
		HaltOnReboot = TRUE
	EOC
	mkdir -p "$tmp/home"
	run=(-c "$tmp/lilo.cfg" --lilo "$kargs")
	qemu=(env HOME="$tmp/home" SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$hatari"
		--confirm-quit off --sound off --mic off --log-file "$tmp/hatari.log" --log-level warn
		"${board[@]}" --mmu on --addr24 off -s 14 --ttram 256 --dsp off --cpuclock 32
		--compatible on --cpu-exact off --cpu-cycle-div "${cycle_div:-128}" --data-cache off --natfeats on
		--fast-forward on)
fi

keep=$log
if [ -n "$log" ]; then
	mkdir -p "$(dirname "$log")"
else
	log=$tmp/console.log
fi

# the end of a panic report, after which a board that cannot reset idles
PANIC_END='^---\[ end Kernel panic'
ROOT_PANIC='Kernel panic - not syncing: VFS: Unable to mount root fs'
INIT_EXIT='Kernel panic - not syncing: Attempted to kill init!'
: >"$log"
watcher=''
if [ -n "$nouser$killat" ]; then
	end=$PANIC_END
	[ -z "$killat" ] || end=$killat
	while sleep 1; do
		if grep -qE -- "$end" "$log"; then
			kill "$(cat "$tmp/qemu.pid")" 2>/dev/null
			break
		fi
	done &
	watcher=$!
fi

t0=$(date +%s)
set +e
# The log is written line by line and holds only the console, so that its
# modification time says when the guest last printed; QEMU's own messages
# are added after it.
if [ "$emu" = hatari ]; then
	# the NatFeats console is Hatari's stderr; its own messages go to
	# stdout and its log file
	timeout -k 5 "$timeout" "${qemu[@]}" "${run[@]}" </dev/null 2>&1 >"$tmp/qemu.err" |
		stdbuf -oL tr -d '\r' | tee "$log"
	qrc=${PIPESTATUS[0]}
	[ ! -s "$tmp/hatari.log" ] || cat "$tmp/hatari.log" >>"$tmp/qemu.err"
else
	timeout -k 5 "$timeout" "${qemu[@]}" "${run[@]}" </dev/null 2>"$tmp/qemu.err" |
		stdbuf -oL tr -d '\r' | tee "$log"
	qrc=${PIPESTATUS[0]}
fi
[ -z "$watcher" ] || kill "$watcher" 2>/dev/null
set -e
t1=$(date +%s)
t=$((t1 - t0))
silent=$((t1 - $(stat -c %Y "$log")))
if [ -s "$tmp/qemu.err" ]; then
	tee -a "$log" <"$tmp/qemu.err"
fi

rc=$(sed -n 's/^HARNESS-EXIT: \([0-9]\+\)$/\1/p' "$log" | tail -n 1)
marker=$rc
if [ "$emu" = hatari ]; then
	clock=" (Hatari, ${board[*]:0:4})"
else
	clock="${icount:+ (-icount shift=$shift: $((1 << shift)) ns an instruction, ${board[1]})}"
fi
if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	# a guest that still printed lately was slow; one silent for long, hung
	printf "\n%s\n" "$me: TIMEOUT after ${timeout}s (the console was silent for the last ${silent}s)" >&2
	rc=124
elif [ -n "$killat" ]; then
	if grep -qE -- "$killat" "$log"; then
		echo "$me: killed the guest at '$killat' after ${t}s$clock"
		rc=0
	else
		echo "$me: the guest ended before '$killat' (QEMU exit $qrc, ${t}s)" >&2
		rc=1
	fi
elif [ -n "$nouser" ]; then
	if [ -n "$marker" ]; then
		echo "$me: guest script exited $rc after ${t}s$clock (the FLAT init)"
	elif grep -q "^$ROOT_PANIC" "$log"; then
		echo "$me: the kernel booted to its root mount (no userland) after ${t}s$clock"
		rc=0
	else
		why=$(grep -m1 'Kernel panic' "$log" || echo 'guest died/lost console')
		echo "$me: the kernel reached neither its root mount nor an init's HARNESS-EXIT: $why (QEMU exit $qrc, ${t}s)" >&2
		rc=1
	fi
elif [ -z "$rc" ]; then
	if grep -q 'Kernel panic' "$log"; then
		echo "$me: no HARNESS-EXIT marker: guest panicked (QEMU exit $qrc, ${t}s)" >&2
	else
		echo "$me: no HARNESS-EXIT marker: guest died/lost console (QEMU exit $qrc, ${t}s)" >&2
	fi
	rc=1
else
	# (bench.py converts guest time to instructions with the shift)
	echo "$me: guest script exited $rc after ${t}s$clock"
fi

if [ -n "$strict" ]; then
	# without userland the boot's own end, the root mount panic or the
	# panic of the FLAT init's exit after its marker, is not checked:
	# everything before it is
	if [ -n "$nouser" ] && [ -n "$marker" ]; then
		awk -v end="$INIT_EXIT" '/^HARNESS-EXIT: / { seen = 1 }
			seen && index($0, end) == 1 { exit } { print }' "$log" >"$tmp/console"
	elif [ -n "$nouser" ]; then
		sed "/^$ROOT_PANIC/,\$d" "$log" >"$tmp/console"
	else
		cp "$log" "$tmp/console"
	fi
	# the expected warning's own report is cut out of what is checked
	awk -v want="$warning" '
		/------------\[ cut here \]/ { n = 0; held = 1 }
		held { block[n++] = $0
		       if ($0 ~ /---\[ end trace/) { flush(); held = 0 }
		       next }
		{ print }
		function flush(  i, exempt) {
			exempt = 0
			for (i = 0; i < n; i++)
				if (want != "" && block[i] ~ ("WARNING: .* " want "[+ ]")) exempt = 1
			if (exempt) { print "EXPECTED-WARNING" > "/dev/stderr"; return }
			for (i = 0; i < n; i++) print block[i]
		}
		END { if (held) flush() }' "$tmp/console" >"$tmp/checked" 2>"$tmp/expected"
	pats=()
	for p in "${STRICT_PATTERNS[@]}"; do pats+=(-e "$p"); done
	if grep -nF "${pats[@]}" "$tmp/checked" >"$tmp/strict"; then
		head -n 40 "$tmp/strict" >&2
		echo "$me: --strict: the console shows $(wc -l <"$tmp/strict") kernel problem line(s) (above${keep:+; log: $log})" >&2
		rc=1
	fi
	nwarn=$(grep -c . "$tmp/expected" || true)
	if [ -n "$warning" ] && [ "$nwarn" -ne 1 ]; then
		echo "$me: --strict: $nwarn warning reports in $warning, expected exactly 1" >&2
		rc=1
	fi
fi
exit "$rc"
