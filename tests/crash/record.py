"""The record run of a crash workload: one guest, its scratch disk logging every write.

    newfs_lfs; crashwork setup; umount; mount     (before the baseline)
    crashwork run, with a handshake after each fsync; umount

The log (qemu/writelog.py) holds every write from the newfs on; the crash points
are the write boundaries from the baseline (the writes in the log when the
workload starts) to the end.  At each "DUR" line (an fsync returned) the guest
waits while the host counts the writes in the log, so Recording.durs says exactly
from which crash point on the fsync'd state must survive.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from qemu import disk, writelog
from tests.crash.model import Model, Recording
from tests.crash.txnmodel import TxnModel
from tests.guest import Guest

SD1_SECTORS = 32768            # a 16 MB scratch disk: small images, fast copies
NEWFS = "newfs_lfs -s 262144 /dev/rsd1a > /dev/null"    # 64 segments of 256 KB
WORKLOADS = ("files", "rename", "mkdirs", "seq", "overwrite", "append", "ckpt",
             "cleaner", "txn", "logs")
RUN_TIMEOUT = 600
KARGS = "syncinterval=0"     # no update daemon: the only checkpoints are ours


def mount_cmd(workload: str) -> str:
    """The mount of the recorded part; in the cleaner workload a cleaner starts
    with it and cleans 16 segments at once (half live: it moves blocks) while
    the workload unlinks files and writes new ones."""
    cmd = "mount -n -t lfs /dev/sd1a /mnt"
    if workload == "cleaner":
        cmd += " && (/usr/libexec/lfs_cleanerd -c 16 /mnt > /dev/null 2>&1 &)"
    return cmd


def count_writes(log: Path) -> int:
    """Complete records in a write log that may still be growing."""
    size = log.stat().st_size
    n, pos = 0, len(writelog.FILE_MAGIC)
    with open(log, "rb") as f:
        while pos + writelog.REC.size <= size:
            f.seek(pos)
            head = writelog.REC.unpack(f.read(writelog.REC.size))
            pos += writelog.REC.size + head[3]
            if pos > size:
                break
            n = head[1]
    return n


def ops_of(text: str) -> list[str]:
    return [m.group(1) for m in re.finditer(r"^OP (.*?)\r*$", text, re.M)]


def record(workdir: Path, workload: str, seed: int) -> Recording:
    """Run the workload once with a write log; leave blank.img and write.log in
    workdir, and return what the checker needs."""
    workdir.mkdir(parents=True, exist_ok=True)
    log = workdir / "write.log"
    blank = workdir / "blank.img"
    disk.make_image(blank, "none", SD1_SECTORS)
    (workdir / "guest").mkdir(exist_ok=True)
    g = Guest(workdir / "guest", sd1=blank, kargs=KARGS,
              faults=disk.FaultSpec(writelog=str(log)))
    model = TxnModel() if workload == "txn" else Model()
    try:
        g.boot()
        g.ok(NEWFS, timeout=120)
        g.ok("mount -n -t lfs /dev/sd1a /mnt")
        out = g.ok(f"/usr/tests/crashwork setup {workload} {seed} /mnt",
                   timeout=RUN_TIMEOUT)
        for op in ops_of(out):
            model.apply(op)
        g.ok("umount /mnt")
        model.synced = len(model.ops)
        g.ok(mount_cmd(workload))
        rec = Recording(workload, seed, model, len(model.ops), count_writes(log), 0)
        g.send(f"/usr/tests/crashwork run {workload} {seed} /mnt; echo __RUN__$?\n")
        while g.expect([r"\nDUR\r*\n", r"__RUN__(\d+)\r*\n# "], RUN_TIMEOUT) == 0:
            for op in ops_of(g.child.before):
                model.apply(op)
            rec.durs.append((len(model.ops), count_writes(log)))
            g.send("\n")
        text = g.child.before
        for op in ops_of(text):
            model.apply(op)
        if g.child.match.group(1) != "0" or "DONE" not in text:
            raise AssertionError(f"crashwork run {workload} failed:\n{text[-2000:]}")
        if workload == "cleaner":
            st = g.ok("lfsstat /mnt")
            m = re.search(r"segs_cleaned\t(\d+)", st)
            moved = re.search(r"cleaner_blocks_moved\t(\d+)", st)
            rec.cleaned = (int(m.group(1)) if m else 0, int(moved.group(1)) if moved else 0)
        g.ok("umount /mnt")
        rec.end = count_writes(log)
    finally:
        g.close()
    (workdir / "guest" / "sd1.img").unlink()     # the final image; replay rebuilds any
    (workdir / "guest" / "sd0.img").unlink()
    return rec


def write_records(log: Path) -> list[writelog.WriteRecord]:
    return list(writelog.read_log(str(log)))


if __name__ == "__main__":
    r = record(Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]))
    print(f"{r.workload}: {len(r.model.ops)} ops ({r.setup_ops} setup), cleaned {r.cleaned}, "
          f"writes {r.baseline}..{r.end}, durs {r.durs}")

