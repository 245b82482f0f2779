/* SPDX-License-Identifier: GPL-2.0 */
#ifdef DEFINE_DWARF_REGSTR_TABLE
/* This is included in perf/util/dwarf-regs.c */

/*
 * The DWARF register numbers gcc and binutils use for m680x0 and ColdFire:
 * 0-7 the data registers, 8-15 the address registers (15 the stack
 * pointer, the CFA's base), 16-23 the FPU's data registers, 24 the
 * program counter (the return address column).  The names are those
 * kprobe events take (regs_query_register_offset()); kprobes cannot
 * fetch an FPU register, so those have none.
 */
static const char * const m68k_regstr_tbl[] = {
	[0] = "%d0", [1] = "%d1", [2] = "%d2", [3] = "%d3",
	[4] = "%d4", [5] = "%d5", [6] = "%d6", [7] = "%d7",
	[8] = "%a0", [9] = "%a1", [10] = "%a2", [11] = "%a3",
	[12] = "%a4", [13] = "%a5", [14] = "%a6", [15] = "%sp",
	[24] = "%pc",
};

#endif
