# SPDX-License-Identifier: GPL-2.0
# The guest's userland (one build for every kernel) and the host tools.  Included by the Makefile.

$(BUSYBOX): harness/build-busybox.sh | deps
	@$(STAGE) busybox harness/build-busybox.sh $(dir $@)

# busybox's certain instruction starts, for the uprobe sweep (one list for
# every kernel's initramfs)
$(BUSYSITES): $(BUSYBOX) harness/uprobe-sites.py
	@$(STAGE) busybox-sites python3 harness/uprobe-sites.py $(SHARED)/busybox/src/busybox_unstripped \
		$(BUSYBOX) $@

# Static m68k programs from guest/src/*.c, installed in the guest's /usr/bin
# (the anchor's: bench alone).
guest-bin: | deps
	@harness/build-guest-bin.sh guest/src $(GUESTBIN) $(if $(ARCHDIR),bench)

# A static m68k trace-cmd (with libtraceevent and libtracefs) for the guest.
trace-cmd: | deps
	@$(STAGE) trace-cmd harness/build-trace-cmd.sh $(TRACECMD) $(TRACE_CMD_SRC)

# elfutils' libelf and libdw, static for m68k, for the guest's perf probe
elfutils: | deps
	@$(STAGE) elfutils harness/build-elfutils.sh $(ELFUTILS)

# tools/perf of the same tree, static, for the guest (needs trace-cmd's
# libtraceevent).
perf: trace-cmd elfutils tree
	@$(STAGE) perf harness/build-perf.sh $(TREE) $(PERF) $(TRACECMD) $(ELFUTILS)

# the same tools/perf for this machine, with libdw: perf probe on the DWARF
# of an m68k module, whose definitions the guest's perf suite checks
# (harness/perf-probe-defs.sh; 7.3: 6.12 has no m68k register names)
host-perf: tree | deps
	@$(STAGE) host-perf harness/build-perf.sh --host $(TREE) $(PERFHOST)

# The Atari emulator for the 68060 and 68030 machines (host program).
hatari: | deps
	@$(STAGE) hatari harness/build-hatari.sh $(SHARED)/hatari $(HATARI_SRC)

# GNU awk and readelf for the kselftest cases busybox cannot serve.
gnu-tools: | deps
	@$(STAGE) gnu-tools harness/build-gnu-tools.sh $(GNUTOOLS)

# bash, GNU date, stat and diff, sysctl and kmod for the kernel's livepatch
# selftests, in the guest's /opt/livepatch/bin (busybox keeps its applets).
klp-tools: | deps
	@$(STAGE) klp-tools harness/build-klp-tools.sh $(KLPTOOLS)


# What QEMU's 68030, 68040 and 68060 models execute of the supervisor
# instructions Linux needs on each (why only the 68040 boots here).
QEMU ?= qemu-system-m68k
qemu-cpus: | deps
	@harness/qemu-cpus.sh $(QEMU)
