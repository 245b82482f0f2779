#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host tests for m68k support in the kernel's C recordmcount.

Builds scripts/recordmcount from the pristine kernel tree of KERNEL
(build/KERNEL/pristine; KERNEL from the environment, 7.3 by default) with
that kernel's 0009-recordmcount-support-m68k.patch applied (patches/ for
7.3, frozen/6.12/patches for 6.12), runs it on
objects made by the m68k cross compiler, and checks the __mcount_loc table
it appends against the calls to _mcount that objdump finds on its own.

Run from the repository root:
    python3 -m unittest harness/tests/test_recordmcount.py -v

Environment:
    RECORDMCOUNT_SRC     a directory with an already patched recordmcount.c
                         and recordmcount.h to test instead (for checking
                         that the tests catch mistakes)
    RECORDMCOUNT_CORPUS  a directory of m68k kernel objects (for example
                         build/7.3/kobj-dynamic) to check as well; slow, opt-in
"""

import os
import re
import shutil
import struct
import subprocess
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
KERNEL = os.environ.get("KERNEL", "7.3")
PRISTINE = REPO / "build" / KERNEL / "pristine"
PATCH = (REPO / "patches" if KERNEL == "7.3" else REPO / "frozen" / KERNEL / "patches") \
    / "0009-recordmcount-support-m68k.patch"

CROSS_CC = "m68k-linux-gnu-gcc-12"
OBJDUMP = "m68k-linux-gnu-objdump"
READELF = "m68k-linux-gnu-readelf"
LD = "m68k-linux-gnu-ld"
HOSTCC = os.environ.get("HOSTCC", "gcc")
# What scripts/Makefile.host builds host programs with (KBUILD_HOSTCFLAGS).
HOSTCFLAGS = ["-Wall", "-Wmissing-prototypes", "-Wstrict-prototypes",
              "-O2", "-fomit-frame-pointer", "-std=gnu11"]
SANITIZE = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all",
            "-g"]
# Tell sanitizer reports from recordmcount's own exit status 1.
SANITIZER_ENV = dict(os.environ, ASAN_OPTIONS="exitcode=99",
                     UBSAN_OPTIONS="exitcode=98")
CFLAGS = ["-O2", "-pg", "-fno-omit-frame-pointer"]

EM_68K = 4
SHT_PROGBITS, SHT_SYMTAB, SHT_RELA = 1, 2, 4
SHF_ALLOC, SHF_EXECINSTR = 0x2, 0x4
R_68K_32, R_68K_PC32 = 1, 4
MCOUNT_ADDR = 0x4000          # where the link test puts _mcount

# The sections recordmcount records calls in (is_mcounted_section_name()).
MCOUNTED = (".init.text", ".ref.text", ".sched.text", ".spinlock.text",
            ".irqentry.text", ".softirqentry.text", ".kprobes.text",
            ".cpuidle.text")


def is_mcounted(name):
    return name.startswith(".text") or name in MCOUNTED


# Traced code: every function here gets exactly one call to _mcount, and
# every other reference to _mcount is not a call and must not be recorded.
SRC_TRACED = r"""
struct big { int a[8]; };
extern void _mcount(void);
extern void other(void);

void *mcount_ptr = _mcount;                     /* data, .rela.data */

static __attribute__((noinline)) int helper(int x) { return x * 3; }
int visible(int a) { return helper(a) + 1; }
__attribute__((section(".init.text"))) int init_fn(int a) { return a + 2; }
__attribute__((section(".sched.text"))) int sched_fn(int a) { return a - 2; }
__attribute__((section(".text.unlikely"))) int cold_fn(int a) { return a; }
struct big ret_big(int x) { struct big b = { { x } }; return b; }
int saves(int a, int b, int c, int d)
{
	register int x asm("d2") = a * b;

	asm volatile("" : "+d"(x));
	return x + c + d;
}
void leaf(void) { }
void *addr_of_mcount(void) { return (void *)_mcount; }  /* lea _mcount */
void tail_call(int x) { if (x) other(); _mcount(); }    /* bra.l/jmp */

asm("	.text\n"
    "	.globl fake_refs\n"
    "fake_refs:\n"
    "	.short 0x4e71\n"
    "	.long _mcount\n"            /* R_68K_32 after a nop */
    "	.short 0x61ff\n"
    "	.long _mcount\n"            /* R_68K_32 after the bsr.l opcode */
    "	.short 0x4eb9\n"
    "	.long _mcount - .\n"        /* R_68K_PC32 after the jsr opcode */
    "	jmp _mcount\n"
    "	lea _mcount,%a0\n"
    "	.byte 0\n"
    "	.short 0x61ff\n"
    "	.long _mcount - .\n"        /* R_68K_PC32, odd offset, after 61ff */
    "	.byte 0\n"
    "	.short 0x4e71\n");
"""

# Functions in a section recordmcount does not record: left alone.
SRC_NOT_RECORDED = r"""
__attribute__((section(".noinstr.text"))) int quiet(int a) { return a + 1; }
int loud(int a) { return quiet(a) * 2; }
"""

SRC_NO_FUNCTIONS = r"""
int counter = 3;
const char banner[] = "no functions here";
"""

SRC_HOST = r"""
int g(int x) { return x + 1; }
int h(void) { return g(2); }
"""


def run(cmd, **kw):
    return subprocess.run([str(c) for c in cmd], capture_output=True,
                          text=True, timeout=300, **kw)


def check_run(cmd, **kw):
    r = run(cmd, **kw)
    if r.returncode:
        raise AssertionError("%s failed (%d):\n%s%s" % (
            " ".join(map(str, cmd)), r.returncode, r.stdout, r.stderr))
    return r


class Elf32:
    """Just enough of an ELF32 reader for the tests."""

    def __init__(self, data):
        if data[:4] != b"\x7fELF" or data[4] != 1:
            raise ValueError("not ELF32")
        self.data = data
        self.e = ">" if data[5] == 2 else "<"
        (self.e_type, self.e_machine, _, _, _, self.e_shoff, _, _, _, _,
         self.e_shentsize, self.e_shnum, self.e_shstrndx) = \
            struct.unpack_from(self.e + "HHIIIIIHHHHHH", data, 16)
        self.sections = []
        for i in range(self.e_shnum):
            off = self.e_shoff + i * 40
            f = struct.unpack_from(self.e + "10I", data, off)
            self.sections.append(dict(
                index=i, hdr=off, name_off=f[0], type=f[1], flags=f[2],
                addr=f[3], offset=f[4], size=f[5], link=f[6], info=f[7],
                align=f[8], entsize=f[9]))
        strtab = self.sections[self.e_shstrndx]
        for s in self.sections:
            s["name"] = self.cstr(strtab["offset"] + s["name_off"])

    @classmethod
    def read(cls, path):
        return cls(Path(path).read_bytes())

    def cstr(self, off):
        return self.data[off:self.data.index(b"\0", off)].decode()

    def section(self, name):
        found = [s for s in self.sections if s["name"] == name]
        return found[0] if len(found) == 1 else None

    def contents(self, s):
        return self.data[s["offset"]:s["offset"] + s["size"]]

    def symbols(self):
        symtab = [s for s in self.sections if s["type"] == SHT_SYMTAB][0]
        strtab = self.sections[symtab["link"]]
        syms = []
        for i in range(symtab["size"] // 16):
            name, value, size, info, _, shndx = struct.unpack_from(
                self.e + "IIIBBH", self.data, symtab["offset"] + 16 * i)
            syms.append(dict(name=self.cstr(strtab["offset"] + name),
                             value=value, size=size, type=info & 0xf,
                             bind=info >> 4, shndx=shndx))
        return syms

    def relas(self, s):
        out = []
        for i in range(s["size"] // 12):
            off, info, addend = struct.unpack_from(
                self.e + "IIi", self.data, s["offset"] + 12 * i)
            out.append(dict(offset=off, sym=info >> 8, type=info & 0xff,
                            addend=addend))
        return out

    def functions(self):
        """{section name: {function name: (start, end)}}"""
        out = {}
        for sym in self.symbols():
            if sym["type"] == 2 and 0 < sym["shndx"] < len(self.sections):
                sec = self.sections[sym["shndx"]]["name"]
                out.setdefault(sec, {})[sym["name"]] = (
                    sym["value"], sym["value"] + sym["size"])
        return out


def objdump_calls(path):
    """Read objdump -dr: ({section: {call site}}, [reference to _mcount]).

    A call site is an instruction that objdump decodes as a 6-byte
    "bsrl" (61ff) with an R_68K_PC32 against _mcount on its operand, or as
    a 6-byte "jsr" (4eb9) with an R_68K_32 against _mcount on its operand.
    """
    out = check_run([OBJDUMP, "-dr", "-z", path]).stdout
    insns, refs, sec = {}, [], None
    for line in out.splitlines():
        m = re.match(r"^Disassembly of section (\S+):$", line)
        if m:
            sec = m.group(1)
            insns.setdefault(sec, {})
            continue
        m = re.match(r"^\s+([0-9a-f]+): (R_68K_\w+)\s+(\S+)$", line)
        if m:
            if m.group(3) == "_mcount":
                refs.append((sec, int(m.group(1), 16), m.group(2)))
            continue
        m = re.match(r"^\s*([0-9a-f]+):\t((?:[0-9a-f]{4} )+)\s*\t(\S+)",
                     line)
        if m:
            insns[sec][int(m.group(1), 16)] = (m.group(2).split(),
                                               m.group(3))
    calls = {}
    for sec, off, rtype in refs:
        words, mnemonic = insns.get(sec, {}).get(off - 2, ([], ""))
        if len(words) != 3:
            continue
        if ((rtype, mnemonic, words[0]) in
                (("R_68K_PC32", "bsrl", "61ff"), ("R_68K_32", "jsr", "4eb9"))):
            calls.setdefault(sec, set()).add(off - 2)
    return calls, refs


def copy_sources(srcdir, outdir, patch=None):
    """Copy recordmcount.[ch] from srcdir, applying patch if given."""
    (Path(outdir) / "scripts").mkdir(parents=True)
    for name in ("recordmcount.c", "recordmcount.h"):
        shutil.copy(Path(srcdir) / name, Path(outdir) / "scripts")
    if patch:
        return check_run(["patch", "-p1", "--no-backup-if-mismatch",
                          "-i", patch], cwd=outdir).stdout
    return None


def build(outdir, name, flags):
    binary = Path(outdir) / name
    r = check_run([HOSTCC, *flags, "-o", binary,
                   Path(outdir) / "scripts" / "recordmcount.c"])
    return binary, r.stderr


def setUpModule():
    global TMP, RMC, RMC_ASAN, RMC_PRISTINE, PATCH_OUTPUT, BUILD_WARNINGS
    if not (PRISTINE / "scripts" / "recordmcount.c").is_file():
        raise unittest.SkipTest(
            "%s has no kernel source: run make to fetch it" % PRISTINE)
    for tool in (CROSS_CC, OBJDUMP, READELF, LD, HOSTCC, "patch"):
        if not shutil.which(tool):
            raise unittest.SkipTest("%s is not installed" % tool)
    TMP = tempfile.mkdtemp(prefix="test-recordmcount-")
    orig = Path(TMP) / "orig"
    copy_sources(PRISTINE / "scripts", orig)
    RMC_PRISTINE, _ = build(orig, "recordmcount", HOSTCFLAGS)
    new = Path(TMP) / "new"
    if os.environ.get("RECORDMCOUNT_SRC"):
        PATCH_OUTPUT = copy_sources(os.environ["RECORDMCOUNT_SRC"], new)
    else:
        PATCH_OUTPUT = copy_sources(PRISTINE / "scripts", new, PATCH)
    RMC, BUILD_WARNINGS = build(new, "recordmcount", HOSTCFLAGS)
    try:
        RMC_ASAN, _ = build(new, "recordmcount-asan", HOSTCFLAGS + SANITIZE)
    except AssertionError:
        RMC_ASAN = None         # no sanitizer runtime on this host


def tearDownModule():
    shutil.rmtree(TMP, ignore_errors=True)


class Base(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(dir=TMP))

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def compile(self, src, cpu="68040", name="t", flags=CFLAGS, cc=CROSS_CC):
        c = self.dir / (name + ".c")
        c.write_text(src)
        obj = self.dir / (name + ".o")
        cpuflags = ["-mcpu=" + cpu] if cpu else []
        check_run([cc, *flags, *cpuflags, "-c", c, "-o", obj])
        return obj

    def recordmcount(self, obj, binary=None, args=()):
        return run([binary or RMC, *args, obj], env=SANITIZER_ENV)

    def table(self, obj):
        """{section: {offset}} recorded in __mcount_loc, checking its form."""
        elf = Elf32.read(obj)
        loc = elf.section("__mcount_loc")
        rel = elf.section(".rela__mcount_loc")
        if loc is None and rel is None:
            return {}
        self.assertIsNotNone(loc)
        self.assertIsNotNone(rel)
        self.assertEqual(loc["type"], SHT_PROGBITS)
        self.assertEqual(loc["flags"], SHF_ALLOC)
        self.assertEqual((loc["entsize"], loc["align"]), (4, 4))
        self.assertEqual(rel["type"], SHT_RELA)
        self.assertEqual(rel["entsize"], 12)
        self.assertEqual(rel["info"], loc["index"])
        self.assertEqual(elf.sections[rel["link"]]["type"], SHT_SYMTAB)
        relas = elf.relas(rel)
        self.assertEqual(loc["size"], 4 * len(relas))
        # RELA: the addresses are all in the addends
        self.assertEqual(elf.contents(loc), bytes(loc["size"]))
        syms = elf.symbols()
        out = {}
        for i, r in enumerate(relas):
            self.assertEqual(r["offset"], 4 * i)
            self.assertEqual(r["type"], R_68K_32, "entry %d: %r" % (i, r))
            sym = syms[r["sym"]]
            self.assertTrue(0 < sym["shndx"] < len(elf.sections), sym)
            sec = elf.sections[sym["shndx"]]["name"]
            off = sym["value"] + r["addend"]
            self.assertNotIn(off, out.get(sec, set()), "duplicate entry")
            out.setdefault(sec, set()).add(off)
        # readelf and objdump still read the result without complaint
        r = check_run([READELF, "-aW", obj])
        self.assertNotIn("Warning", r.stderr)
        self.assertEqual(check_run([OBJDUMP, "-dr", obj]).stderr, "")
        return out

    def assert_unchanged(self, obj, before, r, rc=0):
        self.assertEqual(r.returncode, rc, r.stderr)
        self.assertEqual(obj.read_bytes(), before, "object was modified")
        self.assertFalse(Path(str(obj) + ".rc").exists())


class TestBuild(Base):
    def test_patch_applies_exactly(self):
        if PATCH_OUTPUT is None:
            self.skipTest("RECORDMCOUNT_SRC given")
        self.assertIn("patching file scripts/recordmcount.c", PATCH_OUTPUT)
        self.assertIn("patching file scripts/recordmcount.h", PATCH_OUTPUT)
        self.assertNotRegex(PATCH_OUTPUT, r"(?i)fuzz|offset|reject|fail")

    def test_builds_without_warnings(self):
        self.assertEqual(BUILD_WARNINGS, "")

    def test_patch_format(self):
        text = PATCH.read_text()
        head, sep, diff = text.partition("\n---\n")
        self.assertTrue(sep)
        # like every patch of patches/: no author, no sign-off (make series
        # adds the sender's)
        self.assertNotRegex(head, r"(?m)^(From|Signed-off-by):")
        self.assertRegex(head, r"(?m)^Subject: \[PATCH\] recordmcount: support m68k$")
        body = head.split("\n\n", 1)[1]
        for line in body.splitlines():
            self.assertLessEqual(len(line), 75, line)
        headers = re.findall(r"^(---|\+\+\+) (.*)$", diff, re.M)
        self.assertEqual(sorted(h for _, h in headers), [
            "a/scripts/recordmcount.c", "a/scripts/recordmcount.h",
            "b/scripts/recordmcount.c", "b/scripts/recordmcount.h"])

    def test_checkpatch_strict(self):
        if not shutil.which("perl"):
            self.skipTest("perl is not installed")
        # checkpatch caches CamelCase words in its working directory: give
        # it a tree of links to the pristine one so that stays untouched.
        root = self.dir / "tree"
        root.mkdir()
        for entry in PRISTINE.iterdir():
            (root / entry.name).symlink_to(entry)
        r = run(["perl", "scripts/checkpatch.pl", "--strict", "--no-signoff", PATCH],
                cwd=root)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("0 errors, 0 warnings, 0 checks", r.stdout)


class TestCallSites(Base):
    def check_cpu(self, cpu, opcode):
        obj = self.compile(SRC_TRACED, cpu, name="t" + cpu)
        calls, refs = objdump_calls(obj)
        elf = Elf32.read(obj)
        self.assertEqual(elf.e_machine, EM_68K)
        funcs = elf.functions()

        # The source is what it means to be: one call per function, in the
        # expected form, and references to _mcount that are no calls.
        self.assertIn("helper", funcs[".text"])
        self.assertEqual(set(funcs), {".text", ".init.text", ".sched.text",
                                      ".text.unlikely"})
        self.assertEqual(set(calls), set(funcs))
        for sec, fns in funcs.items():
            self.assertEqual(len(calls[sec]), len(fns), sec)
            for start, end in fns.values():
                inside = [c for c in calls[sec] if start <= c < end]
                self.assertEqual(len(inside), 1, (sec, start, calls[sec]))
        data = elf.contents(elf.section(".text"))
        for off in calls[".text"]:
            self.assertEqual(data[off:off + 2], opcode)
        sites = {(s, o) for s, offs in calls.items() for o in offs}
        fakes = [r for r in refs if (r[0], r[1] - 2) not in sites]
        self.assertGreaterEqual(len(fakes), 8, fakes)
        self.assertTrue(any(r[1] % 2 for r in fakes), "no odd reference")
        mcount = [s["name"] for s in elf.symbols()].index("_mcount")
        self.assertIn(mcount, [r["sym"] for r in
                               elf.relas(elf.section(".rela.data"))])

        r = self.recordmcount(obj)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")
        self.assertEqual(self.table(obj), calls)
        return obj

    def test_68040_bsr_l(self):
        self.check_cpu("68040", b"\x61\xff")

    def test_68060_bsr_l(self):
        self.check_cpu("68060", b"\x61\xff")

    def test_68000_jsr(self):
        self.check_cpu("68000", b"\x4e\xb9")

    def test_coldfire_5208_jsr(self):
        self.check_cpu("5208", b"\x4e\xb9")

    def test_coldfire_5475_bsr_l(self):
        self.check_cpu("5475", b"\x61\xff")

    def test_text_is_not_modified(self):
        # make_nop is NULL: the kernel converts the calls at boot, so the
        # original contents of every section stay as they were.
        obj = self.compile(SRC_TRACED)
        before = Elf32.read(obj)
        self.assertEqual(self.recordmcount(obj).returncode, 0)
        after = Elf32.read(obj)
        self.assertEqual(len(after.sections), len(before.sections) + 2)
        for old in before.sections:
            new = after.sections[old["index"]]
            self.assertEqual(new["name"], old["name"])
            if old["index"] == before.e_shstrndx:
                # a copy with ".rela__mcount_loc" added
                self.assertEqual(after.contents(new),
                                 before.contents(old)
                                 + b".rela__mcount_loc\0")
                continue
            self.assertEqual(after.contents(new), before.contents(old),
                             old["name"])

    def test_linked_entries_call_mcount(self):
        # Link the result and decode what every table entry points at.
        obj = self.check_cpu("68040", b"\x61\xff")
        cf = self.check_cpu("5208", b"\x4e\xb9")
        self.assertNotEqual(obj, cf)
        for o in (obj, cf):
            out = self.dir / (o.stem + ".elf")
            check_run([LD, "-o", out, "-e", "0", "-Ttext=0x10000",
                       "--defsym=_mcount=%#x" % MCOUNT_ADDR,
                       "--defsym=other=0x5000", o])
            elf = Elf32.read(out)
            loc = elf.section("__mcount_loc")
            addrs = struct.unpack(">%dI" % (loc["size"] // 4),
                                  elf.contents(loc))
            nfuncs = sum(len(f) for f in elf.functions().values())
            self.assertEqual(len(addrs), nfuncs)
            self.assertEqual(len(set(addrs)), nfuncs)
            for addr in addrs:
                sec = [s for s in elf.sections
                       if s["flags"] & SHF_EXECINSTR and
                       s["addr"] <= addr < s["addr"] + s["size"]]
                self.assertEqual(len(sec), 1, hex(addr))
                at = sec[0]["offset"] + addr - sec[0]["addr"]
                op, arg = struct.unpack_from(">HI", elf.data, at)
                if op == 0x61ff:
                    target = (addr + 2 + arg) & 0xffffffff
                else:
                    self.assertEqual(op, 0x4eb9, hex(addr))
                    target = arg
                self.assertEqual(target, MCOUNT_ADDR, hex(addr))

    def test_runs_twice(self):
        obj = self.compile(SRC_TRACED)
        self.assertEqual(self.recordmcount(obj).returncode, 0)
        before = obj.read_bytes()
        r = self.recordmcount(obj)
        self.assert_unchanged(obj, before, r)
        self.assertIn("warning: __mcount_loc already exists: %s" % obj,
                      r.stderr)

    def test_section_not_recorded(self):
        obj = self.compile(SRC_NOT_RECORDED)
        calls, _ = objdump_calls(obj)
        self.assertEqual(set(calls), {".text", ".noinstr.text"})
        before = Elf32.read(obj)
        r = self.recordmcount(obj, args=["-w"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(
            r.stdout,
            "Section .noinstr.text has mcount callers being ignored\n")
        self.assertEqual(self.table(obj), {".text": calls[".text"]})
        after = Elf32.read(obj)
        s = before.section(".noinstr.text")
        self.assertEqual(after.contents(after.sections[s["index"]]),
                         before.contents(s))


class TestUnchanged(Base):
    def check_unchanged(self, obj):
        before = obj.read_bytes()
        r = self.recordmcount(obj)
        self.assert_unchanged(obj, before, r)
        self.assertEqual(r.stdout + r.stderr, "")

    def test_without_pg(self):
        # Only references to _mcount that are not calls: no table at all.
        obj = self.compile(SRC_TRACED,
                           flags=["-O2", "-fno-omit-frame-pointer"])
        calls, refs = objdump_calls(obj)
        self.assertEqual(calls, {})
        self.assertGreaterEqual(len(refs), 8)
        self.check_unchanged(obj)

    def test_without_pg_coldfire(self):
        obj = self.compile(SRC_TRACED, "5208",
                           flags=["-O2", "-fno-omit-frame-pointer"])
        self.assertEqual(objdump_calls(obj)[0], {})
        self.check_unchanged(obj)

    def test_plain_functions_without_pg(self):
        obj = self.compile(SRC_NOT_RECORDED, flags=["-O2"])
        self.check_unchanged(obj)

    def test_no_functions(self):
        obj = self.compile(SRC_NO_FUNCTIONS)
        self.assertEqual(Elf32.read(obj).functions(), {})
        self.check_unchanged(obj)


class TestOtherMachines(Base):
    def test_pristine_rejects_m68k(self):
        # What the patch is for: without it m68k objects are refused.
        obj = self.compile(SRC_TRACED)
        before = obj.read_bytes()
        r = self.recordmcount(obj, binary=RMC_PRISTINE)
        self.assert_unchanged(obj, before, r, rc=1)
        self.assertEqual(r.stderr, "unrecognized e_machine 4 %s\n"
                         "%s: failed\n" % (obj, obj))

    def test_unknown_machine(self):
        obj = self.compile(SRC_TRACED)
        data = bytearray(obj.read_bytes())
        struct.pack_into(">H", data, 18, 0xbeef)
        obj.write_bytes(data)
        for binary in (RMC, RMC_PRISTINE):
            r = self.recordmcount(obj, binary=binary)
            self.assert_unchanged(obj, bytes(data), r, rc=1)
            self.assertEqual(r.stderr, "unrecognized e_machine 48879 %s\n"
                             "%s: failed\n" % (obj, obj))

    def host_object(self, extra):
        return self.compile(SRC_HOST, cpu=None, name="host" + extra[0],
                            flags=["-O2", "-pg", *extra], cc=HOSTCC)

    def test_host_objects_as_before(self):
        """Objects of the host (x86_64) are processed exactly as before."""
        machine = check_run([HOSTCC, "-dumpmachine"]).stdout
        if not machine.startswith("x86_64"):
            self.skipTest("host is %s, not x86_64" % machine.strip())
        changed = 0
        for extra in (["-mno-fentry"], ["-mfentry"], ["-mrecord-mcount"]):
            obj = self.host_object(extra)
            orig = obj.read_bytes()
            results = []
            for binary in (RMC_PRISTINE, RMC):
                obj.write_bytes(orig)
                r = self.recordmcount(obj, binary=binary)
                results.append((r.returncode, r.stdout, r.stderr,
                                obj.read_bytes()))
            self.assertEqual(results[0], results[1], extra)
            self.assertEqual(results[1][0], 0)
            changed += results[1][3] != orig
        # -pg and -pg -mfentry objects get a table; -mrecord-mcount has one
        self.assertEqual(changed, 2)


class TestMalformed(Base):
    """A broken object fails, naming the file, and is left as it was."""

    def check_fails(self, obj, data, what):
        for binary in (RMC, RMC_ASAN):
            if binary:
                self.check_fails_with(binary, obj, data, what)

    def check_fails_with(self, binary, obj, data, what):
        obj.write_bytes(data)
        r = self.recordmcount(obj, binary=binary)
        what = "%s (%s)" % (what, binary.name)
        with self.subTest(what):
            self.assertEqual(r.returncode, 1, "%s: %r" % (what, r))
            self.assertEqual(obj.read_bytes(), data, what)
            self.assertFalse(Path(str(obj) + ".rc").exists())
            lines = r.stderr.splitlines()
            self.assertEqual(lines[-1], "%s: failed" % obj, what)
            self.assertRegex(
                r.stderr, r"(?m)^(truncated|unrecognized)[^\n]*%s$"
                % re.escape(str(obj)), what)

    def test_truncated(self):
        obj = self.compile(SRC_TRACED)
        good = obj.read_bytes()
        elf = Elf32(good)
        text = elf.section(".text")
        cuts = {0, 1, 16, 51, 52, 53, 100, text["offset"] + 3,
                len(good) // 2, elf.e_shoff, elf.e_shoff + 39,
                len(good) - 40, len(good) - 1}
        for n in sorted(cuts):
            self.check_fails(obj, good[:n], "truncated to %d bytes" % n)
            if n < 52:      # sizeof(Elf32_Ehdr)
                self.assertEqual(self.recordmcount(obj).stderr,
                                 "truncated ELF header: %s\n"
                                 "%s: failed\n" % (obj, obj))

    def test_truncated_host(self):
        c = self.dir / "host.c"
        c.write_text(SRC_HOST)
        obj = self.dir / "host.o"
        check_run([HOSTCC, "-O2", "-pg", "-c", c, "-o", obj])
        good = obj.read_bytes()
        if good[4] != 2:
            self.skipTest("host objects are not ELF64")
        for n in (20, 52, 63, 64, 200, len(good) // 2, len(good) - 1):
            self.check_fails(obj, good[:n], "truncated to %d bytes" % n)
            if n < 64:      # sizeof(Elf64_Ehdr)
                self.assertEqual(self.recordmcount(obj).stderr,
                                 "truncated ELF header: %s\n"
                                 "%s: failed\n" % (obj, obj))

    def test_corrupt(self):
        obj = self.compile(SRC_TRACED)
        good = obj.read_bytes()
        elf = Elf32(good)
        size = len(good)
        rela = elf.section(".rela.text")
        symtab = elf.section(".symtab")
        strtab = elf.section(".strtab")
        mcount = [i for i, s in enumerate(elf.symbols())
                  if s["name"] == "_mcount"][0]
        call = [i for i, r in enumerate(elf.relas(rela))
                if r["sym"] == mcount and r["type"] == R_68K_PC32][0]
        call_rel = rela["offset"] + 12 * call

        def field(sec, n):
            return sec["hdr"] + 4 * n

        cases = [
            ("e_shoff past the end", 32, ">I", size + 64),
            ("e_shoff inside the header", 32, ">I", 8),
            ("section headers run past the end", 32, ">I", size - 80),
            ("e_shnum too large", 48, ">H", 0xff00),
            ("e_shstrndx out of range", 50, ">H", elf.e_shnum + 3),
            (".text sh_offset past the end",
             field(elf.section(".text"), 4), ">I", size + 4),
            (".rela.text sh_size too large", field(rela, 5), ">I",
             0x7ffffff0),
            (".rela.text sh_link out of range", field(rela, 6), ">I", 200),
            (".rela.text sh_link not a symtab", field(rela, 6), ">I",
             strtab["index"]),
            (".rela.text sh_info out of range", field(rela, 7), ">I", 200),
            (".rela.text sh_entsize 0", field(rela, 9), ">I", 0),
            (".symtab sh_entsize 0", field(symtab, 9), ">I", 0),
            (".symtab sh_link out of range", field(symtab, 6), ">I", 999),
            (".text sh_name out of range", field(elf.section(".text"), 0),
             ">I", 0xfffff),
            (".strtab not terminated", strtab["offset"] + strtab["size"] - 1,
             ">B", ord("x")),
            (".shstrtab empty", field(elf.sections[elf.e_shstrndx], 5),
             ">I", 0),
            ("symbol name out of range", symtab["offset"] + 16 * mcount,
             ">I", 0xfffff),
            ("relocation symbol out of range", call_rel + 4, ">I",
             0xffff00 | R_68K_PC32),
            ("relocation offset out of range", call_rel, ">I",
             elf.section(".text")["size"] + 16),
        ]
        for what, off, fmt, value in cases:
            data = bytearray(good)
            struct.pack_into(fmt, data, off, value)
            self.check_fails(obj, bytes(data), what)


def without_padding(data):
    """recordmcount (before and after the patch) leaves the few alignment
    bytes between the shstrtab it appends and the new section headers as
    they come from realloc(): not part of any section, but they differ
    between allocators.  Zero them."""
    try:
        elf = Elf32(data)
    except ValueError:
        return data
    shstr = elf.sections[elf.e_shstrndx]
    end = shstr["offset"] + shstr["size"]
    if 0 <= elf.e_shoff - end < 4:
        data = data[:end] + bytes(elf.e_shoff - end) + data[elf.e_shoff:]
    return data


class TestSanitized(Base):
    """The sanitizer build agrees with the plain one and reports nothing."""

    def test_sanitized(self):
        if not RMC_ASAN:
            self.skipTest("%s cannot build with %s" % (HOSTCC, SANITIZE))
        objs = [self.compile(SRC_TRACED, cpu, name="t" + cpu)
                for cpu in ("68040", "68000", "5208")]
        objs.append(self.compile(SRC_TRACED, name="nopg",
                                 flags=["-O2", "-fno-omit-frame-pointer"]))
        objs.append(self.compile(SRC_NOT_RECORDED, name="noinstr"))
        objs.append(self.compile(SRC_NO_FUNCTIONS, name="nofuncs"))
        for obj in objs:
            orig = obj.read_bytes()
            results = []
            for binary in (RMC, RMC_ASAN):
                obj.write_bytes(orig)
                r = self.recordmcount(obj, binary=binary, args=["-w"])
                results.append((r.returncode, r.stdout, r.stderr,
                                without_padding(obj.read_bytes())))
            self.assertEqual(results[1], results[0], obj.name)
            self.assertEqual(results[1][0], 0, obj.name)


class TestCorpus(Base):
    """Optional: every object of an m68k kernel build (RECORDMCOUNT_CORPUS)."""

    def test_corpus(self):
        corpus = os.environ.get("RECORDMCOUNT_CORPUS")
        if not corpus:
            self.skipTest("set RECORDMCOUNT_CORPUS to a kernel object tree")
        objs = [p for p in sorted(Path(corpus).rglob("*.o"))
                if p.name not in ("vmlinux.o", "ftrace.o") and
                p.read_bytes()[:20] == b"\x7fELF\x01\x02\x01" + bytes(9)
                + b"\x00\x01\x00\x04"]      # ET_REL, EM_68K
        self.assertTrue(objs)
        recorded = 0
        for src in objs:
            obj = self.dir / "obj.o"
            shutil.copy(src, obj)
            if Elf32.read(obj).section("__mcount_loc"):
                continue
            calls, _ = objdump_calls(obj)
            want = {s: o for s, o in calls.items() if is_mcounted(s)}
            r = self.recordmcount(obj)
            with self.subTest(str(src)):
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(self.table(obj), want)
            recorded += sum(len(o) for o in want.values())
        self.assertGreater(recorded, 0)


if __name__ == "__main__":
    unittest.main()
