/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_M68K_SECTIONS_H
#define _ASM_M68K_SECTIONS_H

#include <asm-generic/sections.h>

/* The FPU emulation packages (fpsp040, ifpsp060): code mixed with data. */
extern char __fpsp_text_start[], __fpsp_text_end[];
/* The end of the head code (.head.text), which starts at _stext. */
extern char __head_text_end[];

#endif /* _ASM_M68K_SECTIONS_H */
