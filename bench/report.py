"""The reproduction report: doc/results.md, generated from the drivers' results.

    python3 -m bench.report [--in build/bench] [--doc doc/results.md]     (make report)

Reads every NAME.json the benchmark drivers wrote (bench/driver.py says what
one holds) and writes doc/results.md.  The results it used are kept beside
the document, in doc/results/data/ (each driver's JSON and the plots it
drew), and committed: a driver's new results in build/bench replace its
kept ones, and a driver not run again keeps what it had.  So a fresh clone
can regenerate the document, and one driver run again updates its part:

  - the runs: each driver's commit, date, drive and controller overhead,
    guest memory, runs, host load, time taken and options;
  - every table and figure of the thesis' chapters 5 and 7 that a driver
    covers, in the thesis' order: the thesis' numbers beside ours, their
    ratio (ours / thesis), one line on whether the shape matches, and one
    on why it may not (CATALOGUE);
  - what no driver covers yet, or covers only in part;
  - our tables that have no counterpart in the thesis.

The shape: within each column of a table, every pair of rows for which the
thesis gives numbers must be ordered the same way in ours, values within TOL
of each other counting as equal; a ratio must lie on the same side of 1.
Seconds on our machine are not the thesis' seconds; the order of the file
systems is what a reproduction must get right.

The plots the drivers drew are copied into doc/results/, and a plot of the
ratios is drawn for each thesis table that has them, where this Python has
matplotlib (bench.driver.plotter).  A malformed results file is refused with
its name and the field at fault: half a report must not quietly replace the
committed one.  The document holds no generation time, so the same results
give the same bytes.
"""
from __future__ import annotations

import argparse
import json
import math
import re
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import bench
from bench.driver import SCHEMA, TOP, plotter, pyplot, savefig

TOL = 0.05      # values this close (relative) are equal for the shape


class ReportError(Exception):
    """A results file the report cannot use; the message names it and why."""


# ----- what the thesis has --------------------------------------------------------------

@dataclass(frozen=True)
class Entry:
    """A table or figure of the thesis' evaluation, and where we stand on it."""

    id: str                     # "table 7-3", as the drivers' JSON names it
    section: str
    title: str
    driver: Optional[str] = None  # the driver that covers it; None: none yet
    claim: str = ""             # what the thesis says of it in words
    differs: str = ""           # why ours may not match
    gap: str = ""               # what is missing, covered or not
    same_as: str = ""           # another entry measures the same thing

    @property
    def chapter(self) -> int:
        return int(self.id.split()[1].split("-")[0])


CHAPTERS = {
    5: ("Chapter 5: transactions embedded in LFS",
        "The thesis: Sprite on a DECstation 5000/200 with 32 MB and an RZ55 disk, the "
        "disk 70% full; means of five runs, standard deviations within 2% (5.3).",
        "rz55"),
    7: ("Chapter 7: FFS, EFS and BSD-LFS on 4.4BSD",
        "The thesis: 4.4BSD-Alpha on an HP 9000/380 (25 MHz 68040, 16 MB) with an HP "
        "97560 disk (table 7-1), single-user, no network (7.2).",
        "hp97560"),
}

CATALOGUE = (
    Entry("figure 5-6", "5.3.1", "Transaction performance summary", "tpcb",
          claim="the user-level manager makes 12.3 TPS on the read-optimized file system "
          "and 13.6 on LFS (10%); the kernel's transactions are a little ahead of it on "
          "LFS, by the semaphore system calls the user level paid.",
          differs="FFS stands for Sprite's read-optimized file system.  Our user-level "
          "manager takes its locks without system calls, so the kernel's edge is not the "
          "thesis' semaphores: a kernel commit writes only the changed bytes of its "
          "pages (DELTAs in the summary), the user level its log record; both are one "
          "partial segment (table 7-9's blocks per transaction).  `tpcb --chapter5` "
          "runs this on chapter 5's drive and memory."),
    Entry("figure 5-7", "5.3.2", "Performance impact of kernel transaction support", "txn",
          claim="programs that use no transactions run within 1-2% of their time on a "
          "kernel without the transaction code, within the standard deviations.",
          differs="the thesis ran the user-level transaction system, Andrew and Bigfile; "
          "txn.py runs smallfiles, a 16 MB write and read, Andrew and Bigfile, three "
          "alternating boots of each kernel.  Andrew is the compile (phase 5), CPU-bound "
          "under TCG, whose time moves by up to a quarter from one boot of the same kernel "
          "to the next (untimed, after the same workloads: 9.0 to 11.4 s): three runs cannot "
          "show 1-2%, and its ratio has read 0.72 and 1.14 in runs a day apart."),
    Entry("figure 5-8", "5.3.3", "Sequential performance after random I/O", "tpcb",
          claim="SCAN: after 100,000 TPC-B transactions the read-optimized file system "
          "scans the account file 33% faster than LFS (the caption: about 50%).",
          differs="by default the scan follows a few hundred transactions on a 22 MB "
          "account file (scale 1), not 100,000 on 160 MB, so LFS's file is less "
          "scattered than the thesis'."),
    Entry("figure 5-9", "5.3.3", "Elapsed time for combined benchmark", "tpcb",
          claim="LFS's faster transactions pay for its slower scan after about 134,300 "
          "transactions between scans (2 h 40 min at 13.6 TPS).",
          differs="the break-even point divides two small differences, so it moves far "
          "with a little noise in either."),
    Entry("table 7-1", "7.2", "Hardware specifications", "raw_disk",
          claim="average seek 13.0 ms, one rotation 15.0 ms, the SCSI bus 1.6 MB/s, "
          "controller overhead 1.0 ms.",
          differs="the drive model takes its controller overhead from [RW94], 2.2 ms, not "
          "table 7-1's 1.0 ms (qemu/DRIVE.md); the thesis measured no random access, so "
          "its figure here is made from table 7-1's parts."),
    Entry("table 7-2", "7.2", "Summary of benchmarks analyzed",
          gap="a list of the benchmarks, nothing to measure: this document follows it."),
    Entry("figure 7-1", "7.3.1", "Maximum file system write bandwidth", "fs_bandwidth",
          claim="EFS writes fastest, above the raw disk at large transfers (its 64 KB "
          "writes are asynchronous, the raw disk's synchronous); LFS lies below both "
          "(it writes nothing until the fsync); FFS gets about 0.5 MB/s.",
          differs="one pass of a 4 MB file per point; the thesis averaged 50 passes."),
    Entry("figure 7-2", "7.3.1", "Effects of LFS write accumulation", "fs_bandwidth",
          claim="on a 0.5 MB write LFS spends its time in the fsync, which takes about "
          "as long as EFS takes for all its writes: EFS overlaps the copying with its "
          "64 KB asynchronous writes, LFS writes nothing until asked.",
          differs="the thesis draws bars without numbers; ours are one pass, 64 KB "
          "write(2) calls."),
    Entry("figure 7-3", "7.3.1", "Impact of rotational delay on FFS performance",
          "fs_bandwidth",
          claim="a 4 ms rotdelay was best: one block in four, at most a quarter of the "
          "disk's bandwidth.",
          differs="the thesis' figure is a drawing of the layout; ours is the sweep that "
          "chose the rotdelay.  Here the gap stands for the drive's controller overhead "
          "and bus time, the guest's own being tens of microseconds (bench/README.md)."),
    Entry("figure 7-4", "7.3.2", "Maximum file system read bandwidth", "fs_bandwidth",
          claim="EFS and LFS read within 3% of the raw disk; FFS gets about a quarter of "
          "the disk's bandwidth, as when it writes.",
          differs="one pass of a 4 MB file per point; the thesis averaged 50 passes."),
    Entry("figure 7-5", "7.4", "Small file performance", "small_files",
          claim="LFS wins creating and deleting; it reads about 30% slower than FFS and "
          "EFS, having no fragments.",
          differs="2,000 files by default (the thesis 10,000: --thesis), one run; the "
          "thesis gave LFS 1 KB blocks for this test, ours has 4 KB."),
    Entry("table 7-3", "7.5.1", "Single-user Andrew benchmark results", "andrew",
          claim="LFS is 9% faster in all, from phases 1, 2 and 5; FFS and EFS are alike.",
          differs="the tree is 24 of our own programs, not Andrew's; phase 5 is CPU-bound "
          "(tcc under QEMU against cc on a 68040: one run took 16-22 s against the "
          "thesis' 43-45 s, and the figure moves with the host), so compare ratios; "
          "3 runs by default (thesis 10; LFSC 100)."),
    Entry("figure 7-6", "7.5.2", "Multi-user Andrew performance", "andrew",
          claim="per-invocation time falls at most 9% as invocations are added; beyond "
          "four, reads dominate and LFS and EFS come together.",
          differs="our kernel does not page, so the guest has 48 MB with the buffer "
          "cache held at the thesis' 1.6 MB; one run per N by default (thesis 10)."),
    Entry("figure 7-7", "7.5.2", "Multi-user Andrew performance (blow-up)", "andrew",
          same_as="figure 7-6"),
    Entry("table 7-4", "7.6", "Database sizing for the OO1 benchmark", "oo1",
          claim="20,000 parts make a 14.5 MB database: Part 2.5 MB and Connect Forward "
          "3.7 MB (B-trees built in key order, their pages left half empty by the "
          "splits), Connect Backward 2.5 MB, the Connector records 5.8 MB.",
          differs="our entries are given table 7-4's entry sizes (filler makes up the "
          "difference between the thesis' 28 bytes of B-tree overhead and our 6) and "
          "the bulk loader's fill is chosen per file to give the thesis' sizes, so "
          "this table is by construction; it shows the database the tests ran on."),
    Entry("table 7-5", "7.6", "OO1 performance results", "oo1",
          claim="with no sequential access to exploit, FFS, EFS and LFS are within 3% "
          "of each other on every test (lookup ~16.3 s, insert ~4.3 s, each traversal "
          "~28-29 s); LFS gains nothing on insert because 97% of its writes are "
          "asynchronous anyway.",
          differs="cold cache by umount and mount instead of recopying the database "
          "and reading unrelated files; the database is loaded once per file system, "
          "not recopied each run; LFS runs without its cleaner (the thesis' cleaned "
          "mostly the segments its recopying emptied); 2 runs by default (thesis 10: "
          "--thesis); a backward traversal walks until it has visited 3280 parts, as "
          "the thesis' steady backward times suggest.  The disk is the model of the "
          "thesis' drive but the CPU is TCG's, so compare the file systems with each "
          "other.  Our FFS read one block ahead on every read, sequential or not, "
          "making 70% more I/Os than EFS on these random reads; it now does so only for "
          "a sequential reader, as 4.4BSD did, and makes as many as EFS "
          "(bench/README.md, oo1)."),
    Entry("table 7-6", "7.7", "Relation attributes for the Wisconsin benchmark",
          "wisconsin",
          claim="ONEKTUP (1,000 tuples), TENKTUP1 and TENKTUP2 (10,000 each) and BPRIME "
          "(a tenth of TENKTUP2), each tuple 13 integers and three 52-character strings; "
          "with its indices the database is 8.5 MB in the thesis' package.",
          differs="the table itself lists attributes, not numbers; ours are the files "
          "bin/wisc loads: B-trees of 8 KB pages filled to 65% (the thesis' in-order "
          "creation left pages partly empty, table 7-4), each relation with indices on "
          "unique1 and on hundred.  The default run has TENKTUPs of 2,000 tuples "
          "(--tuples 10000 or --thesis: the benchmark's 10,000, 8.3 MB)."),
    Entry("table 7-7", "7.7", "Wisconsin benchmark queries", "wisconsin",
          claim="32 queries: selections of 1% and 10% with no index, the clustered index "
          "and a non-clustered one; 2- and 3-way joins; projections of 1% and 100%; MIN "
          "and SUM aggregates over 1 and 100 groups; single-tuple inserts, deletes and "
          "updates with and without indices.  Here: the rows each query returned beside "
          "the rows its selectivity implies.",
          differs="DeWitt's definitions [DEWI91], constants scaled to the relations' size.  "
          "Table 7-8 heads its rows 24-32 'Update', where table 7-7 makes 24 and 25 "
          "aggregates 'with the clustered index': we number by 7-7, and run 24 and 25 "
          "through the non-clustered index on hundred (table 7-6's 'used for nonunique, "
          "nonclustered index'), one random page per tuple: the reading that gives the "
          "thesis' 220 s.  Query 19 projects ONEKTUP (the thesis' 1.67 s is a "
          "1,000-tuple relation).  Joins with no index are nested loops over 64 KB blocks "
          "of the outer relation; results go to a temporary B-tree keyed by the first "
          "relation's unique2."),
    Entry("table 7-8", "7.7", "Elapsed time for the queries of the Wisconsin benchmark",
          "wisconsin",
          claim="reads dominate and the file systems are alike on most queries; LFS wins "
          "those that build a temporary relation (3, 15, 16, 17: it holds the B-tree in "
          "the cache and writes it once, while FFS and EFS write nearly four times as "
          "often) and the updates that write three files (30-32: a third of the writes); "
          "LFS loses query 1, with a large variance, when a segment write falls in it.  "
          "8 KB pages on 4 KB blocks make every page read look sequential: a maximal "
          "read-ahead made EFS and LFS an order of magnitude slower on B-tree scans, so "
          "the window grows on sequential reads and halves on the others.",
          differs="rows by table 7-7's numbers (table 7-8 heads 24-32 'Update', 7-7 makes "
          "24 and 25 aggregates: see table 7-7).  The default run is a fifth of the "
          "benchmark (2,000-tuple TENKTUPs, "
          "the buffer cache unchanged, so the relations fit in it), 3 runs; --thesis: "
          "10,000 tuples, 10 runs (at 10,000, queries 24 and 25 took 205-225 s against the "
          "thesis' 216-222).  Our guest's CPU is several times the 68040's, so the "
          "CPU-heavy queries (the nested-loop joins 9-11, 14, the projections) are far "
          "shorter and the scans disk-bound: FFS, a 4 KB read per command, takes twice "
          "EFS's and LFS's time there.  Which queries insert into their temporary B-tree "
          "at random, and so rewrite its pages through the 64 KB cache, depends on the "
          "result's key (ours: 6, 16, 17, 19); the thesis does not say its.  Our updates "
          "leave their writes to the kernel on every file system, so LFS gains nothing on "
          "30-32.  The writes against LFS's count what the unmount after a query wrote "
          "beyond an idle unmount's (LFS writes nothing during a query)."),
    Entry("table 7-9", "7.8", "TPC-B performance results", "tpcb",
          claim="without its cleaner LFS is 15% ahead of EFS; with it, far behind: the "
          "cleaner writes 60-80% of the blocks, the segments it cleans are 71% full, "
          "one is cleaned per ~50 transactions.",
          differs="scale 1 (a 22 MB account file) and 3 runs of 400 by default; the "
          "thesis: scale 10 (237 MB) and 10 runs of 1,000 (--thesis).  How often our "
          "cleaner cleans is in the cleaner's table."),
    Entry("table 7-10", "7.9", "Supercomputer applications I/O characteristics",
          "supercomputer",
          claim="the inputs, from Miller's traces of four applications (data size, "
          "average I/O size, reads, writes, bytes read per byte written); each gives an "
          "average read and write size, table 7-11's second column.",
          differs="the sizes agree to the byte: the thesis took the average I/O size in "
          "1024-byte KB and printed its derived sizes in thousands of bytes (29,562 bytes: "
          "'29.6 KB').  Our files are the thesis' data sizes over 28, 4 MB at least, by "
          "default (--thesis: its sizes)."),
    Entry("table 7-11", "7.9", "Performance of the supercomputer benchmark",
          "supercomputer",
          claim="throughput grows with the I/O size for all three; EFS and LFS approach "
          "their raw bandwidth on LES and VENUS; LFS writes 35-100% faster than the others "
          "on three of the four; its reads are within 5-9% of EFS's but for LES (23% "
          "slower), where 148 of the 150 segments it cleaned were cleaned; 78% of them "
          "were empty, the rest 29% utilized, and 2% of the blocks written were the "
          "cleaner's.",
          differs="by default 10-90 requests per run on files of 4-8 MB, not 1,000 on "
          "11-224 MB (--thesis).  Our writes are plain write(2) calls into a 1.6 MB cache, "
          "an fsync ending each run (the thesis does not say); a write not ending on a "
          "block boundary first reads its last block, on every file system, which hides "
          "much of LFS's edge.  A read(2) of several blocks at a random place comes in "
          "one transfer and reads nothing ahead (cluster_read is told how many blocks the "
          "read wants): BVI's 13.5 KB reads move their bytes and no more.  Before that, "
          "the window grew on the later blocks of each read and they moved about six "
          "times their bytes, EFS reading at a third of FFS's speed."),
)

# Asked for by issue 27 beside the thesis' tables and figures: the chapter-5
# runs (their results' stem, and what to say while there are none).
WANTED = {
    "tpcb-ch5": "figures 5-6, 5-8 and 5-9 on chapter 5's configuration (the RZ55 "
                "profile, 32 MB): not in these results; `python3 -m bench.tpcb "
                "--chapter5` measures them.",
    "txn-ch5": "figure 5-7 on chapter 5's configuration (the RZ55 profile, 32 MB): not "
               "in these results; `python3 -m bench.txn --chapter5` measures it.",
}


# ----- reading the results ---------------------------------------------------------------

@dataclass(eq=False)
class Run:
    """One results file."""

    path: Path
    driver: str
    meta: dict
    tables: list[dict]
    plots: dict[str, list[str]] = field(default_factory=dict)


def is_num(x) -> bool:
    """A JSON number; Python's reader lets NaN and Infinity through, we do not."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def need(ok: bool, where: str, what: str) -> None:
    if not ok:
        raise ReportError(f"{where}: {what}")


def check_keys(obj, where: str, spec: dict) -> None:
    """obj, the field at where ("" for the file itself), must be a JSON object
    with every key of spec, each passing its test; keys spec does not name
    are let through (a newer driver's extras)."""
    need(isinstance(obj, dict), where or "the file",
         f"expected an object, got {type(obj).__name__}")
    for key, (test, what) in spec.items():
        need(key in obj, where or "the file", f"no {key!r}")
        need(test(obj[key]), f"{where}.{key}" if where else key,
             f"expected {what}, got {obj[key]!r}")


def num_or_none(x) -> bool:
    return x is None or is_num(x)


def str_or_none(x) -> bool:
    return x is None or isinstance(x, str)


def count_or_counts(x) -> bool:
    """An int, or an object of ints by what they count ("single-user": 16)."""
    return (isinstance(x, int) and not isinstance(x, bool)) or (
        isinstance(x, dict) and all(isinstance(v, int) for v in x.values()))


def three_nums(x) -> bool:
    return isinstance(x, list) and len(x) == 3 and all(is_num(v) for v in x)


META = {"commit": (str_or_none, "a commit id or null"),
        "dirty": (lambda x: x is None or isinstance(x, bool), "true, false or null"),
        "date": (lambda x: isinstance(x, str), "an ISO 8601 date"),
        "elapsed_s": (is_num, "a number"),
        "profile": (lambda x: isinstance(x, str), "a drive profile's name"),
        "drive": (lambda x: isinstance(x, str), "a description"),
        "ctrl_ms": (num_or_none, "a number or null"),
        "guest_mem_mb": (count_or_counts, "megabytes, or an object of them"),
        "options": (lambda x: isinstance(x, dict), "an object"),
        "runs": (count_or_counts, "a count, or an object of them"),
        "loadavg": (lambda x: isinstance(x, dict) and three_nums(x.get("start"))
                    and three_nums(x.get("end")), "{start: [3 numbers], end: [...]}"),
        "cpus": (lambda x: x is None or isinstance(x, int), "a count or null")}
TABLE = {"id": (str_or_none, "a thesis table or figure ('table 7-3') or null"),
         "title": (lambda x: isinstance(x, str) and x != "", "a title"),
         "unit": (lambda x: isinstance(x, str), "a unit ('' for none)"),
         "cells": (lambda x: isinstance(x, list), "a list of cells")}
CELL = {"row": (lambda x: isinstance(x, str) and x != "", "a row name"),
        "col": (lambda x: isinstance(x, str) and x != "", "a column name"),
        "ours": (num_or_none, "a number or null"),
        "sd": (num_or_none, "a number or null"),
        "n": (lambda x: isinstance(x, int) and not isinstance(x, bool) and x >= 1,
              "a run count of 1 or more"),
        "thesis": (num_or_none, "a number or null"),
        "thesis_sd": (num_or_none, "a number or null"),
        "unit": (str_or_none, "a unit or null"),
        "note": (str_or_none, "a string or null")}


def load(path: Path) -> Run:
    """Read and check one results file, or say what is wrong with it."""
    try:
        doc = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ReportError(f"{path.name}: not a JSON file: {e}") from None
    try:
        check_keys(doc, "", {
            "schema": (lambda x: x == SCHEMA, f"schema {SCHEMA} (bench/driver.py)"),
            "driver": (lambda x: isinstance(x, str) and x != "", "a driver's name"),
            "meta": (lambda x: isinstance(x, dict), "an object"),
            "tables": (lambda x: isinstance(x, list) and x != [], "a list of tables"),
            "plots": (lambda x: isinstance(x, dict) and all(
                isinstance(v, list) and all(isinstance(i, str) for i in v)
                for v in x.values()), "an object of plot files and the ids they show")})
        check_keys(doc["meta"], "meta", META)
        for i, t in enumerate(doc["tables"]):
            check_keys(t, f"tables[{i}]", TABLE)
            for j, c in enumerate(t["cells"]):
                check_keys(c, f"tables[{i}].cells[{j}]", CELL)
    except ReportError as e:
        raise ReportError(f"{path.name}: {e}") from None
    return Run(path, doc["driver"], doc["meta"], doc["tables"], doc["plots"])


def load_all(indir: Path, kept: Optional[Path] = None) -> list[Run]:
    """Every results file in indir, and those kept (a file of the same name
    in indir replaces the kept one), in make bench's order of the drivers."""
    found = {p.name: p for p in sorted(kept.glob("*.json"))} if kept and kept.is_dir() else {}
    found.update({p.name: p for p in sorted(indir.glob("*.json"))})
    if not found:
        raise ReportError(f"no results (*.json) in {indir}: run make bench, or a driver "
                          "(python3 -m bench.NAME), first")
    order = {d: i for i, d in enumerate(bench.DRIVERS)}
    runs = [load(p) for _, p in sorted(found.items())]
    return sorted(runs, key=lambda r: (order.get(r.driver, len(order)), r.path.name))


def keep(runs: list[Run], kept: Path) -> None:
    """Copy the runs not kept yet into kept, each with the plots it drew,
    and read them from there from now on."""
    kept.mkdir(parents=True, exist_ok=True)
    for run in runs:
        if run.path.parent.resolve() == kept.resolve():
            continue
        for name in run.plots:
            src = run.path.parent / name
            if src.exists():
                shutil.copyfile(src, kept / name)
            elif (kept / name).exists():
                (kept / name).unlink()  # an older run's plot, not this one's
        shutil.copyfile(run.path, kept / run.path.name)
        run.path = kept / run.path.name


# ----- numbers and shapes ----------------------------------------------------------------

def fmt(x: Optional[float]) -> str:
    """A figure as the tables print it: a count whole, a measure to two
    decimals (as the thesis prints its own) or, below 1, three digits."""
    if x is None:
        return "—"
    if isinstance(x, int) or abs(x) >= 1000:
        return f"{x:,.0f}"
    if x == 0 or abs(x) >= 1:
        return f"{x:.2f}"
    return f"{x:#.3g}"


def ratio(c: dict) -> Optional[float]:
    """ours / thesis, where both are there."""
    if c["ours"] is None or c["thesis"] is None or c["thesis"] == 0:
        return None
    return c["ours"] / c["thesis"]


def relation(a: float, b: float) -> str:
    if abs(a - b) <= TOL * max(abs(a), abs(b)):
        return "≈"
    return ">" if a > b else "<"


def unit_of(c: dict, t: dict) -> str:
    return c["unit"] if c["unit"] is not None else t["unit"]


def shape(tables: list[dict]) -> tuple[int, list[str]]:
    """(comparisons made, the ones where ours is not ordered as the thesis)."""
    made, wrong = 0, []
    for t in tables:
        cols: dict[str, list[dict]] = {}
        for c in t["cells"]:
            if c["ours"] is not None and c["thesis"] is not None:
                cols.setdefault(c["col"], []).append(c)
        for col, cells in cols.items():
            if unit_of(cells[0], t) == "ratio":
                for c in cells:
                    made += 1
                    rt, ro = relation(c["thesis"], 1), relation(c["ours"], 1)
                    if rt != ro:
                        wrong.append(f"{c['row']} {col}: thesis {fmt(c['thesis'])} "
                                     f"({rt} 1), ours {fmt(c['ours'])} ({ro} 1)")
                continue
            for i, a in enumerate(cells):
                for b in cells[i + 1:]:
                    made += 1
                    rt = relation(a["thesis"], b["thesis"])
                    ro = relation(a["ours"], b["ours"])
                    if rt != ro:
                        wrong.append(f"{col}: thesis {a['row']} {rt} {b['row']}, "
                                     f"ours {a['row']} {ro} {b['row']}")
    return made, wrong


def shape_line(tables: list[dict]) -> str:
    made, wrong = shape(tables)
    if not any(c["thesis"] is not None for t in tables for c in t["cells"]):
        return "**Shape:** the thesis prints no numbers here; compare with its words above."
    if made == 0:
        return ("**Shape:** the thesis gives one number per measure here, nothing to "
                "order; see the ratios.")
    rule = (f"values within {TOL:.0%} of each other count as equal; a ratio, on which "
            "side of 1 it lies")
    if not wrong:
        agree = "The one comparison agrees" if made == 1 else \
            f"All {made} comparisons agree"
        return f"**Shape: matches.** {agree} ({rule})."
    shown = "; ".join(wrong[:8]) + ("; ..." if len(wrong) > 8 else "")
    where = "in the one comparison" if made == 1 else f"in {len(wrong)} of {made} comparisons"
    return f"**Shape: differs** {where} ({rule}): {shown}."


# ----- the document ----------------------------------------------------------------------

def md_table(header: list[str], rows: list[list[str]], numbers: range) -> list[str]:
    """A markdown table, its columns in numbers set right."""
    align = ["---:" if i in numbers else "---" for i in range(len(header))]
    return ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"] + \
        ["| " + " | ".join(r) + " |" for r in rows]


def with_sd(x: Optional[float], sd: Optional[float]) -> str:
    """mean (s.d.), the s.d. to the mean's decimals as the thesis prints it."""
    if x is None or sd is None:
        return fmt(x)
    if abs(x) >= 1000:
        return f"{fmt(x)} ({sd:,.0f})"
    return f"{fmt(x)} ({sd:.2f})" if abs(x) >= 1 else f"{fmt(x)} ({fmt(sd)})"


def label(col: str, c: dict, t: dict) -> str:
    u = unit_of(c, t)
    return f"{col} ({u})" if u != t["unit"] and u else col


def compared(t: dict) -> list[str]:
    """A table with the thesis' figures: a line per cell, thesis beside ours."""
    notes = any(c["note"] for c in t["cells"])
    header = ["", "", "thesis", "ours", "runs", "ours / thesis"]
    rows = []
    for c in t["cells"]:
        r = ratio(c)
        rows.append([c["row"], label(c["col"], c, t), with_sd(c["thesis"], c["thesis_sd"]),
                     with_sd(c["ours"], c["sd"] if c["n"] > 1 else None), str(c["n"]),
                     "—" if r is None else f"{r:.2f}"] + ([c["note"] or ""] if notes else []))
    if notes:
        header.append("note")
    return md_table(header, rows, range(2, 6))


def ours_alone(t: dict) -> list[str]:
    """A table of ours alone: rows by columns, as the driver's text has it."""
    rows: dict[str, dict[str, dict]] = {}
    cols: dict[str, str] = {}
    for c in t["cells"]:
        rows.setdefault(c["row"], {})[c["col"]] = c
        cols.setdefault(c["col"], label(c["col"], c, t))
    body = [[r] + [with_sd(cells[k]["ours"], cells[k]["sd"] if cells[k]["n"] > 1 else None)
                   if k in cells else "" for k in cols] for r, cells in rows.items()]
    notes = [f"{c['row']}, {c['col']}: {c['note']}" for c in t["cells"] if c["note"]]
    return md_table([""] + list(cols.values()), body, range(1, len(cols) + 1)) + \
        ([""] + [f"- {n}" for n in notes] if notes else [])


def render_table(t: dict, run: Run) -> list[str]:
    unit = f" ({t['unit']})" if t["unit"] else ""
    runs = {c["n"] for c in t["cells"]}
    lines = [f"*{t['title']}*{unit}, from `{run.path.name}`"
             + ("; ours: mean (s.d.) over the runs" if max(runs) > 1 else "") + ":", ""]
    has_thesis = any(c["thesis"] is not None for c in t["cells"])
    return lines + (compared(t) if has_thesis else ours_alone(t)) + [""]


def slug(thesis_id: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", thesis_id.lower()).strip("-")


@plotter
def plot_ratios(thesis_id: str, tables: list[dict], path: Path) -> Optional[Path]:
    """ours / thesis for every figure of a thesis table that has both."""
    cells = [(f"{c['row']}, {c['col']}", ratio(c)) for t in tables for c in t["cells"]
             if ratio(c) is not None]
    if not cells:
        return None
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 0.3 * len(cells) + 1.2))
    ys = range(len(cells))
    ax.barh(list(ys), [r for _, r in cells], color="tab:blue")
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks(list(ys))
    ax.set_yticklabels([n for n, _ in cells], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("ours / thesis")
    ax.set_title(f"Thesis {thesis_id}: ours against the thesis'")
    savefig(fig, path)
    return path


def cells_of(tables: list[dict], thesis_id: str, unit: str, col: str) -> dict[str, float]:
    """row -> our figure, of the column col in thesis_id's tables in unit."""
    return {c["row"]: c["ours"] for t in tables if t["id"] == thesis_id and
            t["unit"] == unit for c in t["cells"] if c["col"] == col and
            c["ours"] is not None}


@plotter
def plot_scans(tables: list[dict], path: Path) -> Optional[Path]:
    """Figure 5-8 as the thesis draws it: each file system's scan time,
    after the load, after the transactions, and after the reorganizer."""
    got = {s: cells_of(tables, "figure 5-8", "s", s)
           for s in ("after the load", "after N transactions", "after lfs_cleanerd -r")}
    states = [s for s in got if got[s]]
    names = list(dict.fromkeys(n for s in states for n in got[s]))
    if not names:
        return None
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.8 / len(states)
    for i, s in enumerate(states):
        xs = [x for x, n in enumerate(names) if n in got[s]]
        ax.bar([x + (i - (len(states) - 1) / 2) * width for x in xs],
               [got[s][names[x]] for x in xs], width, label=s)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names)
    ax.set_ylabel("seconds to scan the account relation")
    ax.set_title("Figure 5-8, ours: SCAN after random updates")
    ax.legend()
    savefig(fig, path)
    return path


@plotter
def plot_combined(tables: list[dict], path: Path) -> Optional[Path]:
    """Figure 5-9 as the thesis draws it: the time for k transactions and
    then one scan, k / TPS + the scan after the transactions, against k;
    where LFS's line crosses another is the break-even point."""
    tps = cells_of(tables, "figure 5-6", "TPS", "TPS")
    tps.update(cells_of(tables, "table 7-9", "TPS", "TPS"))
    scan = cells_of(tables, "figure 5-8", "s", "after N transactions")
    names = [n for n in scan if n in tps]
    if not names:
        return None
    even = [c["ours"] for t in tables if t["id"] == "figure 5-9" for c in t["cells"]
            if c["ours"] is not None and 0 < c["ours"] < math.inf]
    kmax = max([1000.0] + [3 * e for e in even])
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    for n in names:
        ax.plot([0, kmax], [scan[n], scan[n] + kmax / tps[n]], label=n)
    ax.set_xlabel("transactions between scans")
    ax.set_ylabel("elapsed seconds: transactions, then one scan")
    ax.set_title("Figure 5-9, ours: transactions and a scan")
    ax.legend()
    savefig(fig, path)
    return path


# The thesis' figures a driver's tables can be drawn as (beside the ratios).
FIGURES = {"figure 5-8": plot_scans, "figure 5-9": plot_combined}


def runs_section(runs: list[Run]) -> list[str]:
    def counts(x) -> str:
        return str(x) if isinstance(x, int) else ", ".join(f"{k} {v}" for k, v in x.items())

    rows = []
    for r in runs:
        m = r.meta
        commit = "—" if m["commit"] is None else f"`{m['commit'][:10]}`" + \
            (" with changes" if m["dirty"] else "")
        drive = m["profile"] + (f", {fmt(m['ctrl_ms'])} ms" if m["ctrl_ms"] is not None
                                else "")
        if m.get("host_us"):    # written since the host's share is forgiven
            drive += f", host {m['host_us']:.0f} us forgiven"
        load = m["loadavg"]
        rows.append([f"`{r.path.name}`", commit, m["date"], drive,
                     counts(m["guest_mem_mb"]), counts(m["runs"]),
                     f"{load['start'][0]:.2f} → {load['end'][0]:.2f}"
                     + (f" on {m['cpus']}" if m["cpus"] else ""),
                     f"{round(m['elapsed_s'] / 60)} min"])
    lines = ["## The runs", ""] + md_table(
        ["results", "commit", "started (UTC)", "drive, controller overhead", "guest MB",
         "runs", "host load (1 min), start → end, on CPUs", "took"], rows, range(4, 8)) \
        + ["", "The drive forgives the host's share of each command where a run says so "
           "(qemu/DRIVE.md, P8; `python3 -m qemu.turnaround --calibrate`); raw_disk.json "
           "splits the turnaround between commands (the host's parts and the guest's).", ""]
    for r in runs:
        opts = " ".join(f"{k}={v}" for k, v in sorted(r.meta["options"].items()))
        lines.append(f"- `{r.driver}` options: {opts or 'none'}")
    lines.append("")
    warn = []
    if len({r.meta["commit"] for r in runs}) > 1:
        warn.append("The results come from different commits.")
    if len({r.meta["profile"] for r in runs}) > 1:
        warn.append("The results come from different drive profiles.")
    dirty = [f"`{r.path.name}`" for r in runs if r.meta["dirty"]]
    if dirty:
        warn.append(f"{', '.join(dirty)}: measured a tree with uncommitted changes.")
    # A 1-minute load as high as the CPUs: some other work had a core the
    # guest wanted.  (Below that, the last driver's guest may be the load.)
    busy = [f"`{r.path.name}` ({r.meta['loadavg']['start'][0]:.2f} on {r.meta['cpus']})"
            for r in runs
            if r.meta["cpus"] and r.meta["loadavg"]["start"][0] >= r.meta["cpus"]]
    if busy:
        warn.append("The host had as much work as CPUs when these started, and their "
                    f"times may be long: {', '.join(busy)}.")
    return lines + ([f"> {w}" for w in warn] + [""] if warn else [])


@dataclass
class Doc:
    """The document as it is put together: its lines and its plots' folder."""

    plots: Path                 # doc/results/
    link: str                   # how the document names that folder
    lines: list[str] = field(default_factory=list)
    placed: set = field(default_factory=set)

    def image(self, name: str, alt: str) -> None:
        self.lines += [f"![{alt}]({self.link}/{name})", ""]

    def driver_plots(self, run: Run, thesis_id: Optional[str]) -> None:
        """Copy and show the run's plots that belong here: those naming
        thesis_id first among their ids (None: those naming no id)."""
        for name, ids in run.plots.items():
            if (ids[0] if ids else None) != thesis_id or name in self.placed:
                continue
            self.placed.add(name)       # andrew.json and andrew_multi.json share one
            src = run.path.parent / name
            if src.exists():
                shutil.copyfile(src, self.plots / name)
                self.image(name, f"{run.driver}: {name}")
            else:
                self.lines += [f"(`{name}` is not in the results: the driver's Python had "
                               "no matplotlib, or the driver stopped first.)", ""]


def entry_section(doc: Doc, e: Entry, found: list[tuple[Run, dict]]) -> None:
    tables = [t for _, t in found]
    doc.lines += [f"### {e.id.capitalize()}: {e.title} ({e.section})", ""]
    if e.claim:
        doc.lines += [f"The thesis: {e.claim}", ""]
    for run, t in found:
        doc.lines += render_table(t, run)
    doc.lines += [shape_line(tables), ""]
    if e.differs:
        doc.lines += [f"Why it may differ: {e.differs}", ""]
    drive = CHAPTERS[e.chapter][2]
    profiles = sorted({run.meta["profile"] for run, _ in found} - {drive})
    if profiles:
        doc.lines += [f"These ran on {', '.join(profiles)}; the thesis' chapter "
                      f"{e.chapter} used the {drive} drive.", ""]
    if e.gap:
        doc.lines += [f"Still missing: {e.gap}", ""]
    for run in dict.fromkeys(run for run, _ in found):
        doc.driver_plots(run, e.id)
        if e.id in FIGURES:
            name = f"{slug(e.id)}-{run.path.stem}.png"
            if FIGURES[e.id](run.tables, doc.plots / name):
                doc.image(name, f"{e.id}, ours")
            else:
                doc.lines += [f"(The {e.id} plot was not drawn: no matplotlib here, or "
                              "nothing to draw.)", ""]
    if any(ratio(c) is not None for t in tables for c in t["cells"]):
        name = f"{slug(e.id)}-ratio.png"
        if plot_ratios(e.id, tables, doc.plots / name):
            doc.image(name, f"{e.id}: ours / thesis")
        else:
            doc.lines += ["(The ratio plot was not drawn: no matplotlib here.)", ""]


def render(runs: list[Run], docpath: Path) -> str:
    """The document; its plots go to the folder beside it named as it is."""
    plots = docpath.with_suffix("")
    plots.mkdir(parents=True, exist_ok=True)
    for old in plots.glob("*.png"):     # all generated: none may outlive its results
        old.unlink()
    doc = Doc(plots, plots.name)
    by_id: dict[Optional[str], list[tuple[Run, dict]]] = {}
    for run in runs:
        for t in run.tables:
            by_id.setdefault(t["id"], []).append((run, t))
    doc.lines += [
        "# Results: the thesis' evaluation beside ours", "",
        "Generated by `make report` (`python3 -m bench.report`) from the results "
        "`make bench` writes in `build/bench/`, kept in `results/data/`; do not edit it "
        "by hand.  For each table "
        "and figure of chapters 5 and 7 of the thesis that a benchmark covers: the "
        "thesis' numbers, ours, their ratio (ours / thesis), whether the shape matches "
        "(the file systems in the same order) and why it may not.  Figures the thesis "
        "only draws are given in numbers where its text gives them.  The last sections "
        "list what is not covered yet and our figures that have no counterpart in the "
        "thesis.", ""]
    doc.lines += runs_section(runs)
    known = {e.id for e in CATALOGUE}
    missing, partial = [], []
    for chapter, (title, machine, _) in CHAPTERS.items():
        doc.lines += [f"## {title}", "", machine, ""]
        for e in (e for e in CATALOGUE if e.chapter == chapter):
            if e.same_as:
                if by_id.get(e.same_as):
                    doc.lines += [f"### {e.id.capitalize()}: {e.title} ({e.section})", "",
                                  f"The same measurement as {e.same_as}, drawn at a "
                                  "larger scale: see there.", ""]
                else:
                    missing.append(f"{e.id.capitalize()} ({e.section}, {e.title}): as "
                                   f"{e.same_as}.")
                continue
            found = by_id.get(e.id, [])
            if found:
                entry_section(doc, e, found)
                if e.gap:
                    partial.append(f"{e.id.capitalize()} ({e.section}, {e.title}): {e.gap}")
            elif e.driver:
                missing.append(f"{e.id.capitalize()} ({e.section}, {e.title}): not in these "
                               f"results; `python3 -m bench.{e.driver}` measures it.")
            else:
                missing.append(f"{e.id.capitalize()} ({e.section}, {e.title}): {e.gap}")
    others = sorted(i for i in by_id if i is not None and i not in known)
    if others:
        doc.lines += ["## Other tables and figures of the thesis", ""]
        for i in others:
            entry_section(doc, Entry(i, "", "not in the report's catalogue"), by_id[i])
    doc.lines += ["## Not covered yet", "",
                  "Tables and figures of the thesis with no figures of ours here:", ""]
    doc.lines += [f"- {m}" for m in missing] + [""]
    if partial:
        doc.lines += ["Covered only in part:", ""] + [f"- {p}" for p in partial] + [""]
    stems = {run.path.stem for run in runs}
    wanted = [w for stem, w in WANTED.items() if stem not in stems]
    if wanted:
        doc.lines += ["Wanted beside them (issue 27):", ""] + [f"- {w}" for w in wanted]
        doc.lines += [""]
    doc.lines += ["## Ours alone", "",
                  "Figures with no table or figure in the thesis to set them beside.", ""]
    for run in runs:
        tables = [t for t in run.tables if t["id"] is None]
        if tables or any(not ids for ids in run.plots.values()):
            doc.lines += [f"### `{run.driver}`", ""]
            for t in tables:
                doc.lines += render_table(t, run)
            doc.driver_plots(run, None)
    return "\n".join(doc.lines).rstrip("\n") + "\n"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--in", dest="indir", type=Path, default=TOP / "build" / "bench",
                    help="where the drivers' NAME.json are (build/bench)")
    ap.add_argument("--doc", type=Path, default=TOP / "doc" / "results.md",
                    help="the document; its plots go beside it, in results/")
    args = ap.parse_args(argv)
    kept = args.doc.with_suffix("") / "data"
    try:
        runs = load_all(args.indir, kept)
    except ReportError as e:
        print(f"bench.report: {e}", file=sys.stderr)
        return 2
    new = sum(run.path.parent != kept for run in runs)
    keep(runs, kept)
    text = render(runs, args.doc)
    args.doc.write_text(text)
    print(f"wrote {args.doc} from {len(runs)} results file(s): {new} new from "
          f"{args.indir}, the others kept in {kept}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
