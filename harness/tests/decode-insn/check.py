#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the m68k kprobes instruction decoder against objdump on a vmlinux.

  check.py [--workdir DIR] [--src DIR] [--unit-only] [--no-sweep] [--coldfire] VMLINUX

Builds harness/tests/decode-insn/decode-test (the kernel's decode-insn.c,
unchanged, on the host), runs its unit table, then does the following on
VMLINUX and on a "sweep" object that holds every 16-bit opcode, each with a
few different extension words (unless --no-sweep), one summary line each:

1. `objdump -d -z` of every executable section: the decoder runs at every
   instruction boundary objdump reports and its length must equal objdump's.
2. Every accepted instruction whose objdump text has a PC-relative operand
   must have been rewritten, and nothing else: the copies are disassembled
   in one objdump run (32 bytes each, nop-padded) and each must read exactly
   like the original with `%pc@(ADDR <sym>...` turned into the absolute
   form: `0xADDR` for (d16,PC) -> (xxx).L, `%zpc@(ADDR...` for the indexed
   and full forms (the base suppressed, the same ADDR as base displacement),
   with objdump's length equal to the decoder's slot_len.
3. Where a branch (bcc, bsr, dbcc, fbcc, fdbcc) or a jmp/jsr (d16,PC) goes:
   the decoder's target must be the one objdump prints, and the decoder
   must find one exactly where objdump prints one (a walk over a function
   resumes at these targets).

Where objdump and the decoder may disagree, and why (anything else fails):
- objdump shows no instruction (".short" data, or it stopped at a symbol
  inside an instruction): the decoder's -EINVAL or length is only counted,
  except that a length for a ".short" must be an instruction objdump's
  68040 table lacks (OBJDUMP_GAPS).
- the decoder finds an encoding invalid that objdump prints (OBJDUMP_LAX):
  objdump ignores reserved bits of the full extension word, takes addq.b/
  subq.b to an address register, knows the 68851's instructions and
  addressing modes, and a few more listed there.  In a vmlinux these all
  sit in data tables of the FPU emulation code.
- objdump's length for ftrapcc.w/.l is 4 (OBJDUMP_BAD_LEN).

--coldfire checks the ColdFire kernel's decoder (decode-test-cf, built with
CONFIG_COLDFIRE) against objdump's widest ColdFire instruction set (ISA_C
with the EMAC unit) instead.  There a ".short" the decoder gives a length
is an encoding only the 680x0 has, which a ColdFire never runs as code
(counted), and objdump is laxer still: where ColdFire allows only a data
register it prints one whatever the mode field says, with the length of
a register operand (the decoder's 680x0 length, or its refusal, stands:
the CPU takes no such encoding); it ignores bit 8 of an index extension
word (the full format, which the decoder refuses on ColdFire); and it
reads bra.l (ISA_B/C) as bra.s in ISA_C.  The decoder may find invalid
what COLDFIRE_LAX lists.  Refusing is always safe; a length that differs
on a ColdFire instruction is not, and fails.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
OBJDUMP = os.environ.get('OBJDUMP', 'm68k-linux-gnu-objdump')
AS = os.environ.get('AS', 'm68k-linux-gnu-as')

# (first opcode word mask, value, what): ".short" words the decoder may know
OBJDUMP_GAPS = [
    (0xffc0, 0xf000, '68030 mmu instruction objdump -m68040 lacks'),
    (0xffb8, 0xf588, '68060 plpa'),
    (0xffff, 0xf800, '68060 lpstop'),
]
# (decoder's reason, regex on objdump's text): encodings objdump prints
# that the CPU does not take.
OBJDUMP_LAX = [
    # objdump ignores the reserved bits of the full extension word
    ('reserved full extension word', re.compile(r'@\(')),
    # byte-sized addq/subq to an address register
    ('addressing mode', re.compile(r'^(addq|subq)b #-?\d+,%(a[0-7]|sp|fp)$')),
    # the 68851's modes of pmove; fmove.x from a data register; fmove of
    # fpcr/fpsr from an address register; its SVR4 "swbeg" pseudo-op
    ('addressing mode', re.compile(r'^pmove |^fmovex %d[0-7],|'
                                   r'^fmovel %(a[0-7]|sp|fp),%fp(cr|sr)$|^swbegl? ')),
    # 68851 instructions (psave, prestore, pbcc, pdbcc, pscc, ptrapcc)
    ('unknown line F opcode', re.compile(r'^p(save|restore|b|db|s|trap)[a-z]*\b')),
    # register-to-register FPU operations with a nonzero ea field
    ('fpu register operation with an ea', re.compile(r'^f(smul|sincos|getman)x ')),
]
# objdump gives ftrapcc.w and ftrapcc.l 4 bytes, not 6 and 8: the same
# opcode/condition words then one word or long of immediate operand.
OBJDUMP_BAD_LEN = re.compile(r'^MISMATCH \S+ objdump 4 decoder [68]: f27[ab] .*: ftrap[a-z]+[wl] ')

# (decoder's reason, regex on objdump's text): ColdFire encodings the
# decoder refuses to know: the MAC/EMAC unit's, which a kernel never uses.
COLDFIRE_LAX = [
    ("line A: the MAC unit's", re.compile(r'^(mac|msac|move|movclr)')),
    ('full extension word (not on ColdFire)', re.compile(r'@\(')),
    # the coprocessor interface and the debug module's writes
    ('unknown line F opcode', re.compile(r'^(cp[01](ld|st|bcbusy|nop)|wddata|wdebug)')),
    # as for the 680x0: byte moves to an address register, "swbeg"
    ('addressing mode', re.compile(r'^moveb .*,%(a[0-7]|sp|fp)$|^swbegl? ')),
]
DN_OPERAND = re.compile(r'%d[0-7]\b')


class Mode:
    """Which decoder is checked against which objdump machine: the
    decoder built as .prog, objdump's -m .mach, the differences of
    objdump that are tolerated (.lax, and coldfire_lax() if .coldfire)."""
    def __init__(self, mach, prog, coldfire, lax):
        self.mach, self.prog, self.coldfire, self.lax = ['-m', mach], prog, coldfire, lax


M68K = Mode('m68k:68040', 'decode-test', False, OBJDUMP_LAX)
COLDFIRE = Mode('m68k:isa-c:emac', 'decode-test-cf', True, COLDFIRE_LAX)


def mismatch(line):
    """(first opcode word, objdump's text) of a MISMATCH line"""
    m = re.match(r'^MISMATCH \S+ objdump \d+ decoder \d+: ([0-9a-f]{4})[0-9a-f ]*: (.*)$', line)
    return int(m.group(1), 16), m.group(2)


def coldfire_lax(op, text):
    """objdump printed a data register for an ea field that is not one,
    or bra.s for bra.l: True when that explains a difference."""
    if (op >> 3) & 7 and DN_OPERAND.search(text):
        return True
    return op == 0x60ff and text.startswith('bras ')


PCREL = re.compile(r'%pc@\(([0-9a-f]+)(?: <[^>]*>)?')


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, stdout=subprocess.PIPE, **kw).stdout


def expected_copies(orig):
    """The texts objdump may print for the rewritten copy of `orig`."""
    m = PCREL.search(orig)
    if not m:
        return []
    addr = int(m.group(1), 16) & 0xffffffff
    head, tail = orig[:m.start()], orig[m.end():]
    out = [f'{head}%zpc@({addr:x}{tail}']
    if tail.startswith(')') and not tail.startswith(')@('):
        # (d16,PC) -> (xxx).L; a full-format PC form with neither index
        # nor indirection reads the same in the original
        out.append(f'{head}0x{addr:x}{tail[1:]}')
    return out


def norm(text):
    """objdump's text without symbol names, absolute addresses without 0x
    and as 32 bits: objdump prints the copies (a raw binary) as 0xADDR, an
    object's addresses as ADDR <sym>, and a suppressed PC's base at or above
    0x80000000 sign-extended to 64 bits."""
    text = re.sub(r' <[^>]*>', '', text)
    text = re.sub(r'0x([0-9a-f]+)', r'\1', text)
    return re.sub(r'\b([0-9a-f]{9,16})\b', lambda m: '%x' % (int(m.group(1), 16) & 0xffffffff),
                  text)


def verify_copies(mode, work, fails):
    """Disassemble the rewritten copies; return how many verified."""
    rows = [line.rstrip('\n').split('\t', 2)
            for line in open(os.path.join(work, 'slots.txt'))]
    if not rows:
        return 0
    dis = run([OBJDUMP, '-b', 'binary', *mode.mach, '-D', '--insn-width=32',
               os.path.join(work, 'slots.bin')])
    at = {}
    for line in dis.splitlines():
        m = re.match(r'^ *([0-9a-f]+):\t((?:[0-9a-f]{4} )+) *\t(.*)$', line)
        if m:
            at[int(m.group(1), 16)] = (len(m.group(2).split()) * 2, m.group(3).strip())
    ok = 0
    for i, (addr, slot_len, orig) in enumerate(rows):
        got = at.get(32 * i)
        want = expected_copies(orig)
        slot_len = int(slot_len)
        nxt = at.get(32 * i + slot_len, (2, 'nop'))[1] if slot_len < 32 else 'nop'
        if got is None or got[0] != slot_len or norm(got[1]) not in map(norm, want) \
                or nxt != 'nop':
            fails.append(f'COPY {addr}: "{orig}" copied as "{got and got[1]}" '
                         f'({got and got[0]} bytes, slot_len {slot_len}), want one of {want}')
        else:
            ok += 1
    return ok


def compare(mode, prog, elf, work):
    """objdump ELF, run the decoder at its every instruction and check the
    copies: (stats, refusal counts, tolerated differences, failures)."""
    os.makedirs(work, exist_ok=True)
    dis = os.path.join(work, 'objdump.dis')
    with open(dis, 'w') as f:
        subprocess.run([OBJDUMP, '-d', '-z', '--insn-width=22', *mode.mach, elf],
                       check=True, stdout=f)
    out = run([prog, 'objdump', elf, dis,
               os.path.join(work, 'slots.bin'), os.path.join(work, 'slots.txt')])
    with open(os.path.join(work, 'decode.out'), 'w') as f:
        f.write(out)

    stats, refused, tolerated, fails = {}, Counter(), Counter(), []
    for line in out.splitlines():
        kind, _, rest = line.partition(' ')
        if kind == 'STATS':
            key, val = rest.rsplit(' ', 1)
            if key.startswith('refused:'):
                refused[key[8:]] = int(val)
            else:
                stats[key] = int(val)
        elif kind == 'INVALID':
            m = re.match(r'^\S+ \S+ \S+ (.*)\t\(decoder: (.*)\)$', rest)
            text, why = m.group(1), m.group(2)
            op = int(rest.split()[1], 16)
            if mode.coldfire and coldfire_lax(op, text):
                tolerated['objdump lax: ColdFire operand'] += 1
            elif any(w == why and r.search(text) for w, r in mode.lax):
                tolerated[f'objdump lax: {why}'] += 1
            else:
                fails.append(line)
        elif kind == 'MISMATCH' and OBJDUMP_BAD_LEN.match(line):
            tolerated['objdump ftrapcc length'] += 1
        elif kind == 'MISMATCH' and mode.coldfire and coldfire_lax(*mismatch(line)):
            tolerated['objdump lax: ColdFire operand'] += 1
        elif kind == 'OBJDUMP-UNKNOWN':
            m = re.match(r'^\S+ decoder length \d+: ([0-9a-f]{4}): (.*)$', rest)
            op, text = int(m.group(1), 16), m.group(2)
            if not text.startswith('.short'):
                tolerated['objdump stopped at a symbol'] += 1
                continue
            gap = [w for mask, val, w in OBJDUMP_GAPS if op & mask == val]
            if mode.coldfire:
                tolerated['680x0 only'] += 1
            elif gap:
                tolerated[gap[0]] += 1
            else:
                fails.append(line)
        else:
            fails.append(line)

    if stats['instructions'] and not stats['targets']:
        fails.append('no branch target compared: objdump_target() found none')
    stats['verified'] = verify_copies(mode, work, fails)
    if stats['verified'] != stats['pcrel']:
        fails.append(f'{stats["pcrel"]} copies written, {stats["verified"]} verified')
    return stats, refused, tolerated, fails


def sweep_object(work):
    """An object with every 16-bit opcode, each followed by one of a few
    first extension words (brief and full index formats, FPU command words,
    fmovem lists...) and zeros, 24 bytes apiece under its own symbol:
    objdump starts over at each symbol, so every opcode is seen at an
    instruction boundary whatever the one before it was."""
    exts = [0x0000, 0x0130, 0x0163, 0x4800, 0x9000, 0xf0ff, 0x2400, 0x001f]
    src = os.path.join(work, 'sweep.s')
    with open(src, 'w') as f:
        f.write('.text\n')
        for vi, e in enumerate(exts):
            for op in range(65536):
                words = [op, e] + [0] * 9 + [0x4e71]
                f.write(f's{vi}_{op:04x}: .short ' +
                        ','.join(f'0x{w:04x}' for w in words) + '\n')
    obj = os.path.join(work, 'sweep.o')
    run([AS, '-m68040', '-o', obj, src])
    return obj


def report(name, stats, refused, tolerated, fails):
    for line in fails[:50]:
        print(line)
    if len(fails) > 50:
        print(f'... {len(fails) - 50} more')
    reasons = ', '.join(f'{w} {n}' for w, n in refused.most_common())
    print(f'{name}: {stats["instructions"]} instructions, {stats["agree"]} lengths agree, '
          f'{stats["verified"]} pc-relative rewritten and verified, {stats["targets"]} branch targets '
          f'agree, {stats["refused"]} refused '
          f'({reasons}); objdump does not know {stats["objdump-unknown"]} '
          f'({stats["objdump-unknown-invalid"]} invalid for the decoder too); tolerated: '
          f'{", ".join(f"{w} {n}" for w, n in tolerated.most_common()) or "none"}; '
          f'{len(fails)} failures')


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument('vmlinux', nargs='?')
    ap.add_argument('--workdir')
    ap.add_argument('--unit-only', action='store_true')
    ap.add_argument('--no-sweep', action='store_true',
                    help='skip the every-opcode object')
    ap.add_argument('--coldfire', action='store_true',
                    help='the ColdFire decoder against objdump\'s ColdFire ISA')
    ap.add_argument('--src', help='decode-insn.[ch] to test instead of the tree\'s '
                    '(to see that the checks catch a broken decoder)')
    args = ap.parse_args(argv)
    mode = COLDFIRE if args.coldfire else M68K
    tmp = None
    work = args.workdir
    if not work:
        tmp = tempfile.TemporaryDirectory(prefix='decode-insn.')
        work = tmp.name
    os.makedirs(work, exist_ok=True)
    prog = os.path.join(work, mode.prog)
    make = ['make', '-s', '-B', '-C', HERE, f'O={os.path.abspath(work)}']
    if args.src:
        make.append(f'SRC={os.path.abspath(args.src)}')
    run(make + [prog])

    unit = subprocess.run([prog, 'unit'], text=True, stdout=subprocess.PIPE)
    sys.stdout.write(unit.stdout)
    if args.unit_only:
        return unit.returncode
    if not args.vmlinux:
        ap.error('VMLINUX is required')

    failed = unit.returncode != 0
    if not args.no_sweep:
        sw = os.path.join(work, 'sweep')
        os.makedirs(sw, exist_ok=True)
        res = compare(mode, prog, sweep_object(sw), sw)
        report('decode-insn sweep', *res)
        failed |= bool(res[3])
    res = compare(mode, prog, args.vmlinux, os.path.join(work, 'vmlinux'))
    report('decode-insn', *res)
    failed |= bool(res[3])
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
