# SPDX-License-Identifier: GPL-2.0
# Unit tests of harness/tracedat.py on synthetic captures and console logs.
# Run: PYTHONDONTWRITEBYTECODE=1 python3 -m unittest discover -s harness/tests \
#        -p 'test_tracedat.py' -v

import base64
import hashlib
import io
import os
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import tracedat  # noqa: E402

T = '\t'
HEADER_PAGE = (
    f'{T}field: u64 timestamp;{T}offset:0;{T}size:8;{T}signed:0;\n'
    f'{T}field: local_t commit;{T}offset:8;{T}size:{{long}};{T}signed:1;\n'
    f'{T}field: int overwrite;{T}offset:8;{T}size:1;{T}signed:1;\n'
    f'{T}field: char data;{T}offset:{{data}};{T}size:{{rest}};{T}signed:0;\n')
HEADER_EVENT = (
    '# compressed entry header\n'
    f'{T}type_len    :    5 bits\n'
    f'{T}time_delta  :   27 bits\n'
    f'{T}array       :   32 bits\n\n'
    f'{T}padding     : type == 29\n'
    f'{T}time_extend : type == 30\n'
    f'{T}time_stamp : type == 31\n'
    f'{T}data max type_len  == 28\n')
COMMON_FIELDS = (
    f'{T}field:unsigned short common_type;{T}offset:0;{T}size:2;{T}signed:0;\n'
    f'{T}field:unsigned char common_flags;{T}offset:2;{T}size:1;{T}signed:0;\n'
    f'{T}field:unsigned char common_preempt_count;{T}offset:3;{T}size:1;{T}signed:0;\n'
    f'{T}field:int common_pid;{T}offset:4;{T}size:4;{T}signed:1;\n\n')


def event_format(name, event_id):
    """A format file of an event with one u32 field "value"."""
    return (f'name: {name}\nID: {event_id}\nformat:\n' + COMMON_FIELDS +
            f'{T}field:unsigned int value;{T}offset:8;{T}size:4;{T}signed:0;\n\n'
            'print fmt: "value=%u", REC->value\n').encode()


def header_page(long_size):
    data = 8 + long_size
    return HEADER_PAGE.format(long=long_size, data=data,
                              rest=4096 - data).encode()


def synthetic_capture(endian='big', long_size=4, raw=None):
    """The files of a capture as tracedat.unpack() returns them."""
    return {
        'header_page': header_page(long_size),
        'header_event': HEADER_EVENT.encode(),
        'endian': endian.encode() + b'\n',
        'subbuf_size': b'4096\n',
        'trace_clock': b'[local] global counter\n',
        'uname': b'Linux guest 6.12.0 #1 m68k GNU/Linux\n',
        'kallsyms': b'00001000 T _stext\n00002000 T ksys_read\n',
        'printk_formats': b'0x7794b1 : "thaw_processes"\n',
        'saved_cmdlines': b'77 synth\n',
        'events/ftrace/function/format': event_format('function', 1),
        'events/ftrace/print/format': event_format('print', 5),
        'events/zsys/beta/format': event_format('beta', 1001),
        'events/asys/hello/format': event_format('hello', 1000),
        'events/asys/empty/format': b'',
        'cpu0.raw': raw if raw is not None else bytes(4096),
        'cpu0.stats': b'entries: 1\n',
        'cpu1.raw': b'',
        'cpu1.stats': b'entries: 0\n',
        'trace.txt': b'# tracer: nop\n',
    }


def hello_page(value, pid=77, ts=1_000_000_000, delta=2000):
    """One big-endian ring-buffer page holding one "hello" event (ID 1000):
    page header (u64 timestamp, u32 commit), then the event header word
    (type_len in the top 5 bits on big endian, time_delta below) and the
    12-byte payload."""
    payload = struct.pack('>HBBiI', 1000, 0, 0, pid, value)
    header = (len(payload) // 4) << 27 | delta
    data = struct.pack('>I', header) + payload
    page = struct.pack('>QI', ts, len(data)) + data
    return page + bytes(4096 - len(page))


class Reader:
    """A minimal reader of the sections of a version 6 trace.dat, written
    from trace-cmd.dat.v6(5), to check what tracedat.py writes."""

    def __init__(self, data):
        self.data, self.pos = data, 0
        self.order = '>'

    def take(self, n):
        chunk = self.data[self.pos:self.pos + n]
        if len(chunk) != n:
            raise EOFError(f'{n} bytes wanted at {self.pos}')
        self.pos += n
        return chunk

    def num(self, fmt):
        return struct.unpack(self.order + fmt, self.take(struct.calcsize(fmt)))[0]

    def cstring(self):
        end = self.data.index(b'\0', self.pos)
        s = self.data[self.pos:end]
        self.pos = end + 1
        return s

    def parse(self):
        out = {}
        out['magic'] = self.take(10)
        out['version'] = self.cstring()
        out['endian'], out['long_size'] = self.take(2)
        self.order = '>' if out['endian'] == 1 else '<'
        out['page_size'] = self.num('I')
        for name in ('header_page', 'header_event'):
            assert self.cstring() == name.encode(), name
            out[name] = self.take(self.num('Q'))
        out['ftrace'] = [self.take(self.num('Q')) for _ in range(self.num('I'))]
        out['systems'] = []
        for _ in range(self.num('I')):
            system = self.cstring().decode()
            formats = [self.take(self.num('Q')) for _ in range(self.num('I'))]
            out['systems'].append((system, formats))
        out['kallsyms'] = self.take(self.num('I'))
        out['printk'] = self.take(self.num('I'))
        out['cmdlines'] = self.take(self.num('Q'))
        out['cpus'] = self.num('I')
        out['options'] = []
        assert self.take(10) == b'options  \0'
        while (option := self.num('H')) != 0:
            out['options'].append((option, self.take(self.num('I'))))
        assert self.take(10) == b'flyrecord\0'
        out['cpu_data'] = [(self.num('Q'), self.num('Q')) for _ in range(out['cpus'])]
        return out


class BuildTest(unittest.TestCase):
    def test_big_endian_header_and_sections(self):
        files = synthetic_capture(raw=b'\xab' * 4096)
        dat = tracedat.build_tracedat(files)
        self.assertEqual(dat[:10], b'\x17\x08\x44tracing')
        self.assertEqual(dat[10:12], b'6\0')
        self.assertEqual(dat[12], 1, 'endian byte: 1 = big')
        self.assertEqual(dat[13], 4, 'long size')
        self.assertEqual(dat[14:18], b'\x00\x00\x10\x00', 'page size, big endian')
        self.assertEqual(dat[18:30], b'header_page\0')
        self.assertEqual(dat[30:38], struct.pack('>Q', len(files['header_page'])))

        f = Reader(dat).parse()
        self.assertEqual(f['header_page'], files['header_page'])
        self.assertEqual(f['header_event'], files['header_event'])
        # ftrace formats sorted by event, other systems sorted, empty left out
        self.assertEqual(f['ftrace'], [files['events/ftrace/function/format'],
                                       files['events/ftrace/print/format']])
        self.assertEqual([s for s, _ in f['systems']], ['asys', 'zsys'])
        self.assertEqual(f['systems'][0][1], [files['events/asys/hello/format']])
        self.assertEqual(f['kallsyms'], files['kallsyms'])
        self.assertEqual(f['printk'], files['printk_formats'])
        self.assertEqual(f['cmdlines'], files['saved_cmdlines'])
        self.assertEqual(f['cpus'], 2)
        options = dict(f['options'])
        self.assertEqual(options[tracedat.OPTION_TRACECLOCK],
                         b'[local] global counter\n\0')
        self.assertEqual(options[tracedat.OPTION_UNAME],
                         b'Linux guest 6.12.0 #1 m68k GNU/Linux\0')
        self.assertEqual(sum(1 for o, _ in f['options']
                             if o == tracedat.OPTION_CPUSTAT), 2)
        # per-CPU data: page aligned, the right size, the raw bytes
        (off0, size0), (off1, size1) = f['cpu_data']
        self.assertEqual(off0 % 4096, 0)
        self.assertEqual(size0, 4096)
        self.assertEqual(dat[off0:off0 + size0], b'\xab' * 4096)
        self.assertEqual(size1, 0)
        self.assertEqual(len(dat), off0 + size0)

    def test_data_starts_after_the_header(self):
        dat = tracedat.build_tracedat(synthetic_capture())
        r = Reader(dat)
        f = r.parse()
        header_end = r.pos
        self.assertGreaterEqual(f['cpu_data'][0][0], header_end)
        self.assertLess(f['cpu_data'][0][0] - header_end, 4096)

    def test_little_endian(self):
        dat = tracedat.build_tracedat(synthetic_capture(endian='little'))
        self.assertEqual(dat[12], 0)
        self.assertEqual(dat[14:18], b'\x00\x10\x00\x00')
        f = Reader(dat).parse()
        self.assertEqual(f['cpus'], 2)
        self.assertEqual(f['kallsyms'], synthetic_capture()['kallsyms'])

    def test_long_size_from_header_page(self):
        dat = tracedat.build_tracedat(synthetic_capture(long_size=8))
        self.assertEqual(dat[13], 8)

    def test_missing_header_page_is_an_error(self):
        files = synthetic_capture()
        files['header_page'] = b'nothing useful\n'
        with self.assertRaises(ValueError):
            tracedat.build_tracedat(files)


def pack(name, files):
    """A capture as the guest packs it: tar.gz with NAME/ at the top."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode='w:gz') as tar:
        for path, content in files.items():
            info = tarfile.TarInfo(f'{name}/{path}')
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
    return buf.getvalue()


def console(name, targz, counts, noise=True, md5=None, end=True):
    """Console lines of one capture, base32 in 76-column lines (as busybox
    base32 prints it), CRLF line ends and (with NOISE) kernel messages
    between them."""
    b32 = base64.b32encode(targz).decode()
    chunks = [b32[i:i + 76] for i in range(0, len(b32), 76)]
    lines = [f'TRACEDAT-BEGIN {name}']
    for i, chunk in enumerate(chunks):
        lines.append(chunk)
        if noise and i == 1:
            lines.append('[   12.345678] random: crng init done')
    if end:
        lines.append(f'TRACEDAT-END {name} {len(targz)} '
                     f'{md5 or hashlib.md5(targz).hexdigest()}')
    lines += [f'TRACEDAT-COUNT {name} {k} {v}' for k, v in counts.items()]
    return '\r\n'.join(lines) + '\r\n'


class ExtractTest(unittest.TestCase):
    def setUp(self):
        self.files = synthetic_capture(raw=os.urandom(4096))
        self.targz = pack('events', self.files)

    def test_roundtrip_with_noise(self):
        log = ('Run /init as init process\r\n' +
               console('events', self.targz, {'sched_switch': 3, 'sys_enter_read': 1}) +
               'CHECK PASS tracedat-raw-events\r\nHARNESS-EXIT: 0\r\n')
        caps = tracedat.extract(log)
        self.assertEqual(len(caps), 1)
        cap = caps[0]
        self.assertEqual(cap.error, '')
        self.assertEqual(cap.name, 'events')
        self.assertEqual(cap.targz, self.targz)
        self.assertEqual(cap.counts, {'sched_switch': 3, 'sys_enter_read': 1})
        self.assertEqual(tracedat.unpack(cap.targz), self.files)

    def test_two_captures_and_a_corrupt_one(self):
        bad = console('graph', self.targz, {}, md5='0' * 32)
        log = console('events', self.targz, {'a': 1}) + bad + \
            console('cut', self.targz, {}, end=False)
        caps = tracedat.extract(log)
        self.assertEqual([c.name for c in caps], ['events', 'graph', 'cut'])
        self.assertEqual(caps[0].error, '')
        self.assertIn('md5', caps[1].error)
        self.assertEqual(caps[1].targz, b'')
        self.assertIn('cut short', caps[2].error)

    def test_lost_line_is_detected(self):
        text = console('events', self.targz, {}, noise=False).split('\r\n')
        del text[3]
        caps = tracedat.extract('\r\n'.join(text))
        self.assertNotEqual(caps[0].error, '')

    def test_no_capture(self):
        self.assertEqual(tracedat.extract('just a boot log\nHARNESS-EXIT: 0\n'), [])


GUEST_TRACE = '''\
# tracer: nop
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
              sh-1381    [000] .....    30.876491: sys_write -> 0x2
              sh-1381    [000] .....    30.876699: sys_dup2(oldfd: b, newfd: 1)
              sh-1381    [000] d....    30.877000: sched_switch: prev_comm=sh prev_pid=1381
              sh-1381    [000] .....    30.877100: sys_getpid()
 0)               |  ksys_read() {
 0)   9.000 us    |    fdget_pos();
 0) + 11.000 us   |  }
 0)   ==========> |
'''
REPORT = '''\
cpus=1
              sh-1381  [000]    30.876491: sys_exit_write:       0x2
              sh-1381  [000]    30.876699: sys_enter_dup2:       oldfd: 0x000b, newfd: 0x0001
              sh-1381  [000]    30.877000: sched_switch:         sh:1381 [120] R ==> x:1 [120]
              sh-1381  [000]    30.877100: sys_enter_getpid:
              dd-3014  [000]    38.265687: funcgraph_entry:                   |  ksys_read() {
              dd-3014  [000]    38.265709: funcgraph_entry:        9.000 us   |    fdget_pos();
              dd-3014  [000]    38.265841: funcgraph_exit:       + 11.000 us  |  }
'''


class CompareTest(unittest.TestCase):
    def test_guest_and_report_items_agree(self):
        guest = tracedat.text_trace_items(GUEST_TRACE)
        host = tracedat.report_items(REPORT)
        self.assertEqual(guest[:4], [
            ('30.876491', '1381', 'sys_exit_write'),
            ('30.876699', '1381', 'sys_enter_dup2'),
            ('30.877000', '1381', 'sched_switch'),
            ('30.877100', '1381', 'sys_enter_getpid')])
        self.assertEqual(guest[4:], [
            ('funcgraph_entry', 'ksys_read', ''),
            ('funcgraph_entry', 'fdget_pos', '9.000'),
            ('funcgraph_exit', '}', '11.000')])
        self.assertEqual(tracedat.compare_items(guest, host), '')

    def test_counts(self):
        counts = tracedat.report_counts(tracedat.report_items(REPORT))
        guest = {'sys_exit_write': 1, 'sys_enter_dup2': 1, 'sched_switch': 1,
                 'sys_enter_getpid': 1, 'funcgraph_entry': 2,
                 'funcgraph_leaf': 1, 'funcgraph_exit': 1, 'funcgraph_other': 1}
        self.assertEqual(tracedat.compare_counts(guest, counts), [])
        guest['sched_switch'] = 2
        self.assertEqual(tracedat.compare_counts(guest, counts),
                         ['sched_switch guest 2 report 1'])

    def test_first_difference_is_named(self):
        guest = tracedat.text_trace_items(GUEST_TRACE)
        host = tracedat.report_items(REPORT.replace('30.877000', '30.877001'))
        self.assertIn('event 2', tracedat.compare_items(guest, host))
        host = tracedat.report_items(REPORT)
        self.assertEqual(tracedat.compare_items(guest, host[:-1]),
                         'guest has 7 events, report 6')


@unittest.skipUnless(shutil.which('trace-cmd'), 'no trace-cmd on the host')
class TraceCmdTest(unittest.TestCase):
    """The host's trace-cmd reads a synthetic big-endian file."""

    def run_cli(self, log_text):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, 'console.log')
            with open(log, 'w') as f:
                f.write(log_text)
            buf = io.StringIO()
            with redirect_stdout(buf):
                rc = tracedat.main([log, os.path.join(d, 'out')])
            return rc, buf.getvalue()

    def test_report_of_one_event(self):
        files = synthetic_capture(raw=hello_page(0x12345678))
        with tempfile.NamedTemporaryFile(suffix='.dat') as f:
            f.write(tracedat.build_tracedat(files))
            f.flush()
            out = subprocess.run(['trace-cmd', 'report', '-i', f.name],
                                 capture_output=True, text=True, check=True).stdout
        self.assertRegex(out, r'synth-77 +\[000\] +1\.000002: hello: +value=305419896')

    def test_cli_pass_and_fail(self):
        files = synthetic_capture(raw=hello_page(7))
        files['trace.txt'] = (b'# tracer: nop\n'
                              b'  synth-77  [000] .....  1.000002: hello: value=7\n')
        targz = pack('one', files)
        rc, out = self.run_cli(console('one', targz, {'hello': 1}))
        self.assertEqual(rc, 0, out)
        self.assertIn('CHECK PASS tracedat:one', out)
        rc, out = self.run_cli(console('one', targz, {'hello': 2}))
        self.assertEqual(rc, 1)
        self.assertIn('CHECK FAIL tracedat:one: counts differ: hello guest 2 report 1', out)


if __name__ == '__main__':
    unittest.main()
