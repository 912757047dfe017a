#!/usr/bin/python3
"""make crashtest: BSD-LFS recovers from a power cut at every write boundary.

    tests/crash/run.py [-w WORKLOAD,...] [-s SEED] [--sample N] [--torn EVERY]
                       [--work DIR]

For each workload (record.py's WORKLOADS: files, rename, mkdirs, seq, overwrite,
cleaner) one record run logs every write the guest's scratch disk receives; then
every write boundary from the workload's start to its end is a crash point: the
disk as it was after writes 1..N is booted, mounted (the kernel rolls the log
forward from the last checkpoint) and checked (points.py, model.py):

  (i)   every file has its fsync'd contents, or a later legal state;
  (ii)  the namespace is a state the workload passed through, never earlier than
        one an fsync made durable or than the previous crash point's;
  (iii) fsck_lfs -n finds 0 problems (skipped, with a note, when the guest has
        no fsck_lfs) and dumplfs finds valid checksums and a consistent ifile;
  (iv)  the mount printed the roll-forward line;
  and torn writes (every EVERY-th write longer than a sector, cut after half of
  its sectors) are discarded by the partial segment's checksum, the result a
  legal state; the cleaner workload shows that a crash while the cleaner moves
  blocks loses no live data.

It prints, per workload, "crash points: T tested, R recovered correctly", every
failing point with what differed and where its image is kept (DIR/WORKLOAD/
pointN/crash.img, the disk before the mount, for qemu/run.py --sd1 and GDB), and
a total; the exit status is 1 if any point failed.  Each point boots a guest
(about a second); all workloads take a few minutes on two cores.
"""
from __future__ import annotations

import argparse
import random
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record import WORKLOADS, record  # noqa: E402
from points import PointResult, Replayer, check_point  # noqa: E402
from model import Recording  # noqa: E402

TOP = Path(__file__).resolve().parent.parent.parent


def torn_points(rp: Replayer, rec: Recording, every: int) -> list[tuple[int, int]]:
    """(N, K): every `every`-th write longer than a sector, K = half of it."""
    long = [n for n in range(rec.baseline + 1, rec.end + 1) if rp.sectors(n) > 1]
    return [(n, rp.sectors(n) // 2) for n in long[::every]] if every else []


def sample(rec: Recording, rp: Replayer, count: int, torn: int, seed: int
           ) -> tuple[list[int], list[tuple[int, int]]]:
    """A fixed-seed sample: the first and last points and `count` others, and
    `torn` torn writes."""
    rng = random.Random(f"{rec.workload}/{seed}")
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
            f"{rec.baseline + 1}..{rec.end}, {len(rec.durs)} fsyncs; checking "
            f"{len(points)} crash points and {len(tears or [])} torn writes"
            + (f"; the cleaner cleaned {rec.cleaned[0]} segments, moved "
               f"{rec.cleaned[1]} blocks" if rec.cleaned is not None else ""))
        jobs = sorted([(n, None) for n in points] + list(tears or []),
                      key=lambda p: (p[0] - (p[1] is not None), p[1] is None))
        results, floor = [], rec.setup_ops
        for n, k in jobs:
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-w", "--workloads", default=",".join(WORKLOADS))
    ap.add_argument("-s", "--seed", type=int, default=1)
    ap.add_argument("--sample", type=int, default=0,
                    help="check only N sampled points per workload (0: all)")
    ap.add_argument("--torn", type=int, default=4,
                    help="tear every N-th multi-sector write (0: none)")
    ap.add_argument("--work", type=Path, default=TOP / "build" / "crash")
    args = ap.parse_args()
    t0 = time.monotonic()
    lines, total, good, notes = [], 0, 0, set()
    for w in args.workloads.split(","):
        pts = None
        if args.sample:
            pts = (lambda rec, rp: sample(rec, rp, args.sample, 2, args.seed))
        results = crash_workload(args.work, w, args.seed, pts, None, args.torn,
                                 log=lambda s: print(s, flush=True))
        lines.append(summary(w, results))
        print(lines[-1], flush=True)
        total += len(results)
        good += sum(r.ok for r in results)
        notes.update(n for r in results for n in r.notes)
    print("\n".join(["", *lines]))
    for n in sorted(notes):
        print(f"note: {n}")
    print(f"total: crash points: {total} tested, {good} recovered correctly "
          f"in {time.monotonic() - t0:.0f} s")
    return 0 if good == total else 1


if __name__ == "__main__":
    sys.exit(main())
