"""LFS recovery time against the amount written since the last checkpoint
(thesis 6.2.4: roll-forward time is proportional to the checkpoint interval).

    python3 -m bench.recovery [--profile hp97560] [--out build/bench]

For each amount, a guest booted with syncinterval=0 (no checkpoints but the
ones asked for) makes an LFS on the first 48 MB of sd1 (as fs_bandwidth.py
does), writes a small file and syncs (the checkpoint), then writes a file of
that many bytes with rawbench (64 KB writes, then fsync: partial segments
after the checkpoint), and the power is cut (QEMU killed).  A new guest on the
same disks mounts the file system and the kernel reports how many partial
segments it rolled forward and how long the mount's recovery took (scan,
apply and the new checkpoint), which this driver tabulates with the time the
whole mount command took as seen from the host.

Beside it, what FFS pays for the same crash (thesis 6.2 and table 6-2: fsck's
five phases read every inode and directory whatever was written last): the
same file written on an FFS of the same size, the power cut, and
`time fsck_ffs -y` in a new guest.  Nothing is asserted.  Writes
build/bench/recovery.txt and recovery.json (for bench/report.py).
"""
from __future__ import annotations

import contextlib
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator

from bench.andrew import REAL
from bench.fs_bandwidth import SYSTEMS
from bench.driver import cell, parser, results_table, write_json
from bench.raw_disk import CMD_TIMEOUT
from qemu import drivemodel
from tests.guest import MEM, Guest

AMOUNTS_KB = (0, 256, 1024, 2048, 4096, 8192, 16384)
ROLLED = re.compile(r"rolled forward (\d+) partial segments, "
                    r"discarded (\d+) of an unfinished dirop, in (\d+) ms")
KARGS = "syncinterval=0"


@contextlib.contextmanager
def after_crash(profile: str, layout: str, kb: int) -> Iterator[Guest]:
    """A fresh file system of layout (FFS, LFS) holding a synced small
    file and then kb KB more (64 KB writes and an fsync), the power cut,
    and a new guest on the same disks, the file system not yet mounted."""
    make, mount = SYSTEMS[layout]
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        g = Guest(Path(tmp), profile=profile, kargs=KARGS)
        g.boot()
        g.ok(f"{make} /dev/rsd1a > /dev/null", timeout=CMD_TIMEOUT)
        g.ok(f"{mount} /dev/sd1a /mnt && echo base > /mnt/base && sync")
        if kb:
            g.ok(f"rawbench -b 65536 -t {kb * 1024} fwrite /mnt/f",
                 timeout=CMD_TIMEOUT * 2)
        g.close()                       # the power goes off
        g = Guest(Path(tmp), profile=profile, kargs=KARGS)
        g.boot()
        try:
            yield g
            g.halt()
        finally:
            g.close()


def one(profile: str, kb: int) -> tuple[int, int, float]:
    """(partial segments, kernel ms, host seconds for the mount)"""
    with after_crash(profile, "LFS", kb) as g:
        t0 = time.monotonic()
        out = g.ok(f"{SYSTEMS['LFS'][1]} /dev/sd1a /mnt", timeout=CMD_TIMEOUT)
        secs = time.monotonic() - t0
        m = ROLLED.search(out)
        if m is None:
            raise RuntimeError(f"no roll-forward line after {kb} KB: {out}")
        g.ok("umount /mnt")
        return int(m.group(1)), int(m.group(3)), secs


def fsck_ffs(profile: str, kb: int) -> float:
    """Seconds fsck_ffs -y takes on an FFS holding kb KB after a power cut."""
    with after_crash(profile, "FFS", kb) as g:
        out, _ = g.run("time fsck_ffs -y /dev/rsd1a 2>&1", CMD_TIMEOUT)
        m = REAL.search(out)
        if m is None:
            raise RuntimeError(f"fsck_ffs after {kb} KB: {out}")
        return float(m.group(1))


def json_tables(rows: dict[int, tuple[int, int, float]],
                fsck: dict[int, float]) -> list[dict]:
    """For bench/report.py: one()'s figures by KB written (the thesis has none)."""
    cells = []
    for kb, (psegs, ms, secs) in rows.items():
        cells += [cell(f"{kb} KB", "partial segments", psegs),
                  cell(f"{kb} KB", "kernel ms", ms), cell(f"{kb} KB", "mount s", secs),
                  cell(f"{kb} KB", "ms per MB", ms / (kb / 1024) if kb else None),
                  cell(f"{kb} KB", "fsck_ffs s", fsck.get(kb))]
    return [results_table(None, "LFS recovery (6.2.4) by the amount written since the "
                          "checkpoint", "", cells)]


def main(argv: list[str]) -> int:
    ap = parser(__doc__)
    args = ap.parse_args(argv)
    start = time.monotonic()
    prof = drivemodel.get_profile(args.profile)
    lines = [f"LFS recovery time (thesis 6.2.4), profile {args.profile}: "
             f"{prof.description}",
             "written since the checkpoint: one file, 64 KB writes and an fsync; "
             "then the power is cut and the file system mounted.",
             "kernel ms: scan + roll-forward + checkpoint, as the mount prints it.",
             "fsck_ffs s: the same file on an FFS of the same size, the power cut, "
             "fsck_ffs -y (time(1) in the guest).", "",
             f"{'KB':>7s} {'psegs':>6s} {'kernel ms':>10s} {'mount s':>8s} "
             f"{'ms per MB':>10s} {'fsck_ffs s':>11s}"]
    rows, fsck = {}, {}
    for kb in AMOUNTS_KB:
        psegs, ms, secs = rows[kb] = one(args.profile, kb)
        fsck[kb] = fsck_ffs(args.profile, kb)
        per = f"{ms / (kb / 1024):10.0f}" if kb else f"{'-':>10s}"
        lines.append(f"{kb:7d} {psegs:6d} {ms:10d} {secs:8.2f} {per} {fsck[kb]:11.2f}")
        print("  " + lines[-1], flush=True)
    report = "\n".join(lines)
    footer = f"benchmark took {time.monotonic() - start:.0f} s"
    print("\n" + report + "\n", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    txt = args.out / "recovery.txt"
    txt.write_text(report + "\n\n" + footer + "\n")
    js = write_json(args, "recovery", json_tables(rows, fsck), mem=MEM, runs=1)
    print(f"{footer}\nwrote {txt} and {js.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
