"""Copy-on-write fork (kern/i386/pmap.c pmap_copy and pmap_cow,
kern/vm_page.c): /usr/tests/cowtests (tests/prog/cowtests) in a fresh
guest, and its big process again in a 16 MB guest, where the child that
writes every page runs out of memory for its copies and is killed.

What cowtests checks: parent and child each see only their own writes to
a shared page; read(2) into a shared page (the kernel's copyout) leaves
the other process's copy; a pipe's data survives a fork in the middle;
exec after fork; text and rodata stay read-only; fork shares instead of
copying (vmstats(2)); many forks, writes, execs and exits give every page
back.
"""
from __future__ import annotations

from tests.fslib import check_program


def test_cowtests(guest):
    check_program(guest, "cowtests")


def test_big_fork_with_memory_short(guests):
    g = guests.boot(mem=16)
    check_program(g, "cowtests", "-p 8")
    # Memory came back: the shell can still fork and exec.
    assert g.ok("echo after").strip() == "after"
