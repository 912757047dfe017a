"""The cleaner's choice of a segment (thesis 6.2.5; libexec/lfs_cleanerd/
choose.c), on a real file system.  Four files of 256 KB in 256 KB
segments, six seconds between the first two and the others; then parts
of the first two are rewritten and the third removed.  The old segments are the
fuller ones and the first candidate in disk order is neither greedy's
choice (the least utilized) nor cost-benefit's (an old segment, a third
live, over a young one a little emptier).  lfs_cleanerd -v -c 1 says
which segment it cleans; the test works out from dumplfs' segment usage
table which one it should have.  tests/host/test_cleaner_choice.py tries
the policies on made-up tables."""
from __future__ import annotations

import re
from typing import NamedTuple

from tests.fslib import dumplfs_ok
from tests.guest import Guest

SEGBYTES = 262144           # newfs_lfs -s: 64 blocks of 4 KB
BSIZE = 4096
MINGAIN = 12                # blocks a cleaning must free (choose.h)
MAXLIVE = 0.9


class Seg(NamedTuple):
    sn: int
    flags: str
    nbytes: int
    lastmod: int


def segment_table(g: Guest) -> list[Seg]:
    """Every segment's line of the segment usage table, as on the disk
    after the last checkpoint."""
    out = g.ok("dumplfs /dev/rsd1a", timeout=120)
    return [Seg(int(m[1]), m[2], int(m[3]), int(m[4])) for m in re.finditer(
        r"^segment\t(\d+) (\S+) nbytes (\d+) .* lastmod (\d+)$", out, re.M)]


def candidates(table: list[Seg]) -> list[Seg]:
    """Dirty, not ACTIVE, worth moving: what a cleaner may choose from."""
    return [s for s in table if "dirty" in s.flags.split(",") and
            "active" not in s.flags.split(",") and
            SEGBYTES - s.nbytes >= MINGAIN * BSIZE and
            s.nbytes / SEGBYTES <= MAXLIVE]


def best(table: list[Seg], now: int | None) -> int:
    """Greedy's choice (now None) or cost-benefit's at time now."""
    def score(s: Seg) -> float:
        u = s.nbytes / SEGBYTES
        if s.nbytes == 0:
            return 1e30
        if now is None:
            return 1 - u
        return (1 - u) * max(now - s.lastmod + 1, 1) / (1 + u)
    cands = candidates(table)
    assert cands, ("the layout left nothing to clean", table)
    return max(cands, key=lambda s: (score(s), -s.sn)).sn


def layout(g: Guest) -> list[Seg]:
    """The files, each block of file X the letter X throughout."""
    g.ok("newfs_lfs -s 262144 -S 14336 /dev/rsd1a > /dev/null && "
         "mount -n -t lfs /dev/sd1a /mnt")
    for f in "abcd":
        g.ok(f"dd if=/dev/zero bs=64k count=1 2>/dev/null | tr '\\0' {f} > /tmp/{f}; "
             f"cat /tmp/{f} /tmp/{f} /tmp/{f} /tmp/{f} > /mnt/{f}; sync")
        if f == "b":
            g.ok("sleep 6")
    g.ok("dd if=/tmp/a of=/mnt/a bs=64k seek=1 conv=notrunc 2>/dev/null; "
         "cat /tmp/b /tmp/b | dd of=/mnt/b bs=64k conv=notrunc 2>/dev/null; "
         "rm /mnt/c; sync")
    return segment_table(g)


def cleaned(g: Guest, flags: str) -> int:
    """The segment lfs_cleanerd chose, cleaning one."""
    out = g.ok(f"/usr/libexec/lfs_cleanerd {flags} -v -c 1 /mnt")
    m = re.search(r"^lfs_cleanerd: segment (\d+) \(", out, re.M)
    assert m, ("the cleaner cleaned nothing", out)
    return int(m[1])


def now(g: Guest) -> int:
    return int(g.ok("date +%s").strip())


def finish(g: Guest) -> None:
    """The files read back whole, and the log checks out."""
    for f in "abd":
        assert g.ok(f"wc -c < /mnt/{f}; tr -d {f} < /mnt/{f} | wc -c"
                    ).split() == ["262144", "0"], f"/mnt/{f} came back wrong"
    g.ok("umount /mnt")
    dumplfs_ok(g)


def test_greedy_cleans_the_emptiest_segment_not_the_first(guest):
    """Greedy (the default): the candidate with the fewest live bytes."""
    table = layout(guest)
    first, want = candidates(table)[0].sn, best(table, None)
    assert first != want, ("the layout no longer tells greedy from taking "
                           "the first candidate", table)
    got = cleaned(guest, "-g")
    assert got == want, (f"greedy cleaned segment {got}, not {want}, the "
                         "least utilized (the first candidate is "
                         f"{first})", table)
    finish(guest)


def test_cost_benefit_cleans_an_old_segment_before_a_young_emptier_one(guest):
    """-b: (1 - u) * age / (1 + u), here an old segment a third live
    before the young ones greedy takes; the choice is the same at every
    second the cleaner may have read the clock."""
    table = layout(guest)
    t0 = now(guest)
    got = cleaned(guest, "-b")
    t1 = now(guest)
    wants = {best(table, t) for t in range(t0, t1 + 1)}
    greedy, first = best(table, None), candidates(table)[0].sn
    # Greedy's choice too where the segment writer lays the files out
    # otherwise (the thresholds lab's stub writes smaller partial
    # segments and empties a segment: both policies take that).
    assert len(wants) == 1 and first not in wants, (
        "the layout no longer tells cost-benefit from the first candidate",
        wants, first, table)
    want = wants.pop()
    assert got == want, (f"cost-benefit cleaned segment {got}, not {want} "
                         f"(greedy's is {greedy}, the first candidate "
                         f"{first})", table)
    finish(guest)
