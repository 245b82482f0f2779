# SPDX-License-Identifier: GPL-2.0
# The kernel: packages, the pristine and work trees, its configuration and build.  Included by the Makefile.

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
