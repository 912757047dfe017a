"""Crash points: rebuild the scratch disk as it was at a write boundary, boot a
guest on it, and check what the file system recovered.

At point N the image is the blank disk plus writes 1..N of the record run's log;
a torn point (N, K) has writes 1..N-1 and the first K sectors of write N, as
qemu/writelog.py's tear=N:K leaves it.  The guest then

    mount -n -t lfs /dev/sd1a /mnt    roll forward; print the roll-forward line
    crashwork digest /mnt             every path, size, CRC of each 4 KB block
    umount /mnt
    fsck_lfs -n /dev/rsd1a            when the guest has it: "...; 0 problems"
    dumplfs /dev/rsd1a                "ifile<TAB>consistent", no BAD checksum

and the host checks the digest against the model (model.py's check()).  A point
that fails keeps its image, as it was before the mount, for GDB.

crash_workload() records a workload and checks its points in order (all of them,
or a fixed-seed sample()), each point's state the floor of the next one's.
"""
from __future__ import annotations

import random
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from qemu import writelog
from tests.crash.model import Recording, parse_digest
from tests.crash.record import KARGS, WORKLOADS, record
from tests.guest import Guest, GuestError

ROLLED = re.compile(r"rolled forward (\d+) partial segments, discarded (\d+)")
STEP_TIMEOUT = 60


class Replayer:
    """The image at any write boundary, by applying the log incrementally."""

    def __init__(self, blank: Path, log: Path, work: Path) -> None:
        self.records = list(writelog.read_log(str(log)))
        if any(r.seq != i + 1 for i, r in enumerate(self.records)):
            raise ValueError(f"{log}: writes missing (the record run lost power?)")
        self.cur = work / "replay.img"
        writelog.sparse_copy(str(blank), str(self.cur))
        self.f = open(self.cur, "r+b")
        self.n = 0

    def image(self, n: int, out: Path, tear: Optional[int] = None) -> None:
        """out = writes 1..n; with tear=K, writes 1..n-1 and K sectors of write n."""
        upto = n - 1 if tear is not None else n
        if upto < self.n:
            raise ValueError("crash points go forward")
        for rec in self.records[self.n:upto]:
            writelog.apply_record(self.f, rec)
        self.n = upto
        self.f.flush()
        writelog.sparse_copy(str(self.cur), str(out))
        if tear is not None:
            rec = self.records[n - 1]
            with open(out, "r+b") as f:
                f.seek(rec.offset)
                f.write((rec.data or bytes(rec.requested))[:tear * writelog.SECTOR])

    def sectors(self, n: int) -> int:
        """The length of write n, in sectors."""
        return self.records[n - 1].requested // writelog.SECTOR

    def close(self) -> None:
        self.f.close()
        self.cur.unlink()


@dataclass
class Point:
    """One crash point: the disk after write n (only its first tear sectors,
    when tear is set), booted and inspected; what the inspection found wrong."""
    n: int
    tear: Optional[int]
    problems: list[str] = field(default_factory=list)
    image: Optional[Path] = None          # kept when the point failed
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def name(self) -> str:
        return f"write {self.n}" + (f" torn after {self.tear} sectors" if self.tear is not None else "")


def boot_point(rp: Replayer, work: Path, res: Point, inspect: Callable[[Guest], None]) -> Point:
    """Build crash point res's image from the write log, boot a guest on it
    and inspect(g) (which adds to res.problems); keep the image only if the
    point failed."""
    t0 = time.monotonic()
    pdir = work / (f"point{res.n}" + (f"-tear{res.tear}" if res.tear is not None else ""))
    shutil.rmtree(pdir, ignore_errors=True)
    pdir.mkdir(parents=True)
    img = pdir / "crash.img"
    rp.image(res.n, img, res.tear)
    g = Guest(pdir, sd1=img, kargs=KARGS)
    try:
        g.boot()
        inspect(g)
    except GuestError as e:
        res.problems.append(f"guest: {str(e)[-1500:]}")
    finally:
        g.close()
    for name in ("sd0.img", "sd1.img"):
        (pdir / name).unlink(missing_ok=True)
    if res.ok:
        shutil.rmtree(pdir)
    else:
        res.image = img
    res.seconds = time.monotonic() - t0
    return res


def fsck_problem(g: Guest, timeout: float, lines: int = 6) -> Optional[str]:
    """What fsck_lfs -n says is wrong with sd1a (its last lines), or None."""
    out, status = g.run("fsck_lfs -n /dev/rsd1a", timeout)
    last = out.strip().split("\n")[-1] if out.strip() else ""
    if status == 0 and re.search(r"(^|\D)0 problems", last):
        return None
    return f"fsck_lfs -n exited {status}: " + " / ".join(out.strip().split("\n")[-lines:])


def in_order(points: list[int], tears: list[tuple[int, int]]) -> list[tuple[int, Optional[int]]]:
    """The points and torn writes as (N, K or None), by the write they cut."""
    return sorted([(n, None) for n in points] + list(tears),
                  key=lambda p: (p[0] - (p[1] is not None), p[1] is None))


@dataclass
class PointResult(Point):
    state: Optional[int] = None          # the model state recovered
    notes: list[str] = field(default_factory=list)
    rolled: Optional[tuple[int, int]] = None


def check_point(rec: Recording, rp: Replayer, work: Path, n: int, floor: int,
                tear: Optional[int] = None) -> PointResult:
    """Build, boot and check one crash point; floor is the previous point's state."""
    durable = rec.durable_at(n - 1 if tear is not None else n)
    res = PointResult(n, tear)
    return boot_point(rp, work, res, lambda g: _inspect(g, rec, res, durable, floor))


def _inspect(g: Guest, rec: Recording, res: PointResult, durable: int, floor: int) -> None:
    out, status = g.run("mount -n -t lfs /dev/sd1a /mnt", STEP_TIMEOUT)
    if status != 0:
        res.problems.append(f"mount failed: {out.strip()}")
    else:
        m = ROLLED.search(out)
        if m:
            res.rolled = (int(m.group(1)), int(m.group(2)))
        elif "not unmounted cleanly" in out:
            res.problems.append("(iv) no roll-forward: " + " / ".join(out.split("\n")).strip())
        dig = g.ok("/usr/tests/crashwork digest /mnt", STEP_TIMEOUT)
        if "DONE" not in dig:
            res.problems.append("digest failed: " + dig.strip()[-500:])
        else:
            k, why = rec.model.check(parse_digest(dig), durable, floor)
            if k is None:
                res.problems.append(f"(i/ii) {why} [fsync'd up to S{durable}, "
                                    f"previous point S{floor}]")
            res.state = k
        g.ok("umount /mnt", STEP_TIMEOUT)
    if g.run("test -x /usr/sbin/fsck_lfs")[1] == 0:
        if (problem := fsck_problem(g, STEP_TIMEOUT)) is not None:
            res.problems.append("(iii) " + problem)
    else:
        res.notes.append("fsck_lfs not in the guest: fsck skipped")
    out = g.ok("dumplfs /dev/rsd1a > /tmp/dl; echo status $?; grep ifile /tmp/dl;"
               " grep BAD /tmp/dl; true", STEP_TIMEOUT)
    if "status 0" not in out or "ifile\tconsistent" not in out or "BAD" in out:
        res.problems.append("(iii) dumplfs: " + " / ".join(out.strip().split("\n")[:6]))


def torn_points(rp: Replayer, rec, every: int) -> list[tuple[int, int]]:
    """(N, K): every `every`-th write longer than a sector, K = half of it."""
    long = [n for n in range(rec.baseline + 1, rec.end + 1) if rp.sectors(n) > 1]
    return [(n, rp.sectors(n) // 2) for n in long[::every]] if every else []


def sample(rec, rp: Replayer, count: int, torn: int, seed: int, name: str = ""
           ) -> tuple[list[int], list[tuple[int, int]]]:
    """A fixed-seed sample of a recording (a workload's, or a run named name):
    the first and last points and `count` others, and `torn` torn writes."""
    rng = random.Random(f"{name or rec.workload}/{seed}")
    inner = list(range(rec.baseline + 1, rec.end))
    pts = sorted({rec.baseline, rec.end, *rng.sample(inner, min(count, len(inner)))})
    long = [n for n in range(rec.baseline + 1, rec.end + 1) if rp.sectors(n) > 1]
    tears = sorted(rng.sample(long, min(torn, len(long))))
    return pts, [(n, rp.sectors(n) // 2) for n in tears]


def crash_workload(work: Path, workload: str, seed: int, points=None, tears=None,
                   torn_every: int = 4, log=print) -> list[PointResult]:
    """Record the workload and check its crash points (all, unless given)."""
    wdir = work / workload
    shutil.rmtree(wdir, ignore_errors=True)
    rec = record(wdir, workload, seed)
    rp = Replayer(wdir / "blank.img", wdir / "write.log", wdir)
    try:
        if points is None:
            points = list(range(rec.baseline, rec.end + 1))
            tears = torn_points(rp, rec, torn_every)
        elif callable(points):
            points, tears = points(rec, rp)
        log(f"{workload}: {len(rec.model.ops) - rec.setup_ops} operations, writes "
            f"{rec.baseline + 1}..{rec.end}, {len(rec.durs)} fsyncs or commits; checking "
            f"{len(points)} crash points and {len(tears or [])} torn writes"
            + (f"; the cleaner cleaned {rec.cleaned[0]} segments, moved "
               f"{rec.cleaned[1]} blocks" if rec.cleaned is not None else ""))
        results, floor = [], rec.setup_ops
        for n, k in in_order(points, tears or []):
            r = check_point(rec, rp, wdir, n, floor, k)
            if k is None and r.state is not None:
                floor = r.state
            results.append(r)
            if not r.ok:
                log(f"  {workload} {r.name}: FAILED ({r.seconds:.1f} s)")
                for p in r.problems:
                    log(f"    {p}")
                if r.rolled:
                    log(f"    the mount rolled forward {r.rolled[0]} partial "
                        f"segments, discarded {r.rolled[1]}")
                log(f"    image kept: {r.image}")
    finally:
        rp.close()
    return results


def summary(workload: str, results: list[PointResult]) -> str:
    good = sum(r.ok for r in results)
    secs = sum(r.seconds for r in results)
    torn = sum(r.tear is not None for r in results)
    rolled = sum(r.rolled is not None for r in results)
    return (f"{workload}: crash points: {len(results)} tested, {good} recovered "
            f"correctly ({torn} torn; {rolled} rolled forward; "
            f"{secs / max(len(results), 1):.2f} s per point)")


def pick_workloads(workloads: list[str], n: int, seed: int) -> list[str]:
    """n of the workloads chosen by the seed, in their order (all if n is 0):
    a hidden run with another seed crashes other workloads."""
    if not n or n >= len(workloads):
        return list(workloads)
    chosen = set(random.Random(f"pick/{seed}").sample(workloads, n))
    return [w for w in workloads if w in chosen]


def crashtest(workloads: Optional[list[str]], seed: int, sample_n: int,
              torn: int, work: Path, pick: int = 0) -> int:
    """make crashtest (python3 -m qemu crashtest): every workload (WORKLOADS
    and the TPC-B runs of tpcb.py's WORKLOADS by default; "tpcb" names all of
    those), or pick of them chosen by the seed, each point or a sample of
    sample_n; print a summary per workload and a total; 1 if any point
    failed."""
    from tests.crash import tpcb    # it imports this module's Replayer
    t0 = time.monotonic()
    chosen = []
    for w in workloads or (*WORKLOADS, *tpcb.WORKLOADS):
        chosen += tpcb.WORKLOADS if w == "tpcb" else [w]
    chosen = pick_workloads(chosen, pick, seed)
    lines, total, good, notes = [], 0, 0, set()
    out = (lambda s: print(s, flush=True))
    for w in chosen:
        if w in tpcb.WORKLOADS:         # its own record run and checker
            mode = w.removeprefix("tpcb-")
            choose = None
            if sample_n:
                choose = (lambda rec, rp: tpcb.sample(rec, rp, sample_n, 2, seed))
            results = tpcb.crash_tpcb(work, mode, choose, torn, log=out)
            lines.append(tpcb.summary(mode, results))
        else:
            pts = None
            if sample_n:
                pts = (lambda rec, rp: sample(rec, rp, sample_n, 2, seed))
            results = crash_workload(work, w, seed, pts, None, torn, log=out)
            lines.append(summary(w, results))
            notes.update(n for r in results for n in r.notes)
        print(lines[-1], flush=True)
        total += len(results)
        good += sum(r.ok for r in results)
    print("\n".join(["", *lines]))
    for n in sorted(notes):
        print(f"note: {n}")
    print(f"total: crash points: {total} tested, {good} recovered correctly "
          f"in {time.monotonic() - t0:.0f} s")
    return 0 if good == total else 1
