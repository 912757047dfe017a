"""LFS crash recovery at sampled write boundaries (the quick form of make
crashtest, tests/crash).

Each workload is recorded once with a write log; then a fixed-seed sample of
its crash points (the first, the last and eight others) and two torn writes
are booted and checked: the namespace is a state the workload passed through,
no later than the previous point's and no earlier than the last fsync's; every
file's blocks are those of a legal version; fsck_lfs (when the guest has it)
and dumplfs find the file system consistent; the mount rolled forward.

The tests after it choose their points by what the write cuts, each a rule
of roll-forward (lfs/lfs_rfw.c, the lab labs/rollforward): a checkpoint
between its ifile rounds, a directory operation after its SS_CONT partial
segment, a partial segment torn after its summary.
"""
from __future__ import annotations

import random

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


BSIZE = 4096                    # newfs_lfs's block, a partial segment's unit
PICK = 3                        # crash points per test below


def summaries(rec, rp) -> list:
    """(write, summary) of each write that starts a partial segment, once
    the workload's first fsync has returned: from there on, losing the log
    after the checkpoint loses fsync'd work."""
    first = rec.durs[0][1] if rec.durs else rec.end
    out = []
    for r in rp.records[first:rec.end]:
        if len(r.data) >= lfsdisk.SEGSUM.size:
            s = lfsdisk.Summary(*lfsdisk.SEGSUM.unpack_from(r.data))
            if s.magic == lfsdisk.SS_MAGIC:
                out.append((r, s))
    return out


def pick(name: str, candidates: list) -> list:
    assert candidates, f"{name}: the workload wrote no such partial segment"
    rng = random.Random(f"{name}/{SEED}")
    return sorted(rng.sample(candidates, min(PICK, len(candidates))))


def finfo_inos(data: bytes, s) -> list[int]:
    """The inode numbers of the FINFOs of summary s (at the start of data)."""
    off, inos = lfsdisk.SEGSUM.size, []
    for _ in range(s.nfinfo):
        if off + lfsdisk.FINFO.size > len(data):
            break
        n, _, ino, _ = lfsdisk.FINFO.unpack_from(data, off)
        inos.append(ino)
        off += lfsdisk.FINFO.size + 4 * n
    return inos


def ifile_rounds(rec, rp) -> tuple[list[int], list]:
    """The writes that end a partial segment holding the ifile's inode
    without SS_CKP or SS_DIROP: a checkpoint's ifile round that was not its
    last, whose copy of the segment usage table may miss the next segment.
    (The ifile is the last file of its partial segment, after the inodes a
    plain write puts with it.)"""
    points = []
    for r in rp.records[rec.baseline:rec.end]:
        if len(r.data) < lfsdisk.SEGSUM.size + lfsdisk.FINFO.size:
            continue
        s = lfsdisk.Summary(*lfsdisk.SEGSUM.unpack_from(r.data))
        if (s.magic == lfsdisk.SS_MAGIC and s.ninos > 0 and
                1 in finfo_inos(r.data, s) and
                not s.flags & (lfsdisk.SS_CKP | lfsdisk.SS_DIROP)):
            points.append(r.seq)
    return pick("ifile rounds", points), []


def test_a_checkpoint_cut_between_its_ifile_rounds(tmp_path):
    """A checkpoint whose ifile crosses into a new segment writes it twice
    (lfs_writeifile: the first copy of the segment usage table missed the
    new segment); the ckpt workload's many checkpoints, each after an
    fsync, include some.  Cut after the first round, the roll-forward once
    took that copy as the ifile and left the segment the log went on in
    marked clean (fsck_lfs: live bytes in a clean segment).  The round is
    log all the same: rolled forward, with the fsync before it."""
    lines: list[str] = []
    results = crash_workload(tmp_path, "ckpt", SEED, ifile_rounds, log=lines.append)
    bad = [r for r in results if not r.ok]
    print("\n".join(lines))
    assert results and not bad, "\n".join(lines)
    assert all(r.rolled and r.rolled[0] >= 1 for r in results), \
        [(r.name, r.rolled) for r in results]


def dirop_halves(rec, rp) -> tuple[list[int], list]:
    """The write that completes a dirop's partial segment flagged
    SS_DIROP|SS_CONT, the next one (the dirop's end) in a later write:
    cut there, the directory operation is unfinished."""
    ends = {r.offset + r.requested: r.seq for r in rp.records[rec.baseline:rec.end]}
    both = lfsdisk.SS_DIROP | lfsdisk.SS_CONT
    return pick("dirop", [ends[r.offset + (1 + s.nblocks) * BSIZE]
                          for r, s in summaries(rec, rp)
                          if s.flags & both == both and
                          r.offset + (1 + s.nblocks) * BSIZE in ends]), []


def test_an_unfinished_dirop_is_discarded(tmp_path):
    """Thesis 6.3.3: a directory operation's partial segments are rolled
    forward all or none.  Cut after one flagged SS_CONT whose successor
    never landed, the mount discards it (and says so): the namespace is
    one the workload passed through, with everything fsync'd before."""
    lines: list[str] = []
    results = crash_workload(tmp_path, "mkdirs", SEED, dirop_halves, log=lines.append)
    bad = [r for r in results if not r.ok]
    assert results and not bad, "\n".join(lines)
    assert all(r.rolled and r.rolled[1] >= 1 for r in results), \
        [(r.name, r.rolled) for r in results]


def torn_summaries(rec, rp) -> tuple[list, list[tuple[int, int]]]:
    """Writes of a partial segment and its blocks, torn right after the
    summary: the summary and its serial are valid, the blocks are not."""
    return [], [(n, BSIZE // 512) for n in
                pick("torn", [r.seq for r, _ in summaries(rec, rp)
                              if r.requested >= 2 * BSIZE])]


def test_a_torn_partial_segment_ends_the_log(tmp_path):
    """Only the data checksum (ss_datasum) tells a partial segment whose
    blocks did not all land: it ends the log, and what was fsync'd before
    it is there.  The append workload's forced writes carry data blocks
    that roll-forward would point files at."""
    lines: list[str] = []
    results = crash_workload(tmp_path, "append", SEED, torn_summaries, log=lines.append)
    bad = [r for r in results if not r.ok]
    assert results and not bad, "\n".join(lines)
    assert all(r.rolled for r in results), [(r.name, r.rolled) for r in results]
