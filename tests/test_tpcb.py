"""TPC-B in the guest (bin/tpcb on lib/libdb): each mode on each file system
followed by the consistency check, an abort in the middle of a transaction,
a process that dies in a transaction, and power cuts at sampled write
boundaries of a run (tests/crash/tpcb.py; every boundary in make crashtest).

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
DONE = re.compile(r"tpcb done: (\d+) committed, (\d+) aborted, (\d+) durable")


def make_db(g: Guest, fs: str) -> None:
    """A fresh file system (LFS: 256 KB segments, the cleaner running) and
    a database of 3,000 accounts on it."""
    if fs == "lfs":
        fslib.lfs(g)
    else:
        fslib.ffs(g, efs=fs == "efs")
    out = g.ok(f"tpcb -i {SCALE} /mnt/db", timeout=180)
    assert "account: 3000 rows" in out, out


def check(g: Guest) -> tuple[int, int]:
    """tpcb -c must say consistent; returns (history records, history sum)."""
    out = g.ok("tpcb -c /mnt/db", timeout=180)
    m = CHECK.search(out)
    assert m and "check: consistent" in out, out
    assert m.group(3) == "3000" and m.group(5) == "20" and m.group(7) == "2", out
    return int(m.group(1)), int(m.group(2))


def run(g: Guest, args: str) -> tuple[int, int, int]:
    """tpcb with args; returns (committed, aborted, durable)."""
    out = g.ok(f"tpcb {args} /mnt/db", timeout=600)
    m = DONE.search(out)
    assert m, out
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


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
        committed, aborted, durable = run(guest, args)
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
    committed, aborted, _ = run(guest, "-n 100 -C 16 -a 1")
    assert committed == 0 and aborted > 100
    assert check(guest) == before
    committed, aborted, _ = run(guest, "-n 150 -C 16 -a 3")
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


def test_tpcb_crash_points_recover(tmp_path):
    """A power cut at sampled write boundaries (and two torn writes) of a
    TPC-B run with user-level transactions on LFS: after the roll-forward and
    db_recover the database is consistent and every acknowledged commit is
    there."""
    lines: list[str] = []
    results = tpcbcrash.crash_tpcb(
        tmp_path, "user",
        choose=lambda rec, rp: tpcbcrash.sample(rec, rp, 10, 2, 1),
        log=lines.append)
    bad = [r for r in results if not r.ok]
    assert results and not bad, "\n".join(lines)
    assert any(r.history and r.acked for r in results), "\n".join(lines)
