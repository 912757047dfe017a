"""Copy-on-write fork (kern/i386/pmap.c pmap_copy and pmap_cow,
kern/vm_page.c): /usr/tests/cowtests (tests/prog/cowtests) in a fresh
guest, and its big process again in a 16 MB guest, where the child that
writes every page runs out of memory for its copies and is killed.

What cowtests checks: parent and child each see only their own writes to
a shared page; read(2) into a shared page (the kernel's copyout) leaves
the other process's copy; a pipe's data survives a fork in the middle;
exec after fork; text and rodata stay read-only; fork shares instead of
copying (vmstats(2)); many forks, writes, execs and exits give every page
back.  The shell's own fork+exec is watched through vmstat(1).
"""
from __future__ import annotations

import re

from tests.fslib import check_program
from tests.guest import Guest

VMSTAT = re.compile(r"pages: (?P<total>\d+) total, (?P<free>\d+) free, "
                    r"(?P<user>\d+) user, (?P<shared>\d+) shared\n"
                    r"copy-on-write faults: (?P<copied>\d+) copied, "
                    r"(?P<reused>\d+) reused")


def vmstat(g: Guest) -> dict[str, int]:
    out = g.ok("vmstat")
    m = VMSTAT.search(out)
    assert m, f"vmstat printed:\n{out}"
    return {k: int(v) for k, v in m.groupdict().items()}


def test_cowtests(guest):
    check_program(guest, "cowtests")


def test_big_fork_with_memory_short(guests):
    g = guests.boot(mem=16)
    check_program(g, "cowtests", "-p 8")
    # Memory came back: the shell can still fork and exec.
    assert g.ok("echo after").strip() == "after"


def test_shell_fork_exec_copies_a_few_pages_and_loses_none(guest):
    """sh forks and the child execs at once: a copy of the shell (some 27
    pages) is no longer made, only of the few pages the child writes."""
    before = vmstat(guest)
    guest.ok("for i in 1 2 3 4 5 6 7 8 9 10; do /bin/true; done")
    after = vmstat(guest)
    copies = after["copied"] - before["copied"]
    assert after["user"] == before["user"], (before, after)
    assert 0 < copies < 10 * 10, f"{copies} pages copied for 11 forks"
