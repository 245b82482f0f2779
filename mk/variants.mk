# SPDX-License-Identifier: GPL-2.0
# The kernel variants: each one's config fragments (configs/) and object
# directory.  Included by the Makefile.

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
# pointers (patchable entries and reliable stack traces), live patching
# and BPF (interpreted).
# notp, tp, tpnojl: no tracepoints; tracepoints and the event tracer only;
# the same without jump labels (make bench: what an off tracepoint costs).
FRAGS_dynamic := base tracing framepointer function dynamic
FRAGS_static  := base tracing framepointer function static
FRAGS_plain   := base tracing
FRAGS_fp      := base tracing framepointer
FRAGS_lockdep := base tracing framepointer function dynamic lockdep
FRAGS_pfe     := base tracing function pfe
FRAGS_btf     := base tracing function pfe btf
FRAGS_livepatch := base tracing framepointer function pfe livepatch bpf
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
