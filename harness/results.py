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

Expectations (harness/expect/UNIT.expect, one file per unit: a log's name
without .log/.out, e.g. foundation for foundation.log and foundation.out)
list every case a unit must report, one per line:
  WORD ID [-- reason]            exactly this case, with this verdict
  each WORD N[-M] GLOB [-- reason]   N (to M) cases whose ID matches GLOB,
                                 each with this verdict
  same-as OTHER                  every line of OTHER.expect (in the same
                                 directory), its "boot:OTHER" read as
                                 "boot:UNIT"; a line of this file with the
                                 same ID (or glob) replaces OTHER's
  # comment
WORD is the raw verdict (PASS, XFAIL, SKIP, UNSUPPORTED, UNRESOLVED,
UNTESTED, TODO, FAIL); anything but PASS needs its reason.  FAIL is a
known failure of someone else's test that fails on the x86_64 anchor
too (its reason says why): the case is counted as skipped, and listed
with that reason; it passing is a difference like any other.  ID is what the log
reports: a check's name, "ftracetest:<description>" (no case number, which
moves when upstream adds a test), "kunit:<suite>/<case>"; a second case of
the same ID is "ID #2".  A case missing, an extra case, or a verdict other
than the expected one is a failed case of suite "expect" naming the unit
and the case; so is a unit that was run with no log or no expectation file.

CLI:
  results.py summarize [--expect DIR --units U,...] LOG...
                                (LOG: a console log, or SUITE.out, the
                                output of qemu-run.sh: the boot verdict)
                                per-suite table, every failure and skip, and
                                "N passed, N failed, N skipped"; exit 1 if
                                anything failed or no test case was found;
                                with --expect, each unit's cases against
                                DIR/UNIT.expect (and each of U,... must have
                                a log); --markdown FILE also writes them
                                as Markdown (--about: what was tested)
  results.py summarize GROUP --and GROUP ...
                                several kernels in one summary: each GROUP
                                is [--about A] --expect DIR --units U LOG...
                                of one kernel, checked against its own DIR;
                                an expectation failure names the kernel
                                (DIR's last component); one totals line
  results.py update-expect DIR LOG...
                                rewrite DIR/UNIT.expect of each unit in the
                                logs to what they show (keeping comments,
                                "each" lines and the reasons of unchanged
                                lines); prints what changed
  results.py from-unittest [FILE] [--prefix P]
                                turn `python3 -m unittest -v` output (FILE or
                                stdin) into CHECK lines named P:Class.test
"""

import argparse
import fnmatch
import os
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
    expected: str = ''  # the expectation's reason for this verdict


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


# a guest script's exit status, or a boot without userland (ColdFire) that
# reached its root mount, which counts as status 0
QEMU_RUN_EXIT = re.compile(
    r'^qemu-run: (?:guest script exited (\d+) |the kernel booted to its root mount )')
# harness/stage.sh's last word on qemu-run's own exit status
STAGE_FAILED = re.compile(r'^==> \[[^]]*\] FAILED \(exit (\d+)\)')


def parse_boot(text, source=''):
    """The boot check of a suite from harness/qemu-run.sh's output
    (SUITE.out): passed only if the guest script exited 0 (or a boot
    without userland reached its root mount), --strict found nothing on
    the console and qemu-run itself exited 0."""
    unit = unit_of(source)
    lines = clean_lines(text)
    said = [ln for ln in lines if ln.startswith('qemu-run:')]
    exits = [QEMU_RUN_EXIT.match(ln) for ln in said]
    exits = [m.group(1) or '0' for m in exits if m]
    strict = [ln for ln in said if ln.startswith('qemu-run: --strict')]
    stage = [m.group(1) for m in map(STAGE_FAILED.match, lines) if m]
    if stage and not strict and exits and exits[-1] == '0':
        why = f'qemu-run exited {stage[-1]} after "{said[-1]}"'
        return [Case('boot', f'boot:{unit}', FAIL, 'FAIL', why, source)]
    if exits and exits[-1] == '0' and not strict:
        return [Case('boot', f'boot:{unit}', PASS, 'PASS', '', source)]
    why = said[-1][len('qemu-run: '):] if said else 'no word from qemu-run'
    return [Case('boot', f'boot:{unit}', FAIL, 'FAIL', why, source)]


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
        if path.endswith('.out'):
            cases.extend(parse_boot(text, path))
        else:
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
            if c.expected:
                reason += f' (expected: {c.expected})'
            where = f'  ({c.source})' if c.source else ''
            print(f'{label} {c.suite}: {c.name}{extra}{reason}{where}', file=out)
    if not cases:
        print('results: no test case found in the logs', file=out)
    print(totals_line(cases), file=out)
    t = totals(cases)
    return 1 if t[FAIL] or not cases else 0


# --- expectations -------------------------------------------------------

EXPECT_WORDS = ('PASS', 'XFAIL', 'SKIP', 'UNSUPPORTED', 'UNRESOLVED',
                'UNTESTED', 'TODO', 'FAIL')
EXPECT_SUFFIX = '.expect'
EACH_COUNT = re.compile(r'^(\d+)(?:-(\d+))?$')
SAME_AS = re.compile(r'^same-as\s+(\S+)$')


@dataclass
class Expect:
    word: str
    key: str          # the case ID, or a glob for "each"
    reason: str = ''
    each: bool = False
    lo: int = 1
    hi: int = 1
    lineno: int = 0


def unit_of(path):
    """foundation.log, foundation.out -> foundation."""
    base = os.path.basename(path)
    for ext in ('.log', '.out'):
        if base.endswith(ext):
            return base[:-len(ext)]
    return base


def by_unit(cases, units=()):
    """OrderedDict unit -> its cases (units first, even without a case)."""
    out = OrderedDict((u, []) for u in units)
    for c in cases:
        if c.source:
            out.setdefault(unit_of(c.source), []).append(c)
    return out


def case_word(c):
    return {'ok': 'PASS', 'not ok': 'FAIL'}.get(c.result, c.result)


def case_keys(cases):
    """[(key, case)] for the cases an expectation covers, in log order."""
    out, seen = [], {}
    for c in cases:
        if c.suite in ('errors', 'expect'):
            continue
        if c.suite == 'ftracetest':
            key = 'ftracetest:' + re.sub(r'^\[\d+\] ', '', c.name)
        elif c.suite.startswith('kunit:'):
            key = f'{c.suite}/{c.name}'
        elif c.suite == 'tap':
            key = f'tap:{c.name}'
        else:
            key = c.name
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            key += f' #{seen[key]}'
        out.append((key, c))
    return out


def parse_expect(text, where=''):
    """Expectation file text -> ([Expect], [error message])."""
    entries, errors, keys = [], [], set()
    for no, raw in enumerate(text.split('\n'), 1):
        line = raw.strip()
        if not line or line.startswith('#') or SAME_AS.match(line):
            continue
        body, _, reason = line.partition(' -- ')
        parts = body.split(None, 1)
        each = parts[0] == 'each'
        if each:
            parts = body.split(None, 3)[1:]
            if len(parts) == 3 and EACH_COUNT.match(parts[1]):
                m = EACH_COUNT.match(parts[1])
                lo = int(m.group(1))
                hi = int(m.group(2) or lo)
                parts = [parts[0], parts[2]]
            else:
                errors.append(f'{where}:{no}: "each WORD N[-M] GLOB" expected')
                continue
        else:
            lo = hi = 1
        if len(parts) != 2 or parts[0] not in EXPECT_WORDS:
            errors.append(f'{where}:{no}: "WORD ID" expected, WORD one of '
                          f'{" ".join(EXPECT_WORDS)}')
            continue
        word, key = parts[0], parts[1].strip()
        if word != 'PASS' and not reason.strip():
            errors.append(f'{where}:{no}: {word} {key}: no "-- reason"')
            continue
        if (each, key) in keys:
            errors.append(f'{where}:{no}: {key} is listed twice')
            continue
        keys.add((each, key))
        entries.append(Expect(word, key, reason.strip(), each, lo, hi, no))
    return entries, errors


def compare(unit, cases, entries):
    """Messages for every difference between a unit's cases and entries."""
    actual = case_keys(cases)
    by_key = dict(actual)
    claimed, out = set(), []
    for e in entries:
        if e.each:
            continue
        c = by_key.get(e.key)
        if c is None:
            out.append(f'{unit}: missing {e.key} (expected {e.word})')
            continue
        claimed.add(e.key)
        word = case_word(c)
        if word != e.word and c.verdict != FAIL:
            out.append(f'{unit}: {e.key}: {word}, expected {e.word}')
    for e in entries:
        if not e.each:
            continue
        hit = [(k, c) for k, c in actual
               if k not in claimed and fnmatch.fnmatchcase(k, e.key)]
        claimed.update(k for k, _ in hit)
        if not e.lo <= len(hit) <= e.hi:
            want = f'{e.lo}' if e.lo == e.hi else f'{e.lo}-{e.hi}'
            out.append(f'{unit}: {len(hit)} cases match {e.key}, expected {want}')
        for k, c in hit:
            if case_word(c) != e.word and c.verdict != FAIL:
                out.append(f'{unit}: {k}: {case_word(c)}, expected {e.word} '
                           f'(each {e.key})')
    for k, c in actual:
        if k not in claimed and c.verdict != FAIL:
            out.append(f'{unit}: unexpected {k} ({case_word(c)})')
    return out


def expect_file(expect_dir, unit):
    return os.path.join(expect_dir, unit + EXPECT_SUFFIX)


def same_as(text):
    """The OTHER units of a file's "same-as OTHER" lines."""
    return [m.group(1) for m in (SAME_AS.match(raw.strip())
                                 for raw in text.split('\n')) if m]


def load_expect(expect_dir, unit):
    """UNIT's expectations, with a "same-as OTHER" line resolved:
    ([Expect], [error message], OTHER or None).  OSError if UNIT has no
    file."""
    path = expect_file(expect_dir, unit)
    with open(path, encoding='utf-8') as f:
        text = f.read()
    entries, errors = parse_expect(text, path)
    others = same_as(text)
    if not others:
        return entries, errors, None
    if len(others) > 1:
        return entries, errors + [f'{path}: more than one same-as line'], others[0]
    other = others[0]
    opath = expect_file(expect_dir, other)
    try:
        with open(opath, encoding='utf-8') as f:
            otext = f.read()
    except OSError:
        return entries, errors + [f'{path}: same-as {other}: no file {opath}'], other
    if same_as(otext):
        return entries, errors + [f'{path}: same-as {other}, which is itself '
                                  'same-as another (one level only)'], other
    base, oerrors = parse_expect(otext, opath)
    mine = {(e.each, e.key) for e in entries}
    merged = []
    for e in base:
        if not e.each and e.key == f'boot:{other}':
            e.key = f'boot:{unit}'
        if (e.each, e.key) not in mine:
            merged.append(e)
    return merged + entries, errors + oerrors, other


def check_expectations(cases, expect_dir, units=()):
    """Failed cases of suite "expect" for every difference; also sets each
    case's expected reason (Case.expected) for the report."""
    out = []

    def fail(msg):
        out.append(Case('expect', msg, FAIL, 'FAIL'))

    for unit, ucases in by_unit(cases, units).items():
        path = expect_file(expect_dir, unit)
        if not ucases:
            fail(f'{unit}: no case in its logs (did it run?)')
            continue
        try:
            entries, errors, _ = load_expect(expect_dir, unit)
        except OSError:
            fail(f'{unit}: no expectation file {path}')
            continue
        for msg in errors:
            fail(msg)
        # a known failure: skipped, with the expectation's reason
        known = {e.key for e in entries if not e.each and e.word == 'FAIL'}
        for k, c in case_keys(ucases):
            if k in known and c.verdict == FAIL:
                c.verdict = SKIP
        for msg in compare(unit, ucases, entries):
            fail(msg)
        reasons = {e.key: e.reason for e in entries if not e.each}
        for k, c in case_keys(ucases):
            c.expected = reasons.get(k, '')
    return out


def update_expect(expect_dir, cases):
    """Rewrite each unit's expectation file to what cases show; return a
    list of the changes."""
    changes = []
    for unit, ucases in by_unit(cases).items():
        path = expect_file(expect_dir, unit)
        try:
            with open(path, encoding='utf-8') as f:
                text = f.read()
            if same_as(text):
                # Not rewritten: the difference may belong in OTHER's file
                # or in this one, which only a person can tell.
                entries, _, other = load_expect(expect_dir, unit)
                for msg in compare(unit, ucases, entries):
                    changes.append(f'{unit}: same-as {other}, not rewritten: {msg}')
                continue
            old = text.rstrip('\n').split('\n')
        except OSError:
            old = [f'# The checks of the {unit} suite (harness/check.sh) and their verdicts.',
                   '# WORD ID [-- reason]; see harness/results.py and README.md.']
        actual = case_keys(ucases)
        entries, _ = parse_expect('\n'.join(old))
        at_line = {e.lineno: e for e in entries}
        globs = [e for e in entries if e.each]
        covered = set()
        for k, _ in actual:
            if any(fnmatch.fnmatchcase(k, g.key) for g in globs):
                covered.add(k)

        def line_for(k, c):
            w = case_word(c)
            if w == 'PASS':
                return f'PASS {k}'
            return f'{w} {k} -- {c.reason or "FIXME: why"}'

        new, placed = [], set()
        by_key = dict(actual)
        for no, raw in enumerate(old, 1):
            e = at_line.get(no)
            if e is None or e.each:
                new.append(raw)
                continue
            c = by_key.get(e.key)
            if c is None:
                changes.append(f'{unit}: - {raw.strip()}')
                continue
            placed.add(e.key)
            if case_word(c) in (e.word, 'FAIL'):
                new.append(raw)
                continue
            text = line_for(e.key, c)
            changes.append(f'{unit}: - {raw.strip()}')
            changes.append(f'{unit}: + {text}')
            new.append(text)
        # new cases go after the line of the case before them in the log
        last = None
        for k, c in actual:
            if k in placed or k in covered:
                last = k
                continue
            if case_word(c) == 'FAIL':
                continue              # a failure is fixed, not expected
            text = line_for(k, c)
            changes.append(f'{unit}: + {text}')
            pos = len(new)
            if last is None:          # the first case: after the header
                pos = next((i for i, raw in enumerate(new)
                            if raw.strip() and not raw.lstrip().startswith('#')),
                           len(new))
            else:
                for i, raw in enumerate(new):
                    e2, _ = parse_expect(raw)
                    if e2 and not e2[0].each and e2[0].key == last:
                        pos = i + 1
                        break
            new.insert(pos, text)
            placed.add(k)
            last = k
        os.makedirs(expect_dir, exist_ok=True)
        with open(path, 'w', encoding='utf-8') as f:
            f.write('\n'.join(new) + '\n')
    return changes


def markdown(cases, about=''):
    """The results as Markdown: a suite table, the kselftest verdicts of
    each kernel, and every case that did not pass with its reason."""
    out = ['# Results of `make check`', '']
    if about:
        out += [about, '']
    t = totals(cases)
    out += [f'**{t[PASS]} passed, {t[FAIL]} failed, {t[SKIP]} skipped.**', '',
            '| suite | passed | failed | skipped |', '|---|---:|---:|---:|']
    suites = OrderedDict()
    for c in cases:
        suites.setdefault(c.suite, {PASS: 0, FAIL: 0, SKIP: 0})[c.verdict] += 1
    for s, n in suites.items():
        out.append(f'| {s} | {n[PASS]} | {n[FAIL]} | {n[SKIP]} |')
    runs = OrderedDict()
    for c in cases:
        if c.suite == 'ftracetest':
            words = runs.setdefault(unit_of(c.source), OrderedDict())
            words[c.result] = words.get(c.result, 0) + 1
    if runs:
        out += ['', '## kselftest ftrace, per kernel', '',
                '| run | ' + ' | '.join(FTRACE_VERDICTS) + ' |',
                '|---|' + '---:|' * len(FTRACE_VERDICTS)]
        for unit, words in runs.items():
            out.append(f'| {unit} | ' +
                       ' | '.join(str(words.get(w, 0)) for w in FTRACE_VERDICTS) + ' |')
    for verdict, title in ((FAIL, 'Failed'), (SKIP, 'Skipped, with the reason')):
        rows = [c for c in cases if c.verdict == verdict]
        if not rows:
            continue
        out += ['', f'## {title}', '', '| where | case | result | reason |',
                '|---|---|---|---|']
        for c in rows:
            why = c.expected or c.reason
            cell = lambda x: x.replace('|', '\\|')  # noqa: E731
            out.append(f'| {unit_of(c.source)} | {cell(c.name)} | {c.result} | {cell(why)} |')
    return '\n'.join(out) + '\n'


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


def summarize_groups(ap, argv):
    """summarize, for one or several groups of logs separated by --and."""
    groups, cur = [], []
    for a in argv[1:]:
        if a == '--and':
            groups.append(cur)
            cur = []
        else:
            cur.append(a)
    groups.append(cur)
    cases, abouts, md = [], [], None
    for g in groups:
        args = ap.parse_args(['summarize'] + g)
        gcases = parse_files(args.logs)
        if args.expect:
            units = [u for u in args.units.split(',') if u]
            exp = check_expectations(gcases, args.expect, units)
            if len(groups) > 1:
                label = os.path.basename(os.path.normpath(args.expect))
                for c in exp:
                    c.name = f'{label}/{c.name}'
            gcases += exp
        elif args.units:
            ap.error('--units goes with --expect')
        cases += gcases
        md = md or args.markdown
        if args.about:
            abouts.append(args.about)
    if md:
        with open(md, 'w', encoding='utf-8') as f:
            f.write(markdown(cases, '\n\n'.join(abouts)))
    return report(cases)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    s = sub.add_parser('summarize', help='summarize console logs')
    s.add_argument('--expect', metavar='DIR', help='expectation files')
    s.add_argument('--units', default='', help='units that must have run')
    s.add_argument('--markdown', metavar='FILE', help='also write the results as Markdown')
    s.add_argument('--about', default='', help='a line for the Markdown: what was tested')
    s.add_argument('logs', nargs='+', metavar='LOG')
    e = sub.add_parser('update-expect', help='expectations from logs')
    e.add_argument('dir', metavar='DIR')
    e.add_argument('logs', nargs='+', metavar='LOG')
    u = sub.add_parser('from-unittest', help='unittest -v output to CHECK lines')
    u.add_argument('file', nargs='?', help='default: stdin')
    u.add_argument('--prefix', default='host')
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ['summarize']:
        return summarize_groups(ap, argv)
    args = ap.parse_args(argv)
    if args.cmd == 'update-expect':
        changes = update_expect(args.dir, parse_files(args.logs))
        for line in changes:
            print(line)
        print(f'update-expect: {len(changes)} line(s) changed in {args.dir}')
        return 0
    text = open(args.file).read() if args.file else sys.stdin.read()
    for line in unittest_checks(text, args.prefix):
        print(line)
    return 0


if __name__ == '__main__':
    sys.exit(main())
