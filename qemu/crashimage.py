"""Make a crashed BSD-LFS image for the recovery walk-through
(doc/lfs-recovery.md): `make crashimage` -> build/crashed-lfs.img.

    python3 -m qemu crashimage [OUT]

A guest makes an LFS on its scratch disk sd1 and works on it (WORKLOAD):
files and a sync, which is a checkpoint; then, each written by fsync
(partial segments, no checkpoint), a new file (a directory operation),
a new directory with a file (another), an append to an old file (no
dirop: the ifile is not written with it), and a last directory
operation.  The power is cut in the middle of that last
one, so the log ends with an unfinished dirop: a partial segment flagged
SS_DIROP|SS_CONT whose end (the ifile's, SS_DIROP alone) never landed.

The cut point is chosen, not guessed: a first run records every write
the disk server receives (qemu/writelog.py); the write that carries the
summary of the last dirop's ending partial segment is write N.  A second
run of the same workload has the server cut the power at write N
(FaultSpec(cut_after=N), qemu/DRIVE.md): writes 1..N-1 land, N and
later are lost.  Both guests run without the update daemon's timed
syncs (syncinterval=0), so the file system writes only when told, and
with fsyncdelta=0 (step 4's block goes whole, not as a DELTA); the
second run records too and must have sent the same writes (offsets and
lengths) as the first up to N, or it says so.
"""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Optional

from qemu import lfsdisk, writelog
from qemu.disk import FaultSpec
from tests.guest import Guest

SD1_SECTORS = 131072            # 64 MB, as the tests' scratch disks

# No update daemon; and step 4's fsync writes its block whole, the forced
# write of data alone that the walk-through follows into lfs_rfw_setblk
# (with delta fsyncs, the default, it would log the five bytes instead).
KARGS = "syncinterval=0 fsyncdelta=0"

# One command line per step; each ends with sync or fsync, so nothing is
# dirty between steps.
SETUP = [
    "newfs_lfs /dev/rsd1a > /dev/null",
    "mount -t lfs /dev/sd1a /mnt",
    "mkdir /mnt/src && echo one > /mnt/src/a && echo two > /mnt/src/b"
    " && sync",                                     # the checkpoint
    "echo three > /mnt/new && fsync /mnt/new",       # a create
    "mkdir /mnt/dir && echo four > /mnt/dir/f && fsync /mnt/dir/f",
    "echo five >> /mnt/src/a && fsync /mnt/src/a",   # no dirop
]
LAST = "mkdir /mnt/lost && echo six > /mnt/lost/g && fsync /mnt/lost/g"
WORKLOAD = SETUP + [LAST]


def summaries_in_log(log: Path, fs: lfsdisk.Dlfs, base: int):
    """(write number, block, summary) of each write that starts with a
    valid partial-segment summary."""
    out = []
    for rec in writelog.read_log(str(log)):
        off = rec.offset - base
        if off % fs.bsize or len(rec.data) < fs.sumsize:
            continue
        ss = lfsdisk.parse_summary(fs, rec.data[:fs.sumsize])
        if ss.problem is None:
            out.append((rec.seq, off // fs.bsize, ss))
    return out


def pick_cut(log: Path, image: Path) -> tuple[int, lfsdisk.Summary]:
    """The write carrying the summary that ends the last dirop chain of
    the recording, and that summary."""
    img = lfsdisk.Image(str(image))
    try:
        sums = summaries_in_log(log, img.fs, img.base)
    finally:
        img.close()
    for i in range(len(sums) - 1, 0, -1):
        prev, (seq, _, ss) = sums[i - 1][2], sums[i]
        if prev.flags & lfsdisk.SS_CONT and ss.flags & lfsdisk.SS_DIROP \
                and not ss.flags & lfsdisk.SS_CONT \
                and ss.serial == prev.serial + 1:
            return seq, ss
    raise RuntimeError(f"{log}: no dirop chain ends in the recording")


def run(workdir: Path, faults: FaultSpec) -> Guest:
    """Boot a guest on a blank sd1 and run the workload; with a cut, the
    last step is typed and the power cut waited for."""
    workdir.mkdir(parents=True, exist_ok=True)
    with Guest(workdir, sd1_sectors=SD1_SECTORS, faults=faults,
               kargs=KARGS) as g:
        for cmd in SETUP:
            g.ok(cmd, timeout=180)
        if faults.cut_after is None:
            g.ok(LAST)
        else:
            g.send(LAST + "\n")
            if g.disk_servers[1].wait_for_cut(timeout=120) is None:
                raise RuntimeError("the power cut did not happen")
    return g


def same_writes(a: Path, b: Path, n: int) -> bool:
    """Did two recordings send the same writes (where, how long) 1..n?"""
    def shape(log: Path):
        return [(r.seq, r.offset, r.requested) for r in
                writelog.read_log(str(log)) if r.seq <= n]
    return shape(a) == shape(b)


def make(workdir: Path, out: Path) -> int:
    """Build the crashed image at out (scratch files in workdir); return
    the write at which the power was cut."""
    rec = run(workdir / "record",
              FaultSpec(writelog=str(workdir / "record.wlog")))
    n, _ = pick_cut(workdir / "record.wlog", rec.sd1)
    cut = run(workdir / "cut",
              FaultSpec(cut_after=n, writelog=str(workdir / "cut.wlog")))
    if not same_writes(workdir / "record.wlog", workdir / "cut.wlog", n - 1):
        raise RuntimeError("the second run wrote differently from the first:"
                           " compare the write logs in " + str(workdir))
    shutil.copyfile(cut.sd1, out)
    return n


def describe(image: Path, cut: Optional[int] = None) -> str:
    """What the crashed image holds: the checkpoint and the log after it."""
    img = lfsdisk.Image(str(image))
    try:
        fs, psegs = img.fs, img.after_checkpoint()
    finally:
        img.close()
    lines = [f"{image}:"]
    if cut is not None:
        lines.append(f"  power cut during write {cut}")
    lines.append(f"  checkpoint: serial {fs.serial}, ifile inode in block "
                 f"{fs.idaddr}, curseg {fs.curseg} offset {fs.offset}")
    lines.append(f"  {len(psegs)} partial segments after it:")
    for p in psegs:
        lines.append(f"    block {p.daddr} serial {p.ss.serial} flags "
                     f"{p.ss.flagstr} nblocks {p.ss.nblocks}")
    if psegs and psegs[-1].ss.flags & lfsdisk.SS_CONT:
        lines.append("  the last is SS_CONT without its end: an unfinished "
                     "directory operation")
    return "\n".join(lines)


def main(out: Path) -> int:
    """python3 -m qemu crashimage OUT: make it, say what it holds."""
    work = out.parent / (out.name + ".work")
    shutil.rmtree(work, ignore_errors=True)
    n = make(work, out)
    shutil.rmtree(work, ignore_errors=True)
    print(describe(out, n))
    return 0
