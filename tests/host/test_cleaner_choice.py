"""lfs_cleanerd's choice of a segment (thesis 6.2.5; libexec/lfs_cleanerd/
choose.c), on the host: segment usage tables made up so that greedy,
cost-benefit and the rules on which segments are candidates at all each
give one answer, and a cleaner that takes the first candidate it finds
gives another.

Segments of 64 blocks of 4 KB (newfs_lfs -s 262144) unless a test says;
u is the live fraction, ages are seconds before `now'.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOW = 1_000_000
BSIZE = 4096
ACTIVE, DIRTY, CLEANING = 0x01, 0x02, 0x08
CLEAN = (0.0, 0, 0)         # a clean segment: (u, age, flags)


@pytest.fixture(scope="module")
def chooser(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """choose.c and its driver, compiled as the Makefile compiles the
    host tools."""
    out = tmp_path_factory.mktemp("choose") / "cleaner_choice"
    subprocess.run(["gcc", "-O2", "-g", "-Wall", "-Wmissing-prototypes",
                    "-Werror", "-iquote", ".", "-DHOSTBUILD", "-o", str(out),
                    "tests/host/cleaner_choice.c",
                    "libexec/lfs_cleanerd/choose.c"], cwd=ROOT, check=True)
    return out


def choose(chooser: Path, segs: list[tuple[float, int, int]],
           costbenefit: bool = False, ssize: int = 64) -> dict[str, float]:
    """The choice and the counts for segments given as (u, age, flags)."""
    lines = [f"{len(segs)} {ssize} {BSIZE} {int(costbenefit)} {NOW}"]
    for u, age, flags in segs:
        lines.append(f"{round(u * ssize * BSIZE)} {NOW - age} {flags:x}")
    p = subprocess.run([str(chooser)], input="\n".join(lines) + "\n",
                       capture_output=True, text=True, check=True, timeout=30)
    return {k: float(v) for k, v in (l.split("\t") for l in p.stdout.splitlines())}


def pick(chooser: Path, segs: list[tuple[float, int, int]], **kw) -> int:
    return int(choose(chooser, segs, **kw)["pick"])


def test_greedy_takes_the_least_utilized_candidate(chooser):
    """Greedy: the candidate with the fewest live bytes, wherever it is;
    an ACTIVE segment is no candidate however empty; ties go to the lower
    number.  The scan counts the clean segments and the space not live."""
    segs = [CLEAN, (0.7, 100, DIRTY), (0.4, 100, DIRTY),
            (0.1, 5, DIRTY | ACTIVE), (0.3, 100, DIRTY), (0.5, 100, DIRTY),
            CLEAN]
    got = choose(chooser, segs)
    assert got["pick"] == 4, ("greedy takes the segment 30% live, not the "
                              "first candidate nor the ACTIVE one", got)
    assert got["nclean"] == 2, got
    assert got["freesegs"] == pytest.approx(2 + 0.3 + 0.6 + 0.9 + 0.7 + 0.5,
                                            abs=1e-3), got
    assert pick(chooser, [(0.6, 9, DIRTY), (0.4, 1, DIRTY), (0.4, 50, DIRTY),
                          (0.45, 7, DIRTY)]) == 1, "a tie: the lower number"


def test_an_empty_segment_goes_first_under_either_policy(chooser):
    """A dirty segment with no live bytes is reclaimed without being read:
    better than any other, young as it is, greedy or cost-benefit."""
    segs = [(0.15, 10_000, DIRTY), (0.6, 50_000, DIRTY), (0.0, 0, DIRTY),
            (0.05, 3, DIRTY)]
    assert pick(chooser, segs) == 2
    assert pick(chooser, segs, costbenefit=True) == 2


def test_cost_benefit_weighs_age_against_utilization(chooser):
    """(1 - u) * age / (1 + u), age counted from one: a segment half live
    and 99 s old (33.3) beats one a fifth live and 39 s old (26.7), which
    greedy takes; a few seconds either way turn the choice back."""
    segs = [(0.2, 39, DIRTY), (0.5, 99, DIRTY), (0.8, 60, DIRTY)]
    assert pick(chooser, segs, costbenefit=True) == 1
    assert pick(chooser, segs) == 0
    # 0.8 * 53 / 1.2 = 35.3 against 33.3
    assert pick(chooser, [(0.5, 99, DIRTY), (0.2, 52, DIRTY)],
                costbenefit=True) == 1
    # Old and 60% live beats young and 30%; 91% live frees too little to
    # be a candidate, however old.
    segs = [(0.3, 10, DIRTY), (0.6, 1000, DIRTY), (0.91, 10**6, DIRTY)]
    assert pick(chooser, segs, costbenefit=True) == 1


def test_a_clock_set_back_counts_as_age_one(chooser):
    """A segment stamped in the future (the clock went back) is as young
    as can be: age 1, not a negative score that loses to everything."""
    segs = [(0.3, 2, DIRTY), (0.4, -500, DIRTY)]
    # 0.7 * 3 / 1.3 = 1.6 against 0.6 * 1 / 1.4 = 0.43
    assert pick(chooser, segs, costbenefit=True) == 0
    segs = [(0.3, -500, DIRTY), (0.8, 0, DIRTY)]
    # 0.7 / 1.3 = 0.54 against 0.2 / 1.8 = 0.11: still a candidate
    assert pick(chooser, segs, costbenefit=True) == 0
    segs = [(0.8, 0, DIRTY), (0.3, -500, DIRTY)]
    assert pick(chooser, segs, costbenefit=True) == 1


def test_segments_not_worth_cleaning_are_left(chooser):
    """1 MB segments (256 blocks): more than 90% live is not worth moving
    even where it frees the twelve blocks a cleaning must; fewer than
    twelve never; ACTIVE ones wait for a checkpoint, which the scan asks
    for only if one would be worth cleaning and no cleaner has it."""
    ssize = 256
    segs = [(0.92, 10**5, DIRTY), (0.96, 10**5, DIRTY),
            (0.5, 10, DIRTY | ACTIVE | CLEANING), CLEAN]
    got = choose(chooser, segs, ssize=ssize)
    assert got["pick"] == -1, ("nothing here is worth cleaning", got)
    assert got["activegain"] == 0, ("the ACTIVE one is being cleaned", got)
    assert got["nclean"] == 1, got
    segs[2] = (0.93, 10, DIRTY | ACTIVE)
    got = choose(chooser, segs, ssize=ssize)
    assert (got["pick"], got["activegain"]) == (-1, 0), got
    segs[2] = (0.5, 10, DIRTY | ACTIVE)
    got = choose(chooser, segs, ssize=ssize, costbenefit=True)
    assert (got["pick"], got["activegain"]) == (-1, 1), (
        "a checkpoint would make the ACTIVE one a candidate", got)
    # 64-block segments: 82% live frees 11.5 blocks, too few.
    assert pick(chooser, [(0.82, 10**5, DIRTY), (0.8, 10, DIRTY)]) == 1
