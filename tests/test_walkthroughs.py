"""The GDB walk-throughs run as written: every command of
doc/lfs-recovery.md and doc/transactions.md typed in order, on the host,
in GDB and in the guest, and every line they show under a command found
in what it printed (the convention is in tests/walkthrough.py and at the
top of each walk-through).  A walk-through edited so that a step no longer
works, or a kernel changed so that a step no longer shows what the
walk-through says, fails here with the step and what it printed.

    python3 -m tests.walkthrough doc/transactions.md    # the transcript
"""
from __future__ import annotations

import pytest

from tests.guest import TOP
from tests.walkthrough import Step, WalkError, missing, parse, walk

DOCS = ["lfs-recovery.md", "transactions.md"]


@pytest.mark.parametrize("doc", DOCS)
def test_the_walkthrough_runs_as_written(doc, tmp_path):
    walk(TOP / "doc" / doc, tmp_path)


# -- the checker, without a guest ------------------------------------------

def printed(step: Step) -> str:
    """Output that has every line the step shows ("..." filled in)."""
    return "\n".join(line.replace("...", "0xc0ffee") for line in step.shown)


@pytest.mark.parametrize("doc", DOCS)
def test_every_step_shown_would_pass_and_a_changed_line_fails(doc):
    """Each step's shown lines match output that has them, and a number
    changed in any shown line fails it: a drifted walk-through cannot pass."""
    steps = parse((TOP / "doc" / doc).read_text())
    assert {s.where for s in steps} == {"host", "gdb", "guest"}
    changed = 0
    for step in steps:
        assert missing(step, printed(step)) == [], step
        for i, line in enumerate(step.shown):
            digits = [c for c in line.replace("...", "") if c.isdigit()]
            if not digits:
                continue
            wrong = Step(step.where, step.command, step.line, list(step.shown))
            d = digits[0]
            wrong.shown[i] = line.replace(d, str((int(d) + 1) % 10), 1)
            if "..." not in line:
                assert missing(wrong, printed(step)), (step, wrong.shown[i])
                changed += 1
    assert changed > 10


def test_the_convention():
    steps = parse("prose\n\n"
                  "    $ make qemu-gdb    # terminal 1\n"
                  "    (gdb) lfs-sb\n"
                  "    lfs-sb: no LFS is mounted\n"
                  "\n"
                  "    # ls /mnt\n"
                  "    ...\n"
                  "    new\n"
                  "\n"
                  "A program:\n"
                  "\n"
                  "    #include <sys/txn.h>\n"
                  "    txn_begin();\n")
    assert [(s.where, s.command, s.shown) for s in steps] == [
        ("host", "make qemu-gdb    # terminal 1", []),
        ("gdb", "lfs-sb", ["lfs-sb: no LFS is mounted"]),
        ("guest", "ls /mnt", ["...", "new"])]
    gdb = steps[1]
    assert missing(gdb, "lfs-sb:   no LFS is mounted\n") == []
    assert missing(gdb, "lfs-sb: 2 LFS mounted\n")
    # An error GDB printed that the walk-through does not show fails.
    plain = Step("gdb", "break nosuch", 1)
    assert missing(plain, 'Function "nosuch" not defined.')
    assert missing(Step("gdb", "lfs-sb x", 1), "usage: lfs-sb [EXPR]")
    with pytest.raises(WalkError):
        parse("\n    stray output\n    (gdb) lfs-sb\n")
