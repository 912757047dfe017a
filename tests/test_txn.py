"""Kernel transactions on BSD-LFS (thesis 5.2), from the guest.

/usr/tests/txntests (tests/prog/txntests) checks what the four calls
promise: abort and commit images per operation, isolation under strict
two-phase locking, deadlock victims (rings and clumps), kill and exit
inside a transaction, access outside one, the NO-STEAL limit and that no
running transaction's page is written early.  The tests here add what a
user sees around them: chflags, ls -lo, dumplfs, fsck_lfs, txnstat, and
file systems that cannot protect a file.
"""
from __future__ import annotations

from tests import fslib


def test_txntests_all_pass_and_leave_a_consistent_file_system(guest):
    fslib.lfs(guest)
    fslib.check_program(guest, "txntests", "-d /mnt")
    stats = guest.ok("txnstat")
    assert "steals 0" in stats, stats
    guest.ok("umount /mnt")
    fslib.fsck_lfs_clean(guest, "-n")
    fslib.dumplfs_ok(guest)


def test_protection_is_a_flag_lfs_keeps_and_ffs_refuses(guest):
    guest.ok("echo data > /tmp/plain")
    out, status = guest.run("chflags txn /tmp/plain")
    assert status != 0 and "Operation not supported" in out, out
    fslib.lfs(guest)
    guest.ok("echo data > /mnt/f && chflags txn /mnt/f")
    assert " txn " in guest.ok("ls -lo /mnt/f")
    guest.ok("umount /mnt && mount -t lfs /dev/sd1a /mnt")
    assert " txn " in guest.ok("ls -lo /mnt/f"), "the flag survives unmount"
    assert guest.ok("cat /mnt/f").strip() == "data"
    guest.ok("chflags notxn /mnt/f")
    assert " txn " not in guest.ok("ls -lo /mnt/f")
    guest.ok("chflags txn /mnt/f && umount /mnt")
    assert "flags txn" in fslib.dumplfs_ok(guest)
    out, status = guest.run("chflags bogus /mnt/f")
    assert status != 0 and "no such flag" in out
