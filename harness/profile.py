#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tabulate `make profile` (harness/profile.sh).

    profile.py VMLINUX PROFILE_DIR

Reads PROFILE_DIR/<state>.pcs (harness/profile_gdb.py: "CALL n" lines,
each followed by the PCs that call executed) for the states off,
function and function_graph, attributes every PC to the function symbol
of VMLINUX that contains it, and writes PROFILE_DIR/table.md (also
printed): for each state the call with the median instruction count,
instructions per function and their share.  "Per traced call" is the
instructions above tracing off divided by the traced entries of the call,
counted as the times the call ran the tracer entry point (ftrace_caller,
or _mcount without dynamic ftrace).
Exit status 1 when a file is missing or empty.
"""

import bisect
import os
import subprocess
import sys

STATES = ['off', 'function', 'function_graph']
STATE_TEXT = {'off': 'tracing off',
              'function': 'function tracer, all functions',
              'function_graph': 'function_graph, all functions'}
ENTRY = ('ftrace_caller', '_mcount')


class ProfileError(Exception):
    pass


class Symbols:
    """Address -> name: function symbols with a size first, else the
    nearest text symbol below."""

    def __init__(self, vmlinux):
        res = subprocess.run(['m68k-linux-gnu-readelf', '-sW', vmlinux],
                             capture_output=True, text=True, check=True)
        funcs, other = [], []
        for line in res.stdout.splitlines():
            f = line.split()
            if len(f) < 8 or not f[0].endswith(':'):
                continue
            try:
                addr, size = int(f[1], 16), int(f[2], 0)
            except ValueError:
                continue
            if f[6] == 'UND' or f[3] not in ('FUNC', 'NOTYPE'):
                continue
            if f[3] == 'FUNC' and size:
                funcs.append((addr, addr + size, f[7]))
            else:
                other.append((addr, f[7]))
        funcs.sort()
        other.sort()
        self.funcs, self.fstart = funcs, [a for a, _, _ in funcs]
        self.other, self.ostart = other, [a for a, _ in other]
        self.addr = {n: a for a, n in other}
        self.addr.update({n: a for a, _, n in funcs})

    def name(self, pc):
        i = bisect.bisect_right(self.fstart, pc) - 1
        if i >= 0 and self.funcs[i][0] <= pc < self.funcs[i][1]:
            return self.funcs[i][2]
        i = bisect.bisect_right(self.ostart, pc) - 1
        return self.other[i][1] if i >= 0 else f'{pc:#x}'


def read_calls(path):
    calls = []
    try:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line.startswith('CALL'):
                    calls.append([])
                elif line:
                    calls[-1].append(int(line, 16))
    except (OSError, ValueError, IndexError) as e:
        raise ProfileError(f'{path}: {e}') from e
    if not calls or not all(calls):
        raise ProfileError(f'{path}: no profiled call')
    return calls


def median_call(calls):
    """The call whose length is the median (the lower one for an even
    count): one that took no rare path."""
    lens = sorted(len(c) for c in calls)
    want = lens[(len(lens) - 1) // 2]
    return next(c for c in calls if len(c) == want), [len(c) for c in calls]


def render(sym, prof):
    out = []
    base = len(prof['off'][0]) if 'off' in prof else None
    entry_pcs = {sym.addr[n] for n in ENTRY if n in sym.addr}
    # (x86_64's figures and the targets: make bench, which boots the anchor)
    summary = ['| state | instructions in sys_getppid() | traced entries | '
               'per traced call |', '|---|---:|---:|---:|']
    for state in STATES:
        if state not in prof:
            continue
        call, lens = prof[state]
        entries = sum(1 for pc in call if pc in entry_pcs)
        counts = {}
        for pc in call:
            n = sym.name(pc)
            counts[n] = counts.get(n, 0) + 1
        total = len(call)
        out += [f'### {STATE_TEXT[state]}', '',
                f'One getppid() call, from sys_getppid() to its return: {total:,} '
                f'instructions, {entries} traced entries (calls profiled: '
                f'{", ".join(f"{n:,}" for n in lens)}; the median one is shown).', '',
                '| function | instructions | share |', '|---|---:|---:|']
        for n, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            out.append(f'| {n} | {c:,} | {c / total * 100:.1f} % |')
        out.append('')
        if state == 'off' or base is None or not entries:
            summary.append(f'| {STATE_TEXT[state]} | {total:,} | {entries} | |')
            continue
        per = (total - base) / entries
        summary.append(f'| {STATE_TEXT[state]} | {total:,} | {entries} | {per:,.0f} |')
    return '\n'.join(summary + [''] + out)


def main(argv):
    if len(argv) != 3:
        print('usage: profile.py VMLINUX PROFILE_DIR', file=sys.stderr)
        return 2
    vmlinux, d = argv[1], argv[2]
    try:
        sym = Symbols(vmlinux)
        prof = {s: median_call(read_calls(os.path.join(d, f'{s}.pcs')))
                for s in STATES if os.path.exists(os.path.join(d, f'{s}.pcs'))}
        if not prof:
            raise ProfileError(f'{d}: no <state>.pcs files')
    except (ProfileError, subprocess.CalledProcessError, OSError) as e:
        print(f'profile.py: {e}', file=sys.stderr)
        return 1
    table = render(sym, prof)
    with open(os.path.join(d, 'table.md'), 'w') as f:
        f.write(table)
    print(table, end='')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
