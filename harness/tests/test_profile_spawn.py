# SPDX-License-Identifier: GPL-2.0
# Unit tests of harness/profile_spawn.py on made-up instruction counts.

import importlib.util
import os
import tempfile
import unittest

_spec = importlib.util.spec_from_file_location(
    'harness_profile_spawn',
    os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'profile_spawn.py'))
spawn = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(spawn)

FUNCS = [(0x1000, 0x1100, 'do_fork'),
         (0x2000, 0x2100, 'kmem_cache_free'),
         (0x3000, 0x3100, 'kmem_cache_free.part.0'),
         (0x4000, 0x4100, 'probe_sched_fork')]


def symbols():
    """A Symbols of FUNCS, without a vmlinux to read."""
    sym = spawn.Symbols.__new__(spawn.Symbols)
    sym.funcs = sorted(FUNCS)
    sym.fstart = [a for a, _, _ in sym.funcs]
    sym.other = [(0x800, '_stext'), (0x7000, '_etext')]
    sym.ostart = [a for a, _ in sym.other]
    sym.addr = {n: a for a, n in sym.other}
    sym.addr.update({n: a for a, _, n in sym.funcs})
    sym.text = (0x800, 0x7000)
    return sym


class ProfileSpawnTest(unittest.TestCase):
    def counts(self, text):
        fd, path = tempfile.mkstemp()
        self.addCleanup(os.unlink, path)
        with os.fdopen(fd, 'w') as f:
            f.write(text)
        return spawn.read_counts(path, symbols())

    def test_counts_by_function(self):
        per = self.counts('1000 10\n1004 10\n2000 5\n3002 7\n80001000 100\n')
        self.assertEqual(per, {'do_fork': 20, 'kmem_cache_free': 12, spawn.USER: 100})

    def test_bad_counts_are_errors(self):
        for text in ('', '1000\n', 'zz 1\n', '1000 1\n# table full: addresses were left uncounted\n'):
            with self.subTest(text=text), self.assertRaises(spawn.ProfileError):
                self.counts(text)

    def test_table_per_round(self):
        a = {'do_fork': 2000, 'kmem_cache_free': 600, spawn.USER: 400}
        b = {'do_fork': 2000, 'kmem_cache_free': 800, 'probe_sched_fork': 100, spawn.USER: 400}
        text = spawn.render(100, [('notp', a), ('tp', b)])
        self.assertIn('| all | 30.0 | 33.0 | +3.0 |', text)
        self.assertIn('| the kernel | 26.0 | 29.0 | +3.0 |', text)
        self.assertIn('| user space and modules | 4.0 | 4.0 | +0.0 |', text)
        rows = [line for line in text.splitlines() if line.startswith('| kmem') or
                line.startswith('| probe') or line.startswith('| do_fork')]
        self.assertEqual(rows, ['| kmem_cache_free | 6.0 | 8.0 | +2.0 |',
                                '| probe_sched_fork | 0.0 | 1.0 | +1.0 |',
                                '| do_fork | 20.0 | 20.0 | +0.0 |'])
        self.assertIn('Functions that ran only in tp: probe_sched_fork.', text)
        self.assertIn('Functions that ran only in notp: none.', text)


if __name__ == '__main__':
    unittest.main()
