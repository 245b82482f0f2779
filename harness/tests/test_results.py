# SPDX-License-Identifier: GPL-2.0
# Unit tests of harness/results.py on synthetic console logs.
# Run: python3 -m unittest discover -v -s harness/tests  (or harness/host-tests.sh)

import io
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import results  # noqa: E402

T = '\t'


def ftrace_log(case_lines, summary):
    """An ftracetest console run: header, case lines, "# of" summary."""
    keys = ['passed', 'failed', 'unresolved', 'untested', 'unsupported',
            'xfailed', 'undefined(test bug)']
    out = ['=== Ftrace unit tests ==='] + case_lines + ['']
    out += [f'# of {k}:  {summary.get(k, 0)}' for k in keys]
    return '\n'.join(out) + '\n'


def run_cli(args):
    buf = io.StringIO()
    with redirect_stdout(buf):
        rc = results.main(args)
    return rc, buf.getvalue()


def by_verdict(cases, verdict):
    return [c.name for c in cases if c.verdict == verdict]


class FtracetestTest(unittest.TestCase):
    MIX = [
        f'[1] Basic trace file check{T}[PASS]',
        f'[2] Basic test for tracers{T}[FAIL]',
        'execute: /opt/ftrace/test.d/00basic/basic2.tc',
        '+ checkreq /opt/ftrace/test.d/00basic/basic2.tc',
        f'[3] Kprobe dynamic event{T}[UNSUPPORTED]',
        f'[4] Expected failure{T}[XFAIL]',
        f'[5] Interrupted case{T}[UNRESOLVED]',
        f'[6] Never run{T}[UNTESTED]',
        f'[7] (instance)  Basic test for tracers{T}[PASS]',
    ]
    MIX_SUMMARY = dict(passed=2, failed=1, unresolved=1, untested=1,
                       unsupported=1, xfailed=1)

    def test_mix_of_results(self):
        cases = results.parse_text(ftrace_log(self.MIX, self.MIX_SUMMARY))
        self.assertEqual(len(cases), 7)
        self.assertEqual(results.totals(cases), {'pass': 3, 'fail': 1, 'skip': 3})
        self.assertEqual(by_verdict(cases, 'fail'), ['[2] Basic test for tracers'])
        self.assertEqual(by_verdict(cases, 'skip'),
                         ['[3] Kprobe dynamic event', '[5] Interrupted case',
                          '[6] Never run'])
        self.assertEqual({c.suite for c in cases}, {'ftracetest'})
        self.assertEqual([c.result for c in cases],
                         ['PASS', 'FAIL', 'UNSUPPORTED', 'XFAIL', 'UNRESOLVED',
                          'UNTESTED', 'PASS'])

    def test_instance_reruns_are_separate_cases(self):
        lines = [f'[1] Basic test for tracers{T}[PASS]',
                 f'[2] (instance)  Basic test for tracers{T}[PASS]']
        cases = results.parse_text(ftrace_log(lines, dict(passed=2)))
        self.assertEqual([c.name for c in cases],
                         ['[1] Basic test for tracers',
                          '[2] (instance) Basic test for tracers'])
        self.assertEqual(results.totals(cases)['pass'], 2)

    def test_summary_mismatch_is_an_error(self):
        lines = [f'[1] A{T}[PASS]', f'[2] B{T}[FAIL]']
        cases = results.parse_text(ftrace_log(lines, dict(passed=2, failed=1)))
        errors = [c for c in cases if c.suite == 'errors']
        self.assertEqual(len(errors), 1)
        self.assertIn('summary says 2 passed', errors[0].name)
        self.assertEqual(errors[0].verdict, 'fail')
        self.assertEqual(results.totals(cases), {'pass': 1, 'fail': 2, 'skip': 0})

    def test_consistent_summary_has_no_error(self):
        cases = results.parse_text(ftrace_log(self.MIX, self.MIX_SUMMARY))
        self.assertFalse([c for c in cases if c.suite == 'errors'])

    def test_run_cut_short(self):
        text = ('=== Ftrace unit tests ===\n'
                f'[1] A{T}[PASS]\n'
                '[2] Kprobe event with comm arguments+ checkreq /x.tc\n'
                'Kernel panic - not syncing: Fatal exception\n')
        cases = results.parse_text(text)
        self.assertEqual(results.totals(cases), {'pass': 1, 'fail': 2, 'skip': 0})
        stuck = [c for c in cases if c.result == 'NORESULT']
        self.assertEqual(stuck[0].name, '[2] Kprobe event with comm arguments')
        self.assertTrue(any('no "# of passed" summary' in c.name for c in cases))

    def test_verbose_output_between_name_and_result(self):
        lines = ['[1] Basic trace file check+ checkreq /opt/ftrace/test.d/basic1.tc',
                 "+ grep '^#[ \\t]*requires:' /opt/ftrace/test.d/basic1.tc",
                 '[1] not a case: wrong number, inside the output',
                 f'{T}[PASS]',
                 '[2] Second+ checkreq /opt/ftrace/test.d/basic2.tc',
                 f'some output without newline{T}[FAIL]']
        cases = results.parse_text(ftrace_log(lines, dict(passed=1, failed=1)))
        self.assertEqual([(c.name, c.result) for c in cases],
                         [('[1] Basic trace file check', 'PASS'), ('[2] Second', 'FAIL')])

    def test_console_noise(self):
        text = ('[    0.000000] Linux version 6.12\r\n'
                '=== Ftrace unit tests ===\r\n'
                '[    5.123456] random: crng init done\n'
                f'[1] \x1b[32mColoured\x1b[0m{T}[\x1b[32mPASS\x1b[0m]\r\n'
                '[   12.5] ignored\n'
                '# of passed:  1\n# of failed:  0\n# of unresolved:  0\n'
                '# of untested:  0\n# of unsupported:  0\n# of xfailed:  0\n'
                '# of undefined(test bug):  0\n')
        cases = results.parse_text(text)
        self.assertEqual([(c.name, c.verdict) for c in cases], [('[1] Coloured', 'pass')])

    def test_reasons_from_case_logs(self):
        text = (ftrace_log([f'[1] A{T}[PASS]', f'[2] B{T}[UNSUPPORTED]', f'[3] C{T}[FAIL]'],
                           dict(passed=1, unsupported=1, failed=1)) +
                'FTRACE-REASON [2] kprobe_events not found\n'
                'FTRACE-LOG [3] + echo 1\n'
                'FTRACE-REASON [3] sh: write error: Invalid argument\n')
        cases = results.parse_text(text)
        self.assertEqual([c.reason for c in cases],
                         ['', 'kprobe_events not found', 'sh: write error: Invalid argument'])

    def test_two_runs_in_one_log(self):
        text = (ftrace_log([f'[1] A{T}[PASS]'], dict(passed=1)) +
                ftrace_log([f'[1] B{T}[FAIL]'], dict(failed=1)))
        cases = results.parse_text(text)
        self.assertEqual([c.name for c in cases], ['[1] A', '[1] B (run 2)'])
        self.assertFalse([c for c in cases if c.suite == 'errors'])


KUNIT = """\
KTAP version 1
1..2
    KTAP version 1
    # Subtest: example
    # module: kunit_example_test
    1..4
    ok 1 example_simple_test
    # example_fail_test: EXPECTATION FAILED at lib/kunit/example.c:25
    Expected 1 == 2
    not ok 2 example_fail_test
    ok 3 example_skip_test # SKIP this test should be skipped
        KTAP version 1
        # Subtest: example_params_test
        ok 1 example value 3 # SKIP unsupported param value 3
        ok 2 example value 2
        not ok 3 example value 1
        # example_params_test: pass:1 fail:1 skip:1 total:3
    not ok 4 example_params_test
# example: pass:1 fail:2 skip:1 total:4
not ok 1 example
    KTAP version 1
    # Subtest: other
    1..1
    ok 1 other_test
ok 2 other
# Totals: pass:3 fail:2 skip:2 total:7
"""


class TapTest(unittest.TestCase):
    def test_kunit_nested_leaf_cases(self):
        cases = results.parse_text(KUNIT)
        self.assertEqual(
            [(c.suite, c.name, c.verdict) for c in cases],
            [('kunit:example', 'example_simple_test', 'pass'),
             ('kunit:example', 'example_fail_test', 'fail'),
             ('kunit:example', 'example_skip_test', 'skip'),
             ('kunit:example', 'example_params_test/example value 3', 'skip'),
             ('kunit:example', 'example_params_test/example value 2', 'pass'),
             ('kunit:example', 'example_params_test/example value 1', 'fail'),
             ('kunit:other', 'other_test', 'pass')])
        self.assertEqual(cases[1].reason,
                         'example_fail_test: EXPECTATION FAILED at lib/kunit/example.c:25')
        self.assertEqual(cases[2].reason, 'this test should be skipped')

    def test_kunit_with_printk_timestamps(self):
        text = '\n'.join(f'[    1.{i:06d}] {line}'
                         for i, line in enumerate(KUNIT.splitlines()))
        self.assertEqual(results.totals(results.parse_text(text)),
                         {'pass': 3, 'fail': 2, 'skip': 2})

    def test_failed_suite_without_failed_case(self):
        text = ('KTAP version 1\n1..1\n    # Subtest: s\n    1..1\n'
                '    ok 1 a\n# s: suite_exit failed\nnot ok 1 s\n')
        cases = results.parse_text(text)
        self.assertEqual([c.verdict for c in cases], ['pass', 'fail'])
        self.assertIn('suite failed', cases[1].name)

    def test_ok_lines_outside_tap_are_ignored(self):
        self.assertEqual(results.parse_text('ok 1 looks like tap\nnot ok 2 x\n'), [])

    def test_ftracetest_ktap_mode(self):
        text = ('TAP version 13\n1..3\nnot ok 1 Basic trace file check\n'
                'ok 2 Test tracefs GID mount option # SKIP\n'
                'ok 3 (instance) Basic test # XFAIL\n'
                '# Totals: pass:0 fail:1 xfail:1 xpass:0 skip:1 error:0\n')
        cases = results.parse_text(text)
        self.assertEqual([(c.name, c.verdict, c.result) for c in cases],
                         [('Basic trace file check', 'fail', 'not ok'),
                          ('Test tracefs GID mount option', 'skip', 'SKIP'),
                          ('(instance) Basic test', 'pass', 'XFAIL')])


class CheckLineTest(unittest.TestCase):
    def test_check_lines(self):
        text = ('CHECK PASS recordmcount: all sites found\n'
                'CHECK FAIL patching: site 0x1234 still calls _mcount\n'
                'CHECK SKIP host:TestX.test_y: needs root\n'
                'CHECK PASS plain\n'
                'echo CHECK PASS not at line start\n')
        cases = results.parse_text(text)
        self.assertEqual([(c.suite, c.name, c.verdict, c.reason) for c in cases],
                         [('check', 'recordmcount', 'pass', 'all sites found'),
                          ('check', 'patching', 'fail', 'site 0x1234 still calls _mcount'),
                          ('host', 'host:TestX.test_y', 'skip', 'needs root'),
                          ('check', 'plain', 'pass', '')])


class CliTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, 'w') as f:
            f.write(text)
        return path

    def test_summarize_all_passing(self):
        a = self.write('a.log', ftrace_log([f'[1] A{T}[PASS]', f'[2] B{T}[UNSUPPORTED]'],
                                           dict(passed=1, unsupported=1)))
        b = self.write('b.log', 'CHECK PASS host:x\n')
        rc, out = run_cli(['summarize', a, b])
        self.assertEqual(rc, 0)
        self.assertEqual(out.splitlines()[-1], '2 passed, 0 failed, 1 skipped')
        self.assertIn('SKIP ftracetest: [2] B [UNSUPPORTED]', out)
        self.assertRegex(out, r'(?m)^ftracetest\s+1\s+0\s+1$')
        self.assertRegex(out, r'(?m)^host\s+1\s+0\s+0$')

    def test_summarize_lists_failures(self):
        a = self.write('a.log', 'CHECK FAIL boot: no marker\nCHECK SKIP x: y\n')
        rc, out = run_cli(['summarize', a])
        self.assertEqual(rc, 1)
        self.assertIn('FAIL check: boot: no marker', out)
        self.assertIn('SKIP check: x: y', out)
        self.assertEqual(out.splitlines()[-1], '0 passed, 1 failed, 1 skipped')

    def test_empty_log_fails(self):
        rc, out = run_cli(['summarize', self.write('empty.log', '')])
        self.assertEqual(rc, 1)
        self.assertIn('no test case found', out)
        self.assertEqual(out.splitlines()[-1], '0 passed, 0 failed, 0 skipped')

    def test_missing_log_fails(self):
        rc, out = run_cli(['summarize', os.path.join(self.dir.name, 'nope.log')])
        self.assertEqual(rc, 1)
        self.assertIn('cannot read log', out)
        self.assertEqual(out.splitlines()[-1], '0 passed, 1 failed, 0 skipped')


class UnittestConversionTest(unittest.TestCase):
    def test_verbose_output_to_checks(self):
        text = ('test_a (test_results.FooTest.test_a) ... ok\n'
                'test_b (test_results.FooTest) ... FAIL\n'
                'test_c (test_results.FooTest.test_c) ... ERROR\n'
                "test_d (test_results.FooTest.test_d) ... skipped 'no qemu'\n"
                'test_e (test_results.FooTest.test_e)\nA docstring ... expected failure\n'
                '\n' + '-' * 70 + '\nRan 5 tests in 0.01s\n\nFAILED (failures=1, errors=1)\n')
        self.assertEqual(results.unittest_checks(text),
                         ['CHECK PASS host:FooTest.test_a',
                          'CHECK FAIL host:FooTest.test_b: FAIL',
                          'CHECK FAIL host:FooTest.test_c: ERROR',
                          'CHECK SKIP host:FooTest.test_d: no qemu',
                          'CHECK PASS host:FooTest.test_e'])

    def test_count_mismatch_and_crash(self):
        text = 'test_a (m.C.test_a) ... ok\nRan 2 tests in 0.1s\n'
        self.assertEqual(results.unittest_checks(text)[-1],
                         'CHECK FAIL host:unittest: ran 2 tests, parsed 1')
        self.assertEqual(results.unittest_checks('Traceback (most recent call last):\n'),
                         ['CHECK FAIL host:unittest: no "Ran N tests" line (crashed?)'])



KTAP_OK = ('KTAP version 1\n1..1\n    # Subtest: example\n    1..1\n'
           '    ok 1 one\nok 1 example\n')


class ExpectTest(unittest.TestCase):
    """Every rule of the expectations: each difference is a failure."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.exp = os.path.join(self.dir, 'expect')
        os.mkdir(self.exp)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, 'w') as f:
            f.write(text)
        return path

    def expect(self, unit, text):
        self.write(os.path.join('expect', unit + '.expect'), text)

    def boot_out(self, unit, rc=0, strict=False):
        text = f'==> [check:{unit}]\nqemu-run: guest script exited {rc} after 9s\n'
        if strict:
            text += 'qemu-run: --strict: the console shows 1 kernel problem line(s)\n'
        if rc or strict:
            text += f'==> [check:{unit}] FAILED (exit {rc or 1}) after 9s\n'
        else:
            text += f'==> [check:{unit}] done in 9s\n'
        return self.write(unit + '.out', text)

    def problems(self, logs, units=()):
        cases = results.parse_files(logs)
        return [c.name for c in results.check_expectations(cases, self.exp, units)]

    def test_all_as_expected(self):
        log = self.write('s.log', 'CHECK PASS a\nCHECK SKIP b: no thing\n')
        out = self.boot_out('s')
        self.expect('s', '# the s suite\nPASS boot:s\nPASS a\nSKIP b -- the machine has no thing\n')
        self.assertEqual(self.problems([log, out], ['s']), [])

    def test_known_failure(self):
        """FAIL: a known failure is counted as skipped, with its reason."""
        log = self.write('s.log', 'CHECK PASS a\nCHECK FAIL up:b: it said FAIL\n')
        self.expect('s', 'PASS a\nFAIL up:b -- fails on x86_64 too\n')
        cases = results.parse_files([log])
        self.assertEqual(results.check_expectations(cases, self.exp), [])
        self.assertEqual([(c.name, c.verdict) for c in cases],
                         [('a', results.PASS), ('up:b', results.SKIP)])
        self.assertEqual(cases[1].expected, 'fails on x86_64 too')

    def test_known_failure_passing(self):
        log = self.write('s.log', 'CHECK PASS up:b\n')
        self.expect('s', 'FAIL up:b -- fails on x86_64 too\n')
        self.assertEqual(self.problems([log]), ['s: up:b: PASS, expected FAIL'])

    def test_known_failure_needs_reason(self):
        log = self.write('s.log', 'CHECK FAIL up:b: it said FAIL\n')
        self.expect('s', 'FAIL up:b\n')
        self.assertIn('FAIL up:b: no "-- reason"', ' '.join(self.problems([log])))

    def test_missing_check(self):
        log = self.write('s.log', 'CHECK PASS a\n')
        self.expect('s', 'PASS a\nPASS b\n')
        self.assertEqual(self.problems([log]), ['s: missing b (expected PASS)'])

    def test_truncated_script(self):
        """A suite cut after its first check: every later check is named."""
        log = self.write('s.log', 'CHECK PASS first\nHARNESS-EXIT: 0\n')
        self.expect('s', 'PASS first\nPASS second\nPASS third\n')
        self.assertEqual(self.problems([log]), ['s: missing second (expected PASS)',
                                                's: missing third (expected PASS)'])

    def test_extra_check(self):
        log = self.write('s.log', 'CHECK PASS a\nCHECK PASS new\n')
        self.expect('s', 'PASS a\n')
        self.assertEqual(self.problems([log]), ['s: unexpected new (PASS)'])

    def test_pass_became_skip(self):
        log = self.write('s.log', 'CHECK SKIP a: no debugfs\n')
        self.expect('s', 'PASS a\n')
        self.assertEqual(self.problems([log]), ['s: a: SKIP, expected PASS'])

    def test_kselftest_pass_became_unsupported(self):
        log = self.write('ft.log', ftrace_log([f'[1] Kprobe dynamic event{T}[UNSUPPORTED]',
                                               f'[2] Basic trace file check{T}[PASS]'],
                                              dict(passed=1, unsupported=1)))
        self.expect('ft', 'PASS ftracetest:Kprobe dynamic event\n'
                    'PASS ftracetest:Basic trace file check\n')
        self.assertEqual(self.problems([log]), [
            'ft: ftracetest:Kprobe dynamic event: UNSUPPORTED, expected PASS'])

    def test_kselftest_unresolved_needs_its_line(self):
        log = self.write('ft.log', ftrace_log([f'[1] Kprobe on module{T}[UNRESOLVED]'],
                                              dict(unresolved=1)))
        self.expect('ft', 'UNSUPPORTED ftracetest:Kprobe on module -- no module\n')
        self.assertEqual(self.problems([log]), [
            'ft: ftracetest:Kprobe on module: UNRESOLVED, expected UNSUPPORTED'])

    def test_missing_self_test_and_kunit_case(self):
        log = self.write('k.log', 'CHECK PASS selftest:function\n' + KTAP_OK)
        self.expect('k', 'PASS selftest:function\nPASS selftest:function_graph\n'
                    'PASS kunit:example/one\nPASS kunit:example/two\n')
        self.assertEqual(self.problems([log]), [
            'k: missing selftest:function_graph (expected PASS)',
            'k: missing kunit:example/two (expected PASS)'])

    def test_script_exit_nonzero(self):
        out = self.boot_out('s', rc=139)
        cases = results.parse_files([out])
        self.assertEqual([(c.name, c.verdict) for c in cases], [('boot:s', 'fail')])
        self.assertIn('exited 139', cases[0].reason)

    def test_strict_console(self):
        cases = results.parse_files([self.boot_out('s', strict=True)])
        self.assertEqual(cases[0].verdict, 'fail')
        self.assertIn('--strict', cases[0].reason)

    def test_no_exit_marker(self):
        out = self.write('s.out', 'qemu-run: TIMEOUT after 600s (the console was silent for the last 590s)\n')
        cases = results.parse_files([out])
        self.assertEqual(cases[0].verdict, 'fail')
        self.assertIn('TIMEOUT', cases[0].reason)

    def test_qemu_run_failed_silently(self):
        out = self.write('s.out', 'qemu-run: guest script exited 0 after 9s\n'
                         '==> [check:s] FAILED (exit 1) after 9s\n')
        cases = results.parse_files([out])
        self.assertEqual(cases[0].verdict, 'fail')
        self.assertIn('qemu-run exited 1', cases[0].reason)

    def test_boot_passes(self):
        cases = results.parse_files([self.boot_out('s')])
        self.assertEqual([(c.name, c.verdict) for c in cases], [('boot:s', 'pass')])

    def test_boot_without_userland(self):
        """A ColdFire boot that reached its root mount passes; one that did not fails."""
        ok = self.write('cf.out', '==> [check:cf]\nqemu-run: the kernel booted to its root '
                        'mount (no userland) after 2s\n==> [check:cf] done in 2s\n')
        bad = self.write('cg.out', '==> [check:cg]\nqemu-run: the kernel did not reach its '
                         'root mount: Kernel panic - not syncing: Fatal exception\n'
                         '==> [check:cg] FAILED (exit 1) after 2s\n')
        cases = results.parse_files([ok, bad])
        self.assertEqual([(c.name, c.verdict) for c in cases],
                         [('boot:cf', 'pass'), ('boot:cg', 'fail')])
        self.assertIn('did not reach its root mount', cases[1].reason)

    def test_postprocessor_failure(self):
        """kprobe-offsets.py raising: its exit check fails and its checks are missing."""
        log = self.write('kp-offsets.log', 'Traceback (most recent call last):\n'
                         'CHECK FAIL kp-host-offsets:exit: exited 1\n')
        self.expect('kp-offsets', 'PASS kp-host-offsets-vfs_read\n')
        cases = results.parse_files([log])
        self.assertEqual(results.totals(cases)['fail'], 1)
        self.assertEqual(self.problems([log]), [
            'kp-offsets: missing kp-host-offsets-vfs_read (expected PASS)'])

    def test_unit_that_did_not_run(self):
        self.expect('s', 'PASS a\n')
        self.assertEqual(self.problems([], ['s']), ['s: no case in its logs (did it run?)'])

    def test_no_expectation_file(self):
        log = self.write('s.log', 'CHECK PASS a\n')
        probs = self.problems([log])
        self.assertEqual(len(probs), 1)
        self.assertIn('s: no expectation file', probs[0])

    def test_bad_expectation_lines(self):
        log = self.write('s.log', 'CHECK SKIP b: x\n')
        self.expect('s', 'SKIP b\nMAYBE c\neach PASS x c*\nPASS b\nPASS b\n')
        probs = self.problems([log])
        self.assertTrue(any('SKIP b: no "-- reason"' in p for p in probs), probs)
        self.assertTrue(any('"WORD ID" expected' in p for p in probs), probs)
        self.assertTrue(any('"each WORD N[-M] GLOB" expected' in p for p in probs), probs)
        self.assertTrue(any('b is listed twice' in p for p in probs), probs)

    def test_each(self):
        log = self.write('s.log', ''.join(f'CHECK PASS hit-{i}\n' for i in range(5)))
        self.expect('s', 'each PASS 4-6 hit-*\n')
        self.assertEqual(self.problems([log]), [])
        self.expect('s', 'each PASS 6 hit-*\n')
        self.assertEqual(self.problems([log]), ['s: 5 cases match hit-*, expected 6'])

    def test_each_verdict(self):
        log = self.write('s.log', 'CHECK PASS hit-1\nCHECK SKIP hit-2: gone\n')
        self.expect('s', 'each PASS 2 hit-*\n')
        self.assertEqual(self.problems([log]), ['s: hit-2: SKIP, expected PASS (each hit-*)'])

    def test_repeated_name(self):
        log = self.write('s.log', 'CHECK PASS a\nCHECK PASS a\n')
        self.expect('s', 'PASS a\n')
        self.assertEqual(self.problems([log]), ['s: unexpected a #2 (PASS)'])

    def test_failure_counted_once(self):
        log = self.write('s.log', 'CHECK FAIL a: broken\n')
        self.expect('s', 'PASS a\n')
        self.assertEqual(self.problems([log]), [])
        self.assertEqual(results.totals(results.parse_files([log]))['fail'], 1)

    def test_cli_fails_on_a_difference(self):
        log = self.write('s.log', 'CHECK PASS a\n')
        self.expect('s', 'PASS a\nPASS b\n')
        rc, out = run_cli(['summarize', '--expect', self.exp, '--units', 's', log])
        self.assertEqual(rc, 1)
        self.assertIn('FAIL expect: s: missing b (expected PASS)', out)
        self.assertIn('1 passed, 1 failed, 0 skipped', out)

    def test_cli_groups_one_per_kernel(self):
        """Two kernels in one summary, each against its own expectations."""
        for k in ('6.12', '7.3'):
            os.makedirs(os.path.join(self.exp, k))
            with open(os.path.join(self.exp, k, 's.expect'), 'w') as f:
                f.write('PASS a\nPASS b\n')
            os.makedirs(os.path.join(self.dir, k))
        old = self.write(os.path.join('6.12', 's.log'), 'CHECK PASS a\nCHECK PASS b\n')
        new = self.write(os.path.join('7.3', 's.log'), 'CHECK PASS a\n')
        rc, out = run_cli(['summarize', '--expect', os.path.join(self.exp, '7.3'),
                           '--units', 's', new, '--and',
                           '--expect', os.path.join(self.exp, '6.12'), '--units', 's', old])
        self.assertEqual(rc, 1)
        self.assertIn('FAIL expect: 7.3/s: missing b (expected PASS)', out)
        self.assertNotIn('6.12/s', out)
        self.assertTrue(out.rstrip().endswith('3 passed, 1 failed, 0 skipped'), out)

    def test_markdown(self):
        log = self.write('ft.log', ftrace_log([f'[1] Needs SMP{T}[UNRESOLVED]',
                                               f'[2] Basic|pipe{T}[PASS]'],
                                              dict(passed=1, unresolved=1)))
        self.expect('ft', 'UNRESOLVED ftracetest:Needs SMP -- the 680x0 has one CPU\n'
                    'PASS ftracetest:Basic|pipe\n')
        cases = results.parse_files([log])
        cases += results.check_expectations(cases, self.exp, ['ft'])
        md = results.markdown(cases, 'Linux x on y')
        self.assertIn('Linux x on y\n', md)
        self.assertIn('**1 passed, 0 failed, 1 skipped.**', md)
        self.assertIn('| ft | 1 | 0 | 0 | 0 | 0 | 1 | 0 | 0 |', md)
        self.assertIn('| ft | [1] Needs SMP | UNRESOLVED | the 680x0 has one CPU |', md)
        self.assertNotIn('## Failed', md)

    def test_update_then_check(self):
        log = self.write('s.log', 'CHECK PASS a\nCHECK SKIP b: no thing\nCHECK PASS c\n')
        self.expect('s', '# kept comment\nSKIP b -- our reason\nPASS gone\n')
        run_cli(['update-expect', self.exp, log])
        with open(os.path.join(self.exp, 's.expect')) as f:
            text = f.read()
        self.assertEqual(text, '# kept comment\nPASS a\nSKIP b -- our reason\nPASS c\n')
        self.assertEqual(self.problems([log]), [])

    def test_update_takes_the_printed_reason(self):
        log = self.write('ft.log', ftrace_log([f'[1] Needs SMP{T}[UNSUPPORTED]'],
                                              dict(unsupported=1)) +
                         'FTRACE-REASON [1] this test needs 2 CPUs\n')
        run_cli(['update-expect', self.exp, log])
        with open(os.path.join(self.exp, 'ft.expect')) as f:
            self.assertIn('UNSUPPORTED ftracetest:Needs SMP -- this test needs 2 CPUs\n', f.read())

    def test_same_as(self):
        """same-as takes another suite's lines, its boot check renamed;
        a line of the suite's own replaces the other's."""
        self.expect('base', '# base\nPASS boot:base\nPASS a\nSKIP b -- none here\n')
        self.expect('copy', '# copy\nsame-as base\nPASS b\n')
        log = self.write('copy.log', 'CHECK PASS a\nCHECK PASS b\n')
        out = self.boot_out('copy')
        self.assertEqual(self.problems([log, out]), [])
        log = self.write('copy.log', 'CHECK PASS a\nCHECK SKIP b: x\nCHECK PASS c\n')
        self.assertEqual(self.problems([log, out]), ['copy: b: SKIP, expected PASS',
                                                     'copy: unexpected c (PASS)'])
        # the base itself is unchanged by its copy
        blog = self.write('base.log', 'CHECK PASS a\nCHECK SKIP b: x\n')
        self.assertEqual(self.problems([blog, self.boot_out('base')]), [])

    def test_same_as_errors(self):
        log = self.write('c.log', 'CHECK PASS a\n')
        self.expect('c', 'same-as nothere\nPASS a\n')
        self.assertIn('same-as nothere: no file', self.problems([log])[0])
        self.expect('b', 'same-as a\nPASS a\n')
        self.expect('c', 'same-as b\nPASS a\n')
        self.assertIn('one level only', self.problems([log])[0])
        self.expect('c', 'same-as b\nsame-as a\nPASS a\n')
        self.assertIn('more than one same-as line', self.problems([log])[0])

    def test_update_leaves_same_as_alone(self):
        self.expect('base', 'PASS a\n')
        self.expect('copy', 'same-as base\n')
        log = self.write('copy.log', 'CHECK PASS a\nCHECK PASS new\n')
        rc, out = run_cli(['update-expect', self.exp, log])
        self.assertIn('copy: same-as base, not rewritten: copy: unexpected new (PASS)', out)
        with open(os.path.join(self.exp, 'copy.expect')) as f:
            self.assertEqual(f.read(), 'same-as base\n')


class ExpectFilesTest(unittest.TestCase):
    """The expectation files of the repository, read as they are."""

    def test_boot_check_names_its_own_suite(self):
        """Every file reads without an error, and a suite's boot check is
        boot:SUITE (same-as renames the other's): an expectation copied
        from another suite's file and left naming that suite would fail
        the suite on every run (it did for btf- and q800-ftracetest, which
        make check runs only on request)."""
        top = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'expect')
        seen = 0
        for kernel in sorted(os.listdir(top)):
            for name in sorted(os.listdir(os.path.join(top, kernel))):
                if not name.endswith('.expect'):
                    continue
                unit = name[:-len('.expect')]
                entries, errors, _ = results.load_expect(os.path.join(top, kernel), unit)
                self.assertEqual(errors, [], '%s/%s' % (kernel, name))
                for e in entries:
                    if e.key.startswith('boot:'):
                        seen += 1
                        self.assertEqual(e.key, 'boot:' + unit, '%s/%s' % (kernel, name))
        self.assertGreater(seen, 40)


if __name__ == '__main__':
    unittest.main()
