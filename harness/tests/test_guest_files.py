# SPDX-License-Identifier: GPL-2.0
# Unit tests of harness/guest-files.py: files sent through a console log
# with send_file (guest/lib.sh), in the format the guest prints them.

import base64
import gzip
import hashlib
import importlib.util
import io
import os
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    'guest_files', os.path.join(HERE, '..', 'guest-files.py'))
guest_files = importlib.util.module_from_spec(spec)
spec.loader.exec_module(guest_files)


def sent(name, data, size=None, md5=None, cut=None):
    """The console text of send_file NAME for DATA, base32 in 76-column
    lines like busybox base32; SIZE/MD5 override the END line, CUT drops
    the END line and everything after base32 line CUT."""
    gz = gzip.compress(data)
    b32 = base64.b32encode(gz).decode()
    lines = [b32[i:i + 76] for i in range(0, len(b32), 76)]
    text = f'GUEST-FILE-BEGIN {name}\n'
    if cut is not None:
        return text + '\n'.join(lines[:cut]) + '\n'
    text += '\n'.join(lines) + '\n'
    size = len(gz) if size is None else size
    md5 = hashlib.md5(gz).hexdigest() if md5 is None else md5
    return text + f'GUEST-FILE-END {name} {size} {md5}\n'


class ExtractTest(unittest.TestCase):
    def test_round_trip_with_kernel_noise(self):
        data = b''.join(hashlib.sha256(bytes([i])).digest() for i in range(40))
        text = sent('a.dat', data)
        lines = text.splitlines()
        self.assertGreater(len(lines), 5)
        # a kernel message between two data lines is skipped
        lines.insert(3, '[   12.345678] random: crng init done')
        got = guest_files.extract('boot\n' + '\n'.join(lines) + '\nafter\n')
        self.assertEqual(got, [('a.dat', data, '')])

    def test_padding_alone_on_the_last_line(self):
        # find (incompressible, but fixed) data whose last base32 line is
        # nothing but "="
        noise = b''.join(hashlib.sha256(bytes([i])).digest() for i in range(32))
        for n in range(1, len(noise)):
            data = noise[:n]
            b32 = base64.b32encode(gzip.compress(data)).decode()
            if len(b32) % 76 and b32[-(len(b32) % 76):].strip('=') == '':
                break
        else:
            self.skipTest('no such length found')
        self.assertEqual(guest_files.extract(sent('p', data)), [('p', data, '')])

    def test_size_and_md5_are_checked(self):
        self.assertIn('bytes decoded',
                      guest_files.extract(sent('x', b'abc', size=1))[0][2])
        self.assertIn('md5', guest_files.extract(sent('x', b'abc', md5='0' * 32))[0][2])

    def test_cut_short(self):
        got = guest_files.extract(sent('x', b'abc' * 100, cut=1))
        self.assertEqual(got[0][:2], ('x', None))
        self.assertIn('cut short', got[0][2])

    def test_main_writes_files_and_refuses_bad_names(self):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, 'console.log')
            with open(log, 'w') as f:
                f.write(sent('good.dat', b'hello') + sent('../evil', b'x'))
            out = os.path.join(d, 'out')
            err = io.StringIO()
            with redirect_stdout(io.StringIO()), redirect_stderr(err):
                rc = guest_files.main([log, out])
            self.assertEqual(rc, 1)
            self.assertIn('ERROR ../evil', err.getvalue())
            with open(os.path.join(out, 'good.dat'), 'rb') as f:
                self.assertEqual(f.read(), b'hello')
            self.assertFalse(os.path.exists(os.path.join(d, 'evil')))

    def test_main_missing_name(self):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, 'console.log')
            with open(log, 'w') as f:
                f.write(sent('a', b'1'))
            with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
                self.assertEqual(guest_files.main([log, d, 'a']), 0)
                self.assertEqual(guest_files.main([log, d, 'b']), 1)


if __name__ == '__main__':
    unittest.main()
