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

import re

import pexpect
import pytest

from qemu import lfsdisk
from tests import fslib
from tests.guest import free_port, gdb_batch


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


def test_gdb_txn_shows_the_locks_and_who_waits_for_whom(guests):
    """At the moment a lock wait begins (txn_incycle), GDB's txn command
    shows the holder's exclusive page lock, the waiter's request and the
    edge between them."""
    port = free_port()
    g = guests.boot(gdb_port=port)
    fslib.lfs(g)
    gdb = gdb_batch(port, "gdb_txn.py", "break txn_incycle", "continue", "txn")
    gdb.expect("Breakpoint 1 at")
    g.send("/usr/tests/txntests -d /mnt -t nocycle\n")
    gdb.expect(pexpect.EOF)
    out = gdb.before.replace("\r", "")
    assert re.search(r"Breakpoint 1[.\d]*, .*txn_incycle", out), out
    assert re.search(r"txn (\d+): running, pid \d+ txntests, 1 dirty pages\n"
                     r"(?:.*\n)*?\s+held X ino \d+ page 0", out), out
    m = re.search(r"txn (\d+): running, pid \d+ txntests, 1 dirty", out)
    assert re.search(r"WAITS FOR S ino \d+ page 0\n\s+waits for txn "
                     + m.group(1), out), out
    g.expect(r"2 passed, 0 failed")


@pytest.mark.parametrize("elr", [True, False], ids=["early-release", "txn_elr=0"])
def test_gdb_a_commit_lets_its_locks_go_when_its_write_is_issued(guests, elr):
    """Just after txn_group_issued, with the commit's write handed to the
    disk and not yet waited for, GDB's txn command shows the committing
    transaction forcing and holding nothing; with txn_elr=0 it still holds
    its exclusive page lock (strict two-phase locking to the end)."""
    port = free_port()
    g = guests.boot(gdb_port=port, kargs="" if elr else "txn_elr=0")
    fslib.lfs(g)
    gdb = gdb_batch(port, "gdb_txn.py", "break txn_group_issued", "continue",
                    "finish", "txn")
    gdb.expect("Breakpoint 1 at")
    g.send("/usr/tests/txntests -d /mnt -t commit\n")
    gdb.expect(pexpect.EOF)
    out = gdb.before.replace("\r", "")
    # finish: back in the writer, the write issued and not yet waited for
    # (GDB names the call's line or the next, as the compiler laid it out)
    assert re.search(r"lfs_segwrite_vnodes .*\n\d+\s+(lfs_drain\(fs, 1\)|"
                     r"txn_group_issued\(fs\));", out), out
    assert re.search(r"txn \d+: forcing, pid \d+ txntests", out), out
    assert bool(re.search(r"\s+held X ino \d+ page \d+", out)) != elr, out
    g.expect(r"\d+ passed, 0 failed")


def test_protection_survives_roll_forward(guests):
    """chflags txn after the last checkpoint, made durable by fsync: after a
    power cut, the mount rolls forward and the file is still protected.
    (Commits across power cuts: the crash workload txn, tests/crash.)"""
    g = guests.boot(kargs="syncinterval=0")
    g.ok("newfs_lfs /dev/rsd1a > /dev/null && mount -n -t lfs /dev/sd1a /mnt"
         " && sync")
    g.ok("echo before > /mnt/f && chflags txn /mnt/f && fsync /mnt/f")
    g.close()                               # the power goes off
    g = guests.boot(kargs="syncinterval=0")
    out = g.ok("mount -n -t lfs /dev/sd1a /mnt")
    assert "rolled forward" in out, out
    assert " txn " in g.ok("ls -lo /mnt/f")
    assert g.ok("cat /mnt/f").strip() == "before"
    g.ok("umount /mnt")
    fslib.fsck_lfs_clean(g, "-n")


def test_a_forced_unmount_ends_the_transactions_open_on_it(guest):
    """umount -f with four transactions open (dirty pages, a shared page,
    a waiter, a plain read waiting): each ends with a clear error, nothing
    points at the freed file system (a commit after it faulted in
    lfs_segwrite_vnodes), and mounted again the file system holds none
    of their pages and fsck_lfs finds it clean."""
    fslib.lfs(guest)
    fslib.check_program(guest, "txntests", "-d /mnt -t forceumount")
    guest.ok("mount -t lfs /dev/sd1a /mnt")
    assert guest.ok("od -c /mnt/txntests.d/fa | head -1").split()[1] == "a"
    fslib.check_program(guest, "txntests", "-d /mnt -t commit")
    guest.ok("umount /mnt")
    fslib.fsck_lfs_clean(guest, "-n")


# --- NO-STEAL's limit and the buffer cache (issue 21, item 3) ---------------

def txnstat_maxdirty(g) -> int:
    m = re.search(r"txn_maxdirty (\d+)", g.ok("txnstat"))
    assert m, "txnstat shows no txn_maxdirty"
    return int(m.group(1))


def test_a_txn_maxdirty_above_the_cache_is_cut_down_and_said(guests):
    """txn_maxdirty=1000000 on a 6 MB cache: pinned, those pages would fill
    the cache and every process would wait for a buffer (no shell command
    completed).  The kernel takes what the cache can pin, says so at boot,
    and the transaction that reaches it gets ENOBUFS; the system goes on."""
    g = guests.boot(kargs="txn_maxdirty=1000000")
    fslib.lfs(g)
    fslib.check_program(g, "txntests", "-d /mnt -t limit")
    g.ok("dd if=/dev/zero of=/mnt/plain bs=64k count=64 2>/dev/null && ls /mnt")
    g.ok("umount /mnt")
    fslib.fsck_lfs_clean(g, "-n")
    m = re.search(r"txn: txn_maxdirty=1000000 is more than the buffer cache "
                  r"can pin below LFS's stop-access threshold; using (\d+) "
                  r"\((\d+) KB\)", g.boot_log)
    assert m, g.boot_log
    assert txnstat_maxdirty(g) == int(m.group(1))


def test_big_blocks_are_limited_by_the_bytes_the_cache_can_pin(guest):
    """With 64 KB blocks the default limit, an eighth of the buffers, is
    26 MB of pages in a 6 MB cache: the bytes pinned must stop the
    transaction before the cache is full."""
    guest.ok("newfs_lfs -b 65536 /dev/rsd1a > /dev/null && "
             "mount -n -t lfs /dev/sd1a /mnt")
    fslib.check_program(guest, "txntests", "-d /mnt -t limit")
    fslib.check_program(guest, "txntests", "-d /mnt -t commit")
    guest.ok("umount /mnt")
    fslib.fsck_lfs_clean(guest, "-n")


def test_a_txn_maxdirty_the_cache_can_pin_is_taken_and_said(guests):
    g = guests.boot(kargs="txn_maxdirty=100")
    assert "txn: txn_maxdirty=100 pages" in g.boot_log, g.boot_log
    assert txnstat_maxdirty(g) == 100
    fslib.lfs(g)
    fslib.check_program(g, "txntests", "-d /mnt -t limit")


def test_a_txn_maxdirty_that_is_no_number_of_pages_is_refused(guests):
    g = guests.boot(kargs="txn_maxdirty=lots")
    m = re.search(r"txn: txn_maxdirty=lots is not a number of pages; "
                  r"using (\d+)", g.boot_log)
    assert m, g.boot_log
    assert txnstat_maxdirty(g) == int(m.group(1)) > 1


# --- plain calls and deadlock victims (issue 21, item 5) ---------------------

def test_a_plain_call_that_closes_a_cycle_is_never_its_victim(guest):
    """A plain read, and a plain write, wait for a transaction's page and
    then close a cycle with another transaction: that transaction is the
    victim, the plain call goes through."""
    fslib.lfs(guest)
    fslib.check_program(guest, "txntests", "-d /mnt -t plaincycle")


def test_the_request_that_closes_a_cycle_is_its_victim_at_once(guest):
    """Rings of 2, 4 and 10 and a clump of upgraders whose members ask one
    at a time, in a given order: the last to ask closes the cycle and is
    the one victim (each upgrader after the first, in the clump), whether
    it is the youngest, the oldest or neither; the others commit, and
    txnstat counts each wait and each victim once.  A detector that waits
    to see (a timeout) takes the first waiter instead."""
    fslib.lfs(guest)
    fslib.check_program(guest, "txntests", "-d /mnt -t victims")
    guest.ok("umount /mnt")
    fslib.fsck_lfs_clean(guest, "-n")


def test_a_plain_write_that_closes_a_cycle_makes_the_youngest_its_victim(guest):
    """A plain write closes a cycle of two transactions, once with the
    younger the one it waits for, once with the younger the one waiting
    for it: the younger is the victim both times, the plain write and
    the older transaction go through."""
    fslib.lfs(guest)
    fslib.check_program(guest, "txntests", "-d /mnt -t youngest")
    stats = guest.ok("txnstat")
    m = re.search(r"victims (\d+)", stats)
    assert m and int(m.group(1)) == 2, stats


def test_plain_reads_and_writes_among_deadlocking_transactions_never_fail(guest):
    """Eight transactions at a time with deadlocks, a plain 64 KB reader and
    a plain writer among them (15% of the reads failed with ETXNABORT):
    no plain call fails, every plain read sees a committed state, and
    txnstat's victims are all transactions' (implicit ones never abort)."""
    fslib.lfs(guest)
    fslib.check_program(guest, "txntests", "-d /mnt -t plainload")
    stats = guest.ok("txnstat")
    m = re.search(r"begins (\d+) implicit (\d+) commits (\d+) aborts (\d+) "
                  r"victims (\d+)", stats)
    assert m, stats
    begins, implicit, commits, aborts, victims = map(int, m.groups())
    assert victims > 0 and commits + aborts == begins + implicit, stats
    guest.ok("umount /mnt")
    fslib.fsck_lfs_clean(guest, "-n")


def test_filling_a_hole_waits_for_the_size_lock_and_does_not_spin(guest):
    """A transaction (and a plain write) filling a hole needs the size lock
    a transaction that appended holds.  The write asked for it without
    waiting, again and again, in the kernel: nothing else ran, not even
    the shell.  It must wait for it, and both must commit."""
    fslib.lfs(guest)
    fslib.check_program(guest, "txntests", "-d /mnt -t holefill")
    guest.ok("umount /mnt")
    fslib.fsck_lfs_clean(guest, "-n")


# --- who may block whom (issue 21, item 4) -----------------------------------

def test_a_reader_who_may_not_write_blocks_no_one(guest):
    """root's protected file, mode 644; student's processes (txntests'
    children, setuid 1000) hold its pages in a transaction, or stop inside
    a plain read: the owner's transaction, its plain write, a plain read
    and chflags notxn all go through (they waited as long as the reader
    lived); the reader's transaction is aborted instead.  A reader who may
    write (mode 666) still makes the writer wait."""
    fslib.lfs(guest)
    fslib.check_program(guest, "txntests", "-d /mnt -t dos")
    stats = guest.ok("txnstat")
    m = re.search(r"read locks broken (\d+)", stats)
    assert m and int(m.group(1)) > 0, stats
    guest.ok("umount /mnt")
    fslib.fsck_lfs_clean(guest, "-n")


def test_student_holding_roots_file_in_a_transaction_stalls_no_command(guest):
    """From the shell: student begins a transaction, reads every page of
    root's protected ledger and sleeps in the background.  root's dd into
    the ledger, student's cat of it and chflags all complete; then the
    sleeper's commit fails with ETXNABORT."""
    fslib.lfs(guest)
    d = "/mnt/txntests.d"
    guest.ok(f"mkdir {d} && dd if=/dev/zero of={d}/ledger bs=4096 count=16 "
             f"2>/dev/null && fsync {d}/ledger && chmod 644 {d}/ledger && "
             f"chflags txn {d}/ledger")
    guest.send("su student -c '/usr/tests/txntests -d /mnt -t readhold' &\n")
    guest.expect(r"readhold: pid (\d+) holds 16 pages")
    pid = guest.child.match.group(1)
    guest.ok("echo ready")                  # the prompt is back
    guest.ok(f"echo owner | dd of={d}/ledger conv=notrunc 2>/dev/null",
             timeout=30)
    assert guest.ok(f"su student -c 'od -c {d}/ledger' | head -1",
                    timeout=30).split()[1:6] == list("owner")
    guest.ok(f"chflags notxn {d}/ledger && chflags txn {d}/ledger",
             timeout=30)
    out = guest.ok(f"kill -USR1 {pid}; wait")
    assert "commit fails with ETXNABORT: ok" in out, out
    assert "2 passed, 0 failed" in out, out
    guest.ok("umount /mnt")
    fslib.fsck_lfs_clean(guest, "-n")


def test_a_checkpoint_logs_again_the_delta_of_a_page_a_transaction_holds(guests):
    """Delta commits (lfs/lfs_txndelta.c): a commit of a few bytes logs
    them and leaves its pages dirty.  A checkpoint taken while another
    transaction holds such a page cannot write the page; it logs the
    committed bytes again after itself, so roll-forward from it still has
    them when the power goes (txntests deltahold, then deltacheck)."""
    g = guests.boot(kargs="syncinterval=0")
    g.ok("newfs_lfs /dev/rsd1a > /dev/null && mount -n -t lfs /dev/sd1a /mnt")
    g.send("/usr/tests/txntests -d /mnt -t deltahold\n")
    g.expect("deltahold: ready")
    before = g.child.before.replace("\r", "")
    assert "FAILED" not in before and before.count(": ok") == 3, before
    g.close()                           # the power goes, the child holding
    g = guests.boot(kargs="syncinterval=0")
    out = g.ok("mount -n -t lfs /dev/sd1a /mnt")
    assert "rolled forward" in out, out
    fslib.check_program(g, "txntests", "-d /mnt -t deltacheck")
    stats = g.ok("lfsstat /mnt")
    m = re.search(r"rfw_deltas\t(\d+)", stats)
    assert m and int(m.group(1)) >= 2, stats
    g.ok("umount /mnt")
    fslib.fsck_lfs_clean(g, "-n")


def test_a_commit_that_would_wait_for_its_group_lets_its_locks_go_at_once(guests):
    """Pre-commit (lfs/lfs_txndelta.c): with another transaction running, a
    committer waits txn_gcwait for company, here a second; its page lock
    went as it was queued, so a second transaction takes the page at once
    and aborts, a sync takes a checkpoint, and a reader's commit waits for
    the group, all while the page is pinned (txntests precommit).  After a
    power cut the roll-forward gives the committed bytes back."""
    g = guests.boot(kargs="txn_gcwait=1000 syncinterval=0")
    fslib.lfs(g)
    fslib.check_program(g, "txntests", "-d /mnt -t precommit")
    m = re.search(r"pre-committed (\d+)", g.ok("txnstat"))
    assert m and int(m.group(1)) >= 1
    g.close()                           # the power goes
    g = guests.boot(kargs="syncinterval=0")
    g.ok("mount -n -t lfs /dev/sd1a /mnt")
    out = g.ok("dd if=/mnt/txntests.d/pre bs=1 skip=4141 count=15 2>/dev/null")
    assert "bbbbbfirstbbbbb" in out, out
    g.ok("umount /mnt")
    fslib.fsck_lfs_clean(g, "-n")


def test_a_commit_of_a_few_bytes_is_one_summary_with_its_deltas(guests):
    """Read from the host, as the power cut left the disk: after the last
    checkpoint, an append of three bytes to a protected file (a plain
    write: a transaction of its own, forced) is one partial segment with
    no blocks, flagged TXN, whose one DELTA holds the bytes and the size."""
    g = guests.boot(kargs="syncinterval=0")
    g.ok("newfs_lfs /dev/rsd1a > /dev/null && mount -n -t lfs /dev/sd1a /mnt")
    g.ok("echo x > /mnt/f && chflags txn /mnt/f && sync")
    g.ok("echo yz >> /mnt/f")
    g.close()
    img = lfsdisk.Image(g.sd1)
    try:
        psegs = img.after_checkpoint()
    finally:
        img.close()
    assert len(psegs) == 1, [(p.ss.flagstr, p.ss.nblocks) for p in psegs]
    ss = psegs[0].ss
    assert "TXN" in ss.flagstr and ss.nblocks == 0 and len(ss.deltas) == 1, ss
    d = ss.deltas[0]
    assert (d.lbn, d.off, d.data, d.size) == (0, 2, b"yz\n", 5), d
