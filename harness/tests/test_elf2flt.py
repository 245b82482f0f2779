#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""harness/build-flat-init.sh and elf2flt.py: the ColdFire guest's init
becomes a FLAT image whose header binfmt_flat accepts, and a program the
image could not run as linked (writable data, an absolute address) is
refused with the reason instead of converted.
"""

import struct
import subprocess
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / 'harness' / 'build-flat-init.sh'
ELF2FLT = REPO / 'harness' / 'elf2flt.py'
INIT = REPO / 'guest' / 'flat' / 'init.c'
CC = 'm68k-linux-gnu-gcc-12'

# a minimal program in the shape of init.c, plus LINE
PROGRAM = '''
__asm__(".text\\n.globl _start\\n_start: jsr main(%%pc)\\n moveq #1,%%d0\\n trap #0\\n");
%s
int main(void) { return run(); }
'''


def have_cc():
    return subprocess.run(['sh', '-c', f'command -v {CC}'], capture_output=True).returncode == 0


@unittest.skipUnless(have_cc(), f'no {CC}')
class TestElf2Flt(unittest.TestCase):
    def build(self, src_text=None):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        src = INIT
        if src_text is not None:
            src = Path(tmp.name) / 'prog.c'
            src.write_text(PROGRAM % src_text)
        p = subprocess.run(['bash', str(BUILD), str(src), tmp.name + '/out'],
                           text=True, capture_output=True)
        return p, Path(tmp.name) / 'out'

    def test_init_header(self):
        p, out = self.build()
        self.assertEqual(p.returncode, 0, p.stderr)
        image = (out / 'init').read_bytes()
        (magic, rev, entry, data_start, data_end, bss_end, stack, reloc_start,
         reloc_count, flags, _date) = struct.unpack_from('>4s10I', image)
        self.assertEqual((magic, rev), (b'bFLT', 4))
        self.assertEqual(len(image) % 4, 0)
        # text fills the file; no data, bss or relocation records
        self.assertEqual({data_start, data_end, bss_end, reloc_start}, {len(image)})
        self.assertEqual(reloc_count, 0)
        self.assertEqual(flags, 1)          # FLAT_FLAG_RAM
        self.assertGreaterEqual(stack, 32768)
        self.assertTrue(64 <= entry < len(image))
        self.assertFalse(any(image[44:64]), 'filler not zero')
        # the code at the entry is the ELF's: jsr main(%pc)
        elf = subprocess.run(['m68k-linux-gnu-nm', str(out / 'init.elf')],
                             text=True, capture_output=True).stdout
        start = int(next(ln.split()[0] for ln in elf.splitlines() if ln.endswith(' _start')), 16)
        self.assertEqual(start, entry)
        self.assertEqual(image[entry:entry + 2], b'\x4e\xba')
        listing = (out / 'initramfs.list').read_text()
        self.assertIn(f'file /init {out.resolve()}/init 0755 0 0', listing)
        self.assertIn('nod /dev/console 0600 0 0 c 5 1', listing)

    def test_refuses_writable_data(self):
        p, _ = self.build('static int calls;\nstatic int run(void) { return ++calls; }')
        self.assertNotEqual(p.returncode, 0)
        self.assertIn('writable data in .bss', p.stderr)

    def test_refuses_a_table_of_pointers(self):
        # pointers initialised in constant data need relocation records:
        # gcc puts them in .data.rel.ro, writable until relocated
        p, _ = self.build('static const char *const names[] = { "a", "b" };\n'
                          'static int run(void) { volatile int i = 1; return names[i][0]; }')
        self.assertNotEqual(p.returncode, 0)
        self.assertIn('writable data in .data.rel.ro', p.stderr)

    def test_refuses_an_absolute_address(self):
        p, _ = self.build('static int run(void) { int v;\n'
                          '__asm__("move.l #_start,%0" : "=d" (v)); return v; }')
        self.assertNotEqual(p.returncode, 0)
        self.assertRegex(p.stderr, r'R_68K_32 at 0x[0-9a-f]+ \(\.rela\.text\)')

    def test_refuses_without_kept_relocations(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / 'prog.c'
            src.write_text(PROGRAM % 'static int run(void) { return 0; }')
            subprocess.run([CC, '-mcpu=5208', '-mpcrel', '-Os', '-ffreestanding', '-nostdlib',
                            '-static', '-Wl,-Ttext=0x40', '-Wl,-e,_start', '-o',
                            f'{tmp}/prog.elf', str(src)], check=True)
            p = subprocess.run(['python3', str(ELF2FLT), f'{tmp}/prog.elf', f'{tmp}/prog.flt'],
                               text=True, capture_output=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn('link with -Wl,-q', p.stderr)

    def test_refuses_a_host_binary(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = subprocess.run(['python3', str(ELF2FLT), '/bin/true', f'{tmp}/x.flt'],
                               text=True, capture_output=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn('not a 32-bit big-endian ELF file', p.stderr)


if __name__ == '__main__':
    unittest.main()
