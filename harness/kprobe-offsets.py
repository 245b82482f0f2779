#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the offsets the guest's kernel accepted for kprobes against objdump.

    kprobe-offsets.py CONSOLE-LOG VMLINUX

guest/tests/kprobes.sh tries a kprobe on every byte offset of a few
functions and prints the accepted ones as "KPROBE-OFFSETS FUNC OFF...".
For each function this prints one "CHECK PASS|FAIL kp-host-offsets-FUNC"
line: every accepted offset must be an instruction boundary in objdump's
disassembly of the same vmlinux, and every boundary refused must hold an
instruction that cannot be stepped out of line (status register, traps,
privileged instructions, what the 68060 emulates) or the function's ftrace
call site, which kprobes leave to ftrace (a kprobe at a patchable function
entry goes through ftrace at the site itself).
"""
import os
import re
import subprocess
import sys

OBJDUMP = 'm68k-linux-gnu-objdump'
# What the arch code refuses on purpose (decode-insn.c, and ftrace's site).
# What the 68060 emulates in software is refused too (movep, cas2, cmp2,
# 64-bit mul/div: objdump writes those with two data registers after the
# source, "mulsl #n,%d3,%d4").
REFUSED = re.compile(r'%sr\b|^(trap|stop|rte|movec|moves|cinv|cpush|pflush|'
                     r'ptest|chk|illegal|fsave|frestore|reset|movep|cas2|cmp2)'
                     r'|^(mul[su]l|div[su]l)\s+\S+,%d\d,%d\d$'
                     r'|^(trapf|tpf)|_mcount|^bsrl .*<ftrace')


def symbols(vmlinux, names):
    """{name: (start, end)} from nm, the end being the next symbol's start."""
    out = subprocess.run(['m68k-linux-gnu-nm', '-n', vmlinux], check=True,
                         capture_output=True, text=True).stdout
    addrs = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            addrs.append((int(parts[0], 16), parts[2]))
    found = {}
    for i, (addr, name) in enumerate(addrs):
        if name in names and name not in found:
            nxt = next((a for a, _ in addrs[i + 1:] if a > addr), addr)
            found[name] = (addr, nxt)
    return found


def words(vmlinux, addr, n):
    """The N 16-bit words of the file at ADDR (objdump -s)."""
    out = subprocess.run([OBJDUMP, '-s', '--start-address=%#x' % addr,
                          '--stop-address=%#x' % (addr + 2 * n), vmlinux],
                         check=True, capture_output=True, text=True).stdout
    hexdigits = ''
    for line in out.splitlines():
        m = re.match(r'\s*[0-9a-f]+ ((?:[0-9a-f]{2,8} ?){1,4})', line)
        if m:
            hexdigits += m.group(1).replace(' ', '')
    return [int(hexdigits[i:i + 4], 16) for i in range(0, 4 * n, 4)]


def call_ops(vmlinux):
    """Does the kernel put an ftrace_ops slot before each traced function
    (CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS, in the .config beside it)?"""
    try:
        with open(os.path.join(os.path.dirname(vmlinux), '.config')) as f:
            return 'CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS=y\n' in f.read()
    except OSError:
        return False


def code_end(vmlinux, start, end):
    """Where the function's code ends, as the kernel sees it
    (m68k_kprobe_func_end()): with call ops, when the next symbol is a
    traced function (three nops in the file), its 4-byte ftrace_ops slot
    and the 0x0000 word that may align it are no code of this one."""
    if end - start > 4 and words(vmlinux, end, 3) == [0x4e71] * 3:
        end -= 4
        if end - 2 > start and words(vmlinux, end - 2, 1) == [0]:
            end -= 2
    return end


def boundaries(vmlinux, start, end):
    """{offset: instruction text} of objdump's disassembly of [start, end)."""
    out = subprocess.run([OBJDUMP, '-d', '-m', 'm68k:68040', '--no-show-raw-insn',
                          '--start-address=%#x' % start,
                          '--stop-address=%#x' % end, vmlinux],
                         check=True, capture_output=True, text=True).stdout
    insns = {}
    for line in out.splitlines():
        m = re.match(r'\s*([0-9a-f]+):\s+(.*)', line)
        if m:
            insns[int(m.group(1), 16) - start] = m.group(2).strip()
    return entry_site(insns)


def entry_site(insns):
    """A patchable function entry (-fpatchable-function-entry=3) is three
    nops in the file but one 6-byte instruction at run time (the ftrace
    site): +2 and +4 are no instruction boundaries there."""
    if all(insns.get(o) == 'nop' for o in (0, 2, 4)):
        del insns[2], insns[4]
        insns[0] = 'trapf.l (patchable function entry, the ftrace site)'
    return insns


def main():
    log, vmlinux = sys.argv[1], sys.argv[2]
    accepted = {}
    with open(log, errors='replace') as f:
        for line in f:
            m = re.match(r'KPROBE-OFFSETS (\S+)(.*)', line.strip())
            if m:
                accepted[m.group(1)] = {int(x) for x in m.group(2).split()}
    if not accepted:
        print('CHECK FAIL kp-host-offsets: no KPROBE-OFFSETS lines in %s' % log)
        return 1
    syms = symbols(vmlinux, set(accepted))
    if call_ops(vmlinux):
        syms = {f: (a, code_end(vmlinux, a, e)) for f, (a, e) in syms.items()}
    failed = 0
    for func, offs in sorted(accepted.items()):
        name = 'kp-host-offsets-' + func
        if func not in syms:
            print('CHECK FAIL %s: %s not in vmlinux' % (name, func))
            failed += 1
            continue
        insns = boundaries(vmlinux, *syms[func])
        inside = sorted(offs - set(insns))
        wrongly = sorted(o for o in set(insns) - offs
                         if not REFUSED.search(insns[o]))
        refused = len(insns) - len(offs & set(insns))
        print('kprobe-offsets: %s: %d instructions, %d accepted, %d refused'
              % (func, len(insns), len(offs), refused))
        if inside:
            print('CHECK FAIL %s: accepted inside instructions at +%s'
                  % (name, ', +'.join(map(str, inside[:8]))))
            failed += 1
        elif wrongly:
            print('CHECK FAIL %s: refused steppable instructions: %s'
                  % (name, '; '.join('+%d %s' % (o, insns[o]) for o in wrongly[:6])))
            failed += 1
        else:
            print('CHECK PASS %s' % name)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
