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
