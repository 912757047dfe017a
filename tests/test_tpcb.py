"""TPC-B in the guest (bin/tpcb on lib/libdb): each mode on each file system
followed by the consistency check, an abort in the middle of a transaction,
a process that dies in a transaction, the kernel's transactions (tpcb -m
kernel, thesis 5.2) with aborts and two processes deadlocking, and power cuts
at sampled write boundaries of a run with user-level and with kernel
transactions (tests/crash/tpcb.py; every boundary in make crashtest).

tpcb -c is TPC-B's consistency condition made per row: every account, teller
and branch balance equals the sum of the deltas of its history records, so
the three sums equal the history's and each committed transaction is exactly
one history record.
"""
from __future__ import annotations

import re

import pytest

from tests import fslib
from tests.crash import tpcb as tpcbcrash
from tests.guest import Guest

SCALE = "-A 3000 -T 20 -B 2"
MOUNT = {"ffs": "mount /dev/sd1a /mnt", "efs": "mount /dev/sd1a /mnt",
         "lfs": "mount -t lfs /dev/sd1a /mnt"}
CHECK = re.compile(r"history (\d+) records, sum (-?\d+); accounts (\d+) sum (-?\d+); "
                   r"tellers (\d+) sum (-?\d+); branches (\d+) sum (-?\d+)")
DONE = re.compile(r"tpcb done: (\d+) committed, (\d+) aborted, (\d+) durable, "
                  r"(\d+) retried")
VICTIMS = re.compile(r"aborts (\d+) victims (\d+)")
POINTS = {"user": 10, "kernel": 8,     # sampled crash points besides the ends
          "user-clean": 6, "kernel-clean": 6,
          "kernel-multi": 8, "kernel-multi-clean": 6}


def make_db(g: Guest, fs: str, load: str = "") -> str:
    """A fresh file system (LFS: 256 KB segments, the cleaner running) and
    a database of 3,000 accounts on it; tpcb -i's output."""
    if fs == "lfs":
        fslib.lfs(g)
    else:
        fslib.ffs(g, efs=fs == "efs")
    out = g.ok(f"tpcb -i {load} {SCALE} /mnt/db", timeout=180)
    assert "account: 3000 rows" in out, out
    return out


def check(g: Guest) -> tuple[int, int]:
    """tpcb -c must say consistent; returns (history records, history sum)."""
    out = g.ok("tpcb -c /mnt/db", timeout=180)
    m = CHECK.search(out)
    assert m and "check: consistent" in out, out
    assert m.group(3) == "3000" and m.group(5) == "20" and m.group(7) == "2", out
    return int(m.group(1)), int(m.group(2))


def run(g: Guest, args: str) -> tuple[int, int, int, int]:
    """tpcb with args; returns (committed, aborted, durable, retried)."""
    out = g.ok(f"tpcb {args} /mnt/db", timeout=600)
    m = DONE.search(out)
    assert m, out
    return int(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4))


@pytest.mark.parametrize("fs", ["ffs", "efs", "lfs"])
def test_each_mode_leaves_the_database_consistent(guest, fs):
    """No transactions, user-level transactions, and user-level with group
    commit: after each run the history has one record per commit and every
    balance matches it; a reopen after an unmount changes nothing."""
    make_db(guest, fs)
    assert check(guest) == (0, 0)
    total = 0
    for args in ("-m none -n 150", "-m user -n 150 -C 32",
                 "-m user -n 150 -g 4 -L 2 -k 16"):
        committed, aborted, durable, _ = run(guest, args)
        # With -g 4 up to three commits wait for the next force (txn_close
        # checkpoints them); otherwise every commit forces.
        assert aborted == 0 and committed - 3 <= durable <= committed, args
        total += committed
        assert check(guest)[0] == total, args
    guest.ok("umount /mnt")
    guest.ok(MOUNT[fs])
    assert check(guest)[0] == total


def test_an_abort_in_the_middle_changes_nothing(guest):
    """-a 1 aborts every transaction after its account and teller updates:
    the balances and the history are exactly as before.  -a 3 aborts every
    third: only the committed ones leave a trace."""
    make_db(guest, "ffs")
    run(guest, "-n 100 -C 32")
    before = check(guest)
    committed, aborted, _, _ = run(guest, "-n 100 -C 16 -a 1")
    assert committed == 0 and aborted > 100
    assert check(guest) == before
    committed, aborted, _, _ = run(guest, "-n 150 -C 16 -a 3")
    assert aborted > 0 and committed > 0
    assert check(guest)[0] == before[0] + committed


def test_a_process_killed_in_a_transaction_is_undone_by_db_recover(guest):
    """tpcb stopped by SIGKILL in the middle of its run leaves a log that
    tpcb refuses until db_recover has run; then the database is consistent
    and holds every transaction tpcb reported durable."""
    make_db(guest, "lfs")
    guest.send("tpcb -n 100000 -C 16 -v /mnt/db & p=$!\n")
    guest.expect(r"tpcb: 300 transactions", 300)
    guest.ok("kill -9 $p; wait $p; true")
    out, status = guest.run("tpcb -n 10 /mnt/db")
    assert status != 0 and "db_recover" in out, out
    out = guest.ok("db_recover /mnt/db", timeout=180)
    assert re.search(r"(\d+) committed", out), out
    history, _ = check(guest)
    assert history >= 300, history


def test_scan_reads_every_account_in_key_order(guest):
    make_db(guest, "efs")
    run(guest, "-n 200")
    fslib.remount(guest)
    out = guest.ok("tpcb -x /mnt/db")
    m = re.search(r"tpcb scan records (\d+) pages (\d+) usecs (\d+) sum (-?\d+)", out)
    assert m and m.group(1) == "3000", out
    assert int(m.group(4)) == check(guest)[1]


def test_kernel_transactions_keep_the_database_consistent(guest):
    """tpcb -m kernel (thesis figure 5-3): the files are marked chflags txn,
    each transaction is txn_begin, the updates written to the kernel, and
    txn_commit.  Every commit is durable when it returns; -a 1 hands the
    kernel every transaction's account and teller pages and aborts it, and
    nothing changes; -a 3 leaves only the committed ones.  Two processes on
    the same teller and branch pages may deadlock: each victim (ETXNABORT)
    is tried again, and the history holds every commit of both.  -P 3 runs
    three processes at once and counts the commits of all, pre-committed
    as they queue; -P with user-level transactions is refused with the
    reason."""
    out = make_db(guest, "lfs", "-m kernel")
    assert "transaction-protected" in out, out
    assert guest.ok("ls -lo /mnt/db/account").split()[4] == "txn"
    committed, aborted, durable, _ = run(guest, "-m kernel -n 150")
    assert aborted == 0 and durable == committed > 150
    before = check(guest)
    assert before[0] == committed
    committed, aborted, _, _ = run(guest, "-m kernel -n 100 -a 1")
    assert committed == 0 and aborted > 100
    assert check(guest) == before
    committed, aborted, _, _ = run(guest, "-m kernel -n 150 -a 3")
    assert aborted > 0 and committed > 0
    assert check(guest)[0] == before[0] + committed
    before = check(guest)[0]
    guest.ok("txnstat -z > /dev/null")
    out = guest.ok("tpcb -m kernel -n 100 -S 2 /mnt/db > /tmp/a & "
                   "tpcb -m kernel -n 100 -S 3 /mnt/db > /tmp/b; wait; "
                   "cat /tmp/a /tmp/b; txnstat", timeout=600)
    done = [tuple(map(int, m.groups())) for m in DONE.finditer(out)]
    assert len(done) == 2, out
    victims = VICTIMS.search(out)
    assert victims and int(victims.group(2)) == sum(d[3] for d in done), out
    # The cleaner runs beside them: it may move pages they hold locked,
    # never their uncommitted data.
    assert "steals 0" in out, out
    assert check(guest)[0] == before + sum(d[0] for d in done)
    before = check(guest)[0]
    out = guest.ok("txnstat -z > /dev/null; tpcb -m kernel -C 16 -n 90 -P 3 /mnt/db; "
                   "txnstat", timeout=600)
    m = DONE.search(out)
    assert m and int(m.group(1)) == 16 + 90 and "txns 90 " in out, out
    # Each waits for a group while the others run: pre-committed, locks gone.
    pre = re.search(r"pre-committed (\d+)", out)
    assert pre and int(pre.group(1)) > 0, out
    assert check(guest)[0] == before + 16 + 90
    out, status = guest.run("tpcb -m user -P 2 /mnt/db")
    assert status == 2 and "-P needs -m kernel" in out, out
    fslib.unmount_and_check(guest, "lfs")


@pytest.mark.parametrize("fs", ["ffs", "efs"])
def test_kernel_mode_needs_lfs(guest, fs):
    """chflags txn is LFS's to give: on FFS and EFS tpcb -i -m kernel and
    tpcb -m kernel stop with a message that says so (EOPNOTSUPP), and the
    database is as it was."""
    fslib.ffs(guest, efs=fs == "efs")
    load, status = guest.run(f"tpcb -i -m kernel {SCALE} /mnt/db")
    assert status == 1 and "kernel transactions need BSD-LFS" in load, load
    assert "Operation not supported" in load, load
    out, status = guest.run("tpcb -m kernel -n 10 /mnt/db")
    assert status == 1 and "kernel transactions need BSD-LFS" in out, out
    assert not fslib.KERNEL_COMPLAINTS.search(load + out), load + out
    assert check(guest) == (0, 0)
    fslib.unmount_and_check(guest, fs)


@pytest.mark.parametrize("mode", tpcbcrash.MODES)
def test_tpcb_crash_points_recover(tmp_path, mode):
    """A power cut at sampled write boundaries (and two torn writes) of a
    TPC-B run on LFS with user-level transactions (after the roll-forward,
    db_recover) and with kernel transactions (the roll-forward alone), each
    also with the cleaner moving blocks beside them: the database is
    consistent and every acknowledged commit is there."""
    lines: list[str] = []
    results = tpcbcrash.crash_tpcb(
        tmp_path, mode,
        choose=lambda rec, rp: tpcbcrash.sample(rec, rp, POINTS[mode], 2, 1),
        log=lines.append)
    bad = [r for r in results if not r.ok]
    assert results and not bad, "\n".join(lines)
    assert any(r.history and r.acked for r in results), "\n".join(lines)
