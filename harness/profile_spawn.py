#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tabulate `make profile-spawn` (harness/profile-spawn.sh).

    profile_spawn.py ROUNDS OUT.md NAME VMLINUX COUNTS NAME VMLINUX COUNTS

COUNTS: "ADDRESS COUNT" lines (hex, decimal) of harness/plugin/insn-count.c,
the executions of each address during ROUNDS fork+exec+pipe rounds.  Every
address inside VMLINUX's text is attributed to its function (gcc's parts
and clones, name.part.0, count as the function); the others are user space
and modules, one row.  Writes OUT.md (also printed): instructions per round
on both kernels, the total and the functions whose figures differ most.
Exit status 1 when a file is missing or holds no count.
"""

import importlib.util
import os
import sys

# harness/profile.py by its path: "profile" is also a module of Python's
# own library
_spec = importlib.util.spec_from_file_location(
    'harness_profile', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'profile.py'))
_profile = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_profile)
OUTSIDE, ProfileError, Symbols = _profile.OUTSIDE, _profile.ProfileError, _profile.Symbols

USER = '(user space and modules)'
ROWS = 40


def read_counts(path, sym):
    """{function: executions} of one counts file."""
    per = {}
    try:
        with open(path) as f:
            for line in f:
                if line.startswith('#'):
                    raise ProfileError(f'{path}: {line[1:].strip()}')
                addr, count = line.split()
                n = sym.name(int(addr, 16))
                n = USER if n == OUTSIDE else n.split('.')[0]
                per[n] = per.get(n, 0) + int(count)
    except (OSError, ValueError) as e:
        raise ProfileError(f'{path}: {e}') from e
    if not per:
        raise ProfileError(f'{path}: no count')
    return per


def render(rounds, kernels):
    """kernels: [(name, {function: executions})] (two)."""
    (na, a), (nb, b) = kernels
    ta, tb = sum(a.values()) / rounds, sum(b.values()) / rounds
    ka, kb = (sum(c for n, c in k.items() if n != USER) / rounds for k in (a, b))
    out = [f'## One fork+exec+pipe round, {na} and {nb}', '',
           f'Instructions per round ({rounds:,} rounds counted; '
           f'harness/profile-spawn.sh):', '',
           f'| | {na} | {nb} | difference |', '|---|---:|---:|---:|',
           f'| all | {ta:,.1f} | {tb:,.1f} | {tb - ta:+,.1f} |',
           f'| the kernel | {ka:,.1f} | {kb:,.1f} | {kb - ka:+,.1f} |',
           f'| user space and modules | {ta - ka:,.1f} | {tb - kb:,.1f} | '
           f'{(tb - kb) - (ta - ka):+,.1f} |', '',
           f'The {ROWS} functions whose figures differ most, per round:', '',
           f'| function | {na} | {nb} | difference |', '|---|---:|---:|---:|']
    names = set(a) | set(b)
    diff = {n: (b.get(n, 0) - a.get(n, 0)) / rounds for n in names}
    rows = sorted(names, key=lambda n: (-abs(diff[n]), n))
    for n in rows[:ROWS]:
        out.append(f'| {n} | {a.get(n, 0) / rounds:,.1f} | {b.get(n, 0) / rounds:,.1f} | '
                   f'{diff[n]:+,.1f} |')
    rest = sum(diff[n] for n in rows[ROWS:])
    out += [f'| {len(rows) - ROWS if len(rows) > ROWS else 0} others | | | {rest:+,.1f} |',
            '', f'Functions that ran only in {nb}: {only(b, a)}.',
            f'Functions that ran only in {na}: {only(a, b)}.', '']
    return '\n'.join(out)


def only(x, y, most=20):
    """The functions of x that are not in y, at most `most` named."""
    names = sorted(n for n in x if n not in y)
    if not names:
        return 'none'
    more = f' and {len(names) - most} more' if len(names) > most else ''
    return ', '.join(names[:most]) + more


def main(argv):
    if len(argv) != 9:
        print('usage: profile_spawn.py ROUNDS OUT.md NAME VMLINUX COUNTS NAME VMLINUX COUNTS',
              file=sys.stderr)
        return 2
    try:
        rounds = int(argv[1])
        if rounds <= 0:
            raise ValueError
    except ValueError:
        print(f'profile_spawn.py: ROUNDS={argv[1]!r}: want a positive number', file=sys.stderr)
        return 2
    kernels = []
    try:
        for i in (3, 6):
            kernels.append((argv[i], read_counts(argv[i + 2], Symbols(argv[i + 1]))))
    except ProfileError as e:
        print(f'profile_spawn.py: {e}', file=sys.stderr)
        return 1
    table = render(rounds, kernels)
    with open(argv[2], 'w') as f:
        f.write(table)
    print(table, end='')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
