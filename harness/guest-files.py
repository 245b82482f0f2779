#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Files a guest sent through its console (send_file in guest/lib.sh).

    GUEST-FILE-BEGIN NAME
    <base32 lines of the gzipped file>
    GUEST-FILE-END NAME <gzipped bytes> <md5 of the gzipped bytes>

Kernel messages interleaved with the data are skipped (they are not
base32).  A file whose size or md5 does not match, or that is cut short,
is an error: nothing is written for it.

CLI:
  guest-files.py LOG OUTDIR [NAME...]
      write every file of LOG (or only the NAMEs) into OUTDIR, print one
      line per file; exit 1 when a file is damaged or a NAME is missing
"""

import argparse
import base64
import binascii
import gzip
import hashlib
import os
import re
import sys

BEGIN_RE = re.compile(r'GUEST-FILE-BEGIN (\S+)\s*$')
END_RE = re.compile(r'GUEST-FILE-END (\S+) (\d+) ([0-9a-f]{32})\s*$')
# (the last line may be padding alone)
BASE32_LINE_RE = re.compile(r'^(?=.)[A-Z2-7]*=*$')
# A name is a plain file name: no directories, nothing hidden.
NAME_RE = re.compile(r'^[A-Za-z0-9_][A-Za-z0-9_.+-]*$')


def extract(text):
    """[(name, data or None, error)] in order of appearance."""
    files = []
    name, chunks = None, []
    for raw in text.splitlines():
        line = raw.replace('\r', '').strip()
        m = BEGIN_RE.search(line)
        if m:
            if name is not None:
                files.append((name, None, 'cut short: no GUEST-FILE-END'))
            name, chunks = m.group(1), []
            continue
        m = END_RE.search(line)
        if m and name is not None and m.group(1) == name:
            files.append((name,) + _decode(chunks, int(m.group(2)), m.group(3)))
            name = None
            continue
        if name is not None and BASE32_LINE_RE.match(line):
            chunks.append(line)
    if name is not None:
        files.append((name, None, 'cut short: no GUEST-FILE-END'))
    return files


def _decode(chunks, size, md5):
    try:
        data = base64.b32decode(''.join(chunks))
    except binascii.Error as e:
        return None, f'bad base32: {e}'
    if len(data) != size:
        return None, f'{len(data)} bytes decoded, the guest sent {size}'
    if hashlib.md5(data).hexdigest() != md5:
        return None, 'md5 differs from the guest\'s'
    try:
        return gzip.decompress(data), ''
    except (OSError, EOFError) as e:
        return None, f'bad gzip data: {e}'


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('log')
    ap.add_argument('outdir')
    ap.add_argument('names', nargs='*')
    args = ap.parse_args(argv)
    with open(args.log, encoding='utf-8', errors='replace') as f:
        files = extract(f.read())
    os.makedirs(args.outdir, exist_ok=True)
    bad = 0
    seen = set()
    for name, data, error in files:
        if args.names and name not in args.names:
            continue
        if not NAME_RE.match(name):
            error = 'not a plain file name'
        if error:
            print(f'guest-files: ERROR {name}: {error}', file=sys.stderr)
            bad += 1
            continue
        path = os.path.join(args.outdir, name)
        with open(path, 'wb') as f:
            f.write(data)
        seen.add(name)
        print(f'guest-files: {path} ({len(data)} bytes)')
    for name in args.names:
        if name not in seen and not any(n == name for n, _, _ in files):
            print(f'guest-files: ERROR {name}: not in {args.log}', file=sys.stderr)
            bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
