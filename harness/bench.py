#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tabulate a `make bench` run (harness/bench.sh).

Reads, in the bench directory:
  <kernel>.log       console of one benchmark boot: "BENCH state workload ns"
                     and "FIGURE name value unit" lines (guest/bench/*.sh)
  stop_machine.log   patch-all on the dynamic kernel with stop_machine
  sizes.txt          "<kernel> text data bss" of each vmlinux
  previous.json      the previous run's figures, if any
  x86_64.log         the anchor, if run: x86_64 from the same kernel tree
                     (MACHINE=x86_64) with bench.only=calls, whose per-call
                     and per-hit figures stand beside m68k's
  x86_64-notp.log, x86_64-tp.log, x86_64-tpnojl.log
                     the anchor's tracepoint kernels, if run (7.3; notp and
                     tp both or neither, tpnojl optional): what an off
                     tracepoint costs on x86_64, beside m68k's

With --calls, reads only calls.log (`make bench-calls`: one kernel, the
getppid() loop in the states off, function and function_graph) and
prints the instructions per traced call.

Writes table.md (also printed) and results.json.  Each workload figure is
the median of its repetitions, with the spread (max - min) / median, and
the ratio against the same workload on the "plain" kernel with tracing off.
Exit status 1 when a log is missing or holds no figures.
"""

import json
import os
import re
import statistics
import sys
from datetime import date

KERNELS = ['plain', 'fp', 'static', 'dynamic', 'pfe', 'notp', 'tp', 'tpnojl']
TP_KERNELS = ['notp', 'tp', 'tpnojl']
KERNEL_TEXT = {
    'plain': 'no FUNCTION_TRACER, no frame pointers (the machine\'s defconfig)',
    'fp': 'no FUNCTION_TRACER, frame pointers',
    'static': 'FUNCTION_TRACER, DYNAMIC_FTRACE=n',
    'dynamic': 'FUNCTION_TRACER, DYNAMIC_FTRACE=y',
    'pfe': 'FUNCTION_TRACER, DYNAMIC_FTRACE=y on patchable entries, no frame pointers',
    'notp': 'no tracing at all: no tracepoints (fork+exec+pipe only)',
    'tp': 'tracepoints and the event tracer, nothing else of tracing (fork+exec+pipe only)',
    'tpnojl': 'tp without jump labels (fork+exec+pipe only)',
}
STATES = ['off', 'function-one', 'function', 'function+kprobe', 'function-instance',
          'function_graph', 'pstore-ftrace', 'kprobe', 'kretprobe',
          'kprobe-body', 'optprobe', 'uprobe', 'uretprobe']
STATE_TEXT = {
    'off': 'tracing off',
    'function-one': 'function tracer on sys_getppid only',
    'function': 'function tracer, all functions',
    'function+kprobe': 'the same and a kprobe event on another function\'s entry',
    'function-instance': 'function tracer of an instance, all functions',
    'function_graph': 'function_graph, all functions',
    'pstore-ftrace': 'pstore function recorder, all functions',
    'kprobe': 'kprobe event on getppid()\'s syscall function',
    'kretprobe': 'kretprobe event on getppid()\'s syscall function',
    'kprobe-body': 'kprobe event in __task_pid_nr_ns(), not optimized',
    'optprobe': 'the same kprobe event, optimized (a jump)',
    'uprobe': 'uprobe event on a user function',
    'uretprobe': 'uretprobe event on a user function',
}
# one hit per call of the workload
PROBE_STATES = {'kprobe': 'syscall', 'kretprobe': 'syscall',
                'kprobe-body': 'syscall', 'optprobe': 'syscall',
                'uprobe': 'ucall', 'uretprobe': 'ucall'}
WORKLOADS = {'syscall': 'getppid() (ns/call)',
             'spawn': 'fork+exec+pipe (ns/round)',
             'ucall': 'a user function call (ns/call)'}
# the workloads of the tracing-off targets (ucall never enters the kernel)
TARGET_WORKLOADS = ['syscall', 'spawn']
# function entries counted per workload round: figure name, rounds
ENTRIES = {'syscall': ('entries-10000-calls', 10000),
           'spawn': ('entries-2-spawns', 2)}

BENCH = re.compile(r'^BENCH (\S+) (\S+) ([0-9.]+)\s*$')
FIGURE = re.compile(r'^FIGURE (\S+) ([0-9.]+) (\S+)\s*$')
# The per-traced-call states, and the anchor: x86_64 built from the same
# tree, booted the same way in the same run.  m68k's instructions per
# traced call (function tracer, function_graph) and per probe hit
# (kprobe, kretprobe) are to be at most TARGET_RATIO times x86_64's.
PER_CALL_STATES = ['function', 'function+kprobe', 'function-instance', 'function_graph',
                   'pstore-ftrace']
# A second ftrace_ops (function+kprobe) and an allocated one (an instance's
# tracer) against the function tracer alone, per traced call: with call
# ops (or x86_64's per-ops trampolines) the sites that only the tracer
# traces do not go through the list function.
SECOND_OPS_STATES = ['function+kprobe', 'function-instance']
ANCHOR = 'x86_64'
TARGET_RATIO = 0.8
RATIO_TARGETS = ['function', 'function_graph', 'kprobe', 'kretprobe']
FTRACE_ALLOC = re.compile(r'ftrace: allocating (\d+) entries in (\d+) pages')


class BenchError(Exception):
    pass


def parse_log(path):
    """-> ({(state, workload): [ns, ...]}, {figure: [(value, unit), ...]})"""
    samples, figures = {}, {}
    try:
        with open(path, errors='replace') as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise BenchError(f'cannot read {path}: {e}') from e
    for line in lines:
        line = line.strip()
        m = BENCH.match(line)
        if m:
            samples.setdefault((m[1], m[2]), []).append(float(m[3]))
            continue
        m = FIGURE.match(line)
        if m:
            figures.setdefault(m[1], []).append((float(m[2]), m[3]))
            continue
        m = FTRACE_ALLOC.search(line)
        if m:
            figures.setdefault('boot-records', []).append((int(m[1]), 'sites'))
            figures.setdefault('boot-record-pages', []).append((int(m[2]), 'pages'))
    return samples, figures


def summary(values):
    med = statistics.median(values)
    spread = (max(values) - min(values)) / med * 100 if med else 0.0
    return med, spread


def fig(figures, name):
    """Median of a figure's values, or None."""
    vals = [v for v, _ in figures.get(name, [])]
    return statistics.median(vals) if vals else None


# (ColdFire's FLAT init adds " (the FLAT init)")
ICOUNT = re.compile(r'^qemu-run: guest script exited 0 .*\(-icount shift=(\d+): [^)]*, (\S+)\)')
# Hatari (the Atari machines): no instruction count, its own emulated time
HATARI = re.compile(r'^qemu-run: guest script exited 0 .*\(Hatari, ([^)]*)\)')
# What a figure counts: guest instructions under QEMU -icount; on Hatari,
# nanoseconds of its emulated time, which follows the cycles its CPU
# tables give each instruction (divided by --cpu-cycle-div) and its model
# of the machine, not the host's load
UNIT = {'insn': ('instructions', 'instr'), 'ns': ('ns of Hatari\'s emulated time', 'ns')}


def icount(path):
    """(ns, board, unit) of the benchmark boot whose qemu-run output is
    PATH: under QEMU guest time is 2^shift ns an instruction (unit 'insn',
    harness/qemu-run.sh); on Hatari the figures stay in ns (unit 'ns')."""
    try:
        with open(path, errors='replace') as f:
            for line in f:
                m = ICOUNT.match(line.rstrip('\n'))
                if m:
                    return 1 << int(m.group(1)), m.group(2), 'insn'
                m = HATARI.match(line.rstrip('\n'))
                if m:
                    return 1, f'Hatari {m.group(1)}', 'ns'
    except OSError as e:
        raise BenchError(f'{path}: {e}') from e
    raise BenchError(f'{path}: neither "-icount shift=" nor Hatari in qemu-run\'s exit line: '
                     'cannot convert guest time to instructions')


def per_call(samples, figures, ns_insn):
    """Instructions per traced call of getppid(): (traced - off) / the
    traced entries per call, counted by the guest (function tracer on all
    functions, 10,000 calls; rounded: a timer tick adds entries of its
    own).  -> (entries, {state: instructions}) or None."""
    n = fig(figures, 'entries-10000-calls')
    off = samples.get(('off', 'syscall'))
    if not n or not off:
        return None
    entries = round(n / 10000)
    if entries < 1:
        return None
    base = summary(off)[0]
    out = {}
    for state in PER_CALL_STATES:
        vals = samples.get((state, 'syscall'))
        if vals:
            out[state] = (summary(vals)[0] - base) / entries / ns_insn
    return entries, out


def per_hit(samples, ns_insn):
    """Instructions per probe hit: (probed - off) on the workload the
    probe hits once per iteration (the event is written to the ring
    buffer).  -> {state: instructions}"""
    out = {}
    for state, wl in PROBE_STATES.items():
        off, vals = samples.get(('off', wl)), samples.get((state, wl))
        if off and vals:
            out[state] = (summary(vals)[0] - summary(off)[0]) / ns_insn
    return out


def call_figures(samples, figures, ns_insn):
    """per_call() and per_hit() in one: -> (traced entries per getppid()
    or None, {state: instructions})."""
    pc = per_call(samples, figures, ns_insn)
    out = dict(pc[1]) if pc else {}
    out.update(per_hit(samples, ns_insn))
    return (pc[0] if pc else None), out


def load_anchor(d):
    """The anchor's figures, {state: instructions} per traced call and per
    probe hit, with 'entries' (traced entries per getppid()); None when
    this run has no anchor (no x86_64.out)."""
    if not os.path.exists(os.path.join(d, f'{ANCHOR}.out')):
        return None
    ns, _, _ = icount(os.path.join(d, f'{ANCHOR}.out'))
    samples, figures = parse_log(os.path.join(d, f'{ANCHOR}.log'))
    entries, out = call_figures(samples, figures, ns)
    if not entries:
        raise BenchError(f'{ANCHOR}.log: no per-call figures (no BENCH lines or '
                         'no traced-entry count)')
    out['entries'] = entries
    return out


def verdict(state, per, anchor):
    """The target column: m68k / x86_64, and whether it meets TARGET_RATIO."""
    if not anchor or not anchor.get(state):
        return 'no anchor'
    ratio = per / anchor[state]
    if state not in RATIO_TARGETS:
        return f'{ratio:.2f}x'
    met = 'met' if ratio <= TARGET_RATIO else 'MISSED'
    return f'{ratio:.2f}x (<= {TARGET_RATIO}x: {met})'


def anchor_cell(state, anchor):
    return f'{anchor[state]:,.0f}' if anchor and anchor.get(state) else '-'


def render_per_call(samples, figures, kernel, ns_insn, anchor=None, unit='insn'):
    pc = per_call(samples, figures, ns_insn)
    if not pc:
        return []
    entries, out = pc
    x86 = (f'; x86_64: {anchor["entries"]} entries per getppid()' if anchor else '')
    lines = ['', f'Per traced call ({kernel} kernel; getppid() has {entries} traced '
             f'entries, counted; {UNIT[unit][0]} = (traced - off) / {entries}{x86}):', '',
             f'| tracer | {UNIT[unit][1]}/call | {ANCHOR} | ratio, target |',
             '|---|---:|---:|---:|']
    for state, per in out.items():
        lines.append(f'| {STATE_TEXT[state]} | {per:,.0f} | {anchor_cell(state, anchor)} | '
                     f'{verdict(state, per, anchor)} |')
    return lines


def render_per_hit(samples, kernel, ns_insn, anchor=None, unit='insn'):
    rows = per_hit(samples, ns_insn)
    if not rows:
        return []
    lines = ['', f'Per probe hit ({kernel} kernel; one hit per getppid() or per user '
             f'function call, the event recorded; {UNIT[unit][0]} = probed - off):', '',
             f'| probe | {UNIT[unit][1]}/hit | {ANCHOR} | ratio, target |',
             '|---|---:|---:|---:|']
    for state, per in rows.items():
        lines.append(f'| {STATE_TEXT[state]} | {per:,.0f} | {anchor_cell(state, anchor)} | '
                     f'{verdict(state, per, anchor)} |')
    return lines


def render_calls(d):
    """`make bench-calls`: calls.log only."""
    samples, figures = parse_log(os.path.join(d, 'calls.log'))
    if not samples:
        raise BenchError('calls.log: no BENCH lines')
    out = ['# make bench-calls, ' + date.today().isoformat(), '',
           '| state | getppid() median | spread |', '|---|---:|---:|']
    for state in STATES:
        vals = samples.get((state, 'syscall'))
        if vals:
            med, spread = summary(vals)
            out.append(f'| {STATE_TEXT[state]} | {med:,.0f} ns | {spread:.2f} % |')
    ns_insn, board, unit = icount(os.path.join(d, 'calls.out'))
    out[0] += f', {board}'
    lines = render_per_call(samples, figures, 'this', ns_insn, unit=unit)
    if not lines:
        raise BenchError('calls.log: no traced-entry count')
    lines += render_per_hit(samples, 'this', ns_insn, unit=unit)
    return '\n'.join(out + lines) + '\n'


def read_boots(d, logs, what):
    """The boots {kernel: NAME} of one set (NAME.log, NAME.out in @d), all
    on one board and clock: -> ((ns, board, unit), {kernel: samples},
    {kernel: figures}).  A tp kernel must have counted its sites."""
    runs = {icount(os.path.join(d, f'{n}.out')) for n in logs.values()}
    if len(runs) != 1:
        raise BenchError(f'{what} ran on different boards or clocks: {sorted(runs)}')
    samples, figures = {}, {}
    for k, n in logs.items():
        samples[k], figures[k] = parse_log(os.path.join(d, f'{n}.log'))
        if not samples[k]:
            raise BenchError(f'{n}.log: no BENCH lines')
    if 'tp' in logs and not fig(figures['tp'], TP_SITES[0]):
        raise BenchError(f'{logs["tp"]}.log: no FIGURE {TP_SITES[0]} (the sites a round passes)')
    return runs.pop(), samples, figures


def collect(d):
    data = {'samples': {}, 'figures': {}, 'sizes': {}}
    # static (DYNAMIC_FTRACE=n) exists on 6.12 only, the tracepoint
    # kernels (TP_KERNELS: all three or none) on 7.3 only
    def ran(k):
        return os.path.exists(os.path.join(d, f'{k}.log'))
    tp = any(ran(k) for k in TP_KERNELS)
    kernels = [k for k in KERNELS
               if (k != 'static' or ran(k)) and (k not in TP_KERNELS or tp)]
    # harness/bench.sh names the kernels it booted (BENCH_VARIANTS: the
    # Atari machines boot plain, fp and dynamic only): each must have its log
    want = os.environ.get('BENCH_VARIANTS', '').split()
    if want:
        if not {'plain', 'dynamic'} <= set(want) or set(want) - set(KERNELS):
            raise BenchError(f'BENCH_VARIANTS "{" ".join(want)}": plain and dynamic '
                             f'and no others than {", ".join(KERNELS)}')
        kernels = [k for k in KERNELS if k in want]
    data['kernels'] = kernels
    # the kernel tree: BUILD_DIR/pristine beside BUILD_DIR/bench
    try:
        with open(os.path.join(d, '..', 'pristine', '.debian-version')) as f:
            data['linux'] = f.read().strip()
    except OSError:
        pass
    (data['ns_insn'], data['board'], data['unit']), data['samples'], data['figures'] = \
        read_boots(d, {k: k for k in kernels}, 'the boots')
    _, data['figures']['stop_machine'] = parse_log(os.path.join(d, 'stop_machine.log'))
    try:
        with open(os.path.join(d, 'sizes.txt')) as f:
            for line in f:
                k, text, dat, bss = line.split()
                data['sizes'][k] = (int(text), int(dat), int(bss))
    except (OSError, ValueError) as e:
        raise BenchError(f'sizes.txt: {e}') from e
    data['anchor'] = load_anchor(d)
    data['anchor_tp'] = load_anchor_tp(d)
    return data


def flat(data):
    """The figures to compare between runs: name -> value (the workload
    medians and the switching times)."""
    out = {}
    for k, samples in data['samples'].items():
        for (state, wl), vals in samples.items():
            out[f'{k}/{state}/{wl}'] = summary(vals)[0]
    # Not the longest irqs-off windows: a maximum depends on where the
    # timer interrupts fall, and varies from run to run.
    for k in ('dynamic', 'stop_machine'):
        for name in ('patch-on-us', 'patch-off-us'):
            v = fig(data['figures'][k], name)
            if v is not None:
                out[f'{k}/{name}'] = v
    for state, v in (data.get('anchor') or {}).items():
        if state != 'entries':
            out[f'{ANCHOR}/{state}'] = v
    return out


def pct(x):
    return f'{x:+.2f} %'


def render(data, previous=None):
    s, F = data['samples'], data['figures']
    base = {wl: summary(s['plain'][('off', wl)])[0]
            for wl in WORKLOADS if ('off', wl) in s['plain']}
    linux = data.get('linux')
    unit = data.get('unit', 'insn')
    if unit == 'insn':
        clock = [f'QEMU {data["board"]} 68040, `-icount shift={data["ns_insn"].bit_length() - 1},'
                 f'sleep=off`: {data["ns_insn"]} ns of guest time',
                 'is one guest instruction.']
    else:
        clock = [f'{data["board"]}: no instruction count; the figures are ns of Hatari\'s',
                 'emulated time (32 MHz, its CPU tables\' cycles divided by --cpu-cycle-div:',
                 'harness/qemu-run.sh), which does not follow the host\'s load; what an',
                 'instruction costs there is Hatari\'s model: compare figures of one run.']
    out = [f'# make bench, {date.today().isoformat()}', '',
           (f'Linux {linux} (Debian\'s linux-source), ' if linux else '') + clock[0],
           *clock[1:],
           'Median of the repetitions (spread = (max - min) / median); ratio',
           'against the plain kernel, tracing off.', '']
    kernels = data.get('kernels', KERNELS)
    for k in kernels:
        out.append(f'* **{k}**: {KERNEL_TEXT[k]}')
    out += ['', '| workload | state | kernel | median | spread | ratio |',
            '|---|---|---|---:|---:|---:|']
    for wl, wl_text in WORKLOADS.items():
        for state in STATES:
            for k in kernels:
                vals = s[k].get((state, wl))
                if not vals:
                    continue
                med, spread = summary(vals)
                ratio = med / base[wl] if base.get(wl) else float('nan')
                out.append(f'| {wl_text} | {STATE_TEXT[state]} | {k} | '
                           f'{med:,.0f} ns | {spread:.2f} % | {ratio:.4f}x |')

    out += ['', '| figure | value |', '|---|---:|']
    sz = data['sizes']
    for k in kernels:
        if k in sz:
            grow = (sz[k][0] / sz['plain'][0] - 1) * 100 if 'plain' in sz else 0
            out.append(f'| vmlinux text, {k} | {sz[k][0]:,} bytes ({pct(grow)}) |')
    if all(k in sz for k in ('plain', 'fp', 'dynamic')):
        total = sz['dynamic'][0] - sz['plain'][0]
        fp = sz['fp'][0] - sz['plain'][0]
        if total > 0:
            out.append(f'| frame pointers\' share of the dynamic kernel\'s text growth | '
                       f'{fp / total * 100:.1f} % ({fp:,} of {total:,} bytes) |')
    dyn = F['dynamic']
    sites, pages = fig(dyn, 'record-sites'), fig(dyn, 'record-pages')
    if sites:
        out.append(f'| call sites (dynamic) | {sites:,.0f} |')
        out.append(f'| record pages / bytes per site | {pages:.0f} pages / '
                   f'{pages * 4096 / sites:.2f} bytes |')
    out.append('| boot-time conversion of the call sites | not measurable in the '
               'guest: ftrace_init() runs before any clock ticks; the same '
               'rewrite at run time is "switch off" below |')
    for k, label in (('dynamic', 'breakpoint (default)'), ('stop_machine', 'stop_machine')):
        on, off = fig(F[k], 'patch-on-us'), fig(F[k], 'patch-off-us')
        irq = fig(F[k], 'patch-irqsoff-max-us')
        idle = fig(F[k], 'idle-irqsoff-max-us')
        if on is None:
            continue
        out.append(f'| switch all sites on / off, {label} | {on:,.0f} / {off:,.0f} us |')
        out.append(f'| longest irqs-off window while switching, {label} | {irq:,.0f} us '
                   f'(idle: {idle:,.0f} us) |')

    anchor = data.get('anchor')
    if anchor:
        out += ['', f'The {ANCHOR} column: x86_64_defconfig with the same tracing '
                'fragments, from the same tree, on QEMU\'s pc board under the same '
                '-icount, in this run (`MACHINE=x86_64`).']
    else:
        out += ['', f'No {ANCHOR} anchor in this run (`make bench BENCH_ANCHOR=` leaves '
                'it out): the ratio targets are not evaluated.']
    for k in ('dynamic', 'pfe'):
        if k in s:
            out += render_per_call(s[k], F[k], k, data['ns_insn'], anchor, unit)
            out += render_per_hit(s[k], k, data['ns_insn'], anchor, unit)
    out += render_tracepoints(data)
    out += ['', '## Targets', '']
    out += targets(data)
    if previous:
        cur = flat(data)
        common = sorted(set(cur) & set(previous))
        devs = [(abs(cur[n] / previous[n] - 1) * 100, n) for n in common if previous[n]]
        if devs:
            worst = max(devs)
            out += ['', f'Against the previous run: {len(devs)} figures, largest '
                    f'difference {worst[0]:.2f} % ({worst[1]}).']
    return '\n'.join(out) + '\n'


# The target for tracing compiled in and off on patchable entries:
# at most this many instructions added per traced function entry.
PFE_OFF_MAX = 1.1


# The target for tracepoints compiled in and off: at most this
# many instructions added per tracepoint site passed.
TP_OFF_MAX = 1.1
# the tracepoint passes of ten fork+exec+pipe rounds (tp kernel, counted
# by guest/modules/tp_count; the median of the figure's values)
TP_SITES = ('tracepoints-10-spawns', 10)


def load_anchor_tp(d):
    """The anchor's tracepoint kernels (x86_64-notp.log and x86_64-tp.log,
    both or none; x86_64-tpnojl.log if run), {'samples': {kernel:
    samples}, 'figures': {...}, 'ns_insn': n}; None when this run has
    none of them."""
    names = {k: f'{ANCHOR}-{k}' for k in TP_KERNELS}
    have = [k for k, n in names.items() if os.path.exists(os.path.join(d, f'{n}.log'))]
    if not have:
        return None
    if 'notp' not in have or 'tp' not in have:
        missing = ', '.join(f'{names[k]}.log' for k in ('notp', 'tp') if k not in have)
        raise BenchError(f'{missing}: missing (the anchor\'s notp and tp kernels: both or none)')
    (ns, _, _), samples, figures = read_boots(
        d, {k: n for k, n in names.items() if k in have}, 'the anchor\'s tracepoint boots')
    return {'samples': samples, 'figures': figures, 'ns_insn': ns}


def tracepoint_cost(data, anchor=False):
    """What an off tracepoint costs per site passed, on fork+exec+pipe:
    {kernel: (instructions added per round against notp, per site, the
    runs' uncertainty per site)} for tp and tpnojl, and the sites per
    round; None when the run has no tracepoint kernels.  anchor: the
    same for the anchor's tracepoint kernels (None when it has none)."""
    src = data.get('anchor_tp') if anchor else data
    if not src:
        return None
    s, F = src['samples'], src['figures']
    try:
        base = s['notp'][('off', 'spawn')]
        n = fig(F['tp'], TP_SITES[0])
    except KeyError:
        return None
    sites = n / TP_SITES[1]
    ns = src['ns_insn']
    b_med, b_spread = summary(base)
    out = {}
    for k in ('tp', 'tpnojl'):
        if k not in s:
            continue
        med, spread = summary(s[k][('off', 'spawn')])
        added = (med - b_med) / ns
        # half the larger spread of the two kernels' runs, per site
        unc = max(b_spread * b_med, spread * med) / 100 / 2 / ns / sites
        out[k] = (added, added / sites, unc)
    return out, sites


def render_tracepoints(data):
    cost = tracepoint_cost(data)
    if not cost:
        return []
    (per, sites) = cost
    x86 = tracepoint_cost(data, anchor=True)
    lines = ['', f'Tracepoints compiled in and off (fork+exec+pipe, {sites:,.0f} tracepoint '
             'sites passed per round, counted on the tp kernel by a probe on each '
             'tracepoint but the raw system call ones' +
             (f'; {ANCHOR}: {x86[1]:,.0f}, its own notp, tp and tpnojl kernels' if x86 else
              f'; no {ANCHOR} tracepoint kernels in this run') + '):', '',
             '| kernel | instructions added per round, against notp | per site passed '
             '(+/- half the larger spread of the two kernels\' runs) |' +
             (f' {ANCHOR}: added per round | {ANCHOR}: per site passed |' if x86 else ''),
             '|---|---:|---:|' + ('---:|---:|' if x86 else '')]
    for k in ('tp', 'tpnojl'):
        added, one, unc = per[k]
        line = f'| {k} | {added:,.0f} | {one:.2f} (+/- {unc:.2f}) |'
        if x86 and k in x86[0]:
            a_added, a_one, a_unc = x86[0][k]
            line += f' {a_added:,.0f} | {a_one:.2f} (+/- {a_unc:.2f}) |'
        elif x86:
            line += ' not run | - |'
        lines.append(line)
    return lines


def targets(data):
    s, F = data['samples'], data['figures']
    lines = []
    cost = tracepoint_cost(data)
    if cost:
        per, _ = cost
        one, unc = per['tp'][1], per['tp'][2]
        lines.append(f'* tracepoints compiled in, off, fork+exec+pipe: {one:.2f} instructions '
                     f'added per site passed (+/- {unc:.2f}; '
                     f'{"met" if one <= TP_OFF_MAX else "MISSED"}: <= {TP_OFF_MAX}); '
                     f'without jump labels {per["tpnojl"][1]:.2f}: the jump labels save '
                     f'{per["tpnojl"][1] - one:.2f} per site')
        x86 = tracepoint_cost(data, anchor=True)
        if x86:
            nojl = (f', {x86[0]["tpnojl"][1]:.2f} without jump labels'
                    if 'tpnojl' in x86[0] else '')
            lines[-1] += f' ({ANCHOR}: {x86[0]["tp"][1]:.2f} per site{nojl})'
    for wl in TARGET_WORKLOADS:
        wl_text = WORKLOADS[wl]
        try:
            plain = summary(s['plain'][('off', wl)])[0]
            dyn = summary(s['dynamic'][('off', wl)])[0]
        except KeyError:
            continue
        slow = (dyn / plain - 1) * 100
        line = (f'* compiled in, off, {wl_text}: {pct(slow)} against plain '
                f'({"met" if slow <= 0.5 else "MISSED"}: <= +0.5 %)')
        if ('off', wl) in s.get('fp', {}):
            fp = summary(s['fp'][('off', wl)])[0]
            line += f'; {pct((dyn / fp - 1) * 100)} against fp (the trapf.l sites alone)'
        lines.append(line)
        if wl == 'syscall':
            lines += ratio_targets(data)
        pfe = s.get('pfe', {}).get(('off', wl))
        if pfe:
            med = summary(pfe)[0]
            line = (f'* pfe compiled in, off, {wl_text}: {pct((med / plain - 1) * 100)} '
                    'against plain')
            name, rounds = ENTRIES[wl]
            n = fig(F['pfe'], name)
            if n:
                # instructions added per traced function entry
                per = (med - plain) / (n / rounds) / data['ns_insn']
                line += (f'; {per:.2f} instructions per function entry, '
                         f'{n / rounds:,.0f} entries per iteration '
                         f'({"met" if per <= PFE_OFF_MAX else "MISSED"}: <= {PFE_OFF_MAX})')
            lines.append(line)
        fn = s['dynamic'].get(('function', wl))
        if fn:
            lines.append(f'* function tracer on all functions, {wl_text}: '
                         f'{summary(fn)[0] / plain:.2f}x')
    bp = fig(F['dynamic'], 'patch-irqsoff-max-us')
    sm = fig(F['stop_machine'], 'patch-irqsoff-max-us')
    if bp and sm:
        lines.append(f'* longest irqs-off window, stop_machine / breakpoint: {sm / bp:.1f}x '
                     f'({"met" if sm >= 10 * bp else "MISSED"}: >= 10x)')
    boot_n, boot_p = fig(F['dynamic'], 'boot-records'), fig(F['dynamic'], 'boot-record-pages')
    sites, pages = fig(F['dynamic'], 'record-sites'), fig(F['dynamic'], 'record-pages')
    if boot_n and sites:
        # ftrace_init() allocates ceil(N / (PAGE_SIZE / record)) pages: the
        # record is at most PAGE_SIZE * P / N bytes, a multiple of 4.
        record = int(4096 * boot_p / boot_n) // 4 * 4
        lines.append(f'* record bytes per call site: {record} (boot: {boot_n:,.0f} '
                     f'entries in {boot_p:.0f} pages; {"met" if record <= 8 else "MISSED"}: '
                     f'<= 8); memory held, with page rounding: '
                     f'{pages * 4096 / sites:.2f} bytes per site')
    return lines


def ratio_targets(data):
    """The per-call and per-hit figures of the dynamic and pfe kernels
    against the anchor's (RATIO_TARGETS)."""
    s, F, anchor = data['samples'], data['figures'], data.get('anchor')
    lines = []
    unit = UNIT[data.get('unit', 'insn')][0]
    for k in ('dynamic', 'pfe'):
        if k not in s:
            continue
        _, figures = call_figures(s[k], F[k], data['ns_insn'])
        fn = figures.get('function')
        # and pstore's recorder, which writes each call to persistent RAM
        for state in SECOND_OPS_STATES + ['pstore-ftrace']:
            if fn and state in figures:
                line = (f'* {STATE_TEXT[state]} ({k}): {figures[state] / fn:.2f}x the '
                        f'function tracer alone per traced call')
                if anchor and anchor.get(state) and anchor.get('function'):
                    line += f' ({ANCHOR}: {anchor[state] / anchor["function"]:.2f}x)'
                lines.append(line)
        for state in RATIO_TARGETS:
            if state not in figures:
                continue
            per = figures[state]
            what = 'per traced call' if state in PER_CALL_STATES else 'per hit'
            line = f'* {STATE_TEXT[state]}, {what} ({k}): {per:,.0f} {unit}'
            if anchor and anchor.get(state):
                line += (f' against {ANCHOR}\'s {anchor[state]:,.0f}: '
                         f'{verdict(state, per, anchor)}')
            else:
                line += f' (no {ANCHOR} figure: target <= {TARGET_RATIO}x not evaluated)'
            lines.append(line)
    return lines


def main(argv):
    if len(argv) == 3 and argv[1] == '--calls':
        try:
            table = render_calls(argv[2])
        except BenchError as e:
            print(f'bench.py: {e}', file=sys.stderr)
            return 1
        with open(os.path.join(argv[2], 'calls.md'), 'w') as f:
            f.write(table)
        print(table, end='')
        return 0
    if len(argv) != 2:
        print('usage: bench.py [--calls] BENCH_DIR', file=sys.stderr)
        return 2
    d = argv[1]
    try:
        data = collect(d)
    except BenchError as e:
        print(f'bench.py: {e}', file=sys.stderr)
        return 1
    previous = None
    try:
        with open(os.path.join(d, 'previous.json')) as f:
            previous = json.load(f)
    except (OSError, ValueError):
        pass
    table = render(data, previous)
    with open(os.path.join(d, 'table.md'), 'w') as f:
        f.write(table)
    with open(os.path.join(d, 'results.json'), 'w') as f:
        json.dump(flat(data), f, indent=1, sort_keys=True)
    print(table, end='')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
