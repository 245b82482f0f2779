# SPDX-License-Identifier: GPL-2.0
"""Tests of harness/walk-record.sh, the result tables that make bisect-build
and make defconfigs keep in the repository.

What a table holds must read back under its key, and nothing else must:
a walk that skipped a step on a misread row would claim a build that
never happened.
"""

import os
import shutil
import subprocess
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RECORD = os.path.join(TOP, 'harness', 'walk-record.sh')
BASH = shutil.which('bash')  # found here: a test may run it with another PATH

# prints the loaded rows as KEY=ROW, sorted
DUMP = 'for k in "${!recorded[@]}"; do echo "$k=${recorded[$k]}"; done | sort'


def bash(script, env=None, cwd=None):
    full = {k: v for k, v in os.environ.items() if k != 'WALK_FRESH'}
    full.update(env or {})
    return subprocess.run([BASH, '-c', '. "$0"; ' + script, RECORD], env=full,
                          cwd=cwd, capture_output=True, text=True, check=True).stdout


class WalkRecordTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.file = os.path.join(self.dir.name, 'rec.md')

    def tearDown(self):
        self.dir.cleanup()

    def write(self, rows):
        adds = ' '.join('record_add "%s" "%s";' % r for r in rows)
        bash(adds + ' record_write "$REC" "# Title" "| a | b |" "|---|---:|"',
             {'REC': self.file})

    def test_rows_read_back_under_their_key(self):
        self.write([('| 01 | first | ok |', 'abc-123'), ('| 02 | second | ok |', 'def-456')])
        self.assertEqual(bash('record_load "$REC"; ' + DUMP, {'REC': self.file}),
                         'abc-123=| 01 | first | ok |\n'
                         'def-456=| 02 | second | ok |\n')

    def test_table_has_the_key_column(self):
        self.write([('| 01 | first | ok |', 'abc-123')])
        with open(self.file) as f:
            text = f.read()
        self.assertEqual(text, '# Title\n\n| a | b | key |\n|---|---:|---|\n'
                               '| 01 | first | ok | `abc-123` |\n')

    def test_rows_without_a_key_are_not_read(self):
        with open(self.file, 'w') as f:
            f.write('| a | b | key |\n|---|---|---|\n| 01 | first | ok |\n'
                    '| 02 | edited by hand | ok | abc-123 |\n')
        self.assertEqual(bash('record_load "$REC"; ' + DUMP, {'REC': self.file}), '')

    def test_fresh_reads_nothing(self):
        self.write([('| 01 | first | ok |', 'abc-123')])
        self.assertEqual(bash('record_load "$REC"; ' + DUMP,
                              {'REC': self.file, 'WALK_FRESH': '1'}), '')

    def test_open_defaults_to_the_work_directory(self):
        self.write([('| 01 | first | ok |', 'abc-123')])
        os.rename(self.file, os.path.join(self.dir.name, 'record.md'))
        out = bash('record_open .; echo "$record"; ' + DUMP, cwd=self.dir.name)
        self.assertEqual(out, os.path.join(os.path.realpath(self.dir.name), 'record.md') +
                         '\nabc-123=| 01 | first | ok |\n')

    def test_open_takes_walk_record_as_an_absolute_path(self):
        self.write([('| 01 | first | ok |', 'abc-123')])
        out = bash('record_open /nonexistent; echo "$record"; ' + DUMP,
                   {'WALK_RECORD': 'rec.md'}, cwd=self.dir.name)
        self.assertEqual(out, os.path.join(os.path.realpath(self.dir.name), 'rec.md') +
                         '\nabc-123=| 01 | first | ok |\n')

    def test_open_without_a_work_directory_is_an_error(self):
        with self.assertRaises(subprocess.CalledProcessError) as err:
            bash('record_open ""')
        self.assertIn('no work directory', err.exception.stderr)

    def fake_compiler(self):
        """A directory holding only an m68k-linux-gnu-gcc that prints a version."""
        bindir = os.path.join(self.dir.name, 'bin')
        os.mkdir(bindir)
        gcc = os.path.join(bindir, 'm68k-linux-gnu-gcc')
        with open(gcc, 'w') as f:
            f.write('#!/bin/sh\necho "m68k-linux-gnu-gcc (fake) 1.0"\n')
        os.chmod(gcc, 0o755)
        return bindir

    def git_repo(self):
        """A repository of one commit holding the file 'f'; its git directory."""
        repo = os.path.join(self.dir.name, 'repo')
        run = dict(cwd=repo, check=True, capture_output=True)
        os.mkdir(repo)
        subprocess.run(['git', 'init', '-q'], **run)
        with open(os.path.join(repo, 'f'), 'w') as f:
            f.write('base\n')
        subprocess.run(['git', 'add', 'f'], **run)
        subprocess.run(['git', '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit',
                        '-qm', 'base'], **run)
        return os.path.join(repo, '.git')

    def test_setup_without_the_compiler_is_an_error(self):
        empty = os.path.join(self.dir.name, 'empty')
        os.mkdir(empty)
        with self.assertRaises(subprocess.CalledProcessError) as err:
            bash('walk_setup walk /nonexistent "$W" HEAD', {'PATH': empty, 'W': self.dir.name})
        self.assertIn('walk: m68k-linux-gnu-gcc is not on PATH', err.exception.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir.name, 'src')))

    def test_setup_checks_out_once_and_names_the_compiler(self):
        path = self.fake_compiler() + ':' + os.environ['PATH']
        env = {'PATH': path, 'G': self.git_repo(), 'W': os.path.join(self.dir.name, 'work')}
        show = 'unset CCACHE_DIR; walk_setup walk "$G" "$W" HEAD >/dev/null; echo "$gccver|$cc|$CCACHE_DIR"'
        out = bash(show, env).strip().split('|')
        self.assertEqual(out[0], 'm68k-linux-gnu-gcc (fake) 1.0')
        self.assertTrue(out[1].endswith('m68k-linux-gnu-gcc'), out[1])
        self.assertEqual(out[2], env['W'] + '/../ccache')
        src = os.path.join(env['W'], 'src', 'f')
        with open(src) as f:
            self.assertEqual(f.read(), 'base\n')
        # a second run keeps the worktree (and what a build left in it)
        with open(src, 'w') as f:
            f.write('changed\n')
        bash(show, env)
        with open(src) as f:
            self.assertEqual(f.read(), 'changed\n')

if __name__ == '__main__':
    unittest.main()
