#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host tests of the m68k probes' instruction decoder.

arch/m68k/kernel/probes/decode-insn.c is built on the host
(harness/tests/decode-insn) and checked by harness/tests/decode-insn/check.sh:
its unit table, and against objdump at every instruction of a vmlinux.

Environment:
    DECODE_INSN_VMLINUX  the vmlinux to check (host-tests.sh passes the
                         dynamic-ftrace kernel's); default
                         build/KERNEL/kobj-dynamic/vmlinux when it exists
"""

import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CHECK = REPO / 'harness' / 'tests' / 'decode-insn' / 'check.sh'
SRC = REPO / 'arch' / 'm68k' / 'kernel' / 'probes'
OBJDUMP = 'm68k-linux-gnu-objdump'


def vmlinux():
    path = os.environ.get('DECODE_INSN_VMLINUX') or REPO / 'build' / os.environ.get('KERNEL', '7.3') / 'kobj-dynamic' / 'vmlinux'
    return Path(path) if Path(path).is_file() else None


def check(*args, src=None):
    """Run check.sh in a scratch directory: (exit code, output)."""
    with tempfile.TemporaryDirectory(prefix='decode-insn.') as work:
        cmd = ['python3', str(CHECK.with_suffix('.py')), '--workdir', work]
        if src:
            cmd += ['--src', str(src)]
        p = subprocess.run(cmd + list(args), text=True, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
    return p.returncode, p.stdout


def summary(out):
    lines = [line for line in out.splitlines() if line.startswith('decode-insn')]
    return '\n'.join(lines) + '\n' + '\n'.join(out.splitlines()[:30])


class DecodeInsnTest(unittest.TestCase):
    def test_unit_table(self):
        rc, out = check('--unit-only')
        self.assertEqual(rc, 0, out)
        self.assertIn(', 0 failed', out)

    def test_coldfire_unit_table(self):
        # the ColdFire kernel's decoder; its vmlinux is checked by the
        # mcf5208-selftests suite (harness/console-checks.sh)
        rc, out = check('--unit-only', '--coldfire')
        self.assertEqual(rc, 0, out)
        self.assertRegex(out, r'decode-insn unit: [1-9]\d* cases, 0 failed')

    @unittest.skipUnless(shutil.which(OBJDUMP), f'no {OBJDUMP}')
    def test_vmlinux_against_objdump(self):
        vm = vmlinux()
        if not vm:
            self.skipTest('no vmlinux (DECODE_INSN_VMLINUX)')
        rc, out = check(str(vm))
        self.assertEqual(rc, 0, summary(out))
        self.assertRegex(out, r'decode-insn: [1-9]\d* instructions, .* 0 failures')

    def test_coldfire_catches_a_copy_too_long(self):
        # a (d16,PC) operand made absolute past ColdFire's three words
        with tempfile.TemporaryDirectory(prefix='decode-insn-src.') as src:
            for name in ('decode-insn.c', 'decode-insn.h'):
                shutil.copy(SRC / name, src)
            path = Path(src) / 'decode-insn.c'
            text = path.read_text()
            good = '(coldfire() && insn->slot_len > M68K_CF_MAX_LEN)'
            self.assertEqual(text.count(good), 1)
            path.write_text(text.replace(good, '0'))
            rc, out = check('--unit-only', '--coldfire', src=src)
            self.assertNotEqual(rc, 0, out)
            self.assertIn('FAIL move.l (d16,pc),(d16,a0): too long made absolute', out)

    def assert_caught(self, good, bad, unit_fail, vmlinux_fail):
        """decode-insn.c with GOOD (found once) replaced by BAD must fail
        the unit table with UNIT_FAIL, and the vmlinux check (when there
        is one) with a VMLINUX_FAIL line."""
        with tempfile.TemporaryDirectory(prefix='decode-insn-src.') as src:
            for name in ('decode-insn.c', 'decode-insn.h'):
                shutil.copy(SRC / name, src)
            path = Path(src) / 'decode-insn.c'
            text = path.read_text()
            self.assertEqual(text.count(good), 1)
            path.write_text(text.replace(good, bad))
            rc, out = check('--unit-only', src=src)
            self.assertNotEqual(rc, 0, out)
            self.assertIn(unit_fail, out)
            vm = vmlinux()
            if vm:
                rc, out = check('--no-sweep', str(vm), src=src)
                self.assertNotEqual(rc, 0, summary(out))
                self.assertIn(vmlinux_fail, out)

    @unittest.skipUnless(shutil.which(OBJDUMP), f'no {OBJDUMP}')
    def test_user_program_against_objdump(self):
        # user code as uprobes see it: the guest's busybox with glibc,
        # linked at 0x80000000 (addresses with the top bit set)
        prog = REPO / 'build' / 'busybox' / 'src' / 'busybox_unstripped'
        if not prog.is_file():
            self.skipTest(f'no {prog} (make busybox)')
        rc, out = check('--no-sweep', str(prog))
        self.assertEqual(rc, 0, summary(out))
        self.assertRegex(out, r'decode-insn: [1-9]\d* instructions, .* [1-9]\d* pc-relative '
                         r'rewritten and verified, .* 0 failures')

    @unittest.skipUnless(shutil.which(OBJDUMP), f'no {OBJDUMP}')
    def test_catches_a_broken_decoder(self):
        # (d16,PC) relocated against the wrong PC must fail both checks
        self.assert_caught('u32 base = (u32)addr + 2 * i;',
                           'u32 base = (u32)addr + 2 * i + 2;',
                           'FAIL lea (d16,pc),a0: slot', 'COPY ')

    @unittest.skipUnless(shutil.which(OBJDUMP), f'no {OBJDUMP}')
    def test_catches_a_wrong_branch_target(self):
        # bra/bsr/bcc targets counted from the opcode instead of after it
        self.assert_caught('branch_to(d, 1, disp, false);',
                           'branch_to(d, 0, disp, false);',
                           'FAIL bra.s: target', 'TARGET ')

if __name__ == '__main__':
    unittest.main()
