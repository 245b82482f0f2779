# SPDX-License-Identifier: GPL-2.0
# The patch series: make series, am-check, checkpatch, series-check, bisect-build, defconfigs.  Included by the Makefile.

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

# After overlay files changed (uncommitted, or since REV): the stage diffs
# of patches/stages/ rewritten so that every earlier version of a file
# carries the same change where it has the changed lines.
REV ?= HEAD
restage:
	@python3 harness/series.py restage $(CURDIR) $(REV)
