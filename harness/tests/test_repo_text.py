# SPDX-License-Identifier: GPL-2.0
"""The repository speaks of the project, not of how its work went.

No file of the product (README, Makefile, docs, harness, guest, arch,
configs, tools) points at a diary entry, a work session, a stop or an
issue number: those live in the git history and the issue notes.  The
README stays a guide a newcomer reads in ten minutes: at most 300 lines
and no dated figures (figures come from docs/results.md).
"""

import os
import re
import subprocess
import unittest

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
PRODUCT = ('README.md', 'Makefile', 'mk', 'docs', 'harness', 'guest', 'arch', 'configs', 'tools', '.ci')
DIARY = re.compile(r'notes\.md|\b[Ss]essions? \d|\b[Ii]ssues? \d|\(issues? \d|\b[Ss]tops? \d')
DATE = re.compile(r'\b20\d\d-[01]\d-[0-3]\d\b')
# this file names the patterns it looks for
SELF = os.path.relpath(os.path.abspath(__file__), TOP)


def product_files():
    out = subprocess.run(['git', 'ls-files', '--cached', '--others', '--exclude-standard', '--']
                         + list(PRODUCT), cwd=TOP, capture_output=True, text=True, check=True)
    return [p for p in out.stdout.split('\n') if p and p != SELF and os.path.isfile(os.path.join(TOP, p))]


def diary_lines(path, text):
    return [f'{path}:{n}: {line.strip()[:100]}'
            for n, line in enumerate(text.split('\n'), 1) if DIARY.search(line)]


class RepoTextTest(unittest.TestCase):
    def test_no_diary_references(self):
        found = []
        for p in product_files():
            try:
                with open(os.path.join(TOP, p), encoding='utf-8') as f:
                    text = f.read()
            except UnicodeDecodeError:
                continue
            found += diary_lines(p, text)
        self.assertEqual(found, [], 'references to diary entries, sessions, stops or issues')

    def test_readme_is_short_and_undated(self):
        with open(os.path.join(TOP, 'README.md'), encoding='utf-8') as f:
            lines = f.read().split('\n')
        self.assertLessEqual(len(lines), 301, 'README.md is over 300 lines')
        dated = [f'{n}: {ln}' for n, ln in enumerate(lines, 1) if DATE.search(ln)]
        self.assertEqual(dated, [], 'README.md carries dated figures')

    def test_the_rules_can_fail(self):
        n = 7   # no real entry: the numbers are made here
        self.assertTrue(diary_lines('x', f'see docs/notes.md, session {n}'))
        self.assertTrue(diary_lines('x', f"issue {n}'s target"))
        self.assertTrue(diary_lines('x', f'CI of stop {n}'))
        self.assertFalse(diary_lines('x', 'patch 0066 adds the walker'))
        self.assertTrue(DATE.search('took 43 min on 2026-12-03'))


if __name__ == '__main__':
    unittest.main()
