"""The launcher: every way the Makefile starts a machine, in one place.

    python3 -m qemu boot [--gdb] [--disk P] [--sd1-from IMG] ...   make qemu, make qemu-gdb
    python3 -m qemu crashimage [OUT]                               make crashimage
    python3 -m qemu crashtest [-w W,...] [-s SEED] [--sample N]    make crashtest
                              [--pick N]
    python3 -m qemu bench [--profile P] [--thesis]                 make bench (and report)
    python3 -m qemu kprof [--seconds S] [--user ELF]               where the CPU goes

Run it from the top of the tree, where the packages qemu, tests and bench
live (the Makefile does).  `python3 -m qemu COMMAND --help` lists each
command's options.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from qemu import launch

TOP = launch.TOP


def boot(args: argparse.Namespace) -> int:
    return launch.boot(args)


def crashimage(args: argparse.Namespace) -> int:
    from qemu import crashimage
    return crashimage.main(args.out)


def crashtest(args: argparse.Namespace) -> int:
    from tests.crash import points
    workloads = args.workloads.split(",") if args.workloads else None
    return points.crashtest(workloads, args.seed, args.sample, args.torn,
                            args.work, args.pick)


def bench(args: argparse.Namespace) -> int:
    """The host's share calibrated first (qemu/turnaround.py); then each
    driver in its own interpreter, one after another; a driver that
    fails is reported and the others still run.  Then doc/results.md is
    made from their results (bench/report.py), those of a driver that
    failed being the last it wrote, dated in the report's runs table."""
    import bench
    start = time.monotonic()
    failed = []
    # The host's share of each command, which the drive then forgives
    # (qemu/DRIVE.md, P8): measured on this machine before anything else.
    print(f"==== the host's share per command (python3 -m qemu.turnaround "
          f"--calibrate, profile {args.profile})", flush=True)
    if subprocess.run([bench.PY, "-m", "qemu.turnaround", "--calibrate",
                       "--profile", args.profile], cwd=TOP).returncode != 0:
        failed.append("turnaround")
    for driver in bench.DRIVERS:
        if driver in bench.THESIS_ONLY and not args.thesis:
            continue
        print(f"==== {driver} (profile {args.profile})", flush=True)
        t0 = time.monotonic()
        more = [bench.THESIS[driver]] if args.thesis and driver in bench.THESIS else []
        rc = subprocess.run([bench.PY, "-m", f"bench.{driver}",
                             "--profile", args.profile, *more], cwd=TOP).returncode
        print(f"==== {driver}: {'done' if rc == 0 else f'FAILED (status {rc})'} "
              f"in {time.monotonic() - t0:.0f} s", flush=True)
        if rc != 0:
            failed.append(driver)
    print("==== report", flush=True)
    if subprocess.run([bench.PY, "-m", "bench.report"], cwd=TOP).returncode != 0:
        failed.append("report")
    mins, secs = divmod(round(time.monotonic() - start), 60)
    print(f"make bench took {mins} min {secs} s"
          + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python3 -m qemu",
                                 description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)

    p = sub.add_parser("boot", help="boot to a shell on this terminal "
                       "(make qemu; --gdb: make qemu-gdb)")
    launch.add_arguments(p)
    p.set_defaults(run=boot)

    p = sub.add_parser("crashimage", help="a crashed LFS for "
                       "doc/lfs-recovery.md (make crashimage)")
    p.add_argument("out", nargs="?", type=Path,
                   default=TOP / "build" / "crashed-lfs.img")
    p.set_defaults(run=crashimage)

    p = sub.add_parser("crashtest", help="LFS recovery from a power cut at "
                       "every write boundary (make crashtest; tests/crash)")
    p.add_argument("-w", "--workloads", metavar="W,...",
                   help="the workloads to crash (default: all of "
                   "tests/crash/record.py's WORKLOADS and tpcb.py's "
                   "tpcb-user, tpcb-kernel, tpcb-kernel-multi and their "
                   "-clean forms; tpcb: all six)")
    p.add_argument("-s", "--seed", type=int, default=1)
    p.add_argument("--sample", type=int, default=0,
                   help="check only N sampled points per workload (0: all)")
    p.add_argument("--pick", type=int, default=0,
                   help="crash only N of the workloads, chosen by the seed "
                   "(0: all)")
    p.add_argument("--torn", type=int, default=4,
                   help="tear every N-th multi-sector write (0: none)")
    p.add_argument("--work", type=Path, default=TOP / "build" / "crash")
    p.set_defaults(run=crashtest)

    p = sub.add_parser("kprof", help="sample where a running guest's CPU "
                       "goes, through its GDB stub (qemu/kprof.py)")
    from qemu import kprof
    kprof.add_arguments(p)
    p.set_defaults(run=kprof.main)

    p = sub.add_parser("bench", help="every benchmark driver of bench/ "
                       "(make bench)")
    p.add_argument("--profile", default=os.environ.get("DISK") or "hp97560")
    p.add_argument("--thesis", action="store_true",
                   help="each driver at the thesis' scale (make bench THESIS=1; "
                   "some 30 hours, estimated: bench/README.md)")
    p.set_defaults(run=bench)
    return ap


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
