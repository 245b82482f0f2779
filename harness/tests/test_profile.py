# SPDX-License-Identifier: GPL-2.0
# Unit tests of harness/profile.py on synthetic single-step profiles.

import importlib.util
import io
import os
import tempfile
import unittest
from contextlib import redirect_stderr

# by its path: "profile" is also a module of Python's own library
_spec = importlib.util.spec_from_file_location(
    'harness_profile',
    os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'profile.py'))
profile = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(profile)

# function symbols of a made-up kernel: (start, end, name)
FUNCS = [(0x1000, 0x1100, 'sys_getppid'),
         (0x2000, 0x2100, 'function_trace_call'),
         (0x3000, 0x3100, 'kprobe_dispatcher'),
         (0x4000, 0x4100, 'kretprobe_dispatcher'),
         (0x5000, 0x5100, 'rb_commit.part.0'),
         (0x6000, 0x6100, 'rb_commit')]


def symbols():
    """A profile.Symbols of FUNCS, without a vmlinux to read."""
    sym = profile.Symbols.__new__(profile.Symbols)
    sym.funcs = sorted(FUNCS)
    sym.fstart = [a for a, _, _ in sym.funcs]
    sym.other = [(0x800, '_stext'), (0x7000, '_etext')]
    sym.ostart = [a for a, _ in sym.other]
    sym.addr = {n: a for a, n in sym.other}
    sym.addr.update({n: a for a, _, n in sym.funcs})
    sym.text = (0x800, 0x7000)
    return sym


def pcs(*runs):
    """PCs of one call: (function start, how many instructions) runs; the
    first PC of each run is the function's entry."""
    return [start + 2 * i for start, n in runs for i in range(n)]


def write_pcs(d, state, calls):
    with open(os.path.join(d, f'{state}.pcs'), 'w') as f:
        for n, call in enumerate(calls):
            f.write(f'CALL {n}\n' + ''.join(f'{pc:x}\n' for pc in call))


class ProfileTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def test_read_calls(self):
        write_pcs(self.d, 'off', [[0x1000, 0x1002], [0x1000]])
        self.assertEqual(profile.read_calls(os.path.join(self.d, 'off.pcs')),
                         [[0x1000, 0x1002], [0x1000]])

    def test_empty_call_is_an_error(self):
        with open(os.path.join(self.d, 'off.pcs'), 'w') as f:
            f.write('CALL 0\n1000\nCALL 1\n')
        with self.assertRaises(profile.ProfileError):
            profile.read_calls(os.path.join(self.d, 'off.pcs'))

    def test_median_call_is_the_lower_median(self):
        calls = [[1] * 30, [2] * 10, [3] * 20, [4] * 40]
        call, lens = profile.median_call(calls)
        self.assertEqual(call, [3] * 20)
        self.assertEqual(lens, [30, 10, 20, 40])

    def test_names_outside_the_kernel_text(self):
        sym = symbols()
        self.assertEqual(sym.name(0x3004), 'kprobe_dispatcher')
        self.assertEqual(sym.name(0x9000), profile.OUTSIDE)

    def test_probe_hits_counted_at_their_dispatcher(self):
        sym = symbols()
        off = pcs((0x1000, 10))
        # two hits of the kprobe event: the dispatcher entered twice
        kp = pcs((0x1000, 10), (0x3000, 5), (0x5000, 3), (0x3000, 5), (0x6000, 1))
        krp = pcs((0x1000, 10), (0x4000, 7))
        res = profile.analyse(sym, {'off': (off, [10]), 'kprobe': (kp, [24]),
                                    'kretprobe': (krp, [17])})
        self.assertEqual(res['kprobe'][1], 2)
        self.assertEqual(res['kretprobe'][1], 1)
        self.assertEqual(res['kprobe'][2]['kprobe_dispatcher'], 10)
        # above tracing off, per hit; the .part clone counted as its function
        per = profile.per_entry(res, 'kprobe')
        self.assertEqual(per, {'kprobe_dispatcher': 5, 'rb_commit': 2})
        self.assertEqual(profile.per_entry(res, 'kretprobe'), {'kretprobe_dispatcher': 7})
        table = profile.render(sym, {'off': (off, [10]), 'kprobe': (kp, [24])})
        self.assertIn('| a kprobe event on the system call function | 24 | 2 | 7 |', table)

    def test_state_without_entries_has_no_per_call_figure(self):
        sym = symbols()
        off = pcs((0x1000, 10))
        res = profile.analyse(sym, {'off': (off, [10]), 'kretprobe': (off, [10])})
        self.assertIsNone(profile.per_entry(res, 'kretprobe'))

    def test_beside_the_anchor(self):
        sym = symbols()
        prof = {'off': (pcs((0x1000, 10)), [10]),
                'kprobe': (pcs((0x1000, 10), (0x3000, 8)), [18])}
        aprof = {'off': (pcs((0x1000, 12)), [12]),
                 'kprobe': (pcs((0x1000, 12), (0x3000, 6), (0x9000, 4)), [22])}
        table = profile.render(sym, prof, ('x86_64', sym, aprof, '/anchor'))
        self.assertIn('| kprobe_dispatcher | 8.0 | 6.0 | +2.0 |', table)
        self.assertIn(f'| {profile.OUTSIDE} | 0.0 | 4.0 | -4.0 |', table)
        self.assertIn('| **per traced entry** | **8.0** | **10.0** | **-2.0** |', table)

    def test_missing_profile_fails(self):
        err = io.StringIO()
        with redirect_stderr(err):
            rc = profile.main(['profile.py', '/nonexistent/vmlinux', self.d])
        self.assertEqual(rc, 1)
        self.assertIn('profile.py:', err.getvalue())


if __name__ == '__main__':
    unittest.main()
