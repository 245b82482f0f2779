# SPDX-License-Identifier: GPL-2.0
"""gdb-multiarch side of `make profile` (harness/profile.sh): run as
`gdb-multiarch -batch -x profile_gdb.py` against a guest started with
QEMU's gdbstub and halted (-S).

Environment: PROFILE_VMLINUX (symbols), PROFILE_PORT (gdbstub),
PROFILE_OUT (file written), PROFILE_CALLS (how many calls to step).

Stops at the getppid() system call when it is one of `bench profile`'s
(its first argument holds the tag: on m68k sys_getppid()'s pt_regs.d1, at
4(%sp); on x86_64, the anchor, the saved %rdi of the pt_regs that
__x64_sys_getppid() gets in %rdi), then
single-steps until the call returns to its caller with the stack popped,
and writes every executed PC: "CALL n" then one hex PC a line.  QEMU
keeps interrupts and timers off while single-stepping, so nothing but
the call itself is counted.
"""
import os

import gdb  # pylint: disable=import-error

TAG = 0x50524f46        # guest/src/bench.c PROFILE_TAG
LIMIT = 200000          # a call that long is a runaway, not a profile
# the system call's entry, and where its first argument is at that entry
SYSCALL = {
    'm68k': ('sys_getppid', '*(unsigned long *)($sp + 4)'),
    # struct pt_regs of x86_64: di is its 15th unsigned long
    'x86_64': ('__x64_sys_getppid', '((unsigned long *)$rdi)[14]'),
}
MASK = 0xffffffff


def reg(name):
    return int(gdb.parse_and_eval(name)) & MASK


def main():
    global MASK  # pylint: disable=global-statement
    out = os.environ['PROFILE_OUT']
    arch = os.environ.get('PROFILE_ARCH', 'm68k')
    if arch not in SYSCALL:
        raise gdb.GdbError(f'PROFILE_ARCH={arch}: not one of {", ".join(SYSCALL)}')
    func, arg = SYSCALL[arch]
    calls = int(os.environ.get('PROFILE_CALLS', '5'))
    gdb.execute('set pagination off')
    gdb.execute('set confirm off')
    gdb.execute(f"file {os.environ['PROFILE_VMLINUX']}")
    MASK = (1 << (8 * gdb.lookup_type('void').pointer().sizeof)) - 1
    gdb.execute(f"target remote 127.0.0.1:{os.environ['PROFILE_PORT']}")
    gdb.execute(f'break *{func} if {arg} == {TAG:#x}')
    with open(out + '.tmp', 'w') as f:
        for n in range(calls):
            gdb.execute('continue')
            sp0 = reg('$sp')
            ret = reg('*(unsigned long *)$sp')
            f.write(f'CALL {n}\n')
            steps = 0
            while True:
                pc = reg('$pc')
                if pc == ret and reg('$sp') > sp0:
                    break
                f.write(f'{pc:x}\n')
                gdb.execute('stepi', to_string=True)
                steps += 1
                if steps > LIMIT:
                    raise gdb.GdbError(f'call {n}: no return after {LIMIT} steps')
            print(f'profile: call {n}: {steps} instructions')
    os.rename(out + '.tmp', out)
    gdb.execute('delete')
    gdb.execute('detach')


main()
