# SPDX-License-Identifier: GPL-2.0
"""Tests of harness/series.py: the overlay-to-patch map, the series it
builds, the git am check against the build tree, and the feature-table
check, on a small fake kernel tree.
"""

import os
import re
import subprocess
import sys
import tempfile
import textwrap
import unittest
from unittest import mock

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, 'harness'))
import series  # noqa: E402

SYNC = os.path.join(TOP, 'harness', 'sync-tree.sh')

# As the patches of this repository are: no author, no sign-off (make
# series adds the sender's).
PATCH_A = textwrap.dedent("""\
    Subject: [PATCH] kernel: change a line

    Why the line changes.

    ---
    --- a/kernel/a.c
    +++ b/kernel/a.c
    @@ -1,3 +1,3 @@
     one
    -two
    +TWO
     three
    """)

PATCH_B = textwrap.dedent("""\
    From 1d245a2355e27813606eec7af09a238b11e6d160 Mon Sep 17 00:00:00 2001
    From: Some One <some@example.org>
    Date: Sun, 22 Nov 2026 07:12:59 +0000
    Subject: [PATCH] kernel: build new.c

    Signed-off-by: Some One <some@example.org>
    ---
    --- a/kernel/Makefile
    +++ b/kernel/Makefile
    @@ -1 +1,2 @@
     obj-y += a.o
    +obj-y += new.o
    """)

README = '# x\n'

# a stand-in for scripts/get_maintainer.pl: people by the files a patch
# touches, one list for kernel/a.c and one for everything, each with its
# role as the real one prints it
GET_MAINTAINER = r"""#!/usr/bin/perl
my $patch = $ARGV[-1];
open(my $f, '<', $patch) or die "no $patch";
my $text = do { local $/; <$f> };
print "A Maintainer <a\@example.org> (maintainer:A)\n" if $text =~ m{b/kernel/a\.c};
print "K Maintainer <k\@example.org> (maintainer:KBUILD (THE BUILD))\n" if $text =~ m{b/kernel/Makefile};
print "N Reviewer <n\@example.org> (reviewer:NEW)\n" if $text =~ m{b/kernel/new\.c};
print "a-list\@example.org (moderated list:A)\n" if $text =~ m{b/kernel/a\.c};
print "lkml\@example.org (open list)\n";
"""

# the make bench part make results appends
BENCH = textwrap.dedent("""\

    # Results of `make bench`

    ## Targets

    * one
    * two

    more
    """)


RESULTS = textwrap.dedent("""\
    # Results of `make check`

    Linux 6.12.1 (Debian's linux-source), commit abc, 2026-11-22, suites: all.

    **3 passed, 0 failed, 0 skipped.**

    | suite |
    """)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)


def sh(*cmd, cwd=None):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)


class MapTest(unittest.TestCase):
    SERIES = ['0001-a.patch', '0002-b.patch']
    OVERLAY = ['arch/m68k/kernel/x.c', 'kernel/new.c']

    def check(self, text, stages=()):
        return series.check_map(series.parse_map(text, 'map'), self.OVERLAY, self.SERIES, 'map',
                                stages)

    def test_good_map(self):
        m = self.check('arch/m68k/kernel/x.c 0001-a.patch\n# c\n\nkernel/new.c 0002-b.patch\n')
        self.assertEqual(m, {'0001-a.patch': [('arch/m68k/kernel/x.c', 'arch/m68k/kernel/x.c')],
                             '0002-b.patch': [('kernel/new.c', 'kernel/new.c')]})

    def test_staged_file(self):
        stage = 'patches/stages/0001-a/kernel/new.c.diff'
        m = self.check('arch/m68k/kernel/x.c 0001-a.patch\n'
                       'kernel/new.c 0001-a.patch 0002-b.patch\n', [stage])
        self.assertEqual(m['0001-a.patch'][1], ('kernel/new.c', stage))
        self.assertEqual(m['0002-b.patch'], [('kernel/new.c', 'kernel/new.c')])
        # a long line continued with a backslash
        self.assertEqual(m, self.check('arch/m68k/kernel/x.c 0001-a.patch\n'
                                       'kernel/new.c 0001-a.patch \\\n\t0002-b.patch\n', [stage]))
        with self.assertRaisesRegex(series.SeriesError, 'has no stage file ' + stage):
            self.check('arch/m68k/kernel/x.c 0001-a.patch\n'
                       'kernel/new.c 0001-a.patch 0002-b.patch\n')
        with self.assertRaisesRegex(series.SeriesError, 'not in series order'):
            self.check('arch/m68k/kernel/x.c 0001-a.patch\n'
                       'kernel/new.c 0002-b.patch 0001-a.patch\n', [stage])
        with self.assertRaisesRegex(series.SeriesError, 'stage file %s is not used' % stage):
            self.check('arch/m68k/kernel/x.c 0001-a.patch\nkernel/new.c 0002-b.patch\n',
                       [stage])

    def test_unmapped_file_is_named(self):
        with self.assertRaisesRegex(series.SeriesError, 'overlay file kernel/new.c is not mapped'):
            self.check('arch/m68k/kernel/x.c 0001-a.patch\n')

    def test_unknown_patch(self):
        with self.assertRaisesRegex(series.SeriesError, r'map:2: 0003-c.patch is not in patches/series'):
            self.check('arch/m68k/kernel/x.c 0001-a.patch\nkernel/new.c 0003-c.patch\n')

    def test_not_an_overlay_file(self):
        with self.assertRaisesRegex(series.SeriesError, 'kernel/gone.c is not an overlay file'):
            self.check('arch/m68k/kernel/x.c 0001-a.patch\nkernel/new.c 0002-b.patch\n'
                       'kernel/gone.c 0002-b.patch\n')

    def test_duplicate_and_malformed(self):
        with self.assertRaisesRegex(series.SeriesError, 'already mapped on line 1'):
            self.check('kernel/new.c 0001-a.patch\nkernel/new.c 0002-b.patch\n'
                       'arch/m68k/kernel/x.c 0001-a.patch\n')
        with self.assertRaisesRegex(series.SeriesError, r'map:1: expected "FILE PATCH \[PATCH...\]"'):
            self.check('kernel/new.c\n')

    def test_kdirs_match_sync_tree(self):
        with open(SYNC) as f:
            m = re.search(r'^KDIRS="([^"]*)"', f.read(), re.M)
        self.assertEqual(m.group(1).split(), series.KDIRS)

    def test_repository_map_is_complete(self):
        """The real patches/overlay-map covers the real overlay."""
        series.load_map(TOP, series.read_series(TOP))


class PatchHeaderTest(unittest.TestCase):
    def test_headers(self):
        h = series.parse_patch(PATCH_B, 'b')
        self.assertEqual((h['name'], h['email'], h['subject']),
                         ('Some One', 'some@example.org', 'kernel: build new.c'))
        self.assertEqual(h['date'], 'Sun, 22 Nov 2026 07:12:59 +0000')
        self.assertIsNone(series.parse_patch(PATCH_A, 'a')['date'])
        self.assertIsNone(series.parse_patch(PATCH_A, 'a')['name'])
        self.assertTrue(series.parse_patch(PATCH_A, 'a')['body'].startswith('Why'))

    def test_signed_off_joins_the_trailers(self):
        so = 'Signed-off-by: S <s@x>'
        self.assertEqual(series.signed_off('Why.', 'S', 's@x'), 'Why.\n\n' + so)
        self.assertEqual(series.signed_off('Why.\n\nFixes: 123456789abc ("x")', 'S', 's@x'),
                         'Why.\n\nFixes: 123456789abc ("x")\n' + so)
        self.assertEqual(series.signed_off('Why.\n\n' + so, 'S', 's@x'), 'Why.\n\n' + so)

    def test_bad_headers_name_the_patch(self):
        with self.assertRaisesRegex(series.SeriesError, 'p.patch: no Subject: header'):
            series.parse_patch(PATCH_A.replace('Subject:', 'X-Subject:'), 'p.patch')
        with self.assertRaisesRegex(series.SeriesError, 'p.patch: From: is not'):
            series.parse_patch('From: nobody\n' + PATCH_A, 'p.patch')
        with self.assertRaisesRegex(series.SeriesError, 'p.patch: no "---" line'):
            series.parse_patch(PATCH_A.replace('\n---\n', '\n'), 'p.patch')

    def test_cover_letter(self):
        figs = series.cover_figures(RESULTS + BENCH)
        self.assertEqual(figs['CHECK'], 'make check: 3 passed, 0 failed, 0 skipped (Linux '
                         "6.12.1 (Debian's linux-source), commit abc, 2026-11-22, suites: all)")
        self.assertEqual(figs['BENCH'], '* one\n* two')
        self.assertIn('no make bench figures', series.cover_figures(RESULTS)['BENCH'])
        subj, blurb = series.fill_cover('subj\n\nA @CHECK@\n', figs)
        self.assertEqual(subj, 'subj')
        self.assertIn('3 passed', blurb)
        with self.assertRaisesRegex(series.SeriesError, 'unknown placeholder @NOPE@'):
            series.fill_cover('subj\n\n@NOPE@\n', figs)
        with self.assertRaisesRegex(series.SeriesError, 'no "# Results of'):
            series.cover_figures(RESULTS.replace('**', ''))

    def test_cover_letter_two_kernels(self):
        two = RESULTS.replace("suites: all.\n", "suites: all.\n\nLinux 7.3 (Debian's "
                              "linux-source), commit abc, 2026-11-22, suites: function.\n")
        self.assertNotEqual(two, RESULTS)
        self.assertEqual(series.cover_figures(two)['CHECK'],
                         "make check: 3 passed, 0 failed, 0 skipped (Linux 6.12.1 (Debian's "
                         "linux-source), commit abc, 2026-11-22, suites: all; Linux 7.3 "
                         "(Debian's linux-source), commit abc, 2026-11-22, suites: function)")

    # a record as harness/walk-record.sh writes it, for the trees t0..t2
    BISECT = textwrap.dedent("""\
        # Steps

        Key: the step's tree, then a hash of the fragments and of the
        compiler (m68k-linux-gnu-gcc (Debian 12.2.0-13) 12.2.0).

        | step | commit | result | build time | lock wait | warnings | options dropped | key |
        |---|---|---|---:|---:|---:|---:|---|
        | 00 | (pristine base) | ok | 9s | 0s | 0 | 3 | `t0-aaaaaaaaaaaa` |
        | 01 | one | ok | 9s | 0s | 0 | 3 | `t1-aaaaaaaaaaaa` |
        | 02 | two | ok | 9s | 0s | 2 | 3 | `t2-aaaaaaaaaaaa` |
        | 02 | of an older series | ok | 9s | 0s | 0 | 3 | `old-aaaaaaaaaaaa` |
        """)

    def test_bisect_claim(self):
        self.assertEqual(series.record_compiler(self.BISECT),
                         'm68k-linux-gnu-gcc (Debian 12.2.0-13) 12.2.0')
        self.assertIsNone(series.record_compiler('no header'))
        claim = series.bisect_claim(self.BISECT, 'rec.md', ['t0', 't1'])
        self.assertIn('Every step builds: the base and each of the 1 patches', claim)
        self.assertIn('without a warning', claim)
        self.assertIn('with warnings at steps 02',
                      series.bisect_claim(self.BISECT, 'rec.md', ['t0', 't1', 't2']))
        # a row of another tree (an older series) claims nothing
        claim = series.bisect_claim(self.BISECT, 'rec.md', ['t0', 'new', 't2'])
        self.assertIn('2 of the 3 steps', claim)
        self.assertIn('not yet: 01.', claim)
        self.assertIn('0 of the 1 steps', series.bisect_claim('', 'rec.md', ['t0']))

    def test_defconfigs_claim(self):
        base, head = 'b' * 40, 'c' * 40
        key = '-%s-%s-0123456789ab' % (base[:12], head[:12])
        rec = self.BISECT.split('| step')[0] + textwrap.dedent("""\
            | target | pristine | with the series | new warnings | verdict | key |
            |---|---|---|---:|---|---|
            | q40 | not needed | ok, 0 warnings, 9s | 0 | ok | `q40%s` |
            | virt+ftrace | ok | ok, 1 warnings, 9s | 1 | NEW WARNINGS | `virt+ftrace%s` |
            | mac | not needed | ok, 0 warnings, 9s | 0 | ok | `mac-%s-dddddddddddd-0123456789ab` |
            """) % (key, key, base[:12])
        claim = series.defconfigs_claim(rec, 'r.md', base, head, ['q40', 'virt+ftrace', 'mac'])
        self.assertIn('with m68k-linux-gnu-gcc (Debian 12.2.0-13) 12.2.0,', claim)
        self.assertIn('1 of the 3 targets: q40.', claim)
        self.assertIn('FAILED (new warnings or no build): virt+ftrace.', claim)
        # mac's row is of another series tree
        self.assertIn('Not yet built: mac.', claim)
        claim = series.defconfigs_claim(rec, 'r.md', base, head, ['q40'])
        self.assertIn('all of the 1 targets: q40.', claim)
        self.assertNotIn('Not yet', claim)

    def test_repository_has_the_figures(self):
        with open(os.path.join(TOP, series.RESULTS)) as r:
            series.cover_figures(r.read())


class FeaturesTest(unittest.TestCase):
    def test_rule(self):
        old = {'t': ('HAVE_X', 'TODO'), 'u': ('HAVE_Y', 'TODO'), 'v': ('!LEGACY', 'TODO')}
        ok = {'t': ('HAVE_X', 'ok'), 'u': ('HAVE_Y', 'TODO'), 'v': ('!LEGACY', 'TODO')}
        kold, knew = 'select LEGACY\n', 'select LEGACY\nselect HAVE_X\n'
        changed, errors = series.check_features(old, ok, kold, knew)
        self.assertEqual(errors, [])
        self.assertEqual(len(changed), 1)
        # selected but the row was not turned to ok
        _, errors = series.check_features(old, old, kold, knew)
        self.assertIn('adds HAVE_X', errors[0])
        # a row turned to ok without a select
        bad = dict(ok, u=('HAVE_Y', 'ok'))
        _, errors = series.check_features(old, bad, kold, knew)
        self.assertIn('does not change whether arch/m68k selects HAVE_Y', errors[0])


class SeriesEndToEndTest(unittest.TestCase):
    """make series, then am-check against the tree sync-tree.sh builds."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.tmp.name
        # who runs make series
        env = mock.patch.dict(os.environ, {'GIT_AUTHOR_NAME': 'The Sender',
                                           'GIT_AUTHOR_EMAIL': 'sender@example.org'})
        env.start()
        self.addCleanup(env.stop)
        self.pristine = os.path.join(d, 'pristine')
        self.repo = os.path.join(d, 'repo')
        self.tree = os.path.join(d, 'linux')
        write(os.path.join(self.pristine, 'Makefile'), 'all:\n')
        write(os.path.join(self.pristine, '.debian-version'), '6.12.0-1\n')
        write(os.path.join(self.pristine, 'kernel/a.c'), 'one\ntwo\nthree\n')
        write(os.path.join(self.pristine, 'kernel/Makefile'), 'obj-y += a.o\n')
        write(os.path.join(self.repo, 'kernel/new.c'), 'new file\n')
        write(os.path.join(self.repo, 'patches/0001-a.patch'), PATCH_A)
        write(os.path.join(self.repo, 'patches/0002-b.patch'), PATCH_B)
        write(os.path.join(self.repo, 'patches/series'), '0001-a.patch\n0002-b.patch\n')
        write(os.path.join(self.repo, 'patches/overlay-map'), 'kernel/new.c 0002-b.patch\n')
        write(os.path.join(self.repo, 'patches/cover-letter.txt'),
              'the subject\n\nThe port.\n\n@CHECK@\n\n@BENCH@\n\nBase: @BASE@\n')
        write(os.path.join(self.repo, 'README.md'), README)
        write(os.path.join(self.repo, series.RESULTS), RESULTS)
        self.assertEqual(sh('git', 'init', '-q', self.repo).returncode, 0)
        self.assertEqual(sh('bash', SYNC, self.repo, self.pristine, self.tree).returncode, 0)
        self.gitdir = os.path.join(d, 'series.git')
        self.out = os.path.join(d, 'series')
        self.work = os.path.join(d, 'amcheck')

    def tearDown(self):
        self.tmp.cleanup()

    def make(self):
        return series.main(['make', self.repo, self.pristine, self.gitdir, self.out])

    def am_check(self):
        return series.main(['am-check', self.pristine, self.out, self.tree, self.work])

    def test_series_applies_and_equals_tree(self):
        self.assertEqual(self.make(), 0)
        files = sorted(os.listdir(self.out))
        self.assertEqual(files[0], '0000-cover-letter.patch')
        self.assertEqual(len(files), 3)
        with open(os.path.join(self.out, files[0])) as f:
            cover = f.read()
        self.assertIn('Subject: [PATCH 0/2] the subject', cover)
        self.assertIn('From: Some One <some@example.org>', cover)
        self.assertIn('3 passed', cover)
        self.assertIn('Debian linux-source-6.12 6.12.0-1', cover)
        self.assertNotIn('***', cover)
        with open(os.path.join(self.out, files[2])) as f:
            second = f.read()
        self.assertIn('+new file', second)      # the overlay file rides with patch 2
        # patch 1 names nobody: the sender authors and signs it off; patch 2
        # keeps its author, and the sender's sign-off follows the author's
        with open(os.path.join(self.out, files[1])) as f:
            first = f.read()
        self.assertIn('From: The Sender <sender@example.org>', first)
        self.assertIn('Why the line changes.\n\nSigned-off-by: The Sender <sender@example.org>\n',
                      first)
        self.assertIn('From: Some One <some@example.org>', second)
        self.assertIn('Signed-off-by: Some One <some@example.org>\n'
                      'Signed-off-by: The Sender <sender@example.org>\n', second)
        self.assertEqual(self.am_check(), 0)
        # the pristine tree is untouched by git am through the hard links
        with open(os.path.join(self.pristine, 'kernel/a.c')) as f:
            self.assertEqual(f.read(), 'one\ntwo\nthree\n')

    def test_patches_are_addressed(self):
        """Each patch goes to whom get_maintainer.pl names for it (To: people,
        Cc: lists), the cover letter to all of them, in the mail header."""
        write(os.path.join(self.pristine, 'scripts/get_maintainer.pl'), GET_MAINTAINER)
        self.assertEqual(self.make(), 0)
        heads = []
        for name in sorted(os.listdir(self.out)):
            with open(os.path.join(self.out, name)) as f:
                heads.append(f.read().split('\n\n', 1)[0])
        cover, first, second = heads
        self.assertIn('\nTo: A Maintainer <a@example.org>\n'
                      'Cc: a-list@example.org,\n    lkml@example.org', first)
        self.assertIn('\nTo: K Maintainer <k@example.org>,\n    N Reviewer <n@example.org>\n'
                      'Cc: lkml@example.org', second)
        self.assertNotIn('a-list', second)
        self.assertIn('\nTo: A Maintainer <a@example.org>,\n    K Maintainer <k@example.org>,'
                      '\n    N Reviewer <n@example.org>\n'
                      'Cc: a-list@example.org,\n    lkml@example.org', cover)
        # a get_maintainer.pl that fails stops make series
        write(os.path.join(self.pristine, 'scripts/get_maintainer.pl'), 'exit 3;\n')
        self.assertNotEqual(self.make(), 0)

    def test_staged_overlay_file(self):
        """new.c comes in with patch 1 as its stage diff makes it, and patch 2
        finishes it."""
        write(os.path.join(self.repo, 'patches/overlay-map'),
              'kernel/new.c 0001-a.patch 0002-b.patch\n')
        stage = os.path.join(self.repo, 'patches/stages/0001-a/kernel/new.c.diff')
        write(stage, '--- a/kernel/new.c\n+++ b/kernel/new.c\n@@ -1 +1 @@\n'
              '-new file\n+early new file\n')
        self.assertEqual(self.make(), 0)
        files = sorted(os.listdir(self.out))
        with open(os.path.join(self.out, files[1])) as f:
            self.assertIn('+early new file\n', f.read())
        with open(os.path.join(self.out, files[2])) as f:
            second = f.read()
        self.assertIn('-early new file\n+new file\n', second)
        self.assertEqual(self.am_check(), 0)
        # the final file changed where the stage differs: the diff is named
        write(os.path.join(self.repo, 'kernel/new.c'), 'rewritten\n')
        with self.assertRaisesRegex(series.SeriesError,
                                    'patches/stages/0001-a/kernel/new.c.diff no longer applies'):
            series.cmd_make(self.repo, self.pristine, self.gitdir, self.out)

    def test_no_identity_is_an_error(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith('GIT_')}
        env.update({'GIT_CONFIG_GLOBAL': os.devnull, 'GIT_CONFIG_NOSYSTEM': '1',
                    'GIT_CONFIG_COUNT': '1', 'GIT_CONFIG_KEY_0': 'user.useConfigOnly',
                    'GIT_CONFIG_VALUE_0': 'true'})
        env.pop('EMAIL', None)
        with mock.patch.dict(os.environ, env, clear=True):
            with self.assertRaisesRegex(series.SeriesError, 'no git identity'):
                series.sender_identity(self.repo)

    def test_am_check_fails_on_any_difference(self):
        self.assertEqual(self.make(), 0)
        write(os.path.join(self.tree, 'kernel/extra.c'), 'stray\n')
        self.assertEqual(self.am_check(), 1)
        os.remove(os.path.join(self.tree, 'kernel/extra.c'))
        os.chmod(os.path.join(self.tree, 'kernel/new.c'), 0o755)
        self.assertEqual(self.am_check(), 1)
        os.chmod(os.path.join(self.tree, 'kernel/new.c'), 0o644)
        self.assertEqual(self.am_check(), 0)

    def test_unmapped_overlay_file_stops_make(self):
        write(os.path.join(self.repo, 'kernel/other.c'), 'x\n')
        self.assertEqual(self.make(), 1)
        self.assertFalse(os.path.exists(self.out))


class RestageTest(unittest.TestCase):
    """series.py restage: an edit of an overlay file reaches its earlier
    versions (the stage diffs) where they share the edited lines."""
    FINAL = ''.join('line %d\n' % i for i in range(1, 21))
    # the stage: line 15 not there yet, line 3 different
    STAGED = FINAL.replace('line 3\n', 'line three\n').replace('line 15\n', '')
    F = 'kernel/new.c'
    STAGE = 'patches/stages/0001-a/kernel/new.c.diff'

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.repo = self.tmp.name
        write(os.path.join(self.repo, self.F), self.FINAL)
        write(os.path.join(self.repo, self.STAGE), series.stage_diff(self.F, self.FINAL, self.STAGED))
        for cmd in (['git', 'init', '-q'], ['git', 'add', '.'],
                    ['git', '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'x']):
            self.assertEqual(sh(*cmd, cwd=self.repo).returncode, 0)
        self.assertEqual(series.stage_content(self.repo, self.F, self.STAGE), self.STAGED)

    def tearDown(self):
        self.tmp.cleanup()

    def test_unchanged_file_rewrites_nothing(self):
        self.assertEqual(series.restage(self.repo), [])

    def test_edit_reaches_the_stage(self):
        write(os.path.join(self.repo, self.F), self.FINAL.replace('line 10\n', 'line ten\n'))
        self.assertEqual(series.restage(self.repo), [self.STAGE])
        self.assertEqual(series.stage_content(self.repo, self.F, self.STAGE),
                         self.STAGED.replace('line 10\n', 'line ten\n'))

    def test_edit_of_the_stages_own_lines_is_refused(self):
        before = open(os.path.join(self.repo, self.STAGE)).read()
        write(os.path.join(self.repo, self.F), self.FINAL.replace('line 3\n', 'line III\n'))
        with self.assertRaisesRegex(series.SeriesError, 'meets the stage'):
            series.restage(self.repo)
        self.assertEqual(open(os.path.join(self.repo, self.STAGE)).read(), before)


if __name__ == '__main__':
    unittest.main()
