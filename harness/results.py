#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The one place where test results are parsed.

Recognised in a console log (any mix, any number of each):
  * kselftest ftracetest runs: "=== Ftrace unit tests ===", then
    "[N] description<TAB>[RESULT]" per case (instance re-runs are
    "[N] (instance)  description" and count as cases of their own), then the
    "# of passed: N" ... summary, which is cross-checked against the cases.
    "FTRACE-REASON [N] text" lines (guest/tests/ftracetest.sh) after a run
    give case N of that run its reason.
  * (K)TAP, as printed by KUnit (nested "# Subtest:" suites; only leaf test
    cases are counted) or by "ftracetest -K".
  * our own check lines: "CHECK PASS name", "CHECK FAIL name: reason",
    "CHECK SKIP name: reason".  A name "group:rest" is counted in suite
    "group", any other name in suite "check".

Verdicts: PASS, XFAIL, "ok" count as passed; FAIL, XPASS, UNDEFINED,
"not ok" as failed; UNSUPPORTED, UNRESOLVED, UNTESTED, "# SKIP" as skipped,
each listed with its reason.  UNRESOLVED is a case that could not decide
(no checkbashisms in the guest, a uniprocessor machine for a cpumask
test): ftracetest itself does not fail on it unless --fail-unresolved.
Inconsistencies (summary mismatch, a run or case cut short, an unreadable
log) are reported as failed cases of suite "errors".

CLI:
  results.py summarize LOG...   per-suite table, every failure and skip, and
                                "N passed, N failed, N skipped"; exit 1 if
                                anything failed or no test case was found
  results.py from-unittest [FILE] [--prefix P]
                                turn `python3 -m unittest -v` output (FILE or
                                stdin) into CHECK lines named P:Class.test
"""

import argparse
import re
import sys
from collections import OrderedDict
from dataclasses import dataclass

PASS, FAIL, SKIP = 'pass', 'fail', 'skip'

FTRACE_VERDICTS = {
    'PASS': PASS, 'XFAIL': PASS,
    'FAIL': FAIL, 'XPASS': FAIL, 'UNDEFINED': FAIL, 'UNRESOLVED': SKIP,
    'UNSUPPORTED': SKIP, 'UNTESTED': SKIP,
}
# "# of <key>: N" summary line -> the result word it counts.
FTRACE_SUMMARY_KEYS = {
    'passed': 'PASS', 'failed': 'FAIL', 'unresolved': 'UNRESOLVED',
    'untested': 'UNTESTED', 'unsupported': 'UNSUPPORTED', 'xfailed': 'XFAIL',
    'undefined(test bug)': 'UNDEFINED',
}

KERNEL_TIMESTAMP = re.compile(r'^\[\s*\d+\.\d+\] ?')
ANSI_ESCAPE = re.compile(r'\x1b\[[0-9;]*[A-Za-z]')
FTRACE_HEADER = re.compile(r'^=== Ftrace unit tests ===')
FTRACE_CASE = re.compile(r'^\[(\d+)\](.*)$')
FTRACE_RESULT = re.compile(r'\t\[(' + '|'.join(FTRACE_VERDICTS) + r')\]\s*$')
FTRACE_SUMMARY = re.compile(r'^# of ([a-z() ]+):\s*(\d+)\s*$')
# guest/tests/ftracetest.sh: why case N did not pass, from its own log.
FTRACE_REASON = re.compile(r'^FTRACE-REASON \[(\d+)\] (.*?)\s*$')
# With -vvv the first xtrace line of a case lands on its name line.
FTRACE_XTRACE_TAIL = re.compile(r'\+ checkreq .*$')
TAP_HEADER = re.compile(r'^\s*K?TAP version \d+')
TAP_RESULT = re.compile(r'^(\s*)(ok|not ok)\s+(\d+)\b\s*(?:-\s+)?(.*?)(?:\s+#\s*(.*?))?\s*$')
TAP_SUBTEST = re.compile(r'^(\s*)#\s*Subtest:\s*(.*?)\s*$')
TAP_DIAG = re.compile(r'^(\s*)#\s*(.*?)\s*$')
CHECK_LINE = re.compile(r'^\s*CHECK (PASS|FAIL|SKIP)\s+(.*?)\s*$')


@dataclass
class Case:
    suite: str
    name: str
    verdict: str      # PASS, FAIL or SKIP
    result: str       # the raw result word (PASS, XFAIL, not ok, ...)
    reason: str = ''
    source: str = ''  # log file


def clean_lines(text):
    """Console text -> lines without CR, colour escapes and printk times."""
    out = []
    for line in text.replace('\r', '').split('\n'):
        line = ANSI_ESCAPE.sub('', line)
        out.append(KERNEL_TIMESTAMP.sub('', line))
    return out


def error(msg, source=''):
    return Case('errors', msg, FAIL, 'ERROR', '', source)


def parse_ftracetest(lines, source=''):
    """Cases of every ftracetest run in lines, plus consistency errors."""
    cases, runs = [], 0
    run = None   # dict(no, expect, open, counts, summary, cases)

    def close_case(reason):
        if run and run['open']:
            no, name = run['open']
            run['cases'].append(Case('ftracetest', f'[{no}] {name}', FAIL,
                                     'NORESULT', reason, source))
            run['open'] = None

    def close_run():
        if run is None:
            return
        close_case('no result: the run stopped in this case')
        cases.extend(run['cases'])
        tag = f'ftracetest run {run["no"]}'
        if not run['summary']:
            cases.append(error(f'{tag}: no "# of passed" summary (run cut short?)', source))
            return
        for key, word in FTRACE_SUMMARY_KEYS.items():
            said = run['summary'].get(key)
            got = run['counts'].get(word, 0)
            if said is None:
                cases.append(error(f'{tag}: summary has no "# of {key}" line', source))
            elif said != got:
                cases.append(error(f'{tag}: summary says {said} {key}, '
                                   f'the log shows {got} {word} cases', source))

    for line in lines:
        if FTRACE_HEADER.match(line):
            close_run()
            runs += 1
            run = dict(no=runs, expect=1, open=None, counts={}, summary={}, cases=[])
            continue
        if run is None:
            continue
        m = FTRACE_SUMMARY.match(line)
        if m and m.group(1) in FTRACE_SUMMARY_KEYS:
            close_case('no result before the summary')
            run['summary'][m.group(1)] = int(m.group(2))
            continue
        m = FTRACE_REASON.match(line)
        if m:
            for c in run['cases']:
                if c.name.startswith(f'[{m.group(1)}] ') and not c.reason:
                    c.reason = m.group(2)
            continue
        m = FTRACE_CASE.match(line)
        if m and int(m.group(1)) == run['expect'] and not run['summary']:
            close_case('no result: the next case started')
            run['expect'] += 1
            rest = m.group(2)
            name = FTRACE_RESULT.sub('', FTRACE_XTRACE_TAIL.sub('', rest)).strip()
            name = re.sub(r'\s+', ' ', name)
            if run['no'] > 1:
                name += f' (run {run["no"]})'
            run['open'] = (int(m.group(1)), name)
            line = rest
        if run['open']:
            r = FTRACE_RESULT.search(line)
            if r:
                no, name = run['open']
                word = r.group(1)
                run['counts'][word] = run['counts'].get(word, 0) + 1
                run['cases'].append(Case('ftracetest', f'[{no}] {name}',
                                         FTRACE_VERDICTS[word], word, '', source))
                run['open'] = None
    close_run()
    return cases


def parse_tap(lines, source=''):
    """Leaf test cases of (K)TAP documents (KUnit, ftracetest -K)."""
    cases = []
    in_doc = False
    seen = {}      # indent -> results seen at that indent since a shallower one
    failed = {}    # indent -> failed leaves seen at that indent
    names = {}     # indent -> "# Subtest:" name
    diag = {}      # indent -> last diagnostic line

    def drop_deeper(indent):
        for d in (seen, failed, names, diag):
            for k in [k for k in d if k > indent]:
                del d[k]

    for line in lines:
        if TAP_HEADER.match(line):
            in_doc = True
            continue
        if not in_doc:
            continue
        m = TAP_SUBTEST.match(line)
        if m:
            ind = len(m.group(1))
            drop_deeper(ind)
            names[ind] = m.group(2)
            continue
        m = TAP_RESULT.match(line)
        if not m:
            m = TAP_DIAG.match(line)
            if m and m.group(2) and not m.group(2).startswith(('module:', 'Totals:')):
                diag[len(m.group(1))] = m.group(2)
            continue
        ind = len(m.group(1))
        ok = m.group(2) == 'ok'
        name, directive = m.group(4), (m.group(5) or '')
        children = sum(n for k, n in seen.items() if k > ind)
        child_fails = sum(n for k, n in failed.items() if k > ind)
        path = [names[k] for k in sorted(names) if k <= ind]
        suite = 'kunit:' + path[0] if path else 'tap'
        drop_deeper(ind)
        seen[ind] = seen.get(ind, 0) + 1
        if children and (ok or child_fails):
            continue          # a suite: its leaves were counted already
        word = directive.split()[0].upper() if directive else ''
        if word == 'SKIP':
            verdict, result = SKIP, 'SKIP'
        elif word == 'TODO' and not ok:
            verdict, result = SKIP, 'TODO'
        elif word == 'XFAIL' and ok:
            verdict, result = PASS, 'XFAIL'
        elif word == 'XPASS':
            verdict, result = FAIL, 'XPASS'
        else:
            verdict, result = (PASS, 'ok') if ok else (FAIL, 'not ok')
        if verdict == FAIL:
            failed[ind] = failed.get(ind, 0) + 1
        reason = directive[len(word):].strip() if word in ('SKIP', 'TODO') else directive
        if verdict == FAIL and not reason:
            reason = diag.get(ind, '')
        if children:
            name += ' (suite failed, all its cases passed)'
        case_name = '/'.join(path[1:] + [name])
        cases.append(Case(suite, case_name, verdict, result, reason, source))
        diag.pop(ind, None)
    return cases


def parse_checks(lines, source=''):
    cases = []
    for line in lines:
        m = CHECK_LINE.match(line)
        if not m:
            continue
        name, _, reason = m.group(2).partition(': ')
        suite = name.split(':', 1)[0] if ':' in name else 'check'
        cases.append(Case(suite, name, m.group(1).lower(), m.group(1), reason, source))
    return cases


def parse_text(text, source=''):
    lines = clean_lines(text)
    return (parse_ftracetest(lines, source) + parse_tap(lines, source) +
            parse_checks(lines, source))


def parse_files(paths):
    cases = []
    for path in paths:
        try:
            with open(path, encoding='utf-8', errors='replace') as f:
                text = f.read()
        except OSError as e:
            cases.append(error(f'cannot read log: {e}', path))
            continue
        cases.extend(parse_text(text, path))
    return cases


def totals(cases):
    t = {PASS: 0, FAIL: 0, SKIP: 0}
    for c in cases:
        t[c.verdict] += 1
    return t


def totals_line(cases):
    t = totals(cases)
    return f'{t[PASS]} passed, {t[FAIL]} failed, {t[SKIP]} skipped'


def report(cases, out=None):
    """Print the summary; return the exit status (0 only if all is well)."""
    out = out or sys.stdout
    suites = OrderedDict()
    for c in cases:
        suites.setdefault(c.suite, {PASS: 0, FAIL: 0, SKIP: 0})[c.verdict] += 1
    if suites:
        width = max(len('suite'), *(len(s) for s in suites))
        print(f'{"suite":<{width}}  {"passed":>6}  {"failed":>6}  {"skipped":>7}', file=out)
        for s, n in suites.items():
            print(f'{s:<{width}}  {n[PASS]:>6}  {n[FAIL]:>6}  {n[SKIP]:>7}', file=out)
        print(file=out)
    for verdict, label in ((FAIL, 'FAIL'), (SKIP, 'SKIP')):
        for c in cases:
            if c.verdict != verdict:
                continue
            extra = f' [{c.result}]' if c.result not in (label, 'not ok') else ''
            reason = f': {c.reason}' if c.reason else ''
            where = f'  ({c.source})' if c.source else ''
            print(f'{label} {c.suite}: {c.name}{extra}{reason}{where}', file=out)
    if not cases:
        print('results: no test case found in the logs', file=out)
    print(totals_line(cases), file=out)
    t = totals(cases)
    return 1 if t[FAIL] or not cases else 0


UNITTEST_START = re.compile(r'^(\w+) \(([\w.]+)\)')
UNITTEST_STATUS = re.compile(
    r'(?:^|\.\.\. )(ok|FAIL|ERROR|expected failure|unexpected success|skipped (.*))$')
UNITTEST_RAN = re.compile(r'^Ran (\d+) tests? in ')


def unittest_checks(text, prefix='host'):
    """`python3 -m unittest -v` output -> list of CHECK lines."""
    out, pending, ran = [], None, None
    for line in text.splitlines():
        m = UNITTEST_RAN.match(line)
        if m:
            ran = int(m.group(1))
            continue
        m = UNITTEST_START.match(line)
        if m and pending is None:
            # "test_x (module.Class.test_x)" (3.11) or "test_x (module.Class)".
            qual = m.group(2).split('.')
            cls = qual[-2] if qual[-1] == m.group(1) and len(qual) > 1 else qual[-1]
            pending = f'{prefix}:{cls}.{m.group(1)}'
            line = line[m.end():]
        if pending is None:
            continue
        s = UNITTEST_STATUS.search(line.rstrip())
        if not s:
            continue
        status = s.group(1)
        if status in ('ok', 'expected failure'):
            out.append(f'CHECK PASS {pending}')
        elif status.startswith('skipped'):
            out.append(f'CHECK SKIP {pending}: {s.group(2).strip(chr(39))}')
        else:
            out.append(f'CHECK FAIL {pending}: {status}')
        pending = None
    if pending is not None:
        out.append(f'CHECK FAIL {pending}: no result (crashed?)')
    if ran is None:
        out.append(f'CHECK FAIL {prefix}:unittest: no "Ran N tests" line (crashed?)')
    elif ran != len(out):
        out.append(f'CHECK FAIL {prefix}:unittest: ran {ran} tests, parsed {len(out)}')
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    s = sub.add_parser('summarize', help='summarize console logs')
    s.add_argument('logs', nargs='+', metavar='LOG')
    u = sub.add_parser('from-unittest', help='unittest -v output to CHECK lines')
    u.add_argument('file', nargs='?', help='default: stdin')
    u.add_argument('--prefix', default='host')
    args = ap.parse_args(argv)
    if args.cmd == 'summarize':
        return report(parse_files(args.logs))
    text = open(args.file).read() if args.file else sys.stdin.read()
    for line in unittest_checks(text, args.prefix):
        print(line)
    return 0


if __name__ == '__main__':
    sys.exit(main())
