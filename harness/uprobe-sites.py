#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Instruction starts of a static m68k program, for the uprobe sweep.

  uprobe-sites.py SYMBOLS PROGRAM OUT

SYMBOLS is the program with its symbols (busybox_unstripped), PROGRAM the
stripped copy the guest runs; their executable segments must be the same
bytes at the same file offsets.  OUT gets one line per instruction that is
certainly an instruction start: "OFFSET MNEMONIC", OFFSET the file offset in
hexadecimal (what a uprobe event takes, PROGRAM:0xOFFSET).

The guest has no disassembler and the kernel cannot tell where a user
instruction starts (a uprobe at any even offset is taken as long as the
words there decode), so the starts come from objdump here.  objdump sweeps
linearly, and text is not all instructions: gcc puts a switch's table of
offsets right behind the `jmp %pc@(..,%dN:w)` that uses it.  Each function
(symbol) is therefore taken from its start up to and including its first
jump through an index, or up to the first word objdump cannot decode;
what follows is left out.  Errors name what is wrong; exit status 1.
"""

import os
import re
import struct
import subprocess
import sys

OBJDUMP = 'm68k-linux-gnu-objdump'
PT_LOAD, PF_X = 1, 1

HEADER = re.compile(r'^([0-9a-f]+) <(.*)>:$')
INSN = re.compile(r'^ *([0-9a-f]+):\t(\S+)(?:\s+(.*))?$')
# a jump through an index: what follows it may be a table
TABLE_JMP = re.compile(r'^%pc@\(.*,%[ad][0-7]')
UNDECODED = ('.short', '(bad)')


class SitesError(Exception):
    pass


def exec_segments(path):
    """[(vaddr, offset, filesz)] of the executable PT_LOAD segments."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:6] != b'\x7fELF\x01\x02' or struct.unpack('>H', data[18:20])[0] != 4:
        raise SitesError('%s: not an ELF32 big-endian m68k file' % path)
    phoff, = struct.unpack('>I', data[28:32])
    phentsize, phnum = struct.unpack('>HH', data[42:46])
    segs = []
    for i in range(phnum):
        p_type, p_offset, p_vaddr, _, p_filesz, _, p_flags, _ = struct.unpack(
            '>8I', data[phoff + i * phentsize:phoff + i * phentsize + 32])
        if p_type == PT_LOAD and p_flags & PF_X:
            segs.append((p_vaddr, p_offset, p_filesz))
    if not segs:
        raise SitesError('%s: no executable segment' % path)
    return segs, data


def file_offset(segs, vaddr):
    for base, off, size in segs:
        if base <= vaddr < base + size:
            return vaddr - base + off
    return None


def sites(symbols):
    """(vaddr, mnemonic) of the certain instruction starts, and the number
    of functions cut short at a jump through an index."""
    dis = subprocess.run([OBJDUMP, '-d', '--no-show-raw-insn', symbols], check=True,
                         capture_output=True, text=True).stdout
    out, cut, done = [], 0, True
    for line in dis.splitlines():
        if HEADER.match(line):
            done = False
            continue
        m = INSN.match(line)
        if not m or done:
            continue
        mnem, ops = m.group(2), m.group(3) or ''
        if mnem in UNDECODED or 'out of bounds' in line:
            done = True
            continue
        out.append((int(m.group(1), 16), mnem))
        if mnem == 'jmp' and TABLE_JMP.match(ops):
            cut += 1
            done = True
    return out, cut


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().split('\n\n')[1], file=sys.stderr)
        return 2
    symbols, program, dest = argv
    try:
        segs, sym_data = exec_segments(symbols)
        psegs, prog_data = exec_segments(program)
        if segs != psegs or any(sym_data[o:o + n] != prog_data[o:o + n] for _, o, n in segs):
            raise SitesError('%s and %s differ in their executable segments: '
                             'rebuild busybox' % (symbols, program))
        found, cut = sites(symbols)
        lines = []
        for vaddr, mnem in found:
            off = file_offset(segs, vaddr)
            if off is None:
                raise SitesError('%s: %x (%s) is in no executable segment'
                                 % (symbols, vaddr, mnem))
            lines.append('%x %s\n' % (off, mnem))
        if not lines:
            raise SitesError('%s: objdump found no instruction' % symbols)
    except (OSError, subprocess.CalledProcessError, SitesError) as e:
        print('uprobe-sites: %s' % e, file=sys.stderr)
        return 1
    with open(dest + '.tmp', 'w') as f:
        f.writelines(lines)
    os.replace(dest + '.tmp', dest)
    print('uprobe-sites: %d instruction starts of %s (%d functions cut at a jump '
          'through an index)' % (len(lines), program, cut))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
