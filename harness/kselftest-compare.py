#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kselftest ftrace of two guests, case by case.

    kselftest-compare.py NAME=LOG NAME=LOG [--markdown OUT]

Each LOG is a console log of guest/tests/ftracetest.sh (ftracetest's
"[N] description [VERDICT]" lines, then "FTRACE-REASON [N] why" for each
case that did not pass).  Prints each guest's counts per verdict, then
every case whose verdicts differ, with the reasons the guests gave.
Exits 1 when a log has no results, or when the two logs do not run the
same cases (not the same tree), so that a comparison never rests on a
run that stopped early.
"""
import argparse
import re
import sys

CASE = re.compile(r'^\[(\d+)\] (.*?)\s*\[(PASS|FAIL|UNRESOLVED|UNTESTED|'
                  r'UNSUPPORTED|XFAIL|XPASS)\]\s*$')
REASON = re.compile(r'^FTRACE-REASON \[(\d+)\] (.*)$')
VERDICTS = ['PASS', 'FAIL', 'UNRESOLVED', 'UNTESTED', 'UNSUPPORTED',
            'XFAIL', 'XPASS']


def read(path):
    """{number: (description, verdict, reason)} of one console log."""
    cases, reasons = {}, {}
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\r\n')
            m = CASE.match(line)
            if m:
                cases[int(m.group(1))] = (m.group(2), m.group(3))
                continue
            m = REASON.match(line)
            if m:
                reasons[int(m.group(1))] = m.group(2)
    return {n: (d, v, reasons.get(n, '')) for n, (d, v) in cases.items()}


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
        cases = read(path)
        if not cases:
            print('kselftest-compare: no ftracetest results in %s' % path,
                  file=sys.stderr)
            return 1
        names.append(name)
        runs.append(cases)
    a, b = runs
    if {n: c[0] for n, c in a.items()} != {n: c[0] for n, c in b.items()}:
        print('kselftest-compare: %s and %s did not run the same cases '
              '(%d and %d; a run cut short, or two trees)'
              % (names[0], names[1], len(a), len(b)), file=sys.stderr)
        return 1
    out = ['| verdict | %s | %s |' % tuple(names), '|---|---:|---:|']
    for v in VERDICTS:
        ca = sum(1 for c in a.values() if c[1] == v)
        cb = sum(1 for c in b.values() if c[1] == v)
        if ca or cb:
            out.append('| %s | %d | %d |' % (v, ca, cb))
    out.append('| cases | %d | %d |' % (len(a), len(b)))
    out += ['', '| case | %s | %s |' % tuple(names), '|---|---|---|']
    differ = 0
    for n in sorted(a):
        (desc, va, ra), (_, vb, rb) = a[n], b[n]
        if va == vb:
            continue
        differ += 1
        cell = [va + (': ' + ra if ra else ''), vb + (': ' + rb if rb else '')]
        out.append('| [%d] %s | %s | %s |' % (n, desc, cell[0].replace('|', '\\|'),
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
