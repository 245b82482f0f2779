# SPDX-License-Identifier: GPL-2.0
# Booting a guest: make run, initramfs, guest, shell, record, view, sweep.  Included by the Makefile.

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
