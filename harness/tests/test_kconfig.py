# SPDX-License-Identifier: GPL-2.0
"""What arch/m68k's Kconfig offers where text cannot be written or stacks
cannot be walked reliably, on the patched tree (build/7.3/linux).

- A kernel that executes in place from flash (ColdFire ROMKERNEL) has no
  jump labels, dynamic ftrace or kprobes: their writes to its text would
  not land, and the code would disagree with the keys and the sites.  The
  static function tracer stays.  The same kernel in RAM has all three.
- Live patching needs reliable stack traces: the patchable-entry kernel
  without frame pointers has the entry registers but no reliable walker,
  so it must not offer LIVEPATCH; with frame pointers it does.

Each case runs harness/kconfig.sh (the kernel's merge_config.sh) in a
scratch object directory.
"""

import os
import subprocess
import tempfile
import unittest

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
TREE = os.path.join(TOP, 'build', '7.3', 'linux')


def configure(base, fragments, extra=''):
    """The .config of BASE + FRAGMENTS (configs/NAME.config) + EXTRA lines,
    as {option: value} of the options set."""
    with tempfile.TemporaryDirectory() as tmp:
        frags = [os.path.join(TOP, 'configs', f + '.config') for f in fragments]
        if extra:
            frags.append(os.path.join(tmp, 'extra.config'))
            with open(frags[-1], 'w') as f:
                f.write(extra)
        kobj = os.path.join(tmp, 'kobj')
        # build/bin: the cross compiler by the name kbuild asks for (make deps)
        env = dict(os.environ, KCONFIG_BASE=base, KCONFIG_LOOSE='1', KCONFIG_NO_MODULES='1',
                   GUEST_ARCH='m68k',
                   PATH=os.path.join(TOP, 'build', 'bin') + os.pathsep + os.environ['PATH'])
        p = subprocess.run([os.path.join(TOP, 'harness', 'kconfig.sh'), TREE, kobj] + frags,
                           env=env, capture_output=True, text=True)
        if p.returncode != 0:
            raise AssertionError('kconfig.sh failed:\n' + p.stdout + p.stderr)
        opts = {}
        with open(os.path.join(kobj, '.config')) as f:
            for line in f:
                if line.startswith('CONFIG_') and '=' in line:
                    k, v = line.rstrip('\n').split('=', 1)
                    opts[k] = v
        return opts


@unittest.skipUnless(os.path.isdir(TREE), f'no {TREE} (make tree)')
class KconfigTest(unittest.TestCase):
    ROM = 'CONFIG_ROM=y\nCONFIG_ROMKERNEL=y\n# CONFIG_RAMKERNEL is not set\n'
    WRITERS = ('CONFIG_JUMP_LABEL', 'CONFIG_DYNAMIC_FTRACE', 'CONFIG_KPROBES')

    def test_romkernel_writes_no_text(self):
        c = configure('m5208evb_defconfig', ['mcf5208'], self.ROM)
        self.assertEqual(c.get('CONFIG_ROMKERNEL'), 'y', 'the ROM kernel was not configured')
        self.assertEqual([o for o in self.WRITERS if o in c], [])
        self.assertEqual(c.get('CONFIG_FUNCTION_TRACER'), 'y')

    def test_ramkernel_has_the_text_writers(self):
        c = configure('m5208evb_defconfig', ['mcf5208'])
        self.assertFalse('CONFIG_ROMKERNEL' in c)
        self.assertEqual([c.get(o) for o in self.WRITERS], ['y'] * len(self.WRITERS))

    def test_no_livepatch_without_reliable_stack_traces(self):
        c = configure('virt_defconfig', ['base', 'tracing', 'function', 'pfe'], 'CONFIG_LIVEPATCH=y\n')
        self.assertEqual(c.get('CONFIG_DYNAMIC_FTRACE_WITH_ARGS'), 'y')
        self.assertEqual([o for o in ('CONFIG_HAVE_LIVEPATCH', 'CONFIG_LIVEPATCH') if o in c], [])

    def test_livepatch_with_frame_pointers(self):
        c = configure('virt_defconfig', ['base', 'tracing', 'framepointer', 'function', 'pfe',
                                         'livepatch'])
        self.assertEqual(c.get('CONFIG_HAVE_RELIABLE_STACKTRACE'), 'y')
        self.assertEqual(c.get('CONFIG_LIVEPATCH'), 'y')


if __name__ == '__main__':
    unittest.main()
