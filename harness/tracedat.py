#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Assemble trace.dat files from raw tracefs captures of the guest, and
check that the host's trace-cmd reads them as the guest's kernel does.

guest/tests/tracedat.sh prints, for each recording NAME, a base32 tar.gz of
the raw ring-buffer pages, header_page/header_event, event formats,
kallsyms, printk_formats, saved_cmdlines and the guest's text `trace`:

    TRACEDAT-BEGIN NAME
    <base32 lines>
    TRACEDAT-END NAME <bytes> <md5>
    TRACEDAT-COUNT NAME <event type> <count>     (one per type)

This script writes each capture as a trace-cmd file of version 6 (see
trace-cmd.dat.v6(5)), with every number in the guest's byte order, runs
`trace-cmd report` on it and compares the report with the guest:

  * the number of events of each type against the TRACEDAT-COUNT lines;
  * event by event against the guest's text trace: timestamp, pid and type
    of trace events; function name and duration of function_graph lines.

CLI:
  tracedat.py LOG OUTDIR [--trace-cmd PROG]
      writes OUTDIR/NAME.dat and OUTDIR/NAME.report for each capture and
      prints "CHECK PASS tracedat:NAME" or "CHECK FAIL tracedat:NAME: why"
      (harness/results.py counts them); exit 1 if any check failed or the
      log has no capture.
"""

import argparse
import base64
import binascii
import hashlib
import io
import os
import re
import shutil
import struct
import subprocess
import sys
import tarfile
from collections import Counter
from dataclasses import dataclass, field

MAGIC = b'\x17\x08\x44tracing'
FILE_VERSION = b'6\0'

# Option ids of the trace.dat options section (trace-cmd.dat.v7(5) lists
# them; version 6 uses the same ids, and a 16-bit 0 ends the section).
OPTION_END = 0
OPTION_CPUSTAT = 2
OPTION_TRACECLOCK = 4
OPTION_UNAME = 5

# Guest count types that have no counterpart in a trace-cmd report.
UNCOMPARED_TYPES = {'funcgraph_other', 'funcgraph_comment'}

BEGIN_RE = re.compile(r'TRACEDAT-BEGIN (\S+)\s*$')
END_RE = re.compile(r'TRACEDAT-END (\S+) (\d+) ([0-9a-f]{32})\s*$')
COUNT_RE = re.compile(r'TRACEDAT-COUNT (\S+) (\S+) (\d+)\s*$')
# base32, not base64: its alphabet (A-Z, 2-7) cannot spell any of the
# console patterns qemu-run --strict fails on ("Oops", "BUG:", ...).
BASE32_LINE_RE = re.compile(r'^[A-Z2-7]+=*$')


@dataclass
class Capture:
    """One recording as found in a console log."""
    name: str
    targz: bytes = b''
    counts: dict = field(default_factory=dict)
    error: str = ''


# ---------------------------------------------------------------------------
# Console log -> captures

def extract(text):
    """Captures of a console log, in order of appearance.  Lines between the
    markers that are not base32 (kernel messages interleaved with the
    output) are skipped; the size and md5 on the END line must match."""
    captures = []
    by_name = {}
    current = None
    chunks = []
    for raw in text.splitlines():
        line = raw.replace('\r', '')
        m = BEGIN_RE.search(line)
        if m:
            if current is not None:
                current.error = 'cut short: no TRACEDAT-END line'
            current = Capture(m.group(1))
            captures.append(current)
            by_name[current.name] = current
            chunks = []
            continue
        m = END_RE.search(line)
        if m and current is not None and m.group(1) == current.name:
            current.targz, current.error = _decode(chunks, int(m.group(2)),
                                                   m.group(3))
            current = None
            continue
        m = COUNT_RE.search(line)
        if m and m.group(1) in by_name:
            by_name[m.group(1)].counts[m.group(2)] = int(m.group(3))
            continue
        if current is not None and BASE32_LINE_RE.match(line.strip()):
            chunks.append(line.strip())
    if current is not None:
        current.error = 'cut short: no TRACEDAT-END line'
    return captures


def _decode(chunks, size, md5):
    try:
        data = base64.b32decode(''.join(chunks))
    except binascii.Error as e:
        return b'', f'bad base32: {e}'
    if len(data) != size:
        return b'', f'{len(data)} bytes decoded, the guest sent {size}'
    if hashlib.md5(data).hexdigest() != md5:
        return b'', 'md5 of the decoded data differs from the guest\'s'
    return data, ''


def unpack(targz):
    """{path below the capture's top directory: content} of a capture."""
    files = {}
    with tarfile.open(fileobj=io.BytesIO(targz), mode='r:gz') as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            _, _, rel = member.name.lstrip('./').partition('/')
            files[rel] = tar.extractfile(member).read()
    return files


# ---------------------------------------------------------------------------
# Capture -> trace.dat (version 6)

def field_size(header_page, name):
    """size: of field NAME in a header_page (or event format) text."""
    m = re.search(r'field:[^;]*\b' + re.escape(name) + r';[^\n]*size:(\d+);',
                  header_page.decode('ascii', 'replace'))
    if not m:
        raise ValueError(f'no field {name} in header_page')
    return int(m.group(1))


def cpu_numbers(files):
    cpus = []
    for path in files:
        m = re.fullmatch(r'cpu(\d+)\.raw', path)
        if m:
            cpus.append(int(m.group(1)))
    return sorted(cpus)


def event_formats(files):
    """{system: [format, ...]} sorted by system and event name; empty
    format files are left out."""
    systems = {}
    for path in sorted(files):
        m = re.fullmatch(r'events/([^/]+)/([^/]+)/format', path)
        if m and files[path].strip():
            systems.setdefault(m.group(1), []).append(files[path])
    return systems


class Writer:
    """Numbers in the file's byte order."""

    def __init__(self, big_endian):
        self.order = '>' if big_endian else '<'
        self.buf = bytearray()

    def raw(self, data):
        self.buf += data

    def u16(self, v):
        self.buf += struct.pack(self.order + 'H', v)

    def u32(self, v):
        self.buf += struct.pack(self.order + 'I', v)

    def u64(self, v):
        self.buf += struct.pack(self.order + 'Q', v)

    def sized32(self, data):
        self.u32(len(data))
        self.raw(data)

    def sized64(self, data):
        self.u64(len(data))
        self.raw(data)

    def pad_to(self, align):
        self.buf += bytes(-len(self.buf) % align)


def _cstring(data):
    return data.rstrip(b'\0') + b'\0'


def build_tracedat(files):
    """The bytes of a version 6 trace.dat for the capture FILES (as returned
    by unpack())."""
    big = files.get('endian', b'big').strip() != b'little'
    page_size = int(files.get('subbuf_size', b'4096').strip() or 4096)
    long_size = field_size(files['header_page'], 'commit')
    cpus = cpu_numbers(files)
    systems = event_formats(files)
    ftrace = systems.pop('ftrace', [])

    w = Writer(big)
    # initial format
    w.raw(MAGIC)
    w.raw(FILE_VERSION)
    w.raw(bytes([1 if big else 0, long_size]))
    w.u32(page_size)
    # header info
    w.raw(b'header_page\0')
    w.sized64(files['header_page'])
    w.raw(b'header_event\0')
    w.sized64(files['header_event'])
    # ftrace event formats, then the other systems
    w.u32(len(ftrace))
    for fmt in ftrace:
        w.sized64(fmt)
    w.u32(len(systems))
    for system, formats in sorted(systems.items()):
        w.raw(system.encode() + b'\0')
        w.u32(len(formats))
        for fmt in formats:
            w.sized64(fmt)
    w.sized32(files.get('kallsyms', b''))
    w.sized32(files.get('printk_formats', b''))
    w.sized64(files.get('saved_cmdlines', b''))
    w.u32(len(cpus))
    # options
    w.raw(b'options  \0')
    options = []
    if files.get('trace_clock'):
        options.append((OPTION_TRACECLOCK, _cstring(files['trace_clock'])))
    if files.get('uname'):
        options.append((OPTION_UNAME, _cstring(files['uname'].strip())))
    for cpu in cpus:
        stats = files.get(f'cpu{cpu}.stats', b'')
        options.append((OPTION_CPUSTAT, _cstring(f'CPU: {cpu}\n'.encode() + stats)))
    for option, data in options:
        w.u16(option)
        w.sized32(data)
    w.u16(OPTION_END)
    # per-CPU data, each at a page-aligned offset
    w.raw(b'flyrecord\0')
    data = [files[f'cpu{cpu}.raw'] for cpu in cpus]
    offset = len(w.buf) + 16 * len(cpus)
    for d in data:
        offset += -offset % page_size
        w.u64(offset)
        w.u64(len(d))
        offset += len(d)
    for d in data:
        w.pad_to(page_size)
        w.raw(d)
    return bytes(w.buf)


# ---------------------------------------------------------------------------
# What the guest's text trace and trace-cmd's report say

TEXT_EVENT_RE = re.compile(
    r'^\s*.*-(?P<pid>\d+)\s+\[\d+\]\s+\S+\s+(?P<ts>\d+\.\d+): (?P<rest>.*)$')
REPORT_EVENT_RE = re.compile(
    r'^\s*.*-(?P<pid>\d+)\s+\[\d+\]\s+(?:\S+\s+)?(?P<ts>\d+\.\d+):\s+'
    r'(?P<event>\w+):\s*(?P<rest>.*)$')
GRAPH_LINE_RE = re.compile(r'^\s*\d+\)(?P<dur>[^|]*)\|\s(?P<body>.*)$')
DURATION_RE = re.compile(r'(\d+\.\d+) us')


def _graph_item(kind, body, dur_text):
    """('funcgraph_entry', 'vfs_read', '2.000') style item of one
    function_graph line: a function name for entries, '}' for exits."""
    d = DURATION_RE.search(dur_text)
    dur = d.group(1) if d else ''
    body = body.strip()
    if kind == 'funcgraph_exit':
        return (kind, '}', dur)
    name = re.match(r'[\w.]+', body)
    return (kind, name.group(0) if name else body, dur)


def _graph_kind(body):
    body = body.strip()
    if body.startswith('/*'):
        return 'funcgraph_comment'
    if body.endswith(') {'):
        return 'funcgraph_entry'
    if body.endswith(');'):
        return 'funcgraph_entry'
    if body.startswith('}'):
        return 'funcgraph_exit'
    return 'funcgraph_other'


def text_trace_items(text):
    """Event items of the guest's text trace, in order: (ts, pid, type) for
    trace events, (type, function, duration) for function_graph lines.
    Syscall events are printed without their event name, as
    "sys_read(fd: 3, ...)" (sys_enter_read) and "sys_read -> 0x3"
    (sys_exit_read)."""
    items = []
    for line in text.splitlines():
        if line.startswith('#'):
            continue
        g = GRAPH_LINE_RE.match(line)
        if g:
            kind = _graph_kind(g.group('body'))
            if kind not in UNCOMPARED_TYPES:
                items.append(_graph_item(kind, g.group('body'), g.group('dur')))
            continue
        m = TEXT_EVENT_RE.match(line)
        if not m:
            continue
        rest = m.group('rest')
        if (e := re.match(r'(\w+): ', rest)):
            kind = e.group(1)
        elif (e := re.match(r'sys_(\w+) -> ', rest)):
            kind = 'sys_exit_' + e.group(1)
        elif (e := re.match(r'sys_(\w+)\(', rest)):
            kind = 'sys_enter_' + e.group(1)
        else:
            kind = 'unparsed'
        items.append((m.group('ts'), m.group('pid'), kind))
    return items


def report_items(text):
    """The same items from `trace-cmd report` output."""
    items = []
    for line in text.splitlines():
        m = REPORT_EVENT_RE.match(line)
        if not m:
            continue
        event = m.group('event')
        if event in ('funcgraph_entry', 'funcgraph_exit'):
            dur, _, body = m.group('rest').partition('|')
            items.append(_graph_item(event, body, dur))
        else:
            items.append((m.group('ts'), m.group('pid'), event))
    return items


def report_counts(items):
    """Per-type counts of report items, keyed like the guest's counts
    (a leaf "func();" is one funcgraph_entry and one funcgraph_leaf)."""
    counts = Counter()
    for item in items:
        if item[0].startswith('funcgraph_'):
            counts[item[0]] += 1
            if item[0] == 'funcgraph_entry' and item[2]:
                counts['funcgraph_leaf'] += 1
        else:
            counts[item[2]] += 1
    return counts


def compare_counts(guest, host):
    """Differences between the guest's and the report's counts, as text."""
    diffs = []
    for kind in sorted(set(guest) | set(host)):
        if kind in UNCOMPARED_TYPES:
            continue
        g, h = guest.get(kind, 0), host.get(kind, 0)
        if g != h:
            diffs.append(f'{kind} guest {g} report {h}')
    return diffs


def compare_items(guest, host):
    """'' when the sequences agree, else where they first differ."""
    for i, (g, h) in enumerate(zip(guest, host)):
        if g != h:
            return f'event {i}: guest {g} report {h}'
    if len(guest) != len(host):
        return f'guest has {len(guest)} events, report {len(host)}'
    return ''


# ---------------------------------------------------------------------------
# CLI

def assemble(cap, outdir):
    """Write OUTDIR/NAME.dat; return (path, files) or raise ValueError."""
    if cap.error:
        raise ValueError(cap.error)
    try:
        files = unpack(cap.targz)
        dat = build_tracedat(files)
    except (tarfile.TarError, KeyError, ValueError) as e:
        raise ValueError(f'cannot assemble trace.dat: {e}') from e
    path = os.path.join(outdir, cap.name + '.dat')
    with open(path, 'wb') as f:
        f.write(dat)
    print(f'tracedat: wrote {path} ({len(dat)} bytes, '
          f'{len(cpu_numbers(files))} CPU(s))')
    return path, files


def verify(cap, path, files, trace_cmd):
    """Run trace-cmd report on PATH (saved as NAME.report next to it) and
    compare it with the guest; return '' or why the check fails."""
    if not cap.counts:
        return 'no TRACEDAT-COUNT lines from the guest'
    proc = subprocess.run([trace_cmd, 'report', '-i', path],
                          capture_output=True, text=True, errors='replace')
    with open(os.path.splitext(path)[0] + '.report', 'w') as f:
        f.write(proc.stdout)
    if proc.returncode != 0:
        err = proc.stderr.strip().splitlines()
        return (f'trace-cmd report exited {proc.returncode}: '
                f'{err[-1] if err else "no message"}')
    host = report_items(proc.stdout)
    diffs = compare_counts(cap.counts, report_counts(host))
    if diffs:
        return 'counts differ: ' + '; '.join(diffs[:5]) + \
            (f' (+{len(diffs) - 5} more)' if len(diffs) > 5 else '')
    guest_text = files.get('trace.txt', b'').decode('utf-8', 'replace')
    why = compare_items(text_trace_items(guest_text), host)
    if why:
        return 'report differs from the guest\'s trace: ' + why
    print(f'tracedat: {cap.name}: {len(host)} events, '
          f'{len(cap.counts)} types agree with the guest')
    return ''


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('log', help='console log of guest/tests/tracedat.sh')
    ap.add_argument('outdir', help='where NAME.dat and NAME.report go')
    ap.add_argument('--trace-cmd', default='trace-cmd',
                    help='trace-cmd program (default: from PATH)')
    args = ap.parse_args(argv)

    with open(args.log, encoding='utf-8', errors='replace') as f:
        captures = extract(f.read())
    if not captures:
        print(f'CHECK FAIL tracedat:log: no TRACEDAT capture in {args.log}')
        return 1
    os.makedirs(args.outdir, exist_ok=True)
    have_trace_cmd = shutil.which(args.trace_cmd) is not None
    failed = 0
    for cap in captures:
        name = f'tracedat:{cap.name}'
        try:
            path, files = assemble(cap, args.outdir)
        except ValueError as e:
            print(f'CHECK FAIL {name}: {e}')
            failed += 1
            continue
        if not have_trace_cmd:
            print(f'CHECK SKIP {name}: no {args.trace_cmd} on the host '
                  f'(apt-get install trace-cmd)')
            continue
        why = verify(cap, path, files, args.trace_cmd)
        if why:
            print(f'CHECK FAIL {name}: {why}')
            failed += 1
        else:
            print(f'CHECK PASS {name}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
