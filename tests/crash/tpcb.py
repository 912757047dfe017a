"""Crash points of a TPC-B run: a power cut at a write boundary, then recovery,
and the database must be consistent and hold every acknowledged transaction.

The record run (one guest, the scratch disk logging every write):

    newfs_lfs; mount; tpcb -i (a small database); umount; mount   the baseline
    tpcb -H ...      after each commit that is durable it prints "ACK n"
                     (n commits durable) and waits while the host counts the
                     writes the disk has received: from that write on, n
                     commits must survive
    umount

Each crash point N (the disk after writes 1..N; a torn point has only half of
write N) is booted and

    mount -n -t lfs /dev/sd1a /mnt     LFS rolls its log forward
    db_recover /mnt/db                 the user-level manager's recovery (user)
    tpcb -c /mnt/db                    consistent: every balance equals the sum
                                       of its history records' deltas; H records
    fsck_lfs -n /dev/rsd1a             the file system itself: 0 problems

and the point passes if the check says consistent and ACKED(N) <= H <= the
commits the run made.  Every seventh transaction aborts.  The workloads are the
modes with transactions (MODES):

    tpcb-user    the user-level manager: small caches make the run steal pages
                 (write dirty pages of running transactions, after the log:
                 WAL), a small checkpoint interval makes it checkpoint; so the
                 points cover redo, undo, aborts and checkpoints cut anywhere
    tpcb-user-clean, tpcb-kernel-clean
                 the same with lfs_cleanerd -c 2 run every second beside them
    tpcb-kernel  the kernel's transactions (thesis 5.2) on files marked chflags
                 txn: each commit is one segment write, its pages forced and
                 nothing else; an abort hands its pages to the kernel first,
                 which must never write them.  The roll-forward alone recovers:
                 a commit whose last partial segment did not reach the disk is
                 not applied (SS_TXN | SS_CONT), so it is wholly absent
    tpcb-kernel-multi, tpcb-kernel-multi-clean
                 the same with three processes (-P 3): commits pre-committed
                 as they queue (their locks gone, their pages pinned) and
                 written in groups; each process prints "ACK+" once a commit
                 of its own is durable, without waiting for the host
"""
from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from qemu import disk
from tests.crash import points
from tests.crash.points import ROLLED, Point, Replayer, boot_point, fsck_problem
from tests.crash.record import KARGS
from tests.crash.record import count_writes
from tests.guest import Guest

SD1_SECTORS = 32768
SCALE = "-A 2000 -T 10 -B 1"
TXNS = 60
# mode -> (tpcb -i options, tpcb run options, the recovery command after the
# mount, or None)
MODES = {"user": ("", "-m user -C 16 -k 24 -a 7", "db_recover /mnt/db"),
         "kernel": ("-m kernel", "-m kernel -C 16 -a 7", None),
         "kernel-multi": ("-m kernel", "-m kernel -C 16 -a 7 -P 3", None)}
# ... and each again with the cleaner moving blocks while the transactions run
# (its copies go to the cold log head; a running transaction's pages stay).
MODES.update({f"{m}-clean": o for m, o in MODES.items()})
CLEANER = ("(for i in 1 2 3 4 5 6 7 8; do /usr/libexec/lfs_cleanerd -c 2 /mnt; "
           "sleep 1; done > /dev/null 2>&1) & ")
WORKLOADS = tuple(f"tpcb-{mode}" for mode in MODES)   # make crashtest -w NAME
CHECK = re.compile(r"history (\d+) records")
RECOVERED = re.compile(r"redone \((\d+) changes\), \d+ unfinished undone \((\d+) changes\)")
STEP_TIMEOUT = 120


@dataclass
class TpcbRecording:
    mode: str
    baseline: int = 0          # writes before the run
    end: int = 0               # writes at its end (after the umount)
    committed: int = 0         # commits the run made
    acks: list[tuple[int, int]] = field(default_factory=list)  # (n durable, writes)

    def acked_at(self, n: int) -> int:
        """Commits that must survive a crash after writes 1..n."""
        return max([k for k, w in self.acks if w <= n], default=0)


def record(workdir: Path, mode: str) -> TpcbRecording:
    """Run TPC-B once with a write log; leave blank.img and write.log in workdir."""
    workdir.mkdir(parents=True, exist_ok=True)
    log, blank = workdir / "write.log", workdir / "blank.img"
    disk.make_image(blank, "none", SD1_SECTORS)
    (workdir / "guest").mkdir(exist_ok=True)
    g = Guest(workdir / "guest", sd1=blank, kargs=KARGS,
              faults=disk.FaultSpec(writelog=str(log)))
    rec = TpcbRecording(mode)
    try:
        g.boot()
        g.ok("newfs_lfs -s 262144 /dev/rsd1a > /dev/null", timeout=STEP_TIMEOUT)
        g.ok("mount -n -t lfs /dev/sd1a /mnt")
        g.ok(f"tpcb -i {MODES[mode][0]} {SCALE} /mnt/db", timeout=STEP_TIMEOUT)
        g.ok("umount /mnt && mount -n -t lfs /dev/sd1a /mnt")
        rec.baseline = count_writes(log)
        cleaner = CLEANER if mode.endswith("-clean") else ""
        g.send(f"{cleaner}tpcb {MODES[mode][1]} -n {TXNS} -H /mnt/db; r=$?; wait; "
               f"echo __RUN__$r\n")
        while (i := g.expect([r"\nACK (\d+)\r*\n", r"ACK\+\r*\n",
                              r"__RUN__(\d+)\r*\n# "], STEP_TIMEOUT * 5)) < 2:
            if i == 1:      # -P: one more, no wait (the count can only be late)
                rec.acks.append((len(rec.acks) + 1, count_writes(log)))
                continue
            rec.acks.append((int(g.child.match.group(1)), count_writes(log)))
            g.send("\n")
        text = g.child.before
        m = re.search(r"tpcb done: (\d+) committed", text)
        if g.child.match.group(1) != "0" or m is None:
            raise AssertionError(f"tpcb -H failed:\n{text[-2000:]}")
        rec.committed = int(m.group(1))
        g.ok("umount /mnt")
        rec.end = count_writes(log)
    finally:
        g.close()
    for name in ("sd0.img", "sd1.img"):
        (workdir / "guest" / name).unlink(missing_ok=True)
    return rec


@dataclass
class TpcbPoint(Point):
    acked: int = 0             # commits acknowledged before the cut
    history: Optional[int] = None
    redone: int = 0            # changes db_recover applied forward
    undone: int = 0            # ... and backward
    rolled: int = 0            # partial segments the mount rolled forward


def check_point(rec: TpcbRecording, rp: Replayer, work: Path, n: int,
                tear: Optional[int] = None) -> TpcbPoint:
    res = TpcbPoint(n, tear, acked=rec.acked_at(n - 1 if tear is not None else n))
    return boot_point(rp, work, res, lambda g: _inspect(g, rec, res))


def _inspect(g: Guest, rec: TpcbRecording, res: TpcbPoint) -> None:
    out, status = g.run("mount -n -t lfs /dev/sd1a /mnt", STEP_TIMEOUT)
    if status != 0:
        res.problems.append(f"mount failed: {out.strip()}")
        return
    if (m := ROLLED.search(out)) is not None:
        res.rolled = int(m.group(1))
    recover = MODES[rec.mode][2]
    if recover is not None:
        out, status = g.run(recover, STEP_TIMEOUT)
        if status != 0:
            res.problems.append(f"{recover} exited {status}: {out.strip()}")
        if (m := RECOVERED.search(out)) is not None:
            res.redone, res.undone = int(m.group(1)), int(m.group(2))
    out, status = g.run("tpcb -c /mnt/db", STEP_TIMEOUT)
    m = CHECK.search(out)
    if status != 0 or m is None or "check: consistent" not in out:
        res.problems.append("tpcb -c: " + " / ".join(out.strip().split("\n")[-6:]))
    else:
        res.history = int(m.group(1))
        if res.history < res.acked:
            res.problems.append(f"{res.history} transactions survived, but "
                                f"{res.acked} were acknowledged")
        if res.history > rec.committed:
            res.problems.append(f"{res.history} history records, only "
                                f"{rec.committed} commits")
    g.ok("umount /mnt", STEP_TIMEOUT)
    if (problem := fsck_problem(g, STEP_TIMEOUT, lines=4)) is not None:
        res.problems.append(problem)


def sample(rec: TpcbRecording, rp: Replayer, count: int, torn: int, seed: int
           ) -> tuple[list[int], list[tuple[int, int]]]:
    """The first and last points, `count` others, `torn` torn writes: fixed-seed."""
    return points.sample(rec, rp, count, torn, seed, name=f"tpcb-{rec.mode}")


def crash_tpcb(work: Path, mode: str, choose: Optional[Callable] = None,
               torn_every: int = 4, log=print) -> list[TpcbPoint]:
    """Record a TPC-B run and check its crash points: every write boundary and
    every torn_every-th multi-sector write torn, unless choose(rec, rp) picks."""
    wdir = work / f"tpcb-{mode}"
    shutil.rmtree(wdir, ignore_errors=True)
    rec = record(wdir, mode)
    rp = Replayer(wdir / "blank.img", wdir / "write.log", wdir)
    try:
        if choose is None:
            cuts = list(range(rec.baseline, rec.end + 1))
            tears = points.torn_points(rp, rec, torn_every)
        else:
            cuts, tears = choose(rec, rp)
        log(f"tpcb-{mode}: {rec.committed} commits, {len(rec.acks)} acknowledged "
            f"forces, writes {rec.baseline + 1}..{rec.end}; checking "
            f"{len(cuts)} crash points and {len(tears)} torn writes")
        results = []
        for n, k in points.in_order(cuts, tears):
            r = check_point(rec, rp, wdir, n, k)
            results.append(r)
            if not r.ok:
                log(f"  tpcb-{mode} {r.name}: FAILED ({r.seconds:.1f} s; "
                    f"{r.acked} acknowledged)")
                for p in r.problems:
                    log(f"    {p}")
                log(f"    image kept: {r.image}")
    finally:
        rp.close()
    return results


def summary(mode: str, results: list[TpcbPoint]) -> str:
    good = sum(r.ok for r in results)
    secs = sum(r.seconds for r in results)
    torn = sum(r.tear is not None for r in results)
    rolled = sum(r.rolled > 0 for r in results)
    redo = sum(r.redone > 0 for r in results)
    undo = sum(r.undone > 0 for r in results)
    recovery = (f"db_recover redid work at {redo} and undid work at {undo}; "
                if MODES[mode][2] else "")
    return (f"tpcb-{mode}: crash points: {len(results)} tested, {good} recovered "
            f"correctly ({torn} torn; the mount rolled forward at {rolled}; "
            f"{recovery}{secs / max(len(results), 1):.2f} s per point)")
