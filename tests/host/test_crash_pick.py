"""python3 -m qemu crashtest --pick N --seed S (tests/crash/points.py): the
seed chooses which workloads a sampled run crashes, the same ones every time,
so a lab's hidden run (labs/rollforward/lab.toml) is repeatable and another
seed reaches the other workloads."""
from __future__ import annotations

from qemu.__main__ import parser
from tests.crash.points import pick_workloads
from tests.crash.record import WORKLOADS

SOME = ["files", "rename", "mkdirs", "seq", "overwrite", "append", "ckpt"]


def test_the_seed_picks_the_same_workloads_in_their_order():
    for seed in range(20):
        got = pick_workloads(SOME, 2, seed)
        assert got == pick_workloads(SOME, 2, seed)
        assert len(got) == 2 and got == [w for w in SOME if w in got]


def test_other_seeds_reach_every_workload():
    seen = {w for seed in range(40) for w in pick_workloads(SOME, 1, seed)}
    assert seen == set(SOME)


def test_no_pick_or_too_many_is_every_workload():
    assert pick_workloads(SOME, 0, 5) == SOME
    assert pick_workloads(SOME, 9, 5) == SOME


def test_the_command_line_takes_pick_and_the_workloads_exist():
    a = parser().parse_args(["crashtest", "-w", ",".join(SOME), "--sample", "3",
                             "--pick", "1", "--seed", "4"])
    assert (a.pick, a.sample, a.seed) == (1, 3, 4)
    assert set(SOME) <= set(WORKLOADS)
    assert parser().parse_args(["crashtest"]).pick == 0
