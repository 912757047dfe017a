#!/usr/bin/python3
"""make bench: run every benchmark driver in this folder, one after another.

    bench/run.py [--profile hp97560]

Each driver boots its own guest, prints its report and writes it (and its plots)
under build/bench/.  The drive profile is --profile, else $DISK (the Makefile's
variable: make bench DISK=rz55), else hp97560.  Benchmarks report; they never
fail on a figure, only when a driver itself breaks.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
PY = "/usr/bin/python3"
DRIVERS = ["raw_disk.py", "fs_bandwidth.py", "small_files.py", "recovery.py", "tpcb.py"]  # in the order they run


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--profile", default=os.environ.get("DISK") or "hp97560")
    args = ap.parse_args(argv)
    start = time.monotonic()
    failed = []
    for driver in DRIVERS:
        print(f"==== {driver} (profile {args.profile})", flush=True)
        t0 = time.monotonic()
        rc = subprocess.run([PY, str(BENCH / driver), "--profile", args.profile]).returncode
        print(f"==== {driver}: {'done' if rc == 0 else f'FAILED (status {rc})'} "
              f"in {time.monotonic() - t0:.0f} s", flush=True)
        if rc != 0:
            failed.append(driver)
    mins, secs = divmod(round(time.monotonic() - start), 60)
    print(f"make bench took {mins} min {secs} s"
          + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
