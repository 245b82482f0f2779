# SPDX-License-Identifier: GPL-2.0
# make check, make mutate and make results.  Included by the Makefile.

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
# MUTANTS: the mutants to build (harness/mutate.sh names them; default all)
MUTANTS ?=
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
