"""OO1 in the guest (bin/oo1 on lib/libdb, thesis 7.6): a database of 500
parts, each of the four tests counting its work (lookup finds its 1,000
parts; a forward traversal visits 1 + 3 + ... + 3^7 = 3280 parts, three
connections a part, seven hops, in one walk; a backward one visits 3280
in as many walks as it takes, the same on a cold cache as on a warm one;
insert adds 100 parts whose connections check then finds, with the
relations still agreeing), and bad arguments.
"""
from __future__ import annotations

import re

import pytest

from tests import fslib

DB = "/mnt/db"
SIZES = re.compile(r"^(part|connect_forward|connect_backward|connector)\s+"
                   r"(?:B-tree|fixed-length record)\s+(\d+)\s+(\d+)\s+(\d+)$", re.M)
DONE = re.compile(r"oo1 (\w+): (\d+) parts (?:found|visited|inserted)"
                  r"(?: \((\d+) (?:connections|walks?)\))?")


def sizes(out: str) -> dict[str, int]:
    """Entries by relation, from the table load and sizes print."""
    return {m.group(1): int(m.group(2)) for m in SIZES.finditer(out)}


def oo1(guest, name: str, args: str = "") -> tuple[int, int]:
    """Run one of OO1's tests; the count it reports and its second figure
    (connections inserted, walks taken; 0 for lookup)."""
    out = guest.ok(f"oo1 -d {DB} {args} {name}", timeout=120)
    m = DONE.search(out)
    assert m and m.group(1) == name, out
    return int(m.group(2)), int(m.group(3) or 0)


def consistent(guest, parts: int) -> None:
    out = guest.ok(f"oo1 -d {DB} check", timeout=120)
    assert f"oo1 check: {parts} parts, {3 * parts} connections: consistent" in out, out


@pytest.mark.parametrize("fs", ["ffs", "lfs"])
def test_each_test_counts_its_work(guest, fs):
    if fs == "lfs":
        fslib.lfs(guest, cleaner=False)
    else:
        fslib.ffs(guest)
    out = guest.ok(f"oo1 -d {DB} -n 500 load", timeout=120)
    assert sizes(out) == {"part": 500, "connect_forward": 1500,
                          "connect_backward": 1500, "connector": 1500}, out
    consistent(guest, 500)
    assert oo1(guest, "lookup") == (1000, 0)
    for seed in (1, 2, 3):
        assert oo1(guest, "traverse", f"-s {seed}") == (3280, 1)
    back = [oo1(guest, "rtraverse", f"-s {seed}") for seed in (1, 2, 3, 4, 5)]
    assert all(n == 3280 and walks >= 1 for n, walks in back), back
    assert any(walks > 1 for _, walks in back), back     # the walk that ends short
    fslib.remount(guest, fs)
    assert [oo1(guest, "rtraverse", f"-s {seed}") for seed in (1, 2, 3, 4, 5)] == back
    assert oo1(guest, "insert") == (100, 300)
    consistent(guest, 600)
    assert sizes(guest.ok(f"oo1 -d {DB} sizes")) == {
        "part": 600, "connect_forward": 1800, "connect_backward": 1800, "connector": 1800}
    fslib.remount(guest, fs)
    consistent(guest, 600)
    assert oo1(guest, "lookup", "-s 7") == (1000, 0)
    assert oo1(guest, "traverse", "-s 7") == (3280, 1)


def test_bad_arguments_give_usage(guest):
    fslib.ffs(guest)
    for args in ("", "-d", f"-d {DB}", f"-d {DB} frobnicate", f"-d {DB} lookup extra",
                 f"-d {DB} -n 500 lookup", f"-d {DB} -n 1 load", f"-d {DB} -n ten load",
                 f"-d {DB} -s -1 lookup", f"-x -d {DB} lookup"):
        out, status = guest.run(f"oo1 {args}")
        assert status == 1 and "usage: oo1 -d dir" in out, (args, out)
    out, status = guest.run(f"oo1 -d {DB} lookup")
    assert status == 1 and f"oo1: {DB}: No such file or directory" in out, out
    guest.ok(f"oo1 -d {DB} -n 100 load")
    out, status = guest.run(f"oo1 -d {DB} -n 100 load")
    assert status == 1 and "File exists" in out, out
