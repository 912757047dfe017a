"""The Wisconsin benchmark (thesis 7.7, tables 7-6 to 7-8): 32 queries on FFS, EFS
and LFS, each from a cold cache.

    python3 -m bench.wisconsin [--profile hp97560] [--runs 3] [--tuples 2000]
                               [--queries 1-32] [--thesis] [--out build/bench]

bin/wisc builds DeWitt's four relations (ONEKTUP, TENKTUP1, TENKTUP2, BPRIME) as
B-trees of 8 KB pages on the 4 KB-block file system, each with a non-clustered
index on unique1 and one on hundred, and runs the queries of table 7-7 (DeWitt's
definitions) with a 64 KB page cache per B-tree, as the thesis' data manager had.
For each file system (made fresh at the start of sd1; LFS without its cleaner)
the guest loads the database once, then for each run and each query: wisc setup
(the updates 26-32 start from the loaded tuples), the last temporary relation
removed, umount and mount (a cold cache), iostat -z, wisc query N, iostat; in the
first run also iostat's log of the query's I/Os, then umount, iostat and mount.
The figure is the query's elapsed time as wisc measures it (opening the relations
to closing them); beside it the disk's reads and writes during the query, and
(first run) the writes it left in the cache, which the unmount after it wrote
beyond what an idle unmount writes: LFS holds a temporary relation until a
segment fills, FFS writes every 8 KB page the data manager's cache gives back.

The read-ahead of thesis 7.7: the B-trees' 8 KB pages are two 4 KB blocks, so
every page read looks like the start of a sequential read.  For a scan of TENKTUP1
(query 1) and queries that read pages at random (5, 24) the report sets the
blocks the disk read beside the pages the queries read, and the sizes of the read
commands (from iostat's log of the query's I/Os): FFS reads one block ahead, EFS
and LFS through cluster_read's window (kern/vfs_cluster.c), which grows on
sequential reads and halves on the others, the algorithm the thesis ended with.

The guest has 16 MB and a 1.6 MB buffer cache, as for Andrew (bench/andrew.py).
Default: TENKTUP1 and TENKTUP2 of --tuples 2,000 (ONEKTUP and BPRIME 200), a fifth
of the benchmark, 3 runs, on 48 MB file systems: about 9 minutes on hp97560.
--thesis: 10,000 tuples and 10 runs on 160 MB file systems (LFS has no cleaner
and the runs write about 7 MB each), about 7.5 hours; --tuples 10000 --runs 1
took 45 minutes.  At a fifth the relations fit in the buffer cache, so the
queries that fetch a page at random for each tuple (6, 15-17, 24, 25) read each
page once instead of thousands of times.  Writes build/bench/wisconsin.txt,
wisconsin.json (the same for bench/report.py) and wisconsin.png.  Nothing here
is asserted.
"""
from __future__ import annotations

import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from bench.andrew import BUFCACHE_KB, IOKEYS, IOSTAT, SINGLE_MEM
from bench.driver import cell, parser, plotter, pyplot, results_table, savefig, write_json
from bench.fs_bandwidth import FS_SECTORS
from qemu import drivemodel
from tests.guest import Guest

DB = "/mnt/db"
NQUERIES = 32
READAHEAD = (1, 5, 24)          # a scan, and pages at random
TIMEOUT = 3600
FSYS = ("FFS", "EFS", "LFS")
THESIS_SECTORS = 327680         # 160 MB: ten runs of 10,000 tuples on LFS


def systems(sectors: int) -> dict[str, tuple[str, str]]:
    """name -> (newfs command, mount command), as fs_bandwidth.py's."""
    return {"FFS": (f"newfs -s {sectors}", "mount"),
            "EFS": (f"newfs -E -s {sectors}", "mount"),
            "LFS": (f"newfs_lfs -S {sectors}", "mount -n -t lfs")}


# Thesis table 7-8: seconds, mean (s.d.) over 10 runs, by query: FFS, EFS, LFS.
THESIS = {
    1: ((11.82, 0.81), (11.28, 0.08), (14.34, 4.37)),
    2: ((11.12, 0.24), (10.98, 0.03), (11.72, 0.41)),
    3: ((0.39, 0.00), (0.39, 0.00), (0.28, 0.01)),
    4: ((1.65, 0.05), (1.61, 0.00), (1.60, 0.04)),
    5: ((2.68, 0.00), (2.68, 0.02), (2.57, 0.10)),
    6: ((2.73, 0.03), (2.71, 0.00), (2.54, 0.02)),
    7: ((0.63, 0.13), (0.77, 0.04), (0.80, 0.00)),
    8: ((0.39, 0.03), (0.37, 0.00), (0.39, 0.00)),
    9: ((637.53, 9.52), (631.92, 0.50), (641.09, 23.78)),
    10: ((578.84, 45.45), (548.55, 13.11), (545.33, 25.08)),
    11: ((658.63, 11.58), (649.23, 0.29), (647.49, 14.77)),
    12: ((13.61, 0.16), (13.64, 0.06), (13.00, 0.22)),
    13: ((12.34, 0.56), (12.71, 0.07), (11.27, 0.09)),
    14: ((343.48, 4.37), (346.93, 0.79), (346.89, 6.43)),
    15: ((48.69, 0.27), (48.83, 0.35), (38.30, 0.08)),
    16: ((17.24, 0.28), (17.35, 0.11), (8.80, 0.15)),
    17: ((48.91, 0.52), (49.28, 0.04), (38.68, 0.19)),
    18: ((26.30, 0.09), (26.24, 0.03), (26.33, 0.26)),
    19: ((1.67, 0.05), (1.61, 0.03), (1.52, 0.01)),
    20: ((10.84, 0.68), (10.27, 0.02), (10.13, 0.15)),
    21: ((10.70, 0.37), (10.29, 0.04), (10.14, 0.14)),
    22: ((10.53, 0.29), (10.31, 0.03), (11.03, 0.10)),
    23: ((0.12, 0.00), (0.12, 0.00), (0.76, 0.04)),
    24: ((221.94, 5.54), (216.35, 0.17), (218.67, 2.59)),
    25: ((221.90, 5.73), (216.49, 0.26), (219.21, 2.79)),
    26: ((0.15, 0.03), (0.15, 0.03), (0.12, 0.01)),
    27: ((10.67, 0.46), (10.57, 0.00), (10.70, 0.14)),
    28: ((1.92, 0.02), (1.92, 0.02), (1.79, 0.05)),
    29: ((0.40, 0.01), (0.40, 0.00), (0.33, 0.01)),
    30: ((0.39, 0.02), (0.38, 0.00), (0.22, 0.00)),
    31: ((0.48, 0.02), (0.49, 0.02), (0.35, 0.02)),
    32: ((0.30, 0.02), (0.32, 0.00), (0.22, 0.01)),
}
# Table 7-8 heads its rows by type; rows 24-32 are under "Update", though table
# 7-7 makes 24 and 25 aggregates (with 26-32 the updates): we follow 7-7's
# definitions by number.
THESIS_TYPE = {**{q: "Selection" for q in range(1, 9)}, **{q: "Join" for q in range(9, 18)},
               18: "Projection", 19: "Projection",
               **{q: "Aggregation" for q in range(20, 24)},
               **{q: "Update" for q in range(24, 33)}}
# Thesis table 7-7, by query: type, selectivity or group size, indexing.
THESIS_QUERIES = {
    1: ("Selection", "1%", "No index"), 2: ("Selection", "10%", "No index"),
    3: ("Selection", "1%", "Clustered index"), 4: ("Selection", "10%", "Clustered index"),
    5: ("Selection", "1%", "Non-clustered index"),
    6: ("Selection", "10%", "Non-clustered index"),
    7: ("Selection", ".01%", "Clustered index"), 8: ("Selection", "1%", "Clustered"),
    9: ("Join-2", "10%", "No index"), 10: ("Join-2", ".01%", "No index"),
    11: ("Join-3", "10%", "No index"), 12: ("Join-2", "10%", "Clustered index"),
    13: ("Join-2", ".01%", "Clustered index"), 14: ("Join-3", "10%", "Clustered index"),
    15: ("Join-2", "10%", "Non-clustered index"),
    16: ("Join-2", ".01%", "Non-clustered index"),
    17: ("Join-3", "10%", "Non-clustered index"),
    18: ("Projection", "1%", "No index"), 19: ("Projection", "100%", "No index"),
    20: ("Aggregation-min", "10000", "No index"), 21: ("Aggregation-min", "100", "No index"),
    22: ("Aggregation-sum", "100", ""), 23: ("Aggregation-min", "10000", "Clustered index"),
    24: ("Aggregation-min", "100", "Clustered index"),
    25: ("Aggregation-sum", "100", "Clustered index"),
    26: ("Insert", "1", "No index"), 27: ("Delete", "1", "No index"),
    28: ("Update-key", "1", "No index"), 29: ("Insert", "1", "Clustered index"),
    30: ("Delete-indexed, key", "1", "Clustered index"),
    31: ("Update-key", "1", "Clustered index"),
    32: ("Update-indexed, nonkey", "1", "Clustered index"),
}
# 7.7's disk counters: FFS and EFS write "nearly four times" as often as LFS on
# the queries that build a temporary relation, three times on 30-32.
THESIS_WRITES = {3: 4.0, 15: 4.0, 16: 4.0, 17: 4.0, 30: 3.0, 31: 3.0, 32: 3.0}

QUERY = re.compile(r"^wisc query (\d+) rows (\d+) (?:value (\d+)|sum1 (\d+) sum2 (\d+)) "
                   r"usecs (\d+) pgreads (\d+) pgwrites (\d+)$", re.M)
FILE = re.compile(r"^wisc: (\S+): (\d+) entries in (\d+) pages \((\d+) KB\)$", re.M)
LOG = re.compile(r"^\s*\d+\s+\d+\s+\d+\s+(\d+)\s+(\d+)\s+([rw])", re.M)


@dataclass
class Sample:
    """One query once: wisc's line and the disk's counters."""
    secs: float
    rows: int
    check: tuple[int, ...]          # value, or sum1 and sum2
    pgreads: int
    pgwrites: int
    io: dict[str, float]            # during the query
    later: Optional[float] = None   # writes the unmount after it made (first run)
    readsizes: Optional[list[int]] = None   # bytes of each read command (iostat -l)


@dataclass
class FsResult:
    load_s: float = 0.0
    unmount_writes: float = 0.0     # an idle unmount's writes (superblocks, checkpoint)
    files: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # entries, pages, KB
    samples: dict[int, list[Sample]] = field(default_factory=dict)
    df: str = ""


def expected_rows(q: int, n: int) -> int:
    """The cardinality table 7-7's selectivity implies for TENKTUP of n tuples."""
    if q in (1, 3, 5, 8):
        return n // 100
    if q in (2, 4, 6, 9, 11, 12, 14, 15, 17):
        return n // 10
    if q in (10, 13, 16, 19):       # .01% of TENKTUP1 x BPRIME; 100% of ONEKTUP
        return n // 10
    if q in (18, 21, 22, 24, 25):
        return 100
    return 1                        # 7, 20, 23, the updates


def parse_query(out: str, q: int, first: bool) -> Sample:
    """wisc's line and iostat during the query; in the first run also iostat's
    log of it and its reading after the unmount."""
    m, io = QUERY.search(out), IOSTAT.findall(out)
    if m is None or len(io) != (2 if first else 1) or int(m.group(1)) != q:
        raise RuntimeError(f"wisconsin: query {q}:\n{out[-2000:]}")
    check = (int(m.group(3)),) if m.group(3) else (int(m.group(4)), int(m.group(5)))
    counts = [{k: float(v) for k, v in zip(IOKEYS, x)} for x in io]
    s = Sample(int(m.group(6)) / 1e6, int(m.group(2)), check, int(m.group(7)),
               int(m.group(8)), counts[0])
    if first:
        s.later = counts[1]["writes"] - counts[0]["writes"]
        s.readsizes = [int(b) for _, b, op in LOG.findall(out) if op == "r"]
    return s


def run_query(g: Guest, q: int, mount: str, first: bool) -> Sample:
    """Query q from a cold cache: setup (the updates), the last temporary relation
    removed, umount and mount; then the query between two readings of iostat.  In
    the first run the second reading lists the query's I/Os, and a third follows an
    unmount, which writes what the query left in the cache."""
    setup = f"wisc -d {DB} setup {q} && " if q >= 26 else ""
    after = f"iostat -l 1; umount /mnt; iostat 1; {mount} /dev/sd1a /mnt" if first \
        else "iostat 1"
    out = g.ok(f"{setup}rm -f {DB}/tmp && umount /mnt && {mount} /dev/sd1a /mnt && "
               f"iostat -z 1 > /dev/null; wisc -d {DB} query {q}; {after}", timeout=TIMEOUT)
    return parse_query(out, q, first)


def measure(profile: str, tuples: int, runs: int, queries: list[int], fsys: list[str],
            sectors: int) -> tuple[dict[str, FsResult], str]:
    """The results by file system, and wisc list's table of the queries."""
    res: dict[str, FsResult] = {}
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        with Guest(Path(tmp), profile=profile, mem=SINGLE_MEM,
                   kargs=f"bufcache={BUFCACHE_KB}") as g:
            listing = g.ok("wisc list")
            for name in fsys:
                make, mount = systems(sectors)[name]
                r = res[name] = FsResult()
                g.ok(f"{make} /dev/rsd1a > /dev/null", timeout=TIMEOUT)
                g.ok(f"{mount} /dev/sd1a /mnt")
                start = time.monotonic()
                out = g.ok(f"wisc -d {DB} load -n {tuples}", timeout=TIMEOUT)
                r.load_s = time.monotonic() - start
                r.files = {f: (int(e), int(p), int(kb)) for f, e, p, kb in FILE.findall(out)}
                out = g.ok(f"umount /mnt && {mount} /dev/sd1a /mnt && iostat -z 1 > /dev/null; "
                           f"umount /mnt; iostat 1; {mount} /dev/sd1a /mnt", timeout=TIMEOUT)
                r.unmount_writes = float(IOSTAT.search(out).group(2))
                print(f"  {name} load {r.load_s:.1f} s, "
                      f"{sum(p for _, p, _ in r.files.values())} pages; an idle unmount "
                      f"writes {r.unmount_writes:.0f} times", flush=True)
                for run in range(runs):
                    for q in queries:
                        s = run_query(g, q, mount, run == 0)
                        r.samples.setdefault(q, []).append(s)
                        later = "" if s.later is None else f" + {s.later:.0f}"
                        print(f"  {name} run {run + 1} query {q:2d}: {s.secs:8.2f} s, "
                              f"{s.rows} rows, {s.io['reads']:.0f} reads, "
                              f"{s.io['writes']:.0f}{later} writes", flush=True)
                    g.ok(f"wisc -d {DB} setup 1", timeout=TIMEOUT)
                r.df = g.ok("df /mnt")
                g.ok("umount /mnt", timeout=TIMEOUT)
            g.halt()
    return res, listing


def mean_sd(xs: list[float]) -> tuple[float, float]:
    return statistics.mean(xs), (statistics.pstdev(xs) if len(xs) > 1 else 0.0)


def secs(r: FsResult, q: int) -> tuple[float, float, int]:
    ss = r.samples[q]
    m, sd = mean_sd([s.secs for s in ss])
    return m, sd, len(ss)


def reads(r: FsResult, q: int) -> float:
    return statistics.mean(s.io["reads"] for s in r.samples[q])


def writes(r: FsResult, q: int, later: bool = True) -> float:
    """Writes during the query, and (later) those the unmount after it made
    beyond an idle unmount's (measured in the first run)."""
    during = statistics.mean(s.io["writes"] for s in r.samples[q])
    after = [max(0.0, s.later - r.unmount_writes) for s in r.samples[q]
             if s.later is not None]
    return during + (statistics.mean(after) if later and after else 0.0)


def write_ratio(res: dict[str, FsResult], n: str, q: int) -> Optional[float]:
    """n's writes over LFS's, counting what each left in the cache."""
    lw = writes(res["LFS"], q)
    return writes(res[n], q) / lw if lw > 0 else None


def sizes_table(res: dict[str, FsResult], tuples: int) -> list[str]:
    """Table 7-6's relations as loaded (the first file system's load; the
    others' are the same)."""
    r = next(iter(res.values()))
    lines = [f"Relations (table 7-6), TENKTUP of {tuples} tuples: B-trees of 8 KB pages, "
             "65% full, with non-clustered indices on unique1 (.u1) and hundred (.h)", "",
             f"{'file':14s} {'entries':>8s} {'pages':>6s} {'KB':>7s}"]
    for f, (e, p, kb) in r.files.items():
        lines.append(f"{f:14s} {e:8d} {p:6d} {kb:7d}")
    total = sum(kb for _, _, kb in r.files.values())
    lines += [f"{'total':14s} {'':8s} {sum(p for _, p, _ in r.files.values()):6d} "
              f"{total:7d}  ({total / 1024:.1f} MB; thesis, for 10,000 tuples: 8.5 MB "
              "with indices)", "",
              "Load: " + ", ".join(f"{n} {r.load_s:.0f} s" for n, r in res.items()), ""]
    return lines


def rows_check(res: dict[str, FsResult], tuples: int) -> list[str]:
    """Queries whose result differs between runs or file systems, or from the
    cardinality table 7-7 implies."""
    bad = []
    for q in sorted({q for r in res.values() for q in r.samples}):
        seen = {(s.rows, s.check) for r in res.values() for s in r.samples.get(q, [])}
        if len(seen) > 1 or {x for x, _ in seen} != {expected_rows(q, tuples)}:
            bad.append(f"query {q}: {sorted(seen)} (table 7-7: "
                       f"{expected_rows(q, tuples)} rows)")
    if not bad:
        return ["Every query returned the rows table 7-7's selectivity implies, the same "
                "in every run and on every file system.", ""]
    return ["RESULTS DIFFER:"] + bad + [""]


def times_table(res: dict[str, FsResult], qs: list[int]) -> list[str]:
    fs = list(res)
    lines = ["Elapsed seconds per query (table 7-8): ours, mean (s.d.) over the runs, "
             "beside the thesis' (10 runs, 10,000 tuples); table 7-8's heading of each "
             "row", "",
             f"{'':4s} {'thesis row':12s}" + "".join(f"{n:>15s}" for n in fs) +
             "".join(f"{'thesis ' + n:>16s}" for n in fs) + f"{'LFS/FFS':>9s}{'thesis':>8s}"]
    for q in qs:
        row = f"{q:4d} {THESIS_TYPE[q]:12s}"
        ours = {}
        for n in fs:
            m, sd, _ = secs(res[n], q)
            ours[n] = m
            row += f"{m:8.2f} ({sd:4.2f})"
        for n in fs:
            tm, tsd = THESIS[q][FSYS.index(n)]
            row += f"{tm:9.2f} ({tsd:4.2f})"
        if "FFS" in ours and "LFS" in ours and ours["FFS"] > 0:
            row += f"{ours['LFS'] / ours['FFS']:9.2f}{THESIS[q][2][0] / THESIS[q][0][0]:8.2f}"
        lines.append(row)
    return lines + [""]


def io_table(res: dict[str, FsResult], qs: list[int]) -> list[str]:
    fs = list(res)
    others = [n for n in fs if n != "LFS"] if "LFS" in res else []
    idle = ", ".join(f"{n} {r.unmount_writes:.0f}" for n, r in res.items())
    lines = ["Disk I/O per query, mean over the runs: reads and writes during the query, "
             "and +later, the writes the unmount after it made in the first run beyond "
             f"an idle unmount's ({idle}: superblocks, LFS's checkpoint), what the query "
             "left in the cache; FFS/LFS, EFS/LFS: both over LFS's", "",
             f"{'':4s}" + "".join(f"{n + ' reads':>10s}{'writes':>7s}{'+later':>7s}"
                                  for n in fs)
             + "".join(f"{n + '/LFS':>9s}" for n in others) + f"{'thesis':>8s}"]
    for q in qs:
        row = f"{q:4d}"
        for n in fs:
            row += (f"{reads(res[n], q):10.0f}{writes(res[n], q, later=False):7.0f}"
                    f"{writes(res[n], q) - writes(res[n], q, later=False):7.0f}")
        for n in others:
            x = write_ratio(res, n, q)
            row += f"{x:9.1f}" if x is not None else f"{'-':>9s}"
        if q in THESIS_WRITES:
            row += f"{THESIS_WRITES[q]:8.1f}"
        lines.append(row)
    return lines + ["", "thesis: 7.7's 'nearly four times the number of writes as LFS' "
                    "(3, 15-17) and LFS 'one-third the number of writes' (30-32).", ""]


def readahead(r: FsResult, q: int) -> Optional[dict[str, float]]:
    """Read-ahead figures of query q's first run: the pages (8 KB) the
    query's B-trees read and the disk's read commands and blocks (4 KB)."""
    if q not in r.samples:
        return None
    s = r.samples[q][0]
    blocks = s.io["rsectors"] / 8
    sizes = s.readsizes or []
    return {"pages": s.pgreads, "blocks": blocks,
            "per_page": blocks / s.pgreads if s.pgreads else 0.0,
            "reads": s.io["reads"],
            "per_read": blocks / s.io["reads"] if s.io["reads"] else 0.0,
            "one": sum(1 for b in sizes if b <= 4096),
            "two": sum(1 for b in sizes if 4096 < b <= 8192),
            "more": sum(1 for b in sizes if b > 8192),
            "max": max(sizes) / 4096 if sizes else 0.0}


def readahead_table(res: dict[str, FsResult]) -> list[str]:
    lines = ["Read-ahead (thesis 7.7): 8 KB B-tree pages on 4 KB blocks, each query's "
             "first run.  pages: read(2)s of a page by the query's B-tree caches; "
             "blocks: what the disk read; reads: its read commands, by size from iostat's "
             "log of the query (its last 1000 I/Os).", "",
             f"{'':10s}{'pages':>7s}{'blocks':>8s}{'blk/page':>9s}{'reads':>7s}"
             f"{'blk/read':>9s}{'1 blk':>7s}{'2 blk':>7s}{'>2 blk':>7s}{'max':>5s}"]
    for q in READAHEAD:
        for n, r in res.items():
            ra = readahead(r, q)
            if ra is None:
                continue
            lines.append(f"{n} Q{q:<5d}{ra['pages']:7.0f}{ra['blocks']:8.0f}"
                         f"{ra['per_page']:9.2f}{ra['reads']:7.0f}{ra['per_read']:9.2f}"
                         f"{ra['one']:7d}{ra['two']:7d}{ra['more']:7d}{ra['max']:5.0f}")
    lines += ["",
              "Query 1 reads TENKTUP1 in key order (its leaves lie in file order): 2 blocks "
              "a page, in large reads on EFS and LFS.  Query 5 reads a page at random for "
              "each tuple, query 24 one for each of TENKTUP1's tuples (a page read again "
              "may be in the buffer cache).  A maximal read-ahead (the first EFS and LFS "
              "of 7.7) would read a 64 KB cluster for every page (blk/page near 16 on query "
              "5).  A page is one read(2) of two blocks: EFS and LFS move it in one "
              "transfer and read ahead only when it begins where the last read ended "
              "(cluster_read is told how many blocks the read wants); FFS reads the page's "
              "second block ahead of its first.  The thesis' window took each page's "
              "second block for a sequential read and read ahead of it (about 2.8 blocks a "
              "page on query 5).",
              ""]
    return lines


def report(res: dict[str, FsResult], args, listing: str, qs: list[int],
           sectors: int) -> str:
    prof = drivemodel.get_profile(args.profile)
    lines = [f"Wisconsin benchmark (thesis 7.7), profile {args.profile}: {prof.description}",
             f"guest {SINGLE_MEM} MB, buffer cache {BUFCACHE_KB} KB; {sectors >> 11} MB "
             "file systems at the start of sd1 (LFS: no cleaner); B-trees of 8 KB pages, a "
             "64 KB page cache each; a cold cache (umount, mount) before every query; "
             f"{args.runs} run(s).", ""]
    lines += sizes_table(res, args.tuples)
    lines += [f"Queries (table 7-7): wisc list, its constants for 10,000 tuples (scaled to "
              f"{args.tuples})", "", listing.rstrip(), ""]
    lines += rows_check(res, args.tuples)
    lines += times_table(res, qs)
    lines += io_table(res, qs)
    lines += readahead_table(res)
    lines += [f"{n} at the end: " + r.df.strip().splitlines()[-1] for n, r in res.items()]
    return "\n".join(lines)


def json_tables(res: dict[str, FsResult], qs: list[int], tuples: int) -> list[dict]:
    r0 = next(iter(res.values()))
    total_kb = sum(kb for _, _, kb in r0.files.values())
    sizes = [cell(f, "KB", kb) for f, (_, _, kb) in r0.files.items()]
    sizes.append(cell("database", "MB", total_kb / 1024,
                      thesis=8.5 if tuples == 10000 else None,
                      note="thesis 7.7: 'a total database size (including indices) of "
                      "8.5 MB'" if tuples == 10000 else f"{tuples} tuples; the thesis' "
                      "8.5 MB is for 10,000"))
    rows = [cell(f"query {q}", "rows", statistics.mean(s.rows for s in r0.samples[q]),
                 thesis=expected_rows(q, tuples),
                 note=f"{', '.join(x for x in THESIS_QUERIES[q] if x)}: the rows this "
                 f"implies for {tuples} tuples")
            for q in qs]
    times = []
    for n, r in res.items():
        for q in qs:
            m, sd, k = secs(r, q)
            tm, tsd = THESIS[q][FSYS.index(n)]
            times.append(cell(n, f"Q{q}", m, sd, k, tm, tsd))
    ratios = [cell(f"{n}/LFS writes", f"Q{q}", write_ratio(res, n, q),
                   n=len(res[n].samples[q]), thesis=THESIS_WRITES[q], unit="ratio",
                   note="thesis 7.7's text; ours counts the writes the query left in "
                   "the cache too (written by the unmount after it)")
              for n in ("FFS", "EFS") if n in res and "LFS" in res
              for q in qs if q in THESIS_WRITES]
    io = [cell(f"Q{q}", f"{n} {k}", v, n=len(r.samples[q]))
          for q in qs for n, r in res.items()
          for k, v in (("reads", reads(r, q)), ("writes", writes(r, q, later=False)),
                       ("later", writes(r, q) - writes(r, q, later=False)))]
    ra = []
    for q in READAHEAD:
        for n, r in res.items():
            x = readahead(r, q)
            if x is not None:
                ra += [cell(f"{n} Q{q}", col, x[k]) for k, col in
                       (("pages", "pages"), ("blocks", "blocks read"),
                        ("per_page", "blocks per page"), ("reads", "read commands"),
                        ("per_read", "blocks per read"))]
    tables = [results_table("table 7-6", "Relation sizes as loaded (B-trees of 8 KB pages)",
                            "KB", sizes),
              results_table("table 7-7", "Result rows of the queries", "rows", rows),
              results_table("table 7-8", "Elapsed time per query", "s", times)]
    if ratios:
        tables.append(results_table("table 7-8", "Disk writes against LFS's", "ratio",
                                    ratios))
    tables += [results_table(None, "Wisconsin: disk I/O per query (later: written at the "
                             "unmount after it)", "I/Os", io),
               results_table(None, "Wisconsin: read-ahead of 8 KB B-tree pages on 4 KB "
                             "blocks (7.7)", "", ra)]
    return tables


@plotter
def plot(res: dict[str, FsResult], qs: list[int], path: Path) -> None:
    """Our seconds and the thesis' for each query and file system, log scale."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(12, 4.5))
    width = 0.27
    for i, (n, colour) in enumerate((("FFS", "tab:red"), ("EFS", "tab:blue"),
                                     ("LFS", "tab:green"))):
        if n not in res:
            continue
        xs = [k + (i - 1) * width for k in range(len(qs))]
        ax.bar(xs, [secs(res[n], q)[0] for q in qs], width, color=colour, label=f"{n} (ours)")
        ax.scatter(xs, [THESIS[q][i][0] for q in qs], color=colour, marker="_", s=60,
                   zorder=3, label=f"{n} (thesis)")
    ax.set_yscale("log")
    ax.set_xticks(range(len(qs)))
    ax.set_xticklabels([str(q) for q in qs])
    ax.set_xlabel("query (table 7-7)")
    ax.set_ylabel("elapsed seconds (log)")
    ax.set_title("Wisconsin benchmark (table 7-8): bars ours, dashes the thesis'")
    ax.legend(ncol=3, fontsize=8)
    savefig(fig, path)


def query_list(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    if not out or any(q < 1 or q > NQUERIES for q in out):
        raise ValueError(f"queries are 1-{NQUERIES}")
    return sorted(set(out))


def main(argv: list[str]) -> int:
    ap = parser(__doc__)
    ap.add_argument("--runs", type=int, default=3, help="runs of each query (3)")
    ap.add_argument("--tuples", type=int, default=2000,
                    help="tuples of TENKTUP1 and TENKTUP2 (2,000; the benchmark's 10,000)")
    ap.add_argument("--queries", type=query_list, default=query_list(f"1-{NQUERIES}"),
                    help="which queries, as 1-8,12 (all)")
    ap.add_argument("--fs", default=",".join(FSYS), help="file systems (FFS,EFS,LFS)")
    ap.add_argument("--thesis", action="store_true",
                    help="10,000 tuples, 10 runs, 160 MB file systems")
    args = ap.parse_args(argv)
    if args.thesis:
        args.runs, args.tuples = 10, 10000
    sectors = THESIS_SECTORS if args.thesis else FS_SECTORS
    fsys = [n for n in FSYS if n in args.fs.split(",")]
    start = time.monotonic()
    res, listing = measure(args.profile, args.tuples, args.runs, args.queries, fsys,
                           sectors)
    text = report(res, args, listing, args.queries, sectors)
    footer = f"benchmark took {time.monotonic() - start:.0f} s"
    print("\n" + text + "\n", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "wisconsin.txt").write_text(text + "\n\n" + footer + "\n")
    plot(res, args.queries, args.out / "wisconsin.png")
    write_json(args, "wisconsin", json_tables(res, args.queries, args.tuples),
               mem=SINGLE_MEM, runs=args.runs, plots={"wisconsin.png": ["table 7-8"]})
    print(f"{footer}\nwrote {args.out / 'wisconsin.txt'}, wisconsin.json and wisconsin.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
