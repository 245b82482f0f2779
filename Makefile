# SPDX-License-Identifier: GPL-2.0
#
# Driver for the m68k ftrace port.  See README.md.
#
#   make run      build everything, boot the guest, run the tracing demo
#   make check    build everything, run all test suites, print "N passed, N failed"
#   make check SUITES=a,b   only those suites (shell patterns), on their kernels
#   make results  docs/results.md from the last make check (and make bench)
#   make shell    boot the guest to an interactive root shell
#   make guest SCRIPT=file.sh   run a host script as root inside the guest
#   make bench    tracing overhead figures (build/KERNEL/bench/table.md)
#   make record CMD="ls /" [TRACE_CMD_ARGS="-p function_graph"]
#                 trace-cmd record CMD in the guest; the recording lands in
#                 build/KERNEL/trace.dat on the host
#   make bench-calls   instructions per traced call only, VARIANT's kernel
#   make profile  instructions per function of one traced getppid() call
#                 (build/KERNEL/profile-VARIANT/table.md; beside x86_64's
#                 when `make profile MACHINE=x86_64` made that one)
#   make profile-spawn   instructions per function of a fork+exec+pipe
#                 round, notp beside tp (build/KERNEL/profile-spawn/spawn.md)
#   make sweep    kprobes on every function entry and text symbol (slow)
#   make series   the port as a git format-patch series (build/7.3/series/)
#   make series-check   git am of the series = build/7.3/linux, feature tables, checkpatch
#   make bisect-build   every step of the series builds vmlinux (slow)
#   make defconfigs     every m68k defconfig, pristine vs series (very slow)
#   make anchor-ftracetest [VARIANT=pfe]   kselftest ftrace on x86_64 beside m68k (slow)
#   make qemu-cpus [QEMU=binary]   which 030/040/060 instructions QEMU's models run
#   make hatari   the Atari emulator the 68060 and 68030 machines boot on
#   make mutate MACHINE=atari060 [MUTANTS=...]   cache flush mutants (slow)
#
# Every target takes KERNEL=7.3 (default) or KERNEL=6.12.  Every step is
# incremental; build products and logs live in build/ (build/KERNEL/ for a
# kernel's own).

SHELL       := /bin/bash
.SHELLFLAGS := -eo pipefail -c
.DEFAULT_GOAL := run

# KERNEL picks the tree.  7.3 (the default): Debian's linux-source-7.3
# (experimental) with the live port, the overlay files and patches/ of this
# repository.  6.12: Debian's linux-source-6.12 with the port as it was
# finished there, frozen as a patch series (frozen/6.12/patches).  Each
# kernel has its own pristine tree, work tree, kernel objects and logs in
# build/KERNEL/; the guest userland that does not depend on the kernel is
# shared (build/busybox, build/trace-cmd, ...).
KERNEL   ?= 7.3
SHARED   := $(CURDIR)/build
B        := $(SHARED)/$(KERNEL)
ifeq ($(KERNEL),7.3)
SRC      := $(CURDIR)
else ifeq ($(KERNEL),6.12)
SRC      := $(CURDIR)/frozen/6.12
else
$(error unknown KERNEL '$(KERNEL)' (7.3 or 6.12))
endif
export KERNEL
PRISTINE := $(B)/pristine
TREE     := $(B)/linux
VARIANT  ?= dynamic
# MACHINE picks the board QEMU emulates and the kernel built for it (see
# "Machines" in README.md): virt (the default: QEMU's virt board, 68040,
# virt_defconfig), q800 (the Macintosh Quadra 800, mac_defconfig + configs/q800.config),
# virt060 (virt_defconfig + configs/virt060.config: a 68040+68060 kernel; no
# QEMU here, 7.2 or 10.0.2, runs Linux on its 68060 (make qemu-cpus), so it
# is built and booted on the 68040).
# atari060 and atari030 (atari_defconfig + configs/MACHINE.config, then
# configs/atari.config after the variant's fragments): the Falcon of the
# Atari emulator Hatari (harness/build-hatari.sh) with a 68060 or a
# 68030, its instruction cache emulated.
# x86_64 is no m68k machine but the anchor of make bench: x86_64_defconfig
# with the same tracing fragments, built from the same tree with the
# host's gcc and booted on QEMU's pc board (VARIANT=dynamic, and pfe for
# make anchor-ftracetest: m68k's pfe fragments, on x86's fentry sites;
# its userland is busybox, bench, GNU awk and readelf).
# Each machine's kernels live in their own object directories,
# build/KERNEL/kobj-VARIANT (virt) and build/KERNEL/kobj-MACHINE-VARIANT;
# harness/qemu-run.sh finds the machine in the kernel's .config.
MACHINE  ?= virt
# each machine's defconfig, emulator and board: harness/machines
MACHINES := $(shell awk '!/^\#/ && NF { print $$1 }' harness/machines)
KBASE    := $(shell awk -v m='$(MACHINE)' '!/^\#/ && $$1 == m { print $$2 }' harness/machines)
ifeq ($(KBASE),)
$(error unknown MACHINE '$(MACHINE)' (harness/machines: $(MACHINES)))
endif
GUEST_ARCH := $(if $(filter x86_64,$(MACHINE)),x86_64,m68k)
export GUEST_ARCH
ifeq ($(MACHINE)-$(filter dynamic pfe notp tp tpnojl,$(VARIANT)),x86_64-)
$(error MACHINE=x86_64 (the anchor of make bench) has the dynamic, pfe, notp, tp and tpnojl kernels only, not '$(VARIANT)')
endif
include mk/variants.mk

export PATH := $(SHARED)/bin:$(PATH)

VMLINUX   := $(KOBJ)/vmlinux
INITRAMFS := $(KOBJ)/initramfs.cpio.gz
# the anchor's own userland beside m68k's (build/busybox-x86_64, ...)
ARCHDIR   := $(if $(filter x86_64,$(GUEST_ARCH)),-x86_64)
BUSYBOX   := $(SHARED)/busybox$(ARCHDIR)/busybox
BUSYSITES := $(SHARED)/busybox/busybox.sites
GUESTBIN  := $(SHARED)/guest-bin$(ARCHDIR)
TRACECMD  := $(SHARED)/trace-cmd
GNUTOOLS  := $(SHARED)/gnu-tools$(ARCHDIR)
KLPTOOLS  := $(SHARED)/klp-tools$(ARCHDIR)
ELFUTILS  := $(SHARED)/elfutils
PERF      := $(B)/perf
PERFHOST  := $(B)/perf-host
# Upstream tarballs of libtraceevent, libtracefs and trace-cmd, used when the
# Debian archive does not serve their sources (checked against
# userspace/trace-cmd/SHA256SUMS).
TRACE_CMD_SRC ?= $(if $(wildcard $(CURDIR)/../shared/src),$(CURDIR)/../shared/src)
# Hatari's v2.6.1 tarball (checked against userspace/hatari/SHA256SUMS),
# for the Atari machines (MACHINE=atari060, atari030).
HATARI_SRC ?= $(TRACE_CMD_SRC)

.PHONY: restage run check results bench bench-calls profile profile-spawn shell guest record view deps tree kernel initramfs guest-bin gnu-tools klp-tools host-perf \
	trace-cmd elfutils perf clean FORCE sweep series am-check checkpatch series-check bisect-build defconfigs \
	anchor-ftracetest qemu-cpus hatari mutate

include mk/kernel.mk
include mk/userland.mk
include mk/guest.mk
include mk/check.mk
include mk/bench.mk
include mk/series.mk

clean:
	rm -rf $(B)/kobj-* $(B)/linux $(B)/logs

FORCE:
