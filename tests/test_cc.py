"""The guest's C compiler and make: cc (Debian's libtcc behind our driver,
a Linux binary run by compat/linux) compiles against /usr/include and
links crt0.o, libc.a and libgcc.a; make rebuilds what is out of date and
stops with BSD make's status on an error.  And the Linux layer itself,
from inside: /usr/tests/linuxtest (tests/linux/linuxtest.c, built with
glibc on the host) checks errno values, open flags, statx, _llseek,
memory, TLS and ENOSYS for a call the layer lacks.

The sources are tests/cc, installed as /usr/tests/cc.  On a full disk
cc, and the Linux layer below it, must report every failed write.
"""
from __future__ import annotations

import re

from tests import fslib
from tests.guest import Guest

COMPILE_TIMEOUT = 300


def test_hello_world_compiles_and_runs(guest: Guest) -> None:
    out = guest.ok("cd /tmp && cc -o hello /usr/tests/cc/hello.c && ./hello",
                   timeout=COMPILE_TIMEOUT)
    assert "hello, world: 1000000000000 / 7 = 142857142857" in out, out
    # The output is one of our own programs, not a Linux one.
    out = guest.ok("od -c /tmp/hello | head -1")
    assert "E   L   F" in out, out


def test_a_scanf_input_loop_compiles_and_runs(guest: Guest) -> None:
    """libc has scanf (a student's first input loop used to fail to link)."""
    out = guest.ok("cd /tmp && cc -o sum /usr/tests/cc/sum.c && "
                   "printf 'total 1 2\\n 3\\n-4 10\\n' | ./sum",
                   timeout=COMPILE_TIMEOUT)
    assert "total: 5 numbers, sum 12" in out, out


def test_make_builds_then_rebuilds_only_the_touched_file(guest: Guest) -> None:
    guest.ok("cp -r /usr/tests/cc/multi /tmp/multi")
    out = guest.ok("cd /tmp/multi && make", timeout=COMPILE_TIMEOUT)
    for src in ("main.c", "add.c", "mul.c"):
        assert f"cc -O -I. -c {src}" in out, out
    assert "cc -o calc main.o add.o mul.o" in out, out
    assert "add(2, 3) = 5, mul(4, 5) = 20" in guest.ok("./calc")

    assert "`calc' is up to date." in guest.ok("make")
    out = guest.ok("touch add.c && make", timeout=COMPILE_TIMEOUT)
    assert "cc -O -I. -c add.c" in out, out
    assert "main.c" not in out and "mul.c" not in out, \
        f"only add.c should recompile:\n{out}"
    assert "cc -o calc main.o add.o mul.o" in out, out

    out = guest.ok("touch calc.h && make -n")
    assert out.count(" -c ") == 3, f"a header change remakes all three:\n{out}"
    assert "`calc' is up to date." not in guest.ok("make -n"), \
        "make -n must not have run anything"


def test_compile_error_prints_tcc_message_and_make_stops(guest: Guest) -> None:
    guest.ok("cp -r /usr/tests/cc/broken /tmp/broken")
    out, status = guest.run("cd /tmp/broken && make", timeout=COMPILE_TIMEOUT)
    assert status == 1, f"make's status after a failed command: {status}\n{out}"
    assert re.search(r"bad\.c:5: error: ';' expected", out), out
    assert "*** Error code 1" in out and "Stop." in out, out
    assert "good.c" not in out, f"make must stop at the first error:\n{out}"
    _, status = guest.run("test -f bad.o")
    assert status != 0, "a failed compile leaves no object"

    out, status = guest.run("make -k", timeout=COMPILE_TIMEOUT)
    assert status == 1, out
    assert "cc -O -c good.c" in out and "(continuing)" in out, out
    assert "`prog' not remade because of errors." in out, out


def test_make_reports_what_it_cannot_make(guest: Guest) -> None:
    out, status = guest.run("cd /tmp && make -f /dev/null nothing")
    assert status == 2, out
    assert "don't know how to make nothing" in out, out


def test_linux_layer_from_inside(guest: Guest) -> None:
    out, status = guest.run("/usr/tests/linuxtest /tmp", timeout=120)
    failed = [l for l in out.splitlines() if "FAILED" in l]
    assert not failed, "\n".join(failed)
    assert re.search(r"^\d+ passed, 0 failed", out, re.M), out
    assert status == 0
    # The unsupported call is named on the console once, and gets ENOSYS.
    assert "system call 26 is not supported: ENOSYS" in out, out
    assert "ptrace, not in the table, says ENOSYS: ok" in out, out


def test_kernel_threads_survive_linux_programs(tmp_path) -> None:
    """After a Linux program, the CPU's %gs held the selector of its TLS slot;
    an interrupt in a kernel thread (whose slot is empty) then faulted in
    trapret.  Compiles while the update daemon syncs every second give those
    interrupts many chances."""
    with Guest(tmp_path, kargs="syncinterval=1") as g:
        g.ok("cd /tmp && cp -r /usr/tests/cc/multi m")
        for _ in range(6):
            g.ok("cd /tmp/m && make -s clean && make -s && ./calc > /dev/null",
                 timeout=COMPILE_TIMEOUT)
            g.ok("/usr/tests/linuxtest /tmp > /dev/null")
        assert "panic" not in g.ok("echo alive") + g.boot_log


FULL_SD1_SECTORS = 8192     # a 4 MB scratch disk: quick to fill
ROOM_KB = 8                 # given back: stdio's first 8 KB write of a
                            # program (hello is 13 KB) fits, the rest not
NOSPACE = "No space left on device"


def cc_fails(g: Guest, cmd: str, *outputs: str) -> None:
    """cmd (running cc) exits non-zero, says which output could not be
    written and why, and leaves none of the outputs (names as cc gives
    them: absolute, or in /mnt) behind."""
    out, status = g.run(cmd, timeout=COMPILE_TIMEOUT)
    assert status != 0, f"{cmd!r} exited 0 on a full disk:\n{out}"
    for o in outputs:
        assert f"cc: {o}: {NOSPACE}" in out, \
            f"{cmd!r} did not name {o}:\n{out}"
        assert g.run(f"cd /mnt && test -e {o}")[1] != 0, \
            f"{cmd!r} left {o} behind"


def test_cc_reports_a_full_disk(guests) -> None:
    """Issue 21, item 8: tcc ignores what fwrite and fclose say, so cc
    exited 0 leaving a truncated object or program when the disk filled."""
    g = guests.boot(sd1_sectors=FULL_SD1_SECTORS)
    fslib.ffs(g)
    g.ok("cp -r /usr/tests/cc/multi /mnt/multi")
    g.ok(f"dd if=/dev/zero of=/mnt/room bs=1k count={ROOM_KB} 2>/dev/null")
    # Whole blocks first, then the last fragments.
    out = g.run("dd if=/dev/zero of=/mnt/filler bs=8k", timeout=300)[0]
    out += g.run("dd if=/dev/zero of=/mnt/frags bs=1k", timeout=300)[0]
    assert out.count(NOSPACE) == 2, f"dd did not fill the disk:\n{out}"

    hello = "/usr/tests/cc/hello.c"
    cc_fails(g, f"cc -o /mnt/hello {hello}", "/mnt/hello")
    cc_fails(g, f"cc -c -o /mnt/hello.o {hello}", "/mnt/hello.o")
    cc_fails(g, "cd /mnt && cc -c -I/usr/tests/cc/multi "
                "/usr/tests/cc/multi/add.c /usr/tests/cc/multi/mul.c",
             "add.o", "mul.o")
    cc_fails(g, f"cc -E -o /mnt/hello.i {hello}", "/mnt/hello.i")
    out, status = g.run("cd /mnt/multi && make", timeout=COMPILE_TIMEOUT)
    assert status == 1 and "*** Error code 1" in out, out
    assert g.run("test -e /mnt/multi/main.o")[1] != 0, out
    # The Linux layer hands ENOSPC to write, writev and stdio.
    fslib.check_program(g, "linuxraw", "-d /mnt full")

    # Room for the start of a program but not all of it: no half program.
    g.ok("cd / && rm /mnt/room")
    cc_fails(g, f"cc -o /mnt/hello {hello}", "/mnt/hello")

    # With the disk emptied the same commands work.
    g.ok("rm /mnt/filler /mnt/frags")
    assert "hello, world" in g.ok(f"cc -o /mnt/hello {hello} && /mnt/hello",
                                  timeout=COMPILE_TIMEOUT)
    g.ok(f"cc -E -o /mnt/hello.i {hello} && "
         "grep 'main(void)' /mnt/hello.i > /dev/null", timeout=COMPILE_TIMEOUT)
    assert "add(2, 3) = 5" in g.ok("cd /mnt/multi && make && ./calc",
                                   timeout=COMPILE_TIMEOUT)
