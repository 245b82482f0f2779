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
# ColdFire (mcf5208) boots without userland (no MMU, no libc) and has its
# own kernels: boot (configs/mcf5208.config: the tracing self tests and
# KUnit), boottrace (+ configs/boottrace.config: trace events, probe
# events and the function tracer from boot, set up by an embedded
# bootconfig, configs/boottrace.bconf, and dumped at its end), the
# default, bootgraph (+ configs/bootgraph.config: function_graph on
# do_IRQ from boot), flat (+ configs/flat.config: a FLAT init,
# guest/flat/init.c, drives tracefs at run time and prints its checks)
# and lockdep (flat + configs/lockdep.config: the same under lockdep).
ifeq ($(MACHINE),mcf5208)
ifeq ($(origin VARIANT),file)
VARIANT  := boottrace
endif
ifeq ($(filter boot boottrace bootgraph flat lockdep bench,$(VARIANT)),)
$(error MACHINE=mcf5208 has the kernels boot, boottrace, bootgraph, flat, lockdep and bench, not '$(VARIANT)')
endif
endif
export MACHINE
KOBJ     := $(B)/kobj-$(if $(filter-out virt,$(MACHINE)),$(MACHINE)-)$(VARIANT)
# The ColdFire kernels differ from boot in a few options (the built-in
# command line; flat: the initramfs, no self tests): one with no objects
# yet starts from a copy of the boot kernel's, and kbuild rebuilds what
# depends on the changed options (seconds instead of minutes).
SEED_KOBJ := $(if $(filter mcf5208-boottrace mcf5208-bootgraph mcf5208-flat mcf5208-bench,$(MACHINE)-$(VARIANT)),$(B)/kobj-mcf5208-boot)
JOBS     ?= $(shell nproc)
GUEST_TIMEOUT ?= 600
STAGE    := $(CURDIR)/harness/stage.sh

# Config fragments (configs/NAME.config) merged onto virt_defconfig, per variant.
# dynamic: everything, with dynamic ftrace.  static: mcount-only function
# tracing (DYNAMIC_FTRACE=n).  plain: no function tracer and no frame
# pointers, fp: no function tracer with frame pointers (benchmark baselines).
# lockdep: dynamic + PROVE_LOCKING and the locking self tests (make check).
# pfe: dynamic without frame pointers, on -fpatchable-function-entry.
# btf: pfe with BTF type information (DEBUG_INFO_BTF, BPF_SYSCALL), for
# kselftest ftrace's BTF argument cases.  livepatch: pfe with frame
# pointers (patchable entries and reliable stack traces) and live patching.
# notp, tp, tpnojl: no tracepoints; tracepoints and the event tracer only;
# the same without jump labels (make bench: what an off tracepoint costs).
FRAGS_dynamic := base tracing framepointer function dynamic
FRAGS_static  := base tracing framepointer function static
FRAGS_plain   := base tracing
FRAGS_fp      := base tracing framepointer
FRAGS_lockdep := base tracing framepointer function dynamic lockdep
FRAGS_pfe     := base tracing function pfe
FRAGS_btf     := base tracing function pfe btf
FRAGS_livepatch := base tracing framepointer function pfe livepatch
FRAGS_notp    := base notracepoints
FRAGS_tp      := base tracepoints
FRAGS_tpnojl  := base tracepoints nojumplabel
FRAGS_boot    :=
FRAGS_boottrace := boottrace
FRAGS_bootgraph := bootgraph
FRAGS_flat    := flat
ifeq ($(MACHINE),mcf5208)
FRAGS_lockdep := flat lockdep
# make bench MACHINE=mcf5208: the FLAT init times the tracers
FRAGS_bench   := flat flatbench
endif
# the anchor: the same tracing options, with fentry instead of frame pointers
ifeq ($(MACHINE),x86_64)
FRAGS_dynamic := base tracing function dynamic
endif
FRAGS         := $(foreach f,$(FRAGS_$(VARIANT)),configs/$(f).config)
ifeq ($(FRAGS)$(filter boot,$(VARIANT)),)
$(error unknown VARIANT '$(VARIANT)')
endif
# the machine's own fragment (configs/MACHINE.config) first; x86_64's
# last, as it takes back what only m68k has
ifeq ($(MACHINE),x86_64)
FRAGS         := $(FRAGS) configs/x86_64.config
else
FRAGS         := $(wildcard configs/$(MACHINE).config) $(FRAGS)
endif
ifneq ($(filter atari%,$(MACHINE)),)
FRAGS         := $(FRAGS) configs/atari.config
endif
# NAME-KERNEL.config: options only that kernel has, merged after NAME.
FRAGS         := $(foreach f,$(FRAGS),$(f) $(wildcard $(f:.config=-$(KERNEL).config)))
# 7.3's DYNAMIC_FTRACE has no prompt: with dynamic ftrace selected by the
# architecture there is no mcount-only kernel.
ifeq ($(KERNEL)-$(VARIANT),7.3-static)
$(error there is no DYNAMIC_FTRACE=n kernel on 7.3 (use KERNEL=6.12))
endif
# notp, tp, tpnojl: what an off tracepoint costs, with and without the
# jump labels that 6.12's m68k has not
BENCH_VARIANTS := plain fp $(if $(filter 6.12,$(KERNEL)),static) dynamic pfe \
	$(if $(filter 7.3,$(KERNEL)),notp tp tpnojl)
# The Atari machines: what tracing compiled in and off costs (plain, fp:
# the frame pointers' share, dynamic) and the per-call figures, the
# kernels only that these need (each Atari kernel builds in ~9 minutes)
ifneq ($(filter atari%,$(MACHINE)),)
BENCH_VARIANTS := plain fp dynamic
endif

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

.PHONY: run check results bench bench-calls profile profile-spawn shell guest record view deps tree kernel initramfs guest-bin gnu-tools klp-tools host-perf \
	trace-cmd elfutils perf clean FORCE sweep series am-check checkpatch series-check bisect-build defconfigs \
	anchor-ftracetest qemu-cpus hatari mutate

deps:
	@$(STAGE) deps harness/deps.sh
	@mkdir -p $(SHARED)/bin
	@ln -sfn /usr/bin/m68k-linux-gnu-gcc-12 $(SHARED)/bin/m68k-linux-gnu-gcc

$(PRISTINE)/Makefile: | deps
	@$(STAGE) fetch-kernel harness/fetch-kernel.sh $(SHARED)/dl $(PRISTINE) $(KERNEL)

tree: $(PRISTINE)/Makefile
	@$(STAGE) sync-tree harness/sync-tree.sh $(SRC) $(PRISTINE) $(TREE)

# Rewritten only when the variant's list of fragments changes.
$(KOBJ)/.fragments: FORCE
	@if [ -n "$(SEED_KOBJ)" ] && [ ! -e $(KOBJ) ] && [ -e $(SEED_KOBJ)/vmlinux ]; then \
		echo "kernel-$(VARIANT): starting from a copy of $(SEED_KOBJ)"; \
		cp -a $(SEED_KOBJ) $(KOBJ); \
	fi
	@mkdir -p $(KOBJ)
	@echo "$(KBASE) $(FRAGS)" | cmp -s - $@ || echo "$(KBASE) $(FRAGS)" >$@

$(KOBJ)/.config: $(FRAGS) $(KOBJ)/.fragments harness/kconfig.sh | tree
	@KCONFIG_BASE=$(KBASE) KCONFIG_NO_MODULES=1 $(STAGE) kconfig harness/kconfig.sh $(TREE) $(KOBJ) $(FRAGS)

# MACHINE=mcf5208 VARIANT=flat: the FLAT init its initramfs holds
# (build-flat-init.sh keeps initramfs.list's time when it is unchanged,
# so that kbuild does not repack the initramfs: a stamp says it ran)
FLAT_INIT := $(B)/flat-init/.built
$(FLAT_INIT): guest/flat/init.c harness/elf2flt.py harness/build-flat-init.sh | deps
	@$(STAGE) flat-init harness/build-flat-init.sh guest/flat/init.c $(dir $@)
	@touch $@

kernel: tree $(KOBJ)/.config $(if $(filter mcf5208-flat mcf5208-lockdep mcf5208-bench,$(MACHINE)-$(VARIANT)),$(FLAT_INIT))
	@$(STAGE) kernel-$(VARIANT) harness/build-kernel.sh $(TREE) $(KOBJ) $(JOBS)
	@harness/kconfig.sh --verify $(KOBJ) $(FRAGS)

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

ifeq ($(MACHINE),mcf5208)
# ColdFire boots without userland: its guest is the kernel alone, and
# make run boots it and reads the checks from its console (the boottrace
# kernel: the trace events of the boot; VARIANT=boot: the self tests;
# VARIANT=bootgraph: function_graph from boot; VARIANT=flat: the FLAT
# init's checks, printed by the guest itself).
NO_USERLAND_GOALS := guest shell record sweep bench-calls profile profile-spawn
ifneq ($(filter $(NO_USERLAND_GOALS),$(MAKECMDGOALS)),)
$(error MACHINE=mcf5208 boots without userland (no MMU, no libc): make run, make check and make bench only)
endif
initramfs: kernel

run: kernel
	@$(STAGE) demo harness/qemu-run.sh --kernel $(VMLINUX) --no-userland \
		--timeout $(GUEST_TIMEOUT) --log $(B)/logs/demo-$(MACHINE)-$(VARIANT).log --strict --icount
	@$(if $(filter flat lockdep,$(VARIANT)),:,harness/console-checks.sh \
		$(if $(filter boot,$(VARIANT)),selftests,$(VARIANT)) $(B)/logs/demo-$(MACHINE)-$(VARIANT).log)
else ifeq ($(MACHINE),x86_64)
initramfs: kernel $(BUSYBOX) guest-bin gnu-tools klp-tools
	@$(STAGE) initramfs harness/mkinitramfs.sh --opt livepatch/bin=$(KLPTOOLS)/bin \
		$(KOBJ) $(BUSYBOX) $(TREE) $(INITRAMFS) $(GUESTBIN) $(GNUTOOLS)/bin

# (its guest has busybox, bench, GNU awk and readelf: no trace-cmd for the demo)
run:
	@echo "make run: MACHINE=x86_64 is the anchor of make bench, with no demo" \
		"(make bench, bench-calls, guest and shell take it)" >&2; exit 2
else
# GUEST_PERF= leaves perf (tools/perf, the largest tool build) and the host's
# perf probe definitions out of the guest: make check does so when none of
# its suites uses them (perf, btf-perf-vmlinux).
GUEST_PERF ?= 1
PROBEDEFS := $(if $(GUEST_PERF),$(if $(filter 7.3,$(KERNEL)),$(KOBJ)/perf-probe))
initramfs: kernel $(BUSYBOX) $(BUSYSITES) guest-bin gnu-tools klp-tools trace-cmd $(if $(GUEST_PERF),perf) \
	$(if $(filter atari%,$(MACHINE)),hatari) $(if $(PROBEDEFS),host-perf)
	$(if $(PROBEDEFS),@harness/perf-probe-defs.sh $(KOBJ) $(PERFHOST)/bin/perf $(PROBEDEFS))
	@$(STAGE) initramfs harness/mkinitramfs.sh --opt livepatch/bin=$(KLPTOOLS)/bin \
		$(if $(PROBEDEFS),--opt perf-probe=$(PROBEDEFS)) \
		$(KOBJ) $(BUSYBOX) $(TREE) $(INITRAMFS) \
		$(GUESTBIN) $(GNUTOOLS)/bin $(TRACECMD)/m68k/bin $(if $(GUEST_PERF),$(PERF)/bin)

run: initramfs
	@$(STAGE) demo harness/qemu-run.sh --kernel $(VMLINUX) --initrd $(INITRAMFS) \
		--timeout $(GUEST_TIMEOUT) --log $(B)/logs/demo.log --strict guest/demo.sh
endif

guest: initramfs
	@test -n "$(SCRIPT)" || { echo "usage: make guest SCRIPT=path/to/script.sh" >&2; exit 2; }
	@harness/qemu-run.sh --kernel $(VMLINUX) --initrd $(INITRAMFS) \
		--timeout $(GUEST_TIMEOUT) --log $(B)/logs/guest.log $(SCRIPT)

# The whole-kernel kprobe sweep, outside make check (which runs a seeded
# sample): every function entry, every text symbol, every even offset of
# SWEEP_FUNCTIONS random functions, and uprobes on SWEEP_USITES instruction
# starts of busybox (or all), in batches under a workload.
SWEEP_FUNCTIONS ?= 300
SWEEP_USITES ?= 20000
SWEEP_SEED ?= 1
SWEEP_TIMEOUT ?= 36000
sweep: initramfs
	@$(STAGE) sweep harness/qemu-run.sh --kernel $(VMLINUX) --initrd $(INITRAMFS) \
		--timeout $(SWEEP_TIMEOUT) --log $(B)/logs/sweep.log --strict --icount \
		--append "kunit.enable=0 sweep.entries=all sweep.symbols=all sweep.functions=$(SWEEP_FUNCTIONS) sweep.usites=$(SWEEP_USITES) sweep.seed=$(SWEEP_SEED) sweep.batch=200" \
		guest/tests/sweep.sh

# CMD and TRACE_CMD_ARGS reach the script through the environment, so that
# any quoting in them survives.
TRACE_CMD_ARGS ?= -e sched -e syscalls
record: export RECORD_CMD := $(CMD)
record: export RECORD_ARGS := $(TRACE_CMD_ARGS)
record: initramfs
	@harness/record.sh $(VMLINUX) $(INITRAMFS) $(B)/trace.dat $(GUEST_TIMEOUT) \
		"$$RECORD_CMD" "$$RECORD_ARGS"

# KernelShark (Debian's, with our patched libtraceevent) on a recording,
# by default the last make record's.
FILE ?= $(B)/trace.dat
view: trace-cmd
	@harness/kshark.sh view $(TRACECMD) $(FILE)

shell: initramfs
	@harness/qemu-run.sh --kernel $(VMLINUX) --initrd $(INITRAMFS) --interactive

# make check: harness/check.sh builds the kernels the suites need (each
# with the guest's userland, make initramfs), runs the suites two at a
# time and prints one summary.  A plain `make check` runs every suite of
# 7.3 but the long ones; SUITES=a,b (shell patterns) only those, on only
# their kernels; KERNEL=6.12 every suite of the frozen port.
# CHECK_LONG=1 adds the long suites (each needs a kernel of its own or
# many minutes: docs/check.md) and CHECK_OTHER_SUITES on the other kernel.
CHECK_LONG ?=
# CHECK_BTF=1: the btf kernel's suites (the slowest kernel to build)
CHECK_BTF ?=
# CHECK_Q800_SLOW=1: kselftest ftrace on the Macintosh too
CHECK_Q800_SLOW ?=
# the other kernel's suites beside a plain run's, with CHECK_LONG=1
CHECK_OTHER_SUITES ?= function,kprobes,uprobes
export CHECK_LONG CHECK_BTF CHECK_Q800_SLOW
SUITES ?=
OTHER_KERNEL := $(if $(filter 6.12,$(KERNEL)),7.3,6.12)
ifeq ($(origin KERNEL)$(SUITES),file)
CHECK_RUNS := $(KERNEL):all $(if $(CHECK_LONG),$(if $(CHECK_OTHER_SUITES),$(OTHER_KERNEL):$(CHECK_OTHER_SUITES)))
else
CHECK_RUNS := $(KERNEL):$(or $(SUITES),all)
endif
check:
	@harness/check.sh --make $(CHECK_RUNS)

# The cache flush mutants (harness/mutate.sh): the Atari kernel rebuilt
# without one instruction cache flush at a time must fail a suite on the
# emulated caches; their results are in docs/machines.md.  ~1 hour.
mutate: initramfs
	@case $(MACHINE) in atari*) ;; *) echo "make mutate: MACHINE=atari060 or atari030 (emulated instruction caches)" >&2; exit 2 ;; esac
	@$(STAGE) mutate harness/mutate.sh $(B) $(MACHINE)-$(VARIANT) $(MUTANTS)

# docs/results.md from the last `make check` (and `make bench`, if run).
results:
	@test -f $(B)/logs/check/results.md || { echo "make results: no $(B)/logs/check/results.md: run make check" >&2; exit 1; }
	@mkdir -p docs
	@{ cat $(B)/logs/check/results.md; \
	   if [ -f $(B)/bench/table.md ]; then printf '\n# Results of `make bench`\n\n'; cat $(B)/bench/table.md; fi; \
	 } >docs/results.md
	@echo "make results: docs/results.md written; review and commit it"

# The benchmark kernels (BENCH_VARIANTS, see FRAGS_*) and, on the virt
# machine, the anchor (BENCH_ANCHOR=x86_64, the default; BENCH_ANCHOR= for
# none), then harness/bench.sh.
# MACHINE=mcf5208: the FLAT init of the bench kernel times the getppid()
# loop in each tracing state (the per-call figures of make bench-calls).
BENCH_ANCHOR ?= $(if $(filter virt,$(MACHINE)),x86_64)
# the anchor's kernels: the per-call figures (dynamic) and, on 7.3, what an
# off tracepoint costs there (notp, tp, tpnojl, as m68k's)
BENCH_ANCHOR_VARIANTS := dynamic $(if $(filter 7.3,$(KERNEL)),notp tp tpnojl)
bench:
ifeq ($(MACHINE),mcf5208)
	@$(MAKE) --no-print-directory kernel VARIANT=bench
	@$(STAGE) bench harness/bench.sh --calls $(B) bench
else
	@for v in $(BENCH_VARIANTS); do \
		$(MAKE) --no-print-directory initramfs VARIANT=$$v; done
	@$(if $(BENCH_ANCHOR),for v in $(BENCH_ANCHOR_VARIANTS); do \
		$(MAKE) --no-print-directory initramfs MACHINE=$(BENCH_ANCHOR) VARIANT=$$v; done)
	@BENCH_VARIANTS="$(BENCH_VARIANTS)" BENCH_ANCHOR="$(BENCH_ANCHOR)" \
		BENCH_ANCHOR_VARIANTS="$(BENCH_ANCHOR_VARIANTS)" \
		$(STAGE) bench harness/bench.sh $(B)
endif

# kselftest ftrace on the x86_64 anchor beside m68k's, outside make check
# (~15-25 min of one core): boots the anchor's VARIANT kernel (dynamic or pfe:
# the same tracing fragments as m68k's) with two CPUs, as its SMP and
# preemptible defconfig expects, and the same userland tools (busybox, GNU
# awk, readelf, lscpu), then lists every case whose verdict differs from the m68k
# VARIANT kernel's in the last make check (M68K_LOG).  Table:
# build/7.3/logs/anchor-ftracetest-VARIANT.md.
M68K_LOG ?= $(B)/logs/check/$(if $(filter pfe,$(VARIANT)),pfe-)ftracetest.log
anchor-ftracetest:
	@test -f $(M68K_LOG) || { echo "make anchor-ftracetest: no m68k run in $(M68K_LOG)" \
		"(make check SUITES=$(if $(filter pfe,$(VARIANT)),pfe-)ftracetest, or M68K_LOG=...)" >&2; exit 1; }
	@$(MAKE) --no-print-directory initramfs MACHINE=x86_64 VARIANT=$(VARIANT)
	@QEMU_EXTRA="-smp 2" $(STAGE) anchor-ftracetest harness/qemu-run.sh \
		--kernel $(B)/kobj-x86_64-$(VARIANT)/vmlinux --initrd $(B)/kobj-x86_64-$(VARIANT)/initramfs.cpio.gz \
		--timeout 5400 --icount --log $(B)/logs/anchor-ftracetest-$(VARIANT).log \
		--append kunit.enable=0 guest/tests/ftracetest.sh >$(B)/logs/anchor-ftracetest-$(VARIANT).out 2>&1 || \
		echo "make anchor-ftracetest: the guest failed (kselftest FAILs, or see $(B)/logs/anchor-ftracetest-$(VARIANT).out)"
	@python3 harness/kselftest-compare.py m68k-$(VARIANT)=$(M68K_LOG) \
		x86_64-$(VARIANT)=$(B)/logs/anchor-ftracetest-$(VARIANT).log \
		--markdown $(B)/logs/anchor-ftracetest-$(VARIANT).md

# The upstream form of the port: patches/series as commits on a git import
# of the pristine tree, each also adding the overlay files patches/overlay-map
# gives it.  See "The patch series" in README.md.
SERIES     := $(B)/series
SERIES_GIT := $(B)/series.git

series: $(PRISTINE)/Makefile
	@test "$(KERNEL)" != 6.12 || { echo "make series: the 6.12 port is frozen as its series," \
		"frozen/6.12/patches; make series (KERNEL=7.3) makes the live one" >&2; exit 1; }
	@BISECT_RECORD=docs/bisect-build-$(KERNEL).md DEFCONFIGS_RECORD=docs/defconfigs-$(KERNEL).md \
		DEFCONFIGS="$(DEFCONFIGS)" \
		$(STAGE) series python3 harness/series.py make $(CURDIR) $(PRISTINE) $(SERIES_GIT) $(SERIES)

am-check: series tree
	@$(STAGE) am-check python3 harness/series.py am-check $(PRISTINE) $(SERIES) $(TREE) $(B)/amcheck
	@$(STAGE) features-check python3 harness/series.py features-check $(PRISTINE) $(TREE)

checkpatch: series tree
	@$(STAGE) checkpatch harness/checkpatch-series.sh $(TREE) $(SERIES) $(B)/logs/checkpatch.log

series-check: am-check checkpatch

# Every step of the series (pristine base included) builds vmlinux of the
# dynamic test configuration; incremental, skips the steps recorded as
# built in docs/bisect-build-$(KERNEL).md (which it writes after each step,
# to commit: the walk outlasts a session).
bisect-build: series
	@WALK_RECORD=docs/bisect-build-$(KERNEL).md $(STAGE) bisect-build harness/bisect-build.sh $(SERIES_GIT) $(B)/bisect 2 \
		$(foreach f,$(FRAGS_dynamic),configs/$(f).config)

# Each m68k defconfig (multi_defconfig: the classic machines; ColdFire, Sun 3)
# with the series (and pristine, when needed to compare warnings), and
# NAME+ftrace: the defconfig with every tracing option of the port that
# Kconfig allows on that machine.
# NAME+pfe: the same on patchable function entries without frame pointers.
DEFCONFIGS ?= multi multi+ftrace multi+pfe sun3 sun3+ftrace m5208evb m5475evb virt virt+ftrace \
	amiga atari mac sun3x q40 hp300 apollo bvme6000 mvme147 mvme16x \
	amcore m5249evb m5272c3 m5275evb m5307c3 m5407c3 stmark2 \
	m5208evb+ftrace m5475evb+ftrace stmark2+ftrace
FTRACE_FRAGS := $(foreach f,tracing framepointer function dynamic,configs/$(f).config)
PFE_FRAGS := $(foreach f,tracing function pfe,configs/$(f).config)

defconfigs: series
	@FTRACE_FRAGS="$(FTRACE_FRAGS)" PFE_FRAGS="$(PFE_FRAGS)" WALK_RECORD=docs/defconfigs-$(KERNEL).md \
		$(STAGE) defconfigs harness/defconfigs.sh \
		$(SERIES_GIT) $(B)/defconfigs 2 $(DEFCONFIGS)
# What QEMU's 68030, 68040 and 68060 models execute of the supervisor
# instructions Linux needs on each (why only the 68040 boots here).
QEMU ?= qemu-system-m68k
qemu-cpus: | deps
	@harness/qemu-cpus.sh $(QEMU)

# The per-traced-call figures of `make bench` on VARIANT's kernel alone.
bench-calls: initramfs
	@$(STAGE) bench-calls harness/bench.sh --calls $(B) $(VARIANT)

# One getppid() call single-stepped under QEMU's gdbstub, on VARIANT's kernel,
# in each of PROFILE_STATES (default: off function function_graph kprobe
# kretprobe).  Each kernel's in build/KERNEL/profile-[MACHINE-]VARIANT, like
# its kobj; virt's beside the anchor's once `make profile MACHINE=x86_64`
# made it: x86_64's dynamic kernel, the one make bench runs beside both.
PROFILE_DIR    = $(patsubst $(B)/kobj-%,$(B)/profile-%,$(KOBJ))
PROFILE_ANCHOR = $(B)/profile-x86_64-dynamic
profile: initramfs
	@$(if $(filter virt,$(MACHINE)),$(if $(wildcard $(PROFILE_ANCHOR)/function.pcs),\
		PROFILE_BESIDE="x86_64 $(B)/kobj-x86_64-dynamic/vmlinux $(PROFILE_ANCHOR)")) \
		$(STAGE) profile harness/profile.sh $(KOBJ) $(PROFILE_DIR) $(PROFILE_STATES)

# A fork+exec+pipe round (make bench's tracepoint workload), function by
# function, on two kernels side by side: PROFILE_SPAWN (default notp tp:
# what tracepoints compiled in and off add around their sites).  Every
# instruction the guest executes is counted by a TCG plugin of ours
# (harness/plugin/insn-count.c, built against the installed QEMU's plugin
# API), from a sync() before PROFILE_ROUNDS rounds (default 2000) to one
# after.  Table: build/KERNEL/profile-spawn[-MACHINE]/spawn.md.
PROFILE_SPAWN ?= notp tp
PROFILE_SPAWN_DIR = $(B)/profile-spawn$(if $(filter-out virt,$(MACHINE)),-$(MACHINE))
profile-spawn:
	@test $(words $(PROFILE_SPAWN)) = 2 || { echo "make profile-spawn: PROFILE_SPAWN names two variants" >&2; exit 2; }
	@for v in $(PROFILE_SPAWN); do $(MAKE) --no-print-directory initramfs VARIANT=$$v; done
	@$(STAGE) qemu-plugin harness/build-qemu-plugin.sh $(SHARED)/qemu-plugin
	@$(STAGE) profile-spawn harness/profile-spawn.sh $(SHARED)/qemu-plugin/insn-count.so $(PROFILE_SPAWN_DIR) \
		$(foreach v,$(PROFILE_SPAWN),$(v)=$(B)/kobj-$(if $(filter-out virt,$(MACHINE)),$(MACHINE)-)$(v))

clean:
	rm -rf $(B)/kobj-* $(B)/linux $(B)/logs

FORCE:
