# SPDX-License-Identifier: GPL-2.0
"""The host-side scripts (harness/*.sh, bash) are shellcheck clean.

shellcheck comes from harness/deps.sh like every other tool, so a machine
without it fails here rather than skipping the check.  A finding that is
the script's intent is silenced where it occurs, with the reason
("# shellcheck disable=SCnnnn # why").  The guest's scripts (busybox sh,
guest/) are not held to it.
"""

import glob
import os
import shutil
import subprocess
import tempfile
import unittest

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))


def shellcheck(paths):
    return subprocess.run(['shellcheck', '-x', '-f', 'gcc'] + paths, cwd=TOP,
                          capture_output=True, text=True)


class ShellcheckTest(unittest.TestCase):
    def setUp(self):
        self.assertIsNotNone(shutil.which('shellcheck'),
                             'no shellcheck (harness/deps.sh installs it)')

    def test_harness_scripts_are_clean(self):
        scripts = sorted(glob.glob(os.path.join(TOP, 'harness', '*.sh')))
        self.assertGreater(len(scripts), 20)
        out = shellcheck([os.path.relpath(p, TOP) for p in scripts])
        self.assertEqual(out.stdout + out.stderr, '')
        self.assertEqual(out.returncode, 0)

    def test_a_finding_is_reported(self):
        with tempfile.NamedTemporaryFile('w', suffix='.sh') as f:
            f.write('#!/bin/bash\nx=$1\nrm $x\n')
            f.flush()
            out = shellcheck([f.name])
        self.assertNotEqual(out.returncode, 0)
        self.assertIn('SC2086', out.stdout)


if __name__ == '__main__':
    unittest.main()
