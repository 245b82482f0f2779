#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""harness/kprobe-offsets.py must fail on a wrong accept and a wrong refusal.

Uses the dynamic kernel's vmlinux (DECODE_INSN_VMLINUX, as host-tests.sh
passes it) and vfs_read's real instruction boundaries.
"""

import importlib.util
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOOL = REPO / 'harness' / 'kprobe-offsets.py'


def vmlinux():
    path = os.environ.get('DECODE_INSN_VMLINUX') or REPO / 'build' / os.environ.get('KERNEL', '7.3') / 'kobj-dynamic' / 'vmlinux'
    return str(path) if Path(path).is_file() else None


def run(log_text):
    with tempfile.NamedTemporaryFile('w', suffix='.log') as log:
        log.write(log_text)
        log.flush()
        p = subprocess.run(['python3', str(TOOL), log.name, vmlinux()],
                           text=True, capture_output=True)
    return p.returncode, p.stdout


@unittest.skipUnless(vmlinux(), 'no dynamic vmlinux built')
class TestKprobeOffsets(unittest.TestCase):
    def boundaries(self):
        """All of vfs_read's boundaries, as the tool's objdump sees them."""
        spec = importlib.util.spec_from_file_location('kpo', TOOL)
        kpo = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(kpo)
        start, end = kpo.symbols(vmlinux(), {'vfs_read'})['vfs_read']
        return kpo.boundaries(vmlinux(), start, end), kpo.REFUSED

    def test_all_steppable_boundaries_pass(self):
        insns, refused = self.boundaries()
        ok = [o for o, text in insns.items() if not refused.search(text)]
        rc, out = run('KPROBE-OFFSETS vfs_read %s\n' % ' '.join(map(str, ok)))
        self.assertEqual(rc, 0, out)
        self.assertIn('CHECK PASS kp-host-offsets-vfs_read', out)

    def test_offset_inside_an_instruction_fails(self):
        insns, refused = self.boundaries()
        ok = [o for o, text in insns.items() if not refused.search(text)]
        rc, out = run('KPROBE-OFFSETS vfs_read %s 1\n' % ' '.join(map(str, ok)))
        self.assertEqual(rc, 1)
        self.assertIn('accepted inside instructions at +1', out)

    def test_refused_steppable_instruction_fails(self):
        insns, refused = self.boundaries()
        ok = [o for o, text in insns.items() if not refused.search(text)]
        rc, out = run('KPROBE-OFFSETS vfs_read %s\n' % ' '.join(map(str, ok[1:])))
        self.assertEqual(rc, 1)
        self.assertIn('refused steppable instructions: +%d' % ok[0], out)

    def test_no_lines_fails(self):
        rc, out = run('nothing here\n')
        self.assertEqual(rc, 1)



class TestEntrySite(unittest.TestCase):
    """Three nops at a function's start are one run-time instruction."""
    def tool(self):
        spec = importlib.util.spec_from_file_location('kpo', TOOL)
        kpo = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(kpo)
        return kpo

    def test_three_nops_are_one_site(self):
        insns = {0: 'nop', 2: 'nop', 4: 'nop', 6: 'linkw %fp,#0'}
        got = self.tool().entry_site(dict(insns))
        self.assertEqual(sorted(got), [0, 6])
        self.assertFalse(self.tool().REFUSED.search(got[6]))

    def test_other_starts_are_left_alone(self):
        for insns in ({0: 'nop', 2: 'nop', 4: 'rts'},
                      {0: 'linkw %fp,#0', 4: 'nop', 6: 'nop', 8: 'nop'}):
            self.assertEqual(self.tool().entry_site(dict(insns)), insns)


if __name__ == '__main__':
    unittest.main()
