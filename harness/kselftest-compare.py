#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kselftest ftrace of two guests, case by case.

    kselftest-compare.py NAME=LOG NAME=LOG [--markdown OUT]

Each LOG is a console log of guest/tests/ftracetest.sh, read by
results.py's parser (the one make check uses).  Prints each guest's
counts per verdict, then every case whose verdicts differ, with the
reasons the guests gave.  Exits 1 when a log has no results, when the
parser finds a run cut short or its summary at odds with its cases, or
when the two logs do not run the same cases (not the same tree), so that
a comparison never rests on a run that stopped early.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results  # noqa: E402  (the one parser of ftracetest's output)

VERDICTS = ['PASS', 'FAIL', 'UNRESOLVED', 'UNTESTED', 'UNSUPPORTED',
            'XFAIL', 'XPASS']


def read(path):
    """{case name: (raw verdict, reason)} of one console log, or an error
    message when results.py finds the run incomplete or inconsistent."""
    with open(path, errors='replace') as f:
        cases = results.parse_ftracetest(results.clean_lines(f.read()), path)
    bad = [c for c in cases if c.suite == 'errors' or c.result == 'NORESULT']
    if bad:
        return None, '; '.join('%s%s' % (c.name, ': ' + c.reason if c.reason else '')
                               for c in bad[:3])
    return {c.name: (c.result, c.reason) for c in cases}, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('runs', nargs=2, metavar='NAME=LOG')
    ap.add_argument('--markdown', help='write the tables to this file too')
    args = ap.parse_args()
    names, runs = [], []
    for r in args.runs:
        name, sep, path = r.partition('=')
        if not sep:
            ap.error('%s: want NAME=LOG' % r)
        cases, why = read(path)
        if not cases:
            print('kselftest-compare: %s: %s' % (path, why or 'no ftracetest results'),
                  file=sys.stderr)
            return 1
        names.append(name)
        runs.append(cases)
    a, b = runs
    if set(a) != set(b):
        print('kselftest-compare: %s and %s did not run the same cases '
              '(%d and %d; two trees?)' % (names[0], names[1], len(a), len(b)),
              file=sys.stderr)
        return 1
    out = ['| verdict | %s | %s |' % tuple(names), '|---|---:|---:|']
    for v in VERDICTS:
        ca = sum(1 for c in a.values() if c[0] == v)
        cb = sum(1 for c in b.values() if c[0] == v)
        if ca or cb:
            out.append('| %s | %d | %d |' % (v, ca, cb))
    out.append('| cases | %d | %d |' % (len(a), len(b)))
    out += ['', '| case | %s | %s |' % tuple(names), '|---|---|---|']
    differ = 0
    for n in sorted(a, key=lambda k: int(k[1:k.index(']')])):
        (va, ra), (vb, rb) = a[n], b[n]
        if va == vb:
            continue
        differ += 1
        cell = [va + (': ' + ra if ra else ''), vb + (': ' + rb if rb else '')]
        out.append('| %s | %s | %s |' % (n, cell[0].replace('|', '\\|'),
                                         cell[1].replace('|', '\\|')))
    if not differ:
        out.append('| (none: every case has the same verdict) | | |')
    text = '\n'.join(out)
    print(text)
    if args.markdown:
        with open(args.markdown, 'w') as f:
            f.write(text + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
