#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""elf2flt.py ELF FLAT [--stack BYTES]: a FLAT (bFLT version 4) image of a
self-contained m68k ELF executable, for the nommu ColdFire kernel's
binfmt_flat (include/linux/flat.h; Debian has no elf2flt).

Only what guest/flat/init.c needs, and refused clearly otherwise: the
program is linked at 0x40 (the 64-byte header is the start of its text
segment, so file offsets are addresses) with -Wl,-q, and reaches its
code and constants PC-relative (-mpcrel).  The image then needs no
relocation records: every relocation kept by the link must be
PC-relative, and there may be no writable data (binfmt_flat puts the
data segment at an address of its own choosing, which PC-relative code
cannot follow).  Flag RAM: loaded into memory, not run from the file.
"""
import argparse
import struct
import sys

FLAT_HDR = 64
FLAT_VERSION = 4
FLAT_FLAG_RAM = 0x0001
EM_68K = 4
ET_EXEC = 2
SHT_PROGBITS, SHT_RELA, SHT_NOBITS, SHT_REL = 1, 4, 8, 9
SHF_WRITE, SHF_ALLOC = 0x1, 0x2
# R_68K_PC32, R_68K_PC16, R_68K_PC8: resolved by the link, position-free
PC_RELATIVE = {4, 5, 6}
R_NAMES = {0: 'R_68K_NONE', 1: 'R_68K_32', 2: 'R_68K_16', 3: 'R_68K_8'}


class Refused(Exception):
    pass


def sections(elf):
    if elf[:4] != b'\x7fELF' or elf[4] != 1 or elf[5] != 2:
        raise Refused('not a 32-bit big-endian ELF file')
    e_type, e_machine = struct.unpack_from('>HH', elf, 16)
    if e_machine != EM_68K or e_type != ET_EXEC:
        raise Refused(f'not an m68k executable (e_type {e_type}, e_machine {e_machine})')
    entry, = struct.unpack_from('>I', elf, 24)
    shoff, = struct.unpack_from('>I', elf, 32)
    shentsize, shnum, shstrndx = struct.unpack_from('>HHH', elf, 46)
    out = []
    for i in range(shnum):
        out.append(dict(zip(('name', 'type', 'flags', 'addr', 'offset', 'size', 'link',
                             'info', 'align', 'entsize'),
                            struct.unpack_from('>10I', elf, shoff + i * shentsize))))
    strtab = out[shstrndx]
    for s in out:
        start = strtab['offset'] + s['name']
        s['name'] = elf[start:elf.index(b'\0', start)].decode()
    return entry, out


def convert(elf, stack):
    entry, secs = sections(elf)
    alloc = [s for s in secs if s['flags'] & SHF_ALLOC and s['size']]
    if not alloc:
        raise Refused('no loadable section')
    bad = [f"{s['name']} ({s['size']} bytes)" for s in alloc if s['flags'] & SHF_WRITE]
    if bad:
        raise Refused('writable data in ' + ', '.join(bad) + ': the image has no data '
                      'segment (keep mutable state on the stack)')
    low = min(s['addr'] for s in alloc)
    if low < FLAT_HDR:
        raise Refused(f'a section starts at {low:#x}, inside the {FLAT_HDR}-byte header '
                      f'(link with -Ttext={FLAT_HDR:#x})')
    alloc_idx = {i for i, s in enumerate(secs) if s['flags'] & SHF_ALLOC}
    kept = 0
    for s in secs:
        if s['type'] == SHT_REL:
            raise Refused(f"{s['name']}: REL relocations (m68k uses RELA)")
        if s['type'] != SHT_RELA or s['info'] not in alloc_idx:
            continue
        for off in range(s['offset'], s['offset'] + s['size'], 12):
            r_offset, r_info, _ = struct.unpack_from('>IIi', elf, off)
            kept += 1
            if r_info & 0xff not in PC_RELATIVE:
                kind = R_NAMES.get(r_info & 0xff, f'type {r_info & 0xff}')
                raise Refused(f'{kind} at {r_offset:#x} ({s["name"]}): the image would need '
                              'a relocation (compile with -mpcrel, no pointers in data)')
    if not kept:
        raise Refused('no relocations kept: link with -Wl,-q so that they can be checked')
    end = max(s['addr'] + s['size'] for s in alloc)
    end = (end + 3) & ~3
    if not FLAT_HDR <= entry < end:
        raise Refused(f'entry {entry:#x} is outside the image')
    image = bytearray(end)
    for s in alloc:
        if s['type'] == SHT_PROGBITS:
            image[s['addr']:s['addr'] + s['size']] = elf[s['offset']:s['offset'] + s['size']]
        elif s['type'] != SHT_NOBITS:
            raise Refused(f"{s['name']}: section type {s['type']}")
    # magic, rev, entry, data_start, data_end, bss_end, stack_size,
    # reloc_start, reloc_count, flags, build_date, filler[5]
    image[:FLAT_HDR] = struct.pack('>4s10I20x', b'bFLT', FLAT_VERSION, entry, end, end, end,
                                   stack, end, 0, FLAT_FLAG_RAM, 0)
    return bytes(image), entry, kept


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('elf')
    ap.add_argument('flat')
    ap.add_argument('--stack', type=int, default=65536, help='stack size (bytes)')
    a = ap.parse_args(argv)
    with open(a.elf, 'rb') as f:
        elf = f.read()
    try:
        image, entry, kept = convert(elf, a.stack)
    except (Refused, struct.error, ValueError, IndexError) as e:
        print(f'elf2flt: {a.elf}: {e}', file=sys.stderr)
        return 1
    with open(a.flat, 'wb') as f:
        f.write(image)
    print(f'elf2flt: {a.flat}: {len(image)} bytes, entry {entry:#x}, stack {a.stack}, '
          f'{kept} PC-relative relocations checked, none kept')
    return 0


if __name__ == '__main__':
    sys.exit(main())
