"""LFS crash recovery at sampled write boundaries (the quick form of make
crashtest, tests/crash).

Each workload is recorded once with a write log; then a fixed-seed sample of
its crash points (the first, the last and eight others) and two torn writes
are booted and checked: the namespace is a state the workload passed through,
no later than the previous point's and no earlier than the last fsync's; every
file's blocks are those of a legal version; fsck_lfs (when the guest has it)
and dumplfs find the file system consistent; the mount rolled forward.
"""
from __future__ import annotations

import pytest

from qemu import lfsdisk
from tests.crash.points import crash_workload, sample
from tests.crash.record import WORKLOADS

SEED = 1
POINTS = 8
TORN = 2


@pytest.mark.parametrize("workload", WORKLOADS)
def test_crash_points_recover(tmp_path, workload):
    lines: list[str] = []
    results = crash_workload(tmp_path, workload, SEED,
                             lambda rec, rp: sample(rec, rp, POINTS, TORN, SEED),
                             log=lines.append)
    bad = [r for r in results if not r.ok]
    assert results and not bad, "\n".join(lines)


def ifile_rounds(rec, rp) -> tuple[list[int], list]:
    """The writes that end a partial segment holding the ifile's inode
    without SS_CKP or SS_DIROP: a checkpoint's ifile round that was not its
    last, whose copy of the segment usage table may miss the next segment."""
    points = []
    for r in rp.records[rec.baseline:rec.end]:
        if len(r.data) < lfsdisk.SEGSUM.size + lfsdisk.FINFO.size:
            continue
        s = lfsdisk.Summary(*lfsdisk.SEGSUM.unpack_from(r.data))
        ino = lfsdisk.FINFO.unpack_from(r.data, lfsdisk.SEGSUM.size)[2]
        if (s.magic == lfsdisk.SS_MAGIC and s.ninos > 0 and ino == 1 and
                not s.flags & (lfsdisk.SS_CKP | lfsdisk.SS_DIROP)):
            points.append(r.seq)
    assert points, "the workload wrote no checkpoint in two ifile rounds"
    return points, []


def test_a_checkpoint_cut_between_its_ifile_rounds(tmp_path):
    """The seq workload's last checkpoints cross a segment boundary, so the
    ifile is written twice (lfs_writeifile: the first copy of the segment
    usage table missed the new segment).  Cut after the first round, the
    roll-forward took that copy as the ifile and left the segment the log
    went on in marked clean (fsck_lfs: live bytes in a clean segment)."""
    lines: list[str] = []
    results = crash_workload(tmp_path, "seq", SEED, ifile_rounds, log=lines.append)
    bad = [r for r in results if not r.ok]
    print("\n".join(lines))
    assert results and not bad, "\n".join(lines)
