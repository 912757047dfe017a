#!/usr/bin/python3
"""make crashtest: BSD-LFS recovers from a power cut at every write boundary.

    tests/crash/run.py [-w WORKLOAD,...] [-s SEED] [--sample N] [--torn EVERY]
                       [--work DIR]

For each workload (record.py's WORKLOADS: files, rename, mkdirs, seq, overwrite,
cleaner; and tpcb, tests/crash/tpcb.py: a TPC-B run whose every acknowledged
commit must survive db_recover) one record run logs every write the guest's
scratch disk receives; then
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
pointN/crash.img, the disk before the mount: qemu/run.py --sd1-from IMG), and
a total; the exit status is 1 if any point failed.  Each point boots a guest
(1.3 to 2 s, 5 s on the cleaner workload's fuller disk); about 330 points take
15 minutes on two shared cores, and tpcb's 120 about 2.5 more.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record import WORKLOADS  # noqa: E402
from points import crash_workload, sample, summary  # noqa: E402
import tpcb  # noqa: E402

TOP = Path(__file__).resolve().parent.parent.parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-w", "--workloads", default=",".join((*WORKLOADS, "tpcb")))
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
        if w == "tpcb":       # TPC-B with each mode's recovery (tests/crash/tpcb.py)
            for mode in tpcb.MODES:
                choose = None
                if args.sample:
                    choose = (lambda rec, rp: tpcb.sample(rec, rp, args.sample, 2, args.seed))
                results = tpcb.crash_tpcb(args.work, mode, choose, args.torn,
                                          log=lambda s: print(s, flush=True))
                lines.append(tpcb.summary(mode, results))
                print(lines[-1], flush=True)
                total += len(results)
                good += sum(r.ok for r in results)
            continue
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
