"""The Wisconsin benchmark in the guest (bin/wisc on lib/libdb, thesis 7.7), at a
tenth of its size: TENKTUP1 and TENKTUP2 of 1,000 tuples, ONEKTUP and BPRIME of
100.  What each query must return follows from the relations' definition:
unique2 numbers the tuples 0..n-1, unique1 is a permutation of the same numbers,
hundred is unique1 mod 100, BPRIME is the first tenth of TENKTUP2.  So a 1%
selection on unique2 0..9 returns 10 tuples whose unique2 add up to 45, the
minimum of unique1 in each group of hundred is the group's number, and a query
with no index returns what its indexed twin returns.  Each update changes one
tuple, which wisc check sees, and wisc setup puts it back.
"""
from __future__ import annotations

import re

from tests import fslib
from tests.guest import Guest

N = 1000                                  # TENKTUP1, TENKTUP2
SMALL = N // 10                           # ONEKTUP, BPRIME; also "unique2 < 1000"
DB = "/mnt/db"
LINE = re.compile(r"^wisc query (\d+) rows (\d+) (?:value (\d+)|sum1 (\d+) sum2 (\d+)) "
                  r"usecs \d+ pgreads \d+ pgwrites \d+$", re.M)
CHECK = re.compile(r"^wisc check (\w+): (\d+) tuples \((\d+) missing, (\d+) extra, "
                   r"(\d+) changed\); unique1 index (\d+) entries \((\d+) wrong, (\d+) "
                   r"missing\); hundred index (\d+) entries \((\d+) wrong, (\d+) missing\)$",
                   re.M)


def load(g: Guest) -> None:
    out = g.ok(f"wisc -d {DB} load -n {N}", timeout=120)
    for name, n in (("onektup", SMALL), ("tenktup1", N), ("tenktup2", N),
                    ("bprime", SMALL)):
        for suffix in ("", ".u1", ".h"):
            assert re.search(rf"^wisc: {name}{re.escape(suffix)}: {n} entries in \d+ pages",
                             out, re.M), out
    assert "wisc check: as loaded" in g.ok(f"wisc -d {DB} check", timeout=120)


def query(g: Guest, q: int) -> tuple[int, tuple[int, ...]]:
    """Query q: its rows, and its value (an aggregate) or sums of unique1 and unique2."""
    out = g.ok(f"wisc -d {DB} query {q}", timeout=120)
    m = LINE.search(out)
    assert m and int(m.group(1)) == q, out
    figures = (int(m.group(3)),) if m.group(3) else (int(m.group(4)), int(m.group(5)))
    return int(m.group(2)), figures


def tenktup1(g: Guest) -> tuple[int, ...]:
    """wisc check's figures for TENKTUP1: tuples, missing, extra, changed, and
    for each index entries, wrong, missing."""
    out = g.ok(f"wisc -d {DB} check", timeout=120)
    m = {mm.group(1): tuple(int(x) for x in mm.groups()[1:]) for mm in CHECK.finditer(out)}
    assert set(m) == {"onektup", "tenktup1", "tenktup2", "bprime"}, out
    return m["tenktup1"]


def test_each_query_returns_what_the_relations_imply(guest):
    """Selections, joins, projections and aggregates, each against its definition
    and against its twin with (or without) an index."""
    fslib.ffs(guest)
    load(guest)
    r = {q: query(guest, q) for q in range(1, 26)}
    one, ten_lo = N // 100, N * 792 // 10000          # 1%: 0..9; 10%: 79..178
    ten = range(ten_lo, ten_lo + N // 10)
    # 1% and 10% of TENKTUP1 by unique2: read whole (1, 2), through the
    # clustered index (3, 4), and to the screen (8).
    for q in (1, 3, 8):
        assert r[q][0] == one and r[q][1][1] == sum(range(one)), r[q]
    assert r[1] == r[3] == r[8]
    for q in (2, 4):
        assert r[q][0] == N // 10 and r[q][1][1] == sum(ten), r[q]
    assert r[2] == r[4]
    # The same ranges of unique1 through the non-clustered index.
    assert r[5][0] == one and r[5][1][0] == sum(range(one)), r[5]
    assert r[6][0] == N // 10 and r[6][1][0] == sum(ten), r[6]
    # .01%: the tuple unique2 = 2001 (scaled: 200).
    assert r[7] == (1, (r[7][1][0], N * 2001 // 10000)), r[7]
    # Joins: JoinAselB and JoinABprime meet the same TENKTUP1 tuples (unique2
    # below a tenth); with no index (9, 10) as through the clustered one.
    for q in (9, 10, 12, 13, 15):
        assert r[q][0] == SMALL and r[q][1][1] == sum(range(SMALL)), (q, r[q])
    assert r[9] == r[10] == r[12] == r[13] == r[15]
    # JoinCselAselB: every ONEKTUP tuple, on unique2 (11, 14) and unique1 (17).
    for q in (11, 14, 17):
        assert r[q] == (SMALL, (sum(range(SMALL)), sum(range(SMALL)))), (q, r[q])
    # JoinABprime on unique1: one TENKTUP1 tuple for each BPRIME tuple.
    assert r[16][0] == SMALL, r[16]
    # Projections: 1% of TENKTUP1 (hundred decides the rest), 100% of ONEKTUP.
    assert r[18][0] == 100 and r[19][0] == SMALL, (r[18], r[19])
    # Aggregates: MIN(unique2) is 0; MIN(unique1) of group h is h; the sums of
    # unique1 over the groups are 0 + ... + n-1.  With no index (20-22), through
    # the clustered index (23) and through the index on hundred (24, 25).
    assert r[20] == r[23] == (1, (0,))
    assert r[21] == r[24] == (100, (sum(range(100)),))
    assert r[22] == r[25] == (100, (sum(range(N)),))


def test_each_update_changes_one_tuple(guests):
    """On LFS: each update's one tuple, as wisc check sees it; wisc setup puts
    TENKTUP1 back as loaded for the next."""
    g = guests.boot()
    fslib.lfs(g, cleaner=False)
    load(g)
    new, old = N + 1, N * 1491 // 10000
    # tuples, missing, extra, changed; unique1 index entries, wrong, missing;
    # hundred index entries, wrong, missing.
    after = {
        26: (N + 1, 0, 1, 0, N, 0, 0, N, 0, 0),        # the tuple, no index
        27: (N, 0, 0, 0, N, 0, 0, N, 0, 0),            # setup 27 inserted it
        28: (N, 1, 1, 0, N, 0, 0, N, 0, 0),            # 1491 is 10001 now
        29: (N + 1, 0, 1, 0, N + 1, 1, 0, N + 1, 1, 0),
        30: (N, 0, 0, 0, N, 0, 0, N, 0, 0),
        31: (N, 1, 1, 0, N, 1, 1, N, 1, 1),
        32: (N, 0, 0, 1, N, 1, 1, N, 0, 0),            # a new unique1, not a key
    }
    for q, figures in after.items():
        g.ok(f"wisc -d {DB} setup {q}", timeout=120)
        rows, sums = query(g, q)
        assert rows == 1, (q, rows)
        if q in (26, 27, 29, 30):
            assert sums == (new, new), (q, sums)
        elif q in (28, 31):
            assert sums[1] == new, (q, sums)
        else:
            assert sums[0] == new, (q, sums)
        assert tenktup1(g) == figures, q
    g.ok(f"wisc -d {DB} setup 1", timeout=120)
    assert tenktup1(g) == (N, 0, 0, 0, N, 0, 0, N, 0, 0)
    # Inserting twice is refused: 10001 is there.
    g.ok(f"wisc -d {DB} query 26")
    out, status = g.run(f"wisc -d {DB} query 26")
    assert status == 1 and "wisc setup 26 first" in out, out


def test_bad_arguments_give_usage(guest):
    """No command, an unknown one, a query out of range, a scale out of range
    or not a multiple of 100: the usage line and exit 1; no database: its
    message and exit 1."""
    for args in ("", "-d /tmp/db", "-d /tmp/db frob", "-d /tmp/db query",
                 "-d /tmp/db query 0", "-d /tmp/db query 33", "-d /tmp/db query 3x",
                 "-d /tmp/db load -n 999", "-d /tmp/db load -n 1050",
                 "-d /tmp/db load -n", "-d /tmp/db load -x 5", "load", "list extra",
                 "-d /tmp/db setup 40"):
        out, status = guest.run(f"wisc {args}")
        assert status == 1 and out.startswith("usage: wisc -d dir load"), (args, out)
    out, status = guest.run("wisc -d /tmp/nothing query 1")
    assert status == 1 and "no database here" in out, out
    assert "JoinCselAselB" in guest.ok("wisc list")
