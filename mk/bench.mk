# SPDX-License-Identifier: GPL-2.0
# The figures: make bench, bench-calls, profile, profile-spawn, anchor-ftracetest.  Included by the Makefile.

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

# The per-traced-call figures of `make bench` on VARIANT's kernel alone.
bench-calls: initramfs
	@$(STAGE) bench-calls harness/bench.sh --calls $(B) $(VARIANT)

# One getppid() call single-stepped under QEMU's gdbstub, on VARIANT's kernel,
# in each of PROFILE_STATES (default: off function function_graph kprobe
# kretprobe).  Each kernel's in build/KERNEL/profile-[MACHINE-]VARIANT, like
# its kobj; virt's beside the anchor's once `make profile MACHINE=x86_64`
# made it: x86_64's dynamic kernel, the one make bench runs beside both.
# the tracing states make profile steps through
PROFILE_STATES ?= off function function_graph kprobe kretprobe
# make profile: calls stepped per state (harness/profile.sh)
PROFILE_CALLS ?= 5
export PROFILE_CALLS
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
# make profile-spawn: fork+exec+pipe rounds counted
PROFILE_ROUNDS ?= 2000
export PROFILE_ROUNDS
PROFILE_SPAWN_DIR = $(B)/profile-spawn$(if $(filter-out virt,$(MACHINE)),-$(MACHINE))
profile-spawn:
	@test $(words $(PROFILE_SPAWN)) = 2 || { echo "make profile-spawn: PROFILE_SPAWN names two variants" >&2; exit 2; }
	@for v in $(PROFILE_SPAWN); do $(MAKE) --no-print-directory initramfs VARIANT=$$v; done
	@$(STAGE) qemu-plugin harness/build-qemu-plugin.sh $(SHARED)/qemu-plugin
	@$(STAGE) profile-spawn harness/profile-spawn.sh $(SHARED)/qemu-plugin/insn-count.so $(PROFILE_SPAWN_DIR) \
		$(foreach v,$(PROFILE_SPAWN),$(v)=$(B)/kobj-$(if $(filter-out virt,$(MACHINE)),$(MACHINE)-)$(v))
