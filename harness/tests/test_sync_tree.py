# SPDX-License-Identifier: GPL-2.0
"""Tests of harness/sync-tree.sh on a small fake kernel tree.

The work tree must always equal pristine + overlay + patches, rewriting
only files whose content changed, and a broken patch must stop the run
with a message naming it.
"""

import os
import subprocess
import tempfile
import textwrap
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SYNC = os.path.join(TOP, 'harness', 'sync-tree.sh')

PATCH_A = textwrap.dedent("""\
    Subject: [PATCH] change a line

    ---
    --- a/kernel/a.c
    +++ b/kernel/a.c
    @@ -1,3 +1,3 @@
     one
    -two
    +TWO
     three
    """)

PATCH_BROKEN = textwrap.dedent("""\
    Subject: [PATCH] does not apply

    ---
    --- a/kernel/a.c
    +++ b/kernel/a.c
    @@ -1,3 +1,3 @@
     uno
    -dos
    +DOS
     tres
    """)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)


def read(path):
    with open(path) as f:
        return f.read()


class SyncTreeTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.tmp.name
        self.pristine = os.path.join(d, 'pristine')
        self.repo = os.path.join(d, 'repo')
        self.tree = os.path.join(d, 'linux')
        write(os.path.join(self.pristine, 'kernel/a.c'), 'one\ntwo\nthree\n')
        write(os.path.join(self.pristine, 'kernel/b.c'), 'untouched\n')
        write(os.path.join(self.repo, 'arch/m68k/kernel/new.c'), 'new file\n')
        write(os.path.join(self.repo, 'patches/0001-a.patch'), PATCH_A)
        write(os.path.join(self.repo, 'patches/series'), '0001-a.patch\n')
        subprocess.run(['git', 'init', '-q', self.repo], check=True)

    def tearDown(self):
        self.tmp.cleanup()

    def sync(self):
        return subprocess.run(['bash', SYNC, self.repo, self.pristine, self.tree],
                              capture_output=True, text=True)

    def test_overlay_and_patch_applied(self):
        r = self.sync()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(read(os.path.join(self.tree, 'kernel/a.c')), 'one\nTWO\nthree\n')
        self.assertEqual(read(os.path.join(self.tree, 'arch/m68k/kernel/new.c')), 'new file\n')
        self.assertEqual(read(os.path.join(self.tree, 'kernel/b.c')), 'untouched\n')
        # the pristine tree is never written through the hard links
        self.assertEqual(read(os.path.join(self.pristine, 'kernel/a.c')), 'one\ntwo\nthree\n')

    def test_only_changed_files_are_rewritten(self):
        self.assertEqual(self.sync().returncode, 0)
        a = os.path.join(self.tree, 'kernel/a.c')
        new = os.path.join(self.tree, 'arch/m68k/kernel/new.c')
        os.utime(a, (1000, 1000))
        os.utime(new, (1000, 1000))
        write(os.path.join(self.repo, 'arch/m68k/kernel/new.c'), 'changed\n')
        r = self.sync()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(os.stat(a).st_mtime, 1000)
        self.assertNotEqual(os.stat(new).st_mtime, 1000)
        self.assertEqual(read(new), 'changed\n')

    def test_unchanged_sources_are_not_synced_again(self):
        self.assertEqual(self.sync().returncode, 0)
        r = self.sync()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('up to date', r.stdout)
        # a changed patch is synced again
        write(os.path.join(self.repo, 'patches/0001-a.patch'), PATCH_A.replace('+TWO', '+2'))
        r = self.sync()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn('up to date', r.stdout)
        self.assertEqual(read(os.path.join(self.tree, 'kernel/a.c')), 'one\n2\nthree\n')

    def test_run_by_a_relative_path_from_elsewhere(self):
        # as make does (harness/sync-tree.sh, from the top directory), for
        # a repository that is not the current directory (KERNEL=6.12's)
        r = subprocess.run(['bash', os.path.relpath(SYNC, TOP), self.repo, self.pristine,
                            self.tree], capture_output=True, text=True, cwd=TOP)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(read(os.path.join(self.tree, 'kernel/a.c')), 'one\nTWO\nthree\n')

    def test_dropped_patch_and_overlay_are_restored(self):
        self.assertEqual(self.sync().returncode, 0)
        write(os.path.join(self.repo, 'patches/series'), '')
        os.remove(os.path.join(self.repo, 'arch/m68k/kernel/new.c'))
        r = self.sync()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(read(os.path.join(self.tree, 'kernel/a.c')), 'one\ntwo\nthree\n')
        self.assertFalse(os.path.exists(os.path.join(self.tree, 'arch/m68k/kernel/new.c')))

    def test_broken_patch_stops_with_its_name(self):
        write(os.path.join(self.repo, 'patches/0002-broken.patch'), PATCH_BROKEN)
        write(os.path.join(self.repo, 'patches/series'), '0001-a.patch\n0002-broken.patch\n')
        r = self.sync()
        self.assertNotEqual(r.returncode, 0)
        self.assertIn('patch FAILED to apply: patches/0002-broken.patch', r.stderr)

    def test_missing_patch_in_series(self):
        write(os.path.join(self.repo, 'patches/series'), '0001-a.patch\n0009-gone.patch\n')
        r = self.sync()
        self.assertNotEqual(r.returncode, 0)
        self.assertIn('missing patch 0009-gone.patch', r.stderr)


if __name__ == '__main__':
    unittest.main()
