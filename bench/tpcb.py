"""TPC-B as thesis table 7-9, and SCAN (thesis 5.3.3): the user-level
transaction manager (lib/libdb, bin/tpcb) on FFS, EFS and BSD-LFS, and the
kernel's transactions on BSD-LFS (thesis 5.2, figure 5-3).

    python3 -m bench.tpcb [--profile hp97560] [--scale 1] [--runs 3] [--txns 400]
        [--scan-txns 500] [--no-scan] [--clean-passes 3] [--configs FFS,EFS,...]
        [--thesis] [--out build/bench]

The guest has 16 MB of memory, as the thesis' HP 9000/380 had (the kernel's
buffer cache is a tenth of it; tpcb's account page cache is 1 MB).  For each
configuration it boots a guest of its own, makes a file system at the start
of sd1, loads the database (tpcb -i: SCALE TPS of TPC-B, 100,000 accounts,
10 tellers and 1 branch per TPS, account leaves half full as in the thesis),
and runs

    tpcb -m user -r RUNS -n TXNS [-u SEGS]        (-m kernel: LFS-K...)

which warms up (uncounted) until its page cache is full (kernel mode: as
many transactions as that cache has pages), and with -u until
the LFS cleaner has cleaned --clean-passes times as many segments as the
partition has (its steady state: TPS falls for as long as the cleaner is
still finding the segments the load left nearly empty; 3 by default) and
two windows of 100 transactions in a row agree within 10%, then times RUNS
runs of TXNS transactions.  The configurations:

  FFS       newfs: 4 KB blocks, rotdelay 4 ms, maxcontig 1
  EFS       newfs -E: 64 KB clusters, no rotdelay
  LFS       newfs_lfs (1 MB segments), mounted without a cleaner on a
            partition big enough that the runs never need one: the thesis'
            "LFS (no cleaner)", performance before the cleaner has to run
  LFS-C1M   newfs_lfs, the cleaner running, the disk "80% full"
  LFS-C256K the same with 256 KB segments
  LFS-K     as LFS, with kernel transactions: tpcb -i -m kernel marks the
            files chflags txn, tpcb -m kernel writes each transaction's
            pages to the kernel and calls txn_commit(2); no log, no
            user-level locks, and no page cache of its own between
            transactions (the kernel's buffer cache is the cache)
  LFS-KC1M  as LFS-C1M (the cleaner, 80% full), with kernel transactions
            (about 10 minutes alone; in the default --configs so that the
            report always has the kernel against the user level with the
            cleaner)
  LFS-B1M   as LFS-C1M with the cost-benefit cleaner (lfs_cleanerd -b, the
            thesis' policy) instead of greedy (the default, which
            measured twice as fast here); not in the default --configs

The thesis gives no number for kernel transactions: figure 5-6 (Sprite,
RZ55) shows them as bars beside the user-level manager's 13.6 TPS on LFS,
ahead of it by exactly the cost of the user-level semaphore system calls.

"80% full": the partition is sized so that df says 80% right after the load
on LFS (its 10% minfree and two reserved segments make that about 66% of the
partition's raw blocks); FFS, EFS and the cleaner configurations all get that
partition.  The table gives transactions per second (mean and standard
deviation over the runs), the elapsed time of 1,000 transactions with its
standard deviation as a percentage (the thesis' form), the thesis' figures
and the ratios between configurations; for the cleaner configurations the
cleaner's share of the blocks written, the utilization of the segments it
cleaned (live blocks it moved / blocks of the non-empty segments it cleaned)
and transactions per cleaned segment, all over the measured runs.

SCAN: on FFS, EFS and LFS (no cleaner), the account relation is read in key
order (tpcb -x) after an unmount and mount, once right after the load and
once after the TPC-B runs (and --scan-txns more transactions); the
break-even number of transactions between scans is where LFS's faster
transactions have paid for its slower scan:
    N* = (T_scan,LFS - T_scan,RO) / (1/TPS_RO - 1/TPS_LFS).
--no-scan leaves SCAN out: at --thesis scale its three scans and the
reorganizer are most of LFS's time, and table 7-9 does not need them.

--thesis: the thesis' scale and protocol (10 TPS: 1,000,000 accounts, a
237 MB account relation; 10 runs of 1,000 transactions).  Writes
build/bench/tpcb.txt, tpcb.json (the same for bench/report.py) and tpcb.png.

--chapter5: chapter 5's configuration (5.3: Sprite on a DECstation with
32 MB and an RZ55, the disk 70% full) for figures 5-6, 5-8 and 5-9: the
rz55 profile, a 32 MB guest, FFS, EFS, LFS and LFS-K all on a partition
80/70 the size of table 7-9's (df says 62% full for FFS and EFS, 68% for
LFS, after the load), LFS's cleaner running (as Sprite's did) but not
waited for; writes tpcb-ch5.txt, .json and .png.
Nothing here is asserted.
"""
from __future__ import annotations

import argparse
import math
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from bench.driver import (cell, parser, plotter, pyplot, results_table, savefig,
                          why_failed, write_json)
from qemu import drivemodel
from tests.guest import Guest, GuestError

MEM = 16
# --chapter5: chapter 5's machine and disk (5.3).
CH5_PROFILE, CH5_MEM, CH5_CONFIGS = "rz55", 32, "FFS,EFS,LFS,LFS-K"
# Thesis table 7-9: TPS and elapsed seconds (s.d. %) for 1,000 transactions.
# Kernel transactions: no figure in the thesis (figure 5-6 is bars only).
THESIS = {"FFS": (14.2, 70.23, 1.0), "EFS": (16.8, 59.51, 2.1),
          "LFS": (19.3, 51.75, 0.6), "LFS-C1M": (11.6, 85.86, 5.3),
          "LFS-C256K": (12.4, 80.72, 1.8), "LFS-K": None, "LFS-KC1M": None,
          "LFS-B1M": None}
RATIOS = (("EFS", "FFS"), ("LFS", "FFS"), ("LFS", "EFS"), ("LFS-C1M", "FFS"),
          ("LFS-C1M", "EFS"), ("LFS-C1M", "LFS"), ("LFS-C256K", "FFS"),
          ("LFS-C256K", "EFS"), ("LFS-C256K", "LFS"), ("LFS-K", "LFS"),
          ("LFS-K", "FFS"), ("LFS-KC1M", "LFS-C1M"), ("LFS-KC1M", "LFS-K"),
          ("LFS-B1M", "LFS-C1M"))
# Figure 5-6 (Sprite, RZ55): TPS and the note, by our stand-in.
SPRITE = {"FFS": (12.3, "Sprite's read-optimized file system, user-level manager"),
          "LFS": (13.6, "Sprite-LFS, user-level manager"),
          "LFS-K": (None, "the thesis draws it a little ahead of LFS: no number")}
# 7.8's text on the cleaner during table 7-9: (figure, the words), by
# (configuration, json_tables' key).
THESIS_CLEANER = {
    ("LFS-C1M", "share"): (0.7, "'between 60% and 80% of the total blocks written'"),
    ("LFS-C1M", "util"): (0.71, "'the cleaned segments were 71% utilized'"),
    ("LFS-C1M", "txns_per_seg"): (50, "'one segment for every 50 transactions'"),
    ("LFS-C256K", "share"): (None, "'60-70%' with 256 KB segments"),
}
CLEANER_COLS = {"share": ("cleaner's share of blocks written", "fraction"),
                "util": ("utilization of the segments cleaned", "fraction"),
                "txns_per_seg": ("transactions per segment cleaned", "transactions"),
                "write_cost": ("write cost", "blocks per new block")}
CONFIGS = ("FFS", "EFS", "LFS", "LFS-C1M", "LFS-C256K", "LFS-K", "LFS-KC1M", "LFS-B1M")
DEFAULT_CONFIGS = CONFIGS[:-1]
SCANNED = ("FFS", "EFS", "LFS")
KERNEL = ("LFS-K", "LFS-KC1M")   # tpcb -m kernel
# The "80% full" partition: df on LFS right after the load reads
#   used / (0.9 * size - 2 segments)
# (10% minfree, two segments the cleaner keeps), used being 22.3 MB per TPS
# of scale and size the partition less about 850 KB of the file system's
# own.  The two segments do not grow with the scale: sized per TPS alone,
# the scale-10 partition was 73% full.
LOAD_KB_PER_TPS, LOAD_KB_FIXED = 22322, 66      # df's used: 22,388 KB at 1, 223,288 at 10
LFS_OWN_KB, LFS_RESERVED_KB = 850, 2 * 1024
LFS_SECTORS_PER_TXN = 96    # what a transaction writes on LFS without a cleaner, and more
WARMUP_TXNS = 1500          # at most, before the runs (tpcb's own bound is 1,024)
DISK_SECTORS = 2600000      # sd1 is 2,647,080 sectors
RUN = re.compile(r"tpcb run (\d+) txns (\d+) usecs (\d+)")
WARM = re.compile(r"tpcb warm (\d+) transactions in (\d+) ms")
LFSLINE = re.compile(r"^tpcb lfs (.*)$", re.M)
REAL = re.compile(r"([\d.]+) real")
LOADED = re.compile(r"account: (\d+) rows in (\d+) pages")
SCAN = re.compile(r"tpcb scan records (\d+) pages (\d+) usecs (\d+)")
DONE = re.compile(r"tpcb done: (\d+) committed")
KTXN = re.compile(r"tpcb kernel txns: (\d+) commits, (\d+) aborts, (\d+) victims, "
                  r"(\d+) lock waits, (\d+) group commits, (\d+) pages forced, "
                  r"(\d+) steals")


def partition(scale: int, full: float = 0.80) -> int:
    """Sectors of the partition that df on LFS finds full this much after
    tpcb -i -s scale (1 MB segments; FFS and EFS get the same partition)."""
    used = scale * LOAD_KB_PER_TPS + LOAD_KB_FIXED
    return int(2 * ((used / full + LFS_RESERVED_KB) / 0.9 + LFS_OWN_KB))


@dataclass
class Result:
    name: str
    tps: list[float] = field(default_factory=list)         # per run
    warm: int = 0                                          # warm-up transactions
    lfs: list[dict[str, int]] = field(default_factory=list)  # before run 1, after each
    account_pages: int = 0
    df: str = ""
    sectors: int = 0
    scan0: float | None = None      # seconds, right after the load
    scan1: float | None = None      # ... after n_scan transactions
    scan2: float | None = None      # ... after the reorganizer (LFS)
    reorg: float | None = None      # seconds lfs_cleanerd -r took
    n_scan: int = 0
    seconds: float = 0.0
    runs_txns: list[int] = field(default_factory=list)
    forced: float = 0.0             # kernel mode: pages forced per commit
    steals: int = 0                 # ... running transactions' pages written

    @property
    def mean(self) -> float:
        return statistics.mean(self.tps)

    @property
    def sd(self) -> float:
        return statistics.stdev(self.tps) if len(self.tps) > 1 else 0.0

    def cleaner(self, segblocks: int) -> dict[str, float] | None:
        """Over the measured runs: the cleaner's share of the blocks written,
        the utilization of the segments it cleaned, transactions per segment."""
        if len(self.lfs) < 2 or "cleaner_segs_cleaned" not in self.lfs[-1]:
            return None
        a, b = self.lfs[0], self.lfs[-1]
        d = {k: b[k] - a.get(k, 0) for k in b}
        cleaned = d["cleaner_segs_cleaned"] - d.get("cleaner_segs_empty", 0)
        txns = sum(self.runs_txns)
        # The cleaner's copies (the kernel's count, where it has one; the
        # cleaner's partial segments also carry what they made dirty).
        moved = d.get("blocks_moved", d["blocks_clean"])
        new = d["blocks"] - moved
        return {"share": d["blocks_clean"] / d["blocks"] if d["blocks"] else 0.0,
                "util": d["cleaner_blocks_moved"] / (cleaned * segblocks) if cleaned else 0.0,
                "segs": d["segs_cleaned"],
                # segments cleaned per lfs_markv call (one batch, one call)
                "segs_per_markv": cleaned / d["cleaner_markv_calls"]
                if d.get("cleaner_markv_calls") else 0.0,
                "txns_per_seg": txns / d["segs_cleaned"] if d["segs_cleaned"] else 0.0,
                "blocks_per_txn": d["blocks"] / txns if txns else 0.0,
                # Sprite's write cost: blocks the disk moved (the cleaner's
                # reads and writes too) per new block written.
                "write_cost": (d["blocks"] + d.get("cleaner_blocks_read", 0)) / new
                if new > 0 else 0.0,
                "hist": [d.get(f"cleaner_util{i}0", 0) for i in range(10)]}

    def kinds(self) -> dict[str, float] | None:
        """Blocks written per measured transaction, by kind."""
        if len(self.lfs) < 2 or "blocks_data" not in self.lfs[-1]:
            return None
        a, b = self.lfs[0], self.lfs[-1]
        txns = sum(self.runs_txns) or 1
        k = {n: (b[f"blocks_{n}"] - a.get(f"blocks_{n}", 0)) / txns
             for n in ("data", "indir", "inode", "ifile", "clean")}
        if "blocks_moved" in b:
            k["clean"] = (b["blocks_moved"] - a.get("blocks_moved", 0)) / txns
        k["summary"] = (b["psegs"] - a.get("psegs", 0)) / txns
        k["deltas"] = (b.get("deltas", 0) - a.get("deltas", 0)) / txns
        k["all"] = (b["blocks"] - a.get("blocks", 0)) / txns
        return k


def lfsline(text: str) -> dict[str, int]:
    w = text.split()
    return {w[i]: int(w[i + 1]) for i in range(0, len(w) - 1, 2)}


def setup(name: str, sectors: int, passes: int,
          chapter5: bool = False) -> tuple[str, str, str]:
    """(newfs, mount, tpcb options) of a configuration; chapter5: LFS and
    LFS-K with their cleaner, which the runs do not wait for."""
    if name == "FFS":
        return f"newfs -s {sectors} /dev/rsd1a", "mount /dev/sd1a /mnt", ""
    if name == "EFS":
        return f"newfs -E -s {sectors} /dev/rsd1a", "mount /dev/sd1a /mnt", ""
    if name in ("LFS", "LFS-K"):
        return (f"newfs_lfs -S {sectors} /dev/rsd1a",
                f"mount {'' if chapter5 else '-n '}-t lfs /dev/sd1a /mnt", "")
    segbytes = 1 << 18 if name == "LFS-C256K" else 1 << 20
    seg = "" if segbytes == 1 << 20 else f"-s {segbytes} "
    mount = ("mount -n -t lfs /dev/sd1a /mnt && (/usr/libexec/lfs_cleanerd -b /mnt "
             "> /dev/null 2>&1 &)" if name == "LFS-B1M" else "mount -t lfs /dev/sd1a /mnt")
    return (f"newfs_lfs {seg}-S {sectors} /dev/rsd1a", mount,
            f"-u {passes * sectors * 512 // segbytes}")


def scan(g: Guest, mount: str, timeout: float) -> float:
    out = g.ok(f"umount /mnt && {mount} && tpcb -x /mnt/db", timeout=timeout)
    m = SCAN.search(out)
    if m is None:
        raise RuntimeError(f"tpcb -x: {out}")
    return int(m.group(3)) / 1e6


def measure(g: Guest, name: str, args: argparse.Namespace, log,
            sectors: int | None = None) -> Result:
    """One configuration on a fresh file system; sectors: the partition
    (default: "80% full", or room for every transaction without a cleaner;
    --chapter5: "70% full" for all)."""
    t0 = time.monotonic()
    if sectors is None:
        # df's fullness after the load goes inversely as the partition.
        sectors = int(partition(args.scale) * (80 / 70 if args.chapter5 else 1))
    scanned = name in SCANNED and not args.no_scan
    if name in ("LFS", "LFS-K") and not args.chapter5:
        total = WARMUP_TXNS + args.runs * args.txns + (args.scan_txns if scanned else 0)
        sectors = min(sectors + total * LFS_SECTORS_PER_TXN, DISK_SECTORS)
    res = Result(name, sectors=sectors)
    newfs, mount, opts = setup(name, sectors, args.clean_passes, args.chapter5)
    mode = "-m kernel" if name in KERNEL else "-m user"
    long = 3600 * max(1, args.scale)
    g.ok(f"{newfs} > /dev/null", timeout=long)
    g.ok(mount)
    load = "-m kernel " if name in KERNEL else ""
    out = g.ok(f"tpcb -i {load}-s {args.scale} /mnt/db", timeout=long)
    m = LOADED.search(out)
    res.account_pages = int(m.group(2)) if m else 0
    res.df = g.ok("df /mnt").strip().split("\n")[-1]
    log(f"  {name}: loaded, {res.df}")
    if scanned:
        res.scan0 = scan(g, mount, long)
        log(f"  {name}: scan after the load {res.scan0:.1f} s")
    out = g.ok(f"tpcb {mode} -r {args.runs} -n {args.txns} {opts} /mnt/db",
               timeout=long * 4)
    m = WARM.search(out)
    res.warm = int(m.group(1)) if m else 0
    for m in RUN.finditer(out):
        res.runs_txns.append(int(m.group(2)))
        res.tps.append(int(m.group(2)) * 1e6 / int(m.group(3)))
    res.lfs = [lfsline(m.group(1)) for m in LFSLINE.finditer(out)]
    done = DONE.search(out)
    res.n_scan = int(done.group(1)) if done else 0
    if (k := KTXN.search(out)) is not None:
        res.forced = int(k.group(6)) / max(int(k.group(5)), 1)
        res.steals = int(k.group(7))
    log(f"  {name}: {' '.join(f'{t:.2f}' for t in res.tps)} TPS after "
        f"{res.warm} warm-up transactions")
    if scanned:
        if args.scan_txns:
            out = g.ok(f"tpcb -m user -n {args.scan_txns} /mnt/db", timeout=long * 8)
            done = DONE.search(out)
            res.n_scan += int(done.group(1)) if done else 0
        res.scan1 = scan(g, mount, long)
        log(f"  {name}: scan after {res.n_scan} transactions {res.scan1:.1f} s")
        if name.startswith("LFS"):
            # The reorganizer (thesis 6.2.5) puts the relation back in order.
            out = g.ok("time /usr/libexec/lfs_cleanerd -r /mnt/db/account", timeout=long)
            m = REAL.search(out)
            res.reorg = float(m.group(1)) if m else None
            res.scan2 = scan(g, mount, long)
            log(f"  {name}: scan after the reorganizer ({res.reorg} s) {res.scan2:.1f} s")
    g.ok("umount /mnt", timeout=long)
    res.seconds = time.monotonic() - t0
    return res


def ratio(res: dict[str, Result], a: str, b: str) -> str:
    if a not in res or b not in res:
        return "    -"
    return f"{res[a].mean / res[b].mean:5.2f}"


def breakeven_n(res: dict[str, Result], ro: str, lfs: str, tps_lfs: str) -> float | None:
    """Transactions per scan for LFS to break even with ro: 0 when LFS scans
    as fast (always), infinity when its transactions are not faster (never),
    None when a figure is missing."""
    if ro not in res or lfs not in res or tps_lfs not in res:
        return None
    r, l = res[ro], res[lfs]
    if r.scan1 is None or l.scan1 is None:
        return None
    dscan = l.scan1 - r.scan1
    dtxn = 1 / r.mean - 1 / res[tps_lfs].mean
    if dscan <= 0:
        return 0.0
    if dtxn <= 0:
        return math.inf
    return dscan / dtxn


def breakeven(res: dict[str, Result], ro: str, lfs: str, tps_lfs: str) -> str:
    """Transactions per scan for LFS to break even with ro, or why not."""
    n = breakeven_n(res, ro, lfs, tps_lfs)
    if n is None:
        return "-"
    if n == 0:
        return "always (LFS scans as fast)"
    if n == math.inf:
        return "never (LFS's transactions are not faster)"
    return f"{n:,.0f}"


def table(res: dict[str, Result], args: argparse.Namespace) -> str:
    prof = drivemodel.get_profile(args.profile)
    any_r = next(iter(res.values()))
    lines = [
        f"TPC-B (thesis 7.8, table 7-9), profile {args.profile}: {prof.description}",
        f"scale {args.scale} TPS: {100000 * args.scale:,} accounts, {10 * args.scale} "
        f"tellers, {args.scale} branches; account relation {any_r.account_pages} "
        f"pages ({any_r.account_pages * 4 // 1024} MB); guest memory {args.mem} MB; "
        f"user-level transactions (tpcb -m user), LFS-K*: the kernel's (tpcb -m kernel)",
        f"{args.runs} runs of {args.txns} transactions after warm-up; thesis: 10 runs "
        f"of 1,000, 1,000,000 accounts (237 MB)",
        "",
        f"{'configuration':12s} {'TPS':>7s} {'s.d.':>6s} {'1000 txns':>10s} "
        f"{'s.d.%':>6s}   {'thesis TPS':>10s} {'1000 txns':>10s} {'s.d.%':>6s}  "
        f"{'/thesis':>7s}  partition",
    ]
    for name, r in res.items():
        t = THESIS[name]
        el = 1000 / r.mean
        thesis = (f"{t[0]:10.1f} {t[1]:9.2f}s {t[2]:5.1f}%  {r.mean / t[0]:6.2f}x"
                  if t else f"{'-':>10s} {'-':>10s} {'-':>6s}  {'-':>7s}")
        lines.append(
            f"{name:12s} {r.mean:7.2f} {r.sd:6.2f} {el:9.2f}s "
            f"{100 * r.sd / r.mean:5.1f}%   {thesis}  {r.sectors // 2048} MB"
            + (f" ({r.sectors * 512 // (1 << 18 if name == 'LFS-C256K' else 1 << 20)} "
               f"segments)" if name.startswith("LFS") else "") + f": {r.df}")
    if any(n in KERNEL for n in res):
        lines.append("  (kernel transactions: no figure in the thesis; figure 5-6, Sprite "
                     "on an RZ55, has them ahead of the user-level manager's "
                     "13.6 TPS on LFS)")
    lines += ["", "ratios (ours, thesis):"]
    for a, b in RATIOS:
        ta, tb = THESIS[a], THESIS[b]
        lines.append(f"  {a + '/' + b:20s} {ratio(res, a, b)}   "
                     + (f"{ta[0] / tb[0]:5.2f}" if ta and tb else "    -"))
    for n, r in res.items():
        if n in KERNEL and r.forced:
            lines.append(f"  {n}: {r.forced:.1f} pages forced per commit; txnstat's steals "
                         f"(a running transaction's pages the writer took: NO-STEAL "
                         f"says 0) {r.steals}")
    cl = [(n, r.cleaner(64 if n == "LFS-C256K" else 256)) for n, r in res.items()]
    cl = [(n, c) for n, c in cl if c is not None]
    if cl:
        lines += ["", "the cleaner over the measured runs (thesis: cleaner writes 60-80% of "
                  "blocks written, 60-70% with 256 KB segments; cleaned segments 71% "
                  "utilized; one segment cleaned per ~50 transactions):"]
        for n, c in cl:
            lines.append(f"  {n:10s} cleaner's share of blocks written {100 * c['share']:4.0f}%, "
                         f"cleaned segments {100 * c['util']:3.0f}% utilized, "
                         f"{c['segs']} segments cleaned (one per "
                         f"{c['txns_per_seg']:.0f} transactions), "
                         f"{c['blocks_per_txn']:.1f} blocks written per transaction")
            lines.append(f"  {'':10s} write cost {c['write_cost']:.2f} (blocks read and "
                         f"written per new block); segments cleaned by live fraction "
                         f"0-10%...90-100%: {' '.join(str(h) for h in c['hist'])}; "
                         f"{c['segs_per_markv']:.1f} segments per lfs_markv")
    kinds = [(n, r.kinds()) for n, r in res.items()]
    kinds = [(n, k) for n, k in kinds if k is not None]
    if kinds:
        lines += ["", "blocks written per transaction, by kind (the summary is one per "
                  "partial segment; the cleaner's copies of data are also counted as data; "
                  "DELTAs: the changed bytes a kernel commit or an fsync carried in its summary):",
                  f"  {'':10s} {'all':>6s} {'data':>6s} {'summary':>8s} {'inode':>6s} "
                  f"{'indirect':>8s} {'ifile':>6s} {'cleaner':>8s} {'DELTAs':>7s}"]
        for n, k in kinds:
            lines.append(f"  {n:10s} {k['all']:6.1f} {k['data']:6.1f} {k['summary']:8.1f} "
                         f"{k['inode']:6.1f} {k['indir']:8.1f} {k['ifile']:6.1f} "
                         f"{k['clean']:8.1f} {k['deltas']:7.1f}")
    sc = [(n, r) for n, r in res.items() if r.scan0 is not None]
    if sc:
        lines += ["", "SCAN (thesis 5.3.3): the account relation read in key order, cold "
                  "cache, seconds", f"{'file system':12s} {'after load':>11s} "
                  f"{'after N':>9s} {'N':>7s}"]
        for n, r in sc:
            after = (f"   after lfs_cleanerd -r ({r.reorg:.1f} s): {r.scan2:.1f}s"
                     if r.scan2 is not None and r.reorg is not None else "")
            lines.append(f"{n:12s} {r.scan0:10.1f}s {r.scan1:8.1f}s {r.n_scan:7d}{after}")
        for ro in ("FFS", "EFS"):
            if ro in res and "LFS" in res and res[ro].scan1 and res["LFS"].scan1:
                lines.append(f"  LFS/{ro} scan time after N: "
                             f"{res['LFS'].scan1 / res[ro].scan1:.2f} (thesis: ~1.5)"
                             + (f"; after the reorganizer "
                                f"{res['LFS'].scan2 / res[ro].scan1:.2f}"
                                if res["LFS"].scan2 else ""))
        lines.append("break-even transactions between scans (thesis: ~134,300 on Sprite):")
        for ro in ("FFS", "EFS"):
            for tl in ("LFS", "LFS-C1M", "LFS-K", "LFS-KC1M"):
                lines.append(f"  LFS vs {ro}, with {tl}'s TPS: {breakeven(res, ro, 'LFS', tl)}")
    return "\n".join(lines)


def json_tables(res: dict[str, Result], chapter5: bool = False,
                failed: Optional[dict[str, str]] = None) -> list[dict]:
    """For bench/report.py: table 7-9 with the ratios and the cleaner's figures
    of 7.8's text, figure 5-6 (chapter 5's TPC-B), and SCAN (figures 5-8, 5-9);
    chapter5: only chapter 5's figures, table 7-9's TPS to draw 5-9 with;
    failed: the configurations that gave no figure, and why."""
    main = []
    for name, r in res.items():
        t = THESIS[name]
        el = 1000 / r.mean
        main += [cell(name, "TPS", r.mean, r.sd, len(r.tps), t[0] if t else None),
                 cell(name, "1,000 transactions", el, el * r.sd / r.mean, len(r.tps),
                      t[1] if t else None, t[1] * t[2] / 100 if t else None, unit="s")]
    ratios = [cell(f"{a}/{b}", "TPS", res[a].mean / res[b].mean,
                   thesis=THESIS[a][0] / THESIS[b][0] if THESIS[a] and THESIS[b] else None)
              for a, b in RATIOS if a in res and b in res]
    cleaner = []
    for name, r in res.items():
        c = r.cleaner(64 if name == "LFS-C256K" else 256)
        if c is not None:
            for key, (col, unit) in CLEANER_COLS.items():
                t, note = THESIS_CLEANER.get((name, key), (None, None))
                cleaner.append(cell(name, col, c[key], thesis=t, unit=unit, note=note))
    tables = [results_table("table 7-9", "TPC-B", "TPS", main),
              results_table("table 7-9", "Ratios between configurations", "ratio", ratios)]
    if chapter5:
        tables = []
    if cleaner and not chapter5:
        tables.append(results_table("table 7-9", "The cleaner over the measured runs "
                                    "(7.8's text)", "", cleaner))
    kinds = [cell(name, kind, k[kind]) for name, r in res.items()
             if (k := r.kinds()) is not None
             for kind in ("all", "data", "summary", "inode", "indir", "ifile", "clean",
                          "deltas")]
    if kinds and not chapter5:
        tables.append(results_table("table 7-9", "Blocks written per transaction, by kind "
                                    "(indir: indirect blocks; clean: the cleaner's copies; "
                                    "deltas: DELTAs a kernel commit's summary carries, "
                                    "not blocks)", "blocks", kinds))
    sprite = dict(SPRITE)
    if chapter5:    # every configuration, for figure 5-9's plot
        sprite.update((n, (None, "no counterpart in chapter 5")) for n in res
                      if n not in SPRITE)
    tables.append(results_table("figure 5-6", "TPC-B, user-level and kernel transactions",
                                "TPS", [cell(n, "TPS", res[n].mean, res[n].sd,
                                             len(res[n].tps), t, note=note)
                                        for n, (t, note) in sprite.items() if n in res]))
    scanned = [(n, r) for n, r in res.items() if r.scan0 is not None]
    if scanned:
        scans = []
        for n, r in scanned:
            scans += [cell(n, "after the load", r.scan0),
                      cell(n, "after N transactions", r.scan1, note=f"N = {r.n_scan}")]
            if r.scan2 is not None:
                scans.append(cell(n, "after lfs_cleanerd -r", r.scan2))
        rel = [cell(f"LFS/{ro}", "after N transactions", res["LFS"].scan1 / res[ro].scan1,
                    thesis=1.5 if ro == "FFS" else None,
                    note="5.3.3, read-optimized: '33% better' (caption: 'about 50% "
                    "faster') after 100,000 transactions" if ro == "FFS" else None)
               for ro in ("FFS", "EFS") if ro in res and "LFS" in res
               and res[ro].scan1 and res["LFS"].scan1]
        tables += [results_table("figure 5-8", "SCAN: the account relation read in key "
                                 "order, cold", "s", scans),
                   results_table("figure 5-8", "LFS's scan against the others'", "ratio",
                                 rel)]
        even = []
        for ro in ("FFS", "EFS"):
            for tl in ("LFS", "LFS-C1M", "LFS-K", "LFS-KC1M"):
                n = breakeven_n(res, ro, "LFS", tl)
                if n is not None:
                    even.append(cell(f"LFS vs {ro}, {tl}'s TPS", "break-even", n,
                                     thesis=134300 if (ro, tl) == ("FFS", "LFS") else None,
                                     note={0.0: "always: LFS scans as fast",
                                           math.inf: "never: LFS's transactions are not "
                                           "faster"}.get(n)))
        tables.append(results_table("figure 5-9", "Transactions between scans for LFS to "
                                    "break even", "transactions", even))
    if failed:      # reported, not lost with the others' figures
        tables.append(results_table(None, "Configurations that failed", "TPS",
                                    [cell(n, "TPS", None, note=f"failed: {why}")
                                     for n, why in failed.items()]))
    return tables


@plotter
def plot(res: dict[str, Result], args: argparse.Namespace, path: Path) -> None:
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(9, 5))
    names = list(res)
    xs = range(len(names))
    ax.bar([x - 0.2 for x in xs], [res[n].mean for n in names], 0.4,
           yerr=[res[n].sd for n in names], color="tab:blue", label="measured")
    thesis = ({n: t for n, (t, _) in SPRITE.items() if t} if args.chapter5 else
              {n: t[0] for n, t in THESIS.items() if t})
    known = [x for x, n in zip(xs, names) if n in thesis]
    ax.bar([x + 0.2 for x in known], [thesis[names[x]] for x in known], 0.4,
           color="tab:gray", label="thesis " + ("figure 5-6 (Sprite, RZ55)"
                                                if args.chapter5 else "table 7-9"))
    ax.set_xticks(list(xs))
    ax.set_xticklabels(names)
    ax.set_ylabel("transactions per second")
    ax.set_title(f"TPC-B, user-level (LFS-K*: kernel) transactions, scale {args.scale}, "
                 f"{args.profile}")
    ax.legend()
    savefig(fig, path)


def main(argv: list[str]) -> int:
    ap = parser(__doc__)
    ap.add_argument("--scale", type=int, default=1, help="TPS of TPC-B scaling")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--txns", type=int, default=400)
    ap.add_argument("--scan-txns", type=int, default=500,
                    help="more transactions before the second scan")
    ap.add_argument("--no-scan", action="store_true",
                    help="TPC-B only: no SCAN (its scans and the reorganizer)")
    ap.add_argument("--clean-passes", type=int, default=3,
                    help="cleaner configurations: warm up until the cleaner has "
                    "cleaned this many times the partition's segments")
    ap.add_argument("--configs", default=None,
                    help=f"some of {','.join(CONFIGS)} (default "
                    f"{','.join(DEFAULT_CONFIGS)}; with --chapter5 {CH5_CONFIGS})")
    ap.add_argument("--thesis", action="store_true",
                    help="scale 10, 10 runs of 1,000 transactions, 3 cleaner passes")
    ap.add_argument("--chapter5", action="store_true",
                    help=f"chapter 5's configuration: {CH5_PROFILE}, {CH5_MEM} MB, a partition "
                    f"80/70 of table 7-9's, {CH5_CONFIGS} (figures 5-6, 5-8, 5-9)")
    args = ap.parse_args(argv)
    if args.profile == "none":
        ap.error("the none profile has no timing")
    if args.thesis:
        args.scale, args.runs, args.txns, args.clean_passes = 10, 10, 1000, 3
    args.mem, stem = MEM, "tpcb"
    if args.chapter5:
        args.profile, args.mem, stem = CH5_PROFILE, CH5_MEM, "tpcb-ch5"
    if args.configs is None:
        args.configs = CH5_CONFIGS if args.chapter5 else ",".join(DEFAULT_CONFIGS)
    unknown = [n for n in args.configs.split(",") if n not in CONFIGS]
    if unknown:
        ap.error(f"--configs: no configuration {','.join(unknown)} "
                 f"(there are {','.join(CONFIGS)})")
    start = time.monotonic()
    res: dict[str, Result] = {}
    failed: dict[str, str] = {}
    for name in args.configs.split(","):
        # A guest of its own: what ran before must not change the figure.
        with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
            with Guest(Path(tmp), profile=args.profile, mem=args.mem) as g:
                print(f"{name}:", flush=True)
                try:
                    res[name] = measure(g, name, args, lambda s: print(s, flush=True))
                except GuestError as e:
                    # Reported, not lost with the others' figures.
                    failed[name] = why_failed(e)
                    print(f"  {name}: FAILED: {failed[name]}", flush=True)
                    continue
                print(f"  {name}: {res[name].seconds:.0f} s", flush=True)
                g.halt()
    report = table(res, args) + "".join(
        f"\n{n}: FAILED, no figure: {why}" for n, why in failed.items())
    footer = (f"benchmark took {time.monotonic() - start:.0f} s ("
              + ", ".join(f"{n} {r.seconds:.0f} s" for n, r in res.items()) + ")")
    print("\n" + report + "\n\n" + footer, flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    txt, png = args.out / f"{stem}.txt", args.out / f"{stem}.png"
    txt.write_text(report + "\n\n" + footer + "\n")
    plot(res, args, png)
    js = write_json(args, "tpcb", json_tables(res, args.chapter5, failed), mem=args.mem,
                    runs=args.runs, stem=stem,
                    plots={png.name: ["figure 5-6" if args.chapter5 else "table 7-9"]})
    print(f"wrote {txt}, {js.name} and {png.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
