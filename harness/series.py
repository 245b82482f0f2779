#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The port as a `git format-patch` series, and the check that it is exact.

The overlay (new kernel files at their in-tree path) and patches/ (edits,
applied in patches/series order) are what harness/sync-tree.sh turns into
build/linux.  A maintainer gets a patch series instead: one commit per
patch of patches/series, each also adding the overlay files that
patches/overlay-map assigns to it.  Every overlay file must be assigned to
exactly one patch of the series; nothing is guessed.

  series.py make REPO PRISTINE GITDIR OUTDIR
      import PRISTINE into the git repository GITDIR (once), build the
      commits, write `git format-patch --cover-letter` into OUTDIR, the
      cover letter from patches/cover-letter.txt with the figures of
      docs/results.md (make results) filled in, and what the walk records
      BISECT_RECORD and DEFCONFIGS_RECORD (make bisect-build, make
      defconfigs) say of this series' trees; each patch addressed
      (To: the maintainers and reviewers, Cc: the lists) by PRISTINE's
      scripts/get_maintainer.pl, the cover letter to all of them
  series.py am-check PRISTINE SERIESDIR TREE WORKDIR
      import PRISTINE into a fresh repository in WORKDIR, `git am` the
      series and fail unless the result is exactly TREE (contents, file
      modes, no file more or less)
  series.py map-check REPO
      only check patches/overlay-map against the overlay and the series
  series.py restage REPO [REV]
      after overlay files changed since REV (default HEAD), rewrite the
      stage diffs of patches/stages/ that start from them: each earlier
      version gets the same change where it has the lines the change
      touched (a three-way merge: git merge-file), so an edit of the final
      file reaches every patch that carries those lines; a stage whose own
      lines conflict with the change is an error naming it, and nothing
      is written
  series.py features-check PRISTINE TREE
      the m68k rows of Documentation/features/*/*/arch-support.txt: a row
      changes exactly when the series changes whether arch/m68k's Kconfig
      files name the feature's option (the rule of the kernel's
      Documentation/features/scripts/features-refresh.sh), and then says
      "ok" exactly when they do

Errors name the file that is wrong.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap

# Top-level kernel directories the overlay may hold: the same list as
# harness/sync-tree.sh (a host test keeps the two equal).
KDIRS = """arch block certs crypto Documentation drivers fs include init io_uring
ipc kernel lib mm net rust samples scripts security sound tools usr virt""".split()

# Files the harness adds to a kernel tree that are not part of the kernel:
# fetch-kernel.sh's version stamp, sync-tree.sh's list of its files and its
# fingerprint of what it synced.
HARNESS_FILES = ['.debian-version', '.overlay-files', '.sync-fingerprint']

MAP = 'patches/overlay-map'
COVER = 'patches/cover-letter.txt'


class SeriesError(Exception):
    pass


def run(cmd, cwd=None, env=None, stdin=None):
    """Run a command, return its stdout; fail with its stderr."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    p = subprocess.run(cmd, cwd=cwd, env=full_env, input=stdin, capture_output=True, text=True)
    if p.returncode != 0:
        raise SeriesError('%s failed (exit %d):\n%s' % (' '.join(cmd), p.returncode,
                                                       (p.stderr + p.stdout).strip()))
    return p.stdout


def read_series(repo):
    path = os.path.join(repo, 'patches', 'series')
    names = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                if not os.path.isfile(os.path.join(repo, 'patches', line)):
                    raise SeriesError('patches/series names missing patch %s' % line)
                names.append(line)
    return names


def overlay_files(repo):
    dirs = [d for d in KDIRS if os.path.isdir(os.path.join(repo, d))]
    if not dirs:
        return []
    out = run(['git', 'ls-files', '-co', '--exclude-standard', '--'] + dirs, cwd=repo)
    return sorted(set(out.split()))


def parse_map(text, where):
    """patches/overlay-map: "FILE PATCH [PATCH...]" per line, '#' comments,
    a '\\' at the end of a line continues it."""
    entries = []
    pending, start = '', 0
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split('#', 1)[0].rstrip()
        if not pending:
            start = n
        if line.endswith('\\'):
            pending += line[:-1] + ' '
            continue
        line, pending, n = (pending + line).strip(), '', start
        if not line:
            continue
        fields = line.split()
        if len(fields) < 2:
            raise SeriesError('%s:%d: expected "FILE PATCH [PATCH...]", got %r' % (where, n, line))
        entries.append((fields[0], fields[1:], n))
    return entries


def stage_path(patch, f):
    """Where the content FILE has after PATCH is kept, for a staged file: a
    diff from FILE's final content (the overlay file) to that content, so
    that no line of the port is kept twice (stage_content())."""
    return os.path.join('patches', 'stages', re.sub(r'\.patch$', '', patch), f + '.diff')


def stage_content(repo, f, stage):
    """The content of overlay file F at a stage: STAGE (a diff, see
    stage_path()) applied to F.  A diff that no longer applies (F changed
    where the stage differs) is an error naming both."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'stage')
        p = subprocess.run(['patch', '-s', '-f', '--no-backup-if-mismatch', '-r', '-',
                            '-o', out, os.path.join(repo, f), os.path.join(repo, stage)],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise SeriesError('%s no longer applies to %s (rewrite it: diff -u %s STAGED >%s):\n%s'
                              % (stage, f, f, stage, (p.stdout + p.stderr).strip()))
        with open(out, newline='') as fh:
            return fh.read()


def stage_diff(f, final, staged):
    """The stage diff of F from its FINAL content to STAGED (both text)."""
    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, 'a'), os.path.join(tmp, 'b')
        for path, text in ((a, final), (b, staged)):
            with open(path, 'w', newline='') as fh:
                fh.write(text)
        p = subprocess.run(['diff', '-u', '--label', 'a/' + f, '--label', 'b/' + f, a, b],
                           capture_output=True, text=True)
        if p.returncode > 1:
            raise SeriesError('diff of %s failed: %s' % (f, p.stderr.strip()))
        return p.stdout


def restage(repo, rev='HEAD'):
    """Rewrite the stage diffs of the overlay files changed since REV;
    return the stage files rewritten (see `series.py restage`)."""
    new = {}
    errors = []
    for stage in sorted(stage_files(repo)):
        patch_dir = os.path.relpath(stage, os.path.join('patches', 'stages'))
        f = patch_dir.split(os.sep, 1)[1][:-len('.diff')]
        old = subprocess.run(['git', '-C', repo, 'show', '%s:%s' % (rev, f)],
                             capture_output=True, text=True)
        if old.returncode != 0:
            errors.append('%s: %s is not in %s' % (stage, f, rev))
            continue
        with open(os.path.join(repo, f), newline='') as fh:
            final = fh.read()
        if old.stdout == final:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            base, cur, other = (os.path.join(tmp, n) for n in ('base', 'cur', 'other'))
            with open(base, 'w', newline='') as fh:
                fh.write(old.stdout)
            # the stage as it was: its diff on the file as it was
            p = subprocess.run(['patch', '-s', '-f', '--no-backup-if-mismatch', '-r', '-',
                                '-o', other, base, os.path.join(repo, stage)],
                               capture_output=True, text=True)
            if p.returncode != 0:
                errors.append('%s does not apply to %s of %s: %s'
                              % (stage, f, rev, (p.stdout + p.stderr).strip()))
                continue
            with open(cur, 'w', newline='') as fh:
                fh.write(final)
            m = subprocess.run(['git', 'merge-file', '-p', '-L', f, '-L', '%s:%s' % (rev, f),
                                '-L', stage, cur, base, other], capture_output=True, text=True)
            if m.returncode != 0:
                errors.append('%s: the change of %s since %s meets the stage\'s own lines '
                              '(%d conflicts): rewrite it by hand' % (stage, f, rev, m.returncode))
                continue
            new[stage] = stage_diff(f, final, m.stdout)
    if errors:
        raise SeriesError('\n'.join(errors))
    for stage, text in new.items():
        with open(os.path.join(repo, stage), 'w', newline='') as fh:
            fh.write(text)
    return sorted(new)


def check_map(entries, overlay, series, where=MAP, stages=()):
    """Return {patch: [(file, source)]}: the files each patch adds or changes
    and the repository file holding their content after it.

    Every overlay file appears exactly once.  A file with one patch comes in
    with its final content; a file with several (in series order) comes in
    with the first, as patches/stages/FIRST/FILE.diff makes it, each later
    one but the last changes it to what patches/stages/THAT/FILE.diff makes
    it, and the last to the final content.  STAGES, the stage files that
    exist, must all be used.
    """
    by_patch = {p: [] for p in series}
    order = {p: i for i, p in enumerate(series)}
    seen = {}
    used = set()
    errors = []
    for f, patches, n in entries:
        if f in seen:
            errors.append('%s:%d: %s is already mapped on line %d' % (where, n, f, seen[f]))
            continue
        seen[f] = n
        if f not in overlay:
            errors.append('%s:%d: %s is not an overlay file' % (where, n, f))
        unknown = [p for p in patches if p not in order]
        for p in unknown:
            errors.append('%s:%d: %s is not in patches/series' % (where, n, p))
        if unknown:
            continue
        if [order[p] for p in patches] != sorted(set(order[p] for p in patches)):
            errors.append('%s:%d: the patches of %s are not in series order' % (where, n, f))
            continue
        for p in patches[:-1]:
            stage = stage_path(p, f)
            used.add(stage)
            if stage not in stages:
                errors.append('%s:%d: %s has no stage file %s' % (where, n, f, stage))
            by_patch[p].append((f, stage))
        by_patch[patches[-1]].append((f, f))
    for f in overlay:
        if f not in seen:
            errors.append('%s: overlay file %s is not mapped to a patch: add a line "%s PATCH"'
                          % (where, f, f))
    for stage in sorted(set(stages) - used):
        errors.append('%s: stage file %s is not used by any line' % (where, stage))
    if errors:
        raise SeriesError('\n'.join(errors))
    return by_patch


def stage_files(repo):
    top = os.path.join(repo, 'patches', 'stages')
    found = []
    for d, _, files in os.walk(top):
        found += [os.path.relpath(os.path.join(d, f), repo) for f in files]
    return found


def load_map(repo, series):
    path = os.path.join(repo, MAP)
    if not os.path.isfile(path):
        raise SeriesError('%s is missing' % MAP)
    with open(path) as f:
        return check_map(parse_map(f.read(), MAP), overlay_files(repo), series,
                         stages=stage_files(repo))


def parse_patch(text, where):
    """The mail header of a patch: author, date (or None), subject, body."""
    head, sep, _ = text.partition('\n---\n')
    if not sep:
        raise SeriesError('%s: no "---" line between the message and the diff' % where)
    lines = head.split('\n')
    hdr = {}
    i = 0
    if lines and lines[0].startswith('From ') and not lines[0].startswith('From:'):
        i = 1           # the "From <sha> <date>" line of git format-patch
    while i < len(lines) and lines[i].strip():
        m = re.match(r'([A-Za-z-]+):\s*(.*)', lines[i])
        if not m:
            raise SeriesError('%s: bad header line %r' % (where, lines[i]))
        hdr[m.group(1).lower()] = m.group(2)
        i += 1
    if 'subject' not in hdr:
        raise SeriesError('%s: no Subject: header' % where)
    name = email = None
    if 'from' in hdr:
        m = re.match(r'(.*?)\s*<([^>]+)>$', hdr['from'])
        if not m:
            raise SeriesError('%s: From: is not "Name <email>": %r' % (where, hdr['from']))
        name, email = m.group(1), m.group(2)
    subject = re.sub(r'^\[PATCH[^\]]*\]\s*', '', hdr['subject'])
    body = '\n'.join(lines[i:]).strip('\n')
    return {'name': name, 'email': email, 'date': hdr.get('date'),
            'subject': subject, 'body': body}


def sender_identity(repo):
    """Who makes the series: git's author identity where `make series` runs
    (user.name/user.email, or GIT_AUTHOR_NAME/GIT_AUTHOR_EMAIL).  The patches
    of this repository name nobody; each commit is authored (unless its
    patch has a From:) and signed off by the sender."""
    p = subprocess.run(['git', 'var', 'GIT_AUTHOR_IDENT'], cwd=repo,
                       capture_output=True, text=True)
    m = re.match(r'(.*?)\s*<([^>]*)>', p.stdout)
    if p.returncode != 0 or not m or not m.group(1) or not m.group(2):
        raise SeriesError('no git identity to sign the series off with: set git config '
                          'user.name and user.email (or GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL)')
    return m.group(1), m.group(2)


def signed_off(body, name, email):
    """BODY with a Signed-off-by of NAME <EMAIL> last, unless it is already."""
    line = 'Signed-off-by: %s <%s>' % (name, email)
    lines = body.rstrip('\n').split('\n')
    if lines[-1] == line:
        return body
    trailer = re.match(r'([A-Za-z-]+-by|Fixes|Link|Closes|Cc): ', lines[-1])
    return body.rstrip('\n') + ('\n' if trailer else '\n\n') + line


def git(gitdir, *args, env=None, stdin=None, worktree=None):
    cmd = ['git', '--git-dir=' + gitdir]
    if worktree:
        cmd.append('--work-tree=' + worktree)
    return run(cmd + list(args), env=env, stdin=stdin)


def import_tree(gitdir, tree, index):
    """Hash every file of TREE except the harness's own into a git tree object."""
    excludes = [':(exclude,top)%s' % f for f in HARNESS_FILES]
    env = {'GIT_INDEX_FILE': index}
    git(gitdir, 'add', '-A', '-f', '--', '.', *excludes, env=env, worktree=tree)
    return git(gitdir, 'write-tree', env=env).strip()


def base_identity(pristine):
    ver = os.path.join(pristine, '.debian-version')
    v = 'unknown'
    if os.path.isfile(ver):
        with open(ver) as f:
            v = f.read().strip()
    return v, int(os.stat(os.path.join(pristine, 'Makefile')).st_mtime)


def base_subject(ver):
    """The base commit's subject for Debian version VER of linux-source."""
    m = re.match(r'(\d+\.\d+)', ver)
    major = m.group(1) if m else 'unknown'
    return 'Linux %s as in Debian linux-source-%s %s' % (major, major, ver)


def commit_env(name, email, date):
    return {'GIT_AUTHOR_NAME': name, 'GIT_AUTHOR_EMAIL': email, 'GIT_AUTHOR_DATE': date,
            'GIT_COMMITTER_NAME': name, 'GIT_COMMITTER_EMAIL': email,
            'GIT_COMMITTER_DATE': date}


def make_base(gitdir, pristine):
    """The import of the pristine tree, made once per pristine version."""
    ver, stamp = base_identity(pristine)
    if not os.path.isdir(gitdir):
        run(['git', 'init', '-q', '--bare', gitdir])
    try:
        msg = git(gitdir, 'log', '-1', '--format=%B', 'refs/tags/base')
        if base_subject(ver) in msg:
            return git(gitdir, 'rev-parse', 'refs/tags/base^{commit}').strip()
    except SeriesError:
        pass
    print('series: importing %s into %s' % (pristine, gitdir), flush=True)
    tree = import_tree(gitdir, pristine, os.path.join(gitdir, 'index-pristine'))
    date = '@%d +0000' % stamp
    base = git(gitdir, 'commit-tree', tree, '-m',
               base_subject(ver),
               env=commit_env('pristine import', 'nobody@localhost', date)).strip()
    git(gitdir, 'tag', '-f', 'base', base)
    return base


def patch_date(repo, name, hdr):
    if hdr['date']:
        return hdr['date']
    # else the last commit of the patch file (none yet: a fixed date)
    p = subprocess.run(['git', 'log', '-1', '--format=%aD', '--', 'patches/' + name],
                       cwd=repo, capture_output=True, text=True)
    return p.stdout.strip() or 'Thu, 1 Jan 2026 00:00:00 +0000'


def build_commits(repo, gitdir, base, series, by_patch):
    sender = sender_identity(repo)
    env = {'GIT_INDEX_FILE': os.path.join(gitdir, 'index-series')}
    git(gitdir, 'read-tree', base, env=env)
    head = base
    for name in series:
        path = os.path.join(repo, 'patches', name)
        with open(path) as f:
            hdr = parse_patch(f.read(), 'patches/' + name)
        try:
            git(gitdir, 'apply', '--cached', path, env=env)
        except SeriesError as e:
            raise SeriesError('patches/%s does not apply with git apply:\n%s' % (name, e))
        for f, content in by_patch[name]:
            src = os.path.join(repo, f)
            if content == f:
                sha = git(gitdir, 'hash-object', '-w', '--', src).strip()
            else:
                sha = git(gitdir, 'hash-object', '-w', '--stdin',
                          stdin=stage_content(repo, f, content)).strip()
            mode = '100755' if os.access(src, os.X_OK) else '100644'
            git(gitdir, 'update-index', '--add', '--cacheinfo', '%s,%s,%s' % (mode, sha, f),
                env=env)
        tree = git(gitdir, 'write-tree', env=env).strip()
        if tree == git(gitdir, 'rev-parse', head + '^{tree}').strip():
            raise SeriesError('patches/%s changes nothing' % name)
        author = (hdr['name'], hdr['email']) if hdr['name'] else sender
        msg = hdr['subject'] + '\n\n' + signed_off(hdr['body'], *sender) + '\n'
        head = git(gitdir, 'commit-tree', tree, '-p', head, stdin=msg,
                   env=commit_env(*author, patch_date(repo, name, hdr))).strip()
    git(gitdir, 'update-ref', 'refs/heads/series', head)
    return head


RESULTS = 'docs/results.md'


def cover_figures(results_text):
    """The make check result and the benchmark targets, from the generated
    results file (make results: the last make check, then make bench)."""
    # one about line per kernel the run covered, then the total
    about = re.search(r'^# Results of `make check`\n\n((?:.+\n\n)+?)\*\*(.+?)\*\*$',
                      results_text, re.M)
    if not about:
        raise SeriesError('%s: no "# Results of `make check`" header, about line and total '
                          '(make results writes it)' % RESULTS)
    abouts = '; '.join(a.rstrip('.') for a in about.group(1).split('\n\n') if a)
    check = 'make check: %s (%s)' % (about.group(2).rstrip('.'), abouts)
    check = re.sub(r'`', '', check)
    m = re.search(r'^## Targets\n\n((?:\* .*\n)+)', results_text, re.M)
    bench = m.group(1).rstrip('\n') if m else \
        '(no make bench figures in %s: run make bench, then make results)' % RESULTS
    return {'CHECK': check, 'BENCH': bench}


# A walk record (harness/walk-record.sh): markdown rows ending in a key.
RECORD_ROW = re.compile(r'^\|(.*)\| `([^`|]+)` \|$', re.M)


def record_rows(text):
    """The rows of a walk record, as (cells, key)."""
    return [([c.strip() for c in m.group(1).split('|')], m.group(2))
            for m in RECORD_ROW.finditer(text)]


def record_compiler(text):
    """The compiler a walk record names in its header, or None."""
    m = re.search(r'compiler\s*\((m68k-linux-gnu-gcc\b.*?)\)\.', text, re.S)
    return ' '.join(m.group(1).split()) if m else None


def bisect_claim(text, where, trees):
    """What make bisect-build's record says of this series, whose steps
    (the base first) have the trees TREES: a row counts only for its
    step's tree, so a record of an older series claims nothing."""
    built = {}
    for cells, key in record_rows(text):
        tree = key.split('-')[0]
        if len(cells) >= 6 and tree in trees and cells[2] == 'ok':
            built[tree] = cells[5] == '0'
    steps = len(trees)
    missing = [i for i, t in enumerate(trees) if t not in built]
    warned = [i for i, t in enumerate(trees) if built.get(t) is False]
    if missing:
        return ('Bisectability: %d of the %d steps (the base and %d patches) build-tested so far '
                '(make bisect-build, %s); not yet: %s.'
                % (steps - len(missing), steps, steps - 1, where,
                   ', '.join('%02d' % i for i in missing)))
    return ('Every step builds: the base and each of the %d patches, vmlinux of '
            'virt_defconfig with the tracing options, %s (make bisect-build, %s).'
            % (steps - 1, 'without a warning' if not warned else
               'with warnings at steps ' + ', '.join('%02d' % i for i in warned), where))


def defconfigs_claim(text, where, base_tree, head_tree, targets):
    """What make defconfigs' record says of this series (its base and head
    trees, as the walk keys them) for TARGETS (make's DEFCONFIGS)."""
    ok, bad = set(), set()
    key = re.compile(r'^(.+)-%s-%s-[0-9a-f]{12}$' % (base_tree[:12], head_tree[:12]))
    for cells, k in record_rows(text):
        m = key.match(k)
        if m and len(cells) >= 5:
            (ok if cells[4] == 'ok' else bad).add(m.group(1))
    targets = targets or sorted(ok | bad)
    done = [t for t in targets if t in ok]
    todo = [t for t in targets if t not in ok and t not in bad]
    failed = [t for t in targets if t in bad]
    claim = ('Build-tested with %s, vmlinux and every module, with no warning that the '
             'pristine tree does not have (make defconfigs, %s; NAME is '
             'arch/m68k/configs/NAME_defconfig, NAME+ftrace adds the tracing options on '
             'mcount sites with frame pointers, NAME+pfe on patchable entries with fprobe and '
             'direct calls): %s of the %d targets: %s.'
             % (record_compiler(text) or 'an unnamed compiler', where,
                'all' if not todo and not failed else len(done), len(targets),
                ', '.join(done) or 'none'))
    if failed:
        claim += ' FAILED (new warnings or no build): %s.' % ', '.join(failed)
    if todo:
        claim += ' Not yet built: %s.' % ', '.join(todo)
    return claim


def read_record(repo, var):
    """The walk record make names in the environment variable VAR (a path
    in REPO), as (text, path), an empty text while there is no file yet;
    None when VAR is not set."""
    where = os.environ.get(var)
    if not where:
        return None
    try:
        with open(os.path.join(repo, where)) as f:
            return f.read(), where
    except FileNotFoundError:
        return '', where


def build_claims(repo, gitdir, base, head):
    """@BUILDS@: what the two walk records, BISECT_RECORD and
    DEFCONFIGS_RECORD, say of this series' trees; DEFCONFIGS is make's
    list of targets."""
    trees = [git(gitdir, 'rev-parse', base + '^{tree}').strip()]
    trees += git(gitdir, 'log', '--reverse', '--format=%T', '%s..%s' % (base, head)).split()
    unnamed = '(no %s given: make series names it)'
    bisect = read_record(repo, 'BISECT_RECORD')
    defconfigs = read_record(repo, 'DEFCONFIGS_RECORD')
    targets = os.environ.get('DEFCONFIGS', '').split()
    claims = [bisect_claim(*bisect, trees) if bisect else unnamed % 'BISECT_RECORD',
              defconfigs_claim(*defconfigs, trees[0], trees[-1], targets) if defconfigs
              else unnamed % 'DEFCONFIGS_RECORD']
    return '\n\n'.join(textwrap.fill(c, 72, break_long_words=False, break_on_hyphens=False)
                       for c in claims)


def fill_cover(template, figures, where=COVER):
    subject, sep, blurb = template.partition('\n\n')
    if not sep or not subject.strip():
        raise SeriesError('%s: expected a subject line, a blank line, then the text' % where)

    def sub(m):
        if m.group(1) not in figures:
            raise SeriesError('%s: unknown placeholder @%s@' % (where, m.group(1)))
        return figures[m.group(1)]
    return subject.strip(), re.sub(r'@([A-Z_]+)@', sub, blurb).rstrip('\n')


def write_series(repo, gitdir, base, head, outdir):
    os.makedirs(outdir, exist_ok=True)
    for f in os.listdir(outdir):
        if f.endswith('.patch'):
            os.remove(os.path.join(outdir, f))
    # the cover letter is from the author of the last patch, dated as it
    who = git(gitdir, 'log', '-1', '--format=%an%n%ae%n%aD', head).splitlines()
    git(gitdir, 'format-patch', '-q', '--cover-letter', '--no-signature',
        '-o', outdir, '%s..%s' % (base, head), env=commit_env(*who))
    files = sorted(f for f in os.listdir(outdir) if f.endswith('.patch'))
    with open(os.path.join(repo, COVER)) as f:
        template = f.read()
    with open(os.path.join(repo, RESULTS)) as r:
        figures = cover_figures(r.read())
    figures['BASE'] = git(gitdir, 'log', '-1', '--format=%s', base).strip()
    figures['BUILDS'] = build_claims(repo, gitdir, base, head)
    subject, blurb = fill_cover(template, figures)
    cover = os.path.join(outdir, '0000-cover-letter.patch')
    with open(cover) as f:
        text = f.read()
    for marker, value in (('*** SUBJECT HERE ***', subject), ('*** BLURB HERE ***', blurb)):
        if marker not in text:
            raise SeriesError('%s: git format-patch wrote no %r' % (cover, marker))
        text = text.replace(marker, value, 1)
    with open(cover, 'w') as f:
        f.write(text)
    return files


def maintainers(pristine, patch):
    """Whom scripts/get_maintainer.pl names for PATCH, as (people, lists):
    one run, the mailing lists told apart by their role ("open list:X",
    "moderated list:X", "subscriber list:X")."""
    out = run(['perl', os.path.join('scripts', 'get_maintainer.pl'), '--no-git',
               '--no-git-fallback', patch], cwd=pristine)
    people, lists = [], []
    for line in filter(None, (line.strip() for line in out.splitlines())):
        # ADDRESS (ROLE:SECTION[,ROLE:SECTION...]); a section's name may
        # hold parentheses, an address does not
        addr, _, roles = line.partition(' (')
        if not roles.endswith(')'):
            raise SeriesError('get_maintainer.pl %s: no role in %r' % (patch, line))
        kind = roles[:-1].split(':')[0].split(',')[0]
        (lists if kind.endswith('list') else people).append(addr)
    return people, lists


def add_headers(path, headers):
    """Insert HEADERS [(name, [address...])] at the end of a mail's header."""
    with open(path) as f:
        text = f.read()
    end = text.find('\n\n')
    if end < 0:
        raise SeriesError('%s: no end of the mail header' % path)
    lines = ''.join('\n%s: %s' % (name, ',\n    '.join(addrs))
                    for name, addrs in headers if addrs)
    with open(path, 'w') as f:
        f.write(text[:end] + lines + text[end:])


def address(pristine, outdir, files):
    """To: and Cc: from get_maintainer.pl for each patch; the cover letter
    goes to everyone any patch goes to."""
    if not os.path.exists(os.path.join(pristine, 'scripts', 'get_maintainer.pl')):
        print('series: %s has no scripts/get_maintainer.pl: the patches are not addressed'
              % pristine)
        return
    every_person, every_list = [], []
    for name in files:
        if name.startswith('0000-'):
            continue
        path = os.path.join(outdir, name)
        people, lists = maintainers(pristine, path)
        every_person += [a for a in people if a not in every_person]
        every_list += [a for a in lists if a not in every_list]
        add_headers(path, [('To', people), ('Cc', lists)])
    add_headers(os.path.join(outdir, '0000-cover-letter.patch'),
                [('To', every_person), ('Cc', every_list)])


def cmd_make(repo, pristine, gitdir, outdir):
    series = read_series(repo)
    by_patch = load_map(repo, series)
    base = make_base(gitdir, pristine)
    head = build_commits(repo, gitdir, base, series, by_patch)
    files = write_series(repo, gitdir, base, head, outdir)
    address(pristine, outdir, files)
    print('series: %d patches and a cover letter in %s' % (len(files) - 1, outdir))


def cmd_am_check(pristine, seriesdir, tree, workdir):
    patches = sorted(os.path.join(seriesdir, f) for f in os.listdir(seriesdir)
                     if re.match(r'\d{4}-.*\.patch$', f) and not f.startswith('0000-'))
    if not patches:
        raise SeriesError('%s: no patches (run make series)' % seriesdir)
    if os.path.exists(workdir):
        shutil.rmtree(workdir)
    # Hard links are safe: git am writes a changed file as a new file.
    run(['cp', '-al', pristine, workdir])
    gitdir = os.path.join(workdir, '.git')
    run(['git', 'init', '-q', workdir])
    env = commit_env('pristine import', 'nobody@localhost', '@0 +0000')
    base_tree = import_tree(gitdir, workdir, os.path.join(gitdir, 'index'))
    base = git(gitdir, 'commit-tree', base_tree, '-m', 'pristine', env=env).strip()
    git(gitdir, 'update-ref', 'HEAD', base)
    for f in HARNESS_FILES:
        if os.path.exists(os.path.join(workdir, f)):
            os.remove(os.path.join(workdir, f))
    try:
        # no background gc: it would still be deleting objects when the
        # next am-check removes workdir (rmtree failed on a vanished
        # .git/objects/3f once)
        run(['git', '-C', workdir, '-c', 'gc.auto=0', 'am', '-q', '--whitespace=nowarn'] +
            patches, env=env)
    except SeriesError as e:
        raise SeriesError('git am of %s failed:\n%s' % (seriesdir, e))
    n = int(git(gitdir, 'rev-list', '--count', '%s..HEAD' % base).strip())
    if n != len(patches):
        raise SeriesError('git am made %d commits from %d patches' % (n, len(patches)))
    result = git(gitdir, 'rev-parse', 'HEAD^{tree}').strip()
    want = import_tree(gitdir, tree, os.path.join(workdir, '.git', 'index-tree'))
    if result != want:
        diff = git(gitdir, 'diff', '--stat=200', '--summary', result, want)
        raise SeriesError('git am of the series does not give %s; differences '
                          '(a = series, b = build tree):\n%s' % (tree, diff))
    print('am-check: %d patches apply with git am to a fresh import of %s, '
          'and the result equals %s (tree %s)' % (n, pristine, tree, result[:12]))


def m68k_kconfig_text(tree):
    text = []
    for d, _, files in os.walk(os.path.join(tree, 'arch', 'm68k')):
        for f in sorted(files):
            if f.startswith('Kconfig'):
                with open(os.path.join(d, f)) as fh:
                    text.append(fh.read())
    return '\n'.join(text)


def feature_tables(tree):
    """{table path: (Kconfig expression, m68k status)} of one tree."""
    top = os.path.join(tree, 'Documentation', 'features')
    tables = {}
    for d, _, files in os.walk(top):
        # Documentation/features/SUBSYSTEM/FEATURE/arch-support.txt
        if 'arch-support.txt' not in files or os.path.dirname(os.path.dirname(d)) != top:
            continue
        path = os.path.join(d, 'arch-support.txt')
        rel = os.path.relpath(path, tree)
        with open(path) as f:
            text = f.read()
        k = re.search(r'^#\s+Kconfig:\s*(\S+)', text, re.M)
        row = re.search(r'^\s*\|\s*m68k:\s*\|\s*(\S+)\s*\|', text, re.M)
        if not k or not row:
            raise SeriesError('%s: no Kconfig: line or no m68k row' % rel)
        tables[rel] = (k.group(1), row.group(1))
    return tables


def kconfig_says_ok(expr, kconfig):
    """features-refresh.sh's rule: K is supported if the arch's Kconfig names it."""
    if expr.startswith('!'):
        return expr[1:] not in kconfig
    return expr in kconfig


def check_features(old, new, old_kconfig, new_kconfig):
    """Return (changed rows, errors)."""
    changed, errors = [], []
    for rel in sorted(new):
        expr, row = new[rel]
        old_row = old.get(rel, (expr, row))[1]
        was, now = kconfig_says_ok(expr, old_kconfig), kconfig_says_ok(expr, new_kconfig)
        if row != old_row:
            changed.append('%s: m68k %s -> %s (%s)' % (rel, old_row, row, expr))
        if was == now and row != old_row:
            errors.append('%s: the m68k row changed to %s, but the series does not change '
                          'whether arch/m68k selects %s' % (rel, row, expr))
        elif was != now and (row == 'ok') != now:
            errors.append('%s: the series %s %s on m68k, but the row says %s'
                          % (rel, 'adds' if now else 'removes', expr, row))
    return changed, errors


def cmd_features_check(pristine, tree):
    changed, errors = check_features(feature_tables(pristine), feature_tables(tree),
                                     m68k_kconfig_text(pristine), m68k_kconfig_text(tree))
    for c in changed:
        print('features-check: ' + c)
    if errors:
        raise SeriesError('\n'.join(errors))
    print('features-check: %d m68k rows changed, each by a Kconfig select of the series'
          % len(changed))


def main(argv):
    try:
        if len(argv) == 5 and argv[0] == 'make':
            cmd_make(*[os.path.realpath(a) for a in argv[1:]])
        elif len(argv) == 5 and argv[0] == 'am-check':
            cmd_am_check(*[os.path.realpath(a) for a in argv[1:]])
        elif len(argv) == 3 and argv[0] == 'features-check':
            cmd_features_check(*[os.path.realpath(a) for a in argv[1:]])
        elif argv[:1] == ['restage'] and len(argv) in (2, 3):
            done = restage(os.path.realpath(argv[1]), *argv[2:])
            for stage in done:
                print('restage: %s' % stage)
            print('restage: %d stage diff(s) rewritten' % len(done))
        elif len(argv) == 2 and argv[0] == 'map-check':
            repo = os.path.realpath(argv[1])
            load_map(repo, read_series(repo))
            print('map-check: every overlay file belongs to one patch of the series')
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except (SeriesError, OSError) as e:
        print('series: %s' % e, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
