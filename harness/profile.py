#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tabulate `make profile` (harness/profile.sh).

    profile.py VMLINUX PROFILE_DIR [NAME ANCHOR_VMLINUX ANCHOR_DIR]

Reads PROFILE_DIR/<state>.pcs (harness/profile_gdb.py: "CALL n" lines,
each followed by the PCs that call executed) for the states off,
function, function_graph, kprobe and kretprobe, attributes every PC to the function symbol
of VMLINUX that contains it, and writes PROFILE_DIR/table.md (also
printed): for each state the call with the median instruction count,
instructions per function and their share; with an anchor (x86_64's
profile of the same tree), what each function adds to one traced entry
on both kernels, side by side.  "Per traced call" is the
instructions above tracing off divided by the traced entries of the call,
counted as the times the call entered the tracer's callback
(function_trace_call, function_graph_enter_regs; the kprobe and
kretprobe events' kprobe_dispatcher, kretprobe_dispatcher, once per
call): the same on m68k and
on x86_64, whose call sites may call a trampoline of the tracer's own,
outside vmlinux (those instructions are listed as such).
Exit status 1 when a file is missing or empty.
"""

import bisect
import os
import subprocess
import sys

STATES = ['off', 'function', 'function_graph', 'kprobe', 'kretprobe']
STATE_TEXT = {'off': 'tracing off',
              'function': 'function tracer, all functions',
              'function_graph': 'function_graph, all functions',
              'kprobe': 'a kprobe event on the system call function',
              'kretprobe': 'a kretprobe event on the system call function'}
# the callback entered once per traced function entry (or probe hit), by
# state (6.12's graph entry is function_graph_enter)
ENTRY = {'function': ('function_trace_call',),
         'function_graph': ('function_graph_enter_regs', 'function_graph_enter'),
         'kprobe': ('kprobe_dispatcher',),
         'kretprobe': ('kretprobe_dispatcher',)}
OUTSIDE = '(outside vmlinux: a trampoline)'


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
        self.text = (self.addr.get('_stext', 0), self.addr.get('_etext', 1 << 64))

    def name(self, pc):
        if not self.text[0] <= pc < self.text[1]:
            return OUTSIDE
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


def analyse(sym, prof):
    """state -> (instructions, traced entries, {function: instructions},
    the lengths of the calls profiled), of the median call of each."""
    res = {}
    for state, (call, lens) in prof.items():
        entry = next((sym.addr[n] for n in ENTRY.get(state, ()) if n in sym.addr), None)
        counts = {}
        for pc in call:
            n = sym.name(pc)
            counts[n] = counts.get(n, 0) + 1
        res[state] = (len(call), sum(1 for pc in call if pc == entry), counts, lens)
    return res


def per_entry(res, state):
    """{function: instructions above tracing off per traced entry}, or None
    when the state or tracing off is missing or traced nothing.  A
    function's parts and clones (gcc's rb_commit.part.0) count as the
    function, so that both kernels' rows meet."""
    if state not in res or 'off' not in res or not res[state][1]:
        return None
    _, entries, counts, _ = res[state]
    per = {}
    for counts_, sign in ((counts, 1), (res['off'][2], -1)):
        for n, c in counts_.items():
            n = n.split('.')[0]
            per[n] = per.get(n, 0) + sign * c / entries
    return {n: c for n, c in per.items() if c}


def render(sym, prof, anchor=None):
    """anchor: (name, Symbols, prof, directory) of another kernel
    (x86_64), whose per-entry figures are put beside these."""
    res = analyse(sym, prof)
    out = []
    base = res['off'][0] if 'off' in res else None
    summary = ['| state | instructions in sys_getppid() | traced entries | '
               'per traced call |', '|---|---:|---:|---:|']
    for state in STATES:
        if state not in res:
            continue
        total, entries, counts, lens = res[state]
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
    if anchor:
        out += beside(res, anchor)
    return '\n'.join(summary + [''] + out)


def beside(res, anchor):
    """Per traced entry, function by function, this kernel and the anchor:
    the instructions each function adds to one traced entry."""
    name, asym, aprof, where = anchor
    ares = analyse(asym, aprof)
    out = []
    for state in STATES[1:]:
        mine, theirs = per_entry(res, state), per_entry(ares, state)
        if mine is None or theirs is None:
            continue
        out += [f'### {STATE_TEXT[state]}: per traced entry, beside {name}', '',
                f'Instructions each function adds to one traced entry (its count '
                f'above tracing off, divided by the traced entries; {name}: '
                f'{ares[state][1]} entries a call, profiled in {where}).', '',
                f'| function | this kernel | {name} | difference |', '|---|---:|---:|---:|']
        rows = sorted(set(mine) | set(theirs),
                      key=lambda n: (-max(mine.get(n, 0), theirs.get(n, 0)), n))
        for n in rows:
            a, b = mine.get(n, 0), theirs.get(n, 0)
            out.append(f'| {n} | {a:,.1f} | {b:,.1f} | {a - b:+,.1f} |')
        a, b = sum(mine.values()), sum(theirs.values())
        out += [f'| **per traced entry** | **{a:,.1f}** | **{b:,.1f}** | **{a - b:+,.1f}** |',
                '']
    return out


def load(vmlinux, d):
    """Symbols and {state: (median call, lengths)} of a profile directory."""
    sym = Symbols(vmlinux)
    prof = {s: median_call(read_calls(os.path.join(d, f'{s}.pcs')))
            for s in STATES if os.path.exists(os.path.join(d, f'{s}.pcs'))}
    if not prof:
        raise ProfileError(f'{d}: no <state>.pcs files')
    return sym, prof


def main(argv):
    if len(argv) not in (3, 6):
        print('usage: profile.py VMLINUX PROFILE_DIR [NAME ANCHOR_VMLINUX ANCHOR_DIR]',
              file=sys.stderr)
        return 2
    vmlinux, d = argv[1], argv[2]
    try:
        sym, prof = load(vmlinux, d)
        anchor = (argv[3], *load(argv[4], argv[5]), argv[5]) if len(argv) == 6 else None
    except (ProfileError, subprocess.CalledProcessError, OSError) as e:
        print(f'profile.py: {e}', file=sys.stderr)
        return 1
    table = render(sym, prof, anchor)
    with open(os.path.join(d, 'table.md'), 'w') as f:
        f.write(table)
    print(table, end='')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
