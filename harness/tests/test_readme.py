# SPDX-License-Identifier: GPL-2.0
# README.md names only what exists: every repository path in a code span
# (harness/..., guest/..., configs/..., arch/...) is in the repository, or
# for a kernel path in the patched tree build/7.3/linux, and every `make X` it
# shows is a target of the Makefile (or of mk/*.mk, which it includes).
# Run: python3 -m unittest discover -v -s harness/tests  (or harness/host-tests.sh)

import glob
import os
import re
import unittest

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
TREE = os.path.join(TOP, 'build', '7.3', 'linux')
# first path components: ours, and the kernel's (ours or the patched tree)
OURS = ('harness', 'guest', 'configs', 'patches', 'userspace', '.ci', 'docs')
KERNEL = ('arch', 'include', 'kernel', 'lib', 'tools', 'samples', 'scripts',
          'Documentation', 'drivers', 'mm', 'init')
PLACEHOLDER = re.compile(r'[A-Z]{3,}')     # NAME, SUITE, VARIANT, PACKAGE ...
CODE_SPAN = re.compile(r'`([^`\n]+)`')
MAKE = re.compile(r'(?:^|\s)make\s+([a-z][a-z0-9-]*)')


def readme():
    with open(os.path.join(TOP, 'README.md'), encoding='utf-8') as f:
        return f.read()


def code_texts(text):
    """Code spans and indented code-block lines."""
    out = CODE_SPAN.findall(text)
    out += [ln.strip() for ln in text.split('\n') if ln.startswith('    ')]
    return out


def named_paths(text):
    paths = set()
    for span in code_texts(text):
        for word in span.split():
            word = word.rstrip('.,:;)')
            head = word.split('/', 1)[0]
            if '/' in word and head in OURS + KERNEL and not PLACEHOLDER.search(word):
                paths.add(word)
    return sorted(paths)


def makefile_targets():
    text = ''
    for path in [os.path.join(TOP, 'Makefile')] + sorted(glob.glob(os.path.join(TOP, 'mk', '*.mk'))):
        with open(path, encoding='utf-8') as f:
            text += f.read()
    return set(re.findall(r'^([a-z][a-z0-9-]*)\s*:(?!=)', text, re.M))


def exists(path, roots):
    return any(glob.glob(os.path.join(r, path)) for r in roots)


class ReadmeTest(unittest.TestCase):
    def test_paths_exist(self):
        missing = []
        for p in named_paths(readme()):
            roots = [TOP]
            if p.split('/', 1)[0] in KERNEL:
                if not os.path.isdir(TREE):
                    self.skipTest(f'no {TREE} (make tree) for the kernel paths')
                roots.append(TREE)
            if not exists(p, roots):
                missing.append(p)
        self.assertEqual(missing, [], 'README.md names paths that do not exist')

    def test_make_targets_exist(self):
        targets = makefile_targets()
        named = set()
        for text in code_texts(readme()):
            named.update(MAKE.findall(text))
        self.assertTrue(named, 'no make command found in README.md')
        self.assertEqual(sorted(named - targets), [],
                         'README.md shows make targets the Makefile lacks')

    def test_the_rules_can_fail(self):
        text = '`harness/no-such-file.sh` and\n\n    make no-such-target\n'
        self.assertEqual(named_paths(text), ['harness/no-such-file.sh'])
        self.assertFalse(exists('harness/no-such-file.sh', [TOP]))
        self.assertEqual(MAKE.findall(code_texts(text)[-1]), ['no-such-target'])
        self.assertNotIn('no-such-target', makefile_targets())


if __name__ == '__main__':
    unittest.main()
