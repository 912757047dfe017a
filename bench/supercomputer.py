"""The supercomputer benchmark (thesis 7.9): four applications of Miller's traces
simulated on FFS, EFS and LFS (tables 7-10 and 7-11), with LFS's cleaner running.

    python3 -m bench.supercomputer [--profile hp97560] [--runs 3] [--size-mb MB]
        [--count N] [--apps bvi,ccm,les,venus] [--thesis] [--out build/bench]

For each application table 7-10 gives the average I/O size A, the numbers of
reads Nr and writes Nw, and the read/write ratio RW in bytes; the thesis derives
the average write and read sizes

    W = A (Nw + Nr) / (Nw (1 + RW))        R = RW W Nw / Nr

(A in KB of 1024 bytes; W and R are used in whole bytes).  In the guest,
bin/supercomp creates one file of W-sized units written in a random order, then
performs runs of requests, reads of R bytes and writes of W bytes in the ratio
Nr:Nw, interleaved at random, each at a random block-aligned offset.  The writes
are plain write(2) calls (the thesis does not say whether its were synchronous);
one fsync ends each run.  Each call is timed in the guest with gettimeofday: the
figures are the average time per I/O with its standard deviation over the I/Os
(the thesis' form) and the throughput, bytes over the sum of the calls' times,
for reads and writes apart.

Each file system is made fresh at the start of sd1 (the same size for all three,
twice the largest file and 16 MB at least); LFS (1 MB segments) is mounted with
lfs_cleanerd running, and the applications run in the thesis' order on it, the
file removed between them as the thesis did, so that LFS must clean during LES
(the thesis: 150 segments cleaned, 148 during LES, 78% of them empty, the others
29% utilized, 2% of the blocks written by the cleaner).  The guest has 16 MB and
a 1.6 MB buffer cache, as the thesis' HP 9000/380.

Default: the thesis' data sizes over 28, 4 MB at least (bvi 6, ccm 4, les 8,
venus 4 MB; the thesis: 171, 11.6, 224 and 55.2 MB), so that every file is at
least 2.5 times the buffer cache and LES's is still the largest; 3 runs of a few
requests each (bvi 90, ccm 60, les 15, venus 10: 1000 requests of LES's 320 KB
take ten minutes on FFS), on 16 MB file systems, so that the whole takes under
ten minutes.  --thesis: the thesis' data sizes, 1000 requests per run, 5 runs,
on 448 MB file systems (many hours).  Writes build/bench/supercomputer.txt,
supercomputer.json (the same for bench/report.py) and supercomputer.png.
Nothing here is asserted.
"""
from __future__ import annotations

import argparse
import math
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.andrew import BUFCACHE_KB, IOKEYS, IOSTAT, SINGLE_MEM
from bench.driver import cell, parser, plotter, pyplot, results_table, savefig, write_json
from qemu import drivemodel
from tests.guest import Guest


@dataclass(frozen=True)
class App:
    """One application of table 7-10, with what table 7-11 derived from it."""
    name: str
    data_mb: float          # total data size
    avg_kb: float           # A
    nreads: int             # Nr
    nwrites: int            # Nw
    rw: float               # data read / data written
    thesis_read_kb: float   # table 7-11's average read size
    thesis_write_kb: float

    @property
    def write_kb(self) -> float:
        return self.avg_kb * (self.nwrites + self.nreads) / (self.nwrites * (1 + self.rw))

    @property
    def read_kb(self) -> float:
        return self.rw * self.write_kb * self.nwrites / self.nreads

    @property
    def wsize(self) -> int:
        return round(self.write_kb * 1024)

    @property
    def rsize(self) -> int:
        return round(self.read_kb * 1024)


APPS = {a.name: a for a in (
    App("bvi", 171.0, 16.1, 913, 185, 2.31, 13.8, 29.6),
    App("ccm", 11.6, 31.9, 135, 128, 1.07, 32.9, 32.4),
    App("les", 224.0, 324.0, 74, 81, 0.95, 338.6, 325.6),
    App("venus", 55.2, 456.0, 60, 32, 1.80, 460.2, 479.4),
)}
FILESYSTEMS = ("FFS", "EFS", "LFS")
KINDS = ("read", "write")
# Thesis table 7-11: (seconds per I/O, s.d., KB/s) by (application, kind, fs).
THESIS = {
    ("bvi", "read"): {"FFS": (0.07, 0.02, 206.02), "EFS": (0.06, 0.02, 227.60),
                      "LFS": (0.06, 0.02, 214.13)},
    ("bvi", "write"): {"FFS": (0.13, 0.09, 215.56), "EFS": (0.12, 0.09, 242.40),
                       "LFS": (0.06, 0.05, 474.40)},
    ("ccm", "read"): {"FFS": (0.10, 0.02, 332.59), "EFS": (0.08, 0.02, 392.55),
                      "LFS": (0.08, 0.02, 425.98)},
    ("ccm", "write"): {"FFS": (0.11, 0.02, 289.49), "EFS": (0.11, 0.03, 299.68),
                       "LFS": (0.05, 0.01, 601.89)},
    ("les", "read"): {"FFS": (0.75, 0.15, 440.72), "EFS": (0.37, 0.06, 900.54),
                      "LFS": (0.48, 0.24, 691.11)},
    ("les", "write"): {"FFS": (1.15, 0.07, 276.48), "EFS": (0.39, 0.04, 811.33),
                       "LFS": (0.40, 0.09, 792.19)},
    ("venus", "read"): {"FFS": (0.98, 0.23, 458.39), "EFS": (0.43, 0.09, 1046.57),
                        "LFS": (0.39, 0.06, 1152.99)},
    ("venus", "write"): {"FFS": (1.48, 0.12, 316.69), "EFS": (0.79, 0.02, 593.56),
                         "LFS": (0.59, 0.03, 798.61)},
}
# 7.9's text on the cleaner: (figure, the words) by our key.
THESIS_CLEANER = {
    "empty": (0.78, "'78% of the segments cleaned are empty'"),
    "util": (0.29, "'of those non-empty, their average utilization is 29%'"),
    "share": (0.02, "'Only 2% of all blocks written are from the cleaner'"),
    "traffic": (0.01, "'only 1% of all I/Os are from the cleaner' (ours: bytes, not I/Os)"),
    "segs": (150, "'of the 150 segments cleaned'"),
    "segs_les": (148, "'148 take place during this benchmark' (LES)"),
}
DEFAULT_COUNT = {"bvi": 90, "ccm": 60, "les": 15, "venus": 10}
THESIS_COUNT = 1000
THESIS_RUNS = 5
SCALE = 28                  # default data sizes: the thesis' over this ...
MIN_MB = 4                  # ... and at least this, 2.5 times the buffer cache
SEGBYTES = 1 << 20          # newfs_lfs's default segment
BLOCK = 4096
SECTORS_PER_MB = 2048
CREATE_SEED = 1
RUN_SEED = 100              # run r uses RUN_SEED + r: the same requests on each fs

KIND_LINE = re.compile(r"^supercomp (read|write) n=(\d+) size=(\d+) bytes=(\d+) "
                       r"usecs=(\d+) mean_us=(\d+) sd_us=(\d+)", re.M)
CREATE_LINE = re.compile(r"^supercomp create units=(\d+) bytes=(\d+) size=(\d+) "
                         r"usecs=(\d+) fsync_usecs=(\d+)", re.M)
FSYNC_LINE = re.compile(r"^supercomp fsync usecs=(\d+)", re.M)


@dataclass
class Kind:
    """One kind of request in one run: how many, their bytes, their times."""
    n: int
    bytes: int
    usecs: int
    sd_us: int

    @property
    def mean_us(self) -> float:
        return self.usecs / self.n if self.n else 0.0


@dataclass
class Run:
    kinds: dict[str, Kind]
    fsync_us: int
    io: dict[str, float]            # sd1's counters over the run


@dataclass
class Result:
    """One application on one file system."""
    create_s: float = 0.0
    create_fsync_s: float = 0.0
    runs: list[Run] = field(default_factory=list)
    lfs_before: dict[str, int] = field(default_factory=dict)
    lfs_after: dict[str, int] = field(default_factory=dict)
    io_before: dict[str, float] = field(default_factory=dict)
    io_after: dict[str, float] = field(default_factory=dict)

    def pooled(self, kind: str) -> tuple[float, float, int]:
        """Seconds per I/O over every run's I/Os of the kind: mean, s.d., count."""
        ks = [r.kinds[kind] for r in self.runs if r.kinds[kind].n]
        n = sum(k.n for k in ks)
        if n == 0:
            return 0.0, 0.0, 0
        mean = sum(k.usecs for k in ks) / n
        ss = sum((k.n - 1) * k.sd_us ** 2 + k.n * (k.mean_us - mean) ** 2 for k in ks)
        return mean / 1e6, math.sqrt(ss / (n - 1)) / 1e6 if n > 1 else 0.0, n

    def kbps(self, kind: str) -> float:
        """Bytes over the calls' time, all runs, KB (1024) per second."""
        b = sum(r.kinds[kind].bytes for r in self.runs)
        us = sum(r.kinds[kind].usecs for r in self.runs)
        return b / 1024 / (us / 1e6) if us else 0.0

    def kbps_sd(self, kind: str) -> float:
        """The runs' throughputs' standard deviation."""
        xs = [r.kinds[kind].bytes / 1024 / (r.kinds[kind].usecs / 1e6)
              for r in self.runs if r.kinds[kind].usecs]
        if len(xs) < 2:
            return 0.0
        m = sum(xs) / len(xs)
        return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))

    def disk_per_requested(self, kind: str) -> float:
        """KB the disk moved (read for reads, written for writes) per KB asked."""
        asked = sum(r.kinds[kind].bytes for r in self.runs)
        key = "rsectors" if kind == "read" else "wsectors"
        moved = sum(r.io[key] for r in self.runs) * 512
        return moved / asked if asked else 0.0

    def lfs_delta(self, key: str) -> int:
        return self.lfs_after.get(key, 0) - self.lfs_before.get(key, 0)


@dataclass
class Config:
    apps: list[str]
    size_mb: dict[str, float]
    count: dict[str, int]
    runs: int
    sectors: int


def default_mb(app: App) -> float:
    """The thesis' data size scaled down, to the half MB, MIN_MB at least."""
    return max(float(MIN_MB), round(2 * app.data_mb / SCALE) / 2)


def config(args: argparse.Namespace) -> Config:
    apps = args.apps.split(",")
    for a in apps:
        if a not in APPS:
            raise SystemExit(f"supercomputer: no application {a!r} (of {', '.join(APPS)})")
    if args.thesis:
        size = {a: APPS[a].data_mb for a in apps}
        count = {a: THESIS_COUNT for a in apps}
    else:
        size = {a: float(args.size_mb) if args.size_mb else default_mb(APPS[a])
                for a in apps}
        count = {a: args.count or DEFAULT_COUNT[a] for a in apps}
    # Twice the largest file: LFS must clean while the largest is rewritten.
    mb = max(16, math.ceil(2 * max(size.values())))
    return Config(apps, size, count, args.runs, mb * SECTORS_PER_MB)


def setup(name: str, sectors: int) -> tuple[str, str]:
    """(newfs, mount) of a file system; mount -t lfs starts lfs_cleanerd."""
    return {"FFS": (f"newfs -s {sectors} /dev/rsd1a", "mount /dev/sd1a /mnt"),
            "EFS": (f"newfs -E -s {sectors} /dev/rsd1a", "mount /dev/sd1a /mnt"),
            "LFS": (f"newfs_lfs -S {sectors} /dev/rsd1a",
                    "mount -t lfs /dev/sd1a /mnt")}[name]


def iostat(out: str) -> list[dict[str, float]]:
    """sd1's counters from each iostat in out (never zeroed: the deltas are ours)."""
    res = [{k: float(v) for k, v in zip(IOKEYS, m.groups())} for m in IOSTAT.finditer(out)]
    if not res:
        raise RuntimeError(f"supercomputer: no iostat line in:\n{out[-2000:]}")
    return res


def lfsstat(g: Guest) -> dict[str, int]:
    """lfsstat /mnt's counters (the kernel's, and the cleaner's as cleaner_*)."""
    res = {}
    for line in g.ok("lfsstat /mnt").splitlines():
        k, _, v = line.partition("\t")
        if v.isdigit():
            res[k] = int(v)
    return res


def file_bytes(mb: float) -> int:
    return round(mb * 1024 * 1024)


def run_app(g: Guest, fs: str, app: App, cfg: Config, log) -> Result:
    res = Result()
    path, size = f"/mnt/{app.name}", file_bytes(cfg.size_mb[app.name])
    long = 600 + 60 * cfg.size_mb[app.name]
    if fs == "LFS":
        res.lfs_before = lfsstat(g)
    res.io_before = iostat(g.ok("iostat 1"))[0]
    out = g.ok(f"supercomp -f {path} -s {size} -w {app.wsize} -S {CREATE_SEED} create",
               timeout=long)
    m = CREATE_LINE.search(out)
    if m is None:
        raise RuntimeError(f"supercomp create: {out}")
    res.create_s, res.create_fsync_s = int(m.group(4)) / 1e6, int(m.group(5)) / 1e6
    log(f"  {fs} {app.name}: created {size} bytes in {res.create_s:.1f} s")
    count = cfg.count[app.name]
    for r in range(cfg.runs):
        out = g.ok(f"iostat 1; supercomp -f {path} -r {app.rsize} "
                   f"-w {app.wsize} -n {app.nreads} -N {app.nwrites} -c {count} "
                   f"-S {RUN_SEED + r} run; iostat 1", timeout=long + 20 * count)
        kinds = {m.group(1): Kind(int(m.group(2)), int(m.group(4)), int(m.group(5)),
                                  int(m.group(7))) for m in KIND_LINE.finditer(out)}
        f = FSYNC_LINE.search(out)
        if set(kinds) != set(KINDS) or f is None:
            raise RuntimeError(f"supercomp run: {out}")
        io = iostat(out)
        if len(io) != 2:
            raise RuntimeError(f"supercomp run: {out}")
        run = Run(kinds, int(f.group(1)), {k: io[1][k] - io[0][k] for k in IOKEYS})
        res.runs.append(run)
        log(f"  {fs} {app.name} run {r + 1}: " + ", ".join(
            f"{k} {run.kinds[k].n} x {run.kinds[k].mean_us / 1e6:.3f} s"
            for k in KINDS) + f", fsync {run.fsync_us / 1e6:.2f} s")
    g.ok(f"rm {path}; sync", timeout=long)
    res.io_after = iostat(g.ok("iostat 1"))[0]
    if fs == "LFS":
        res.lfs_after = lfsstat(g)
    return res


def measure(profile: str, cfg: Config, log) -> dict[tuple[str, str], Result]:
    res = {}
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        with Guest(Path(tmp), profile=profile, mem=SINGLE_MEM,
                   kargs=f"bufcache={BUFCACHE_KB}") as g:
            for fs in FILESYSTEMS:
                newfs, mount = setup(fs, cfg.sectors)
                g.ok(f"{newfs} > /dev/null", timeout=3600)
                g.ok(mount)
                for a in cfg.apps:
                    t0 = time.monotonic()
                    res[fs, a] = run_app(g, fs, APPS[a], cfg, log)
                    log(f"  {fs} {a}: {time.monotonic() - t0:.0f} s")
                g.ok("umount /mnt", timeout=600)
            g.halt()
    return res


# ----- the cleaner ----------------------------------------------------------------------

def cleaner(res: dict[tuple[str, str], Result], apps: list[str]) -> dict:
    """The cleaner's figures per application on LFS and in all, as 7.9 gives them:
    segments cleaned (empty and not), the utilization of the non-empty ones (the
    live blocks moved over their blocks), the cleaner's share of the blocks
    written, and its share of the disk's bytes (it reads whole segments)."""
    segblocks = SEGBYTES // BLOCK
    per = {}
    for a in apps + ["all"]:
        rs = [res["LFS", x] for x in (apps if a == "all" else [a]) if ("LFS", x) in res]
        if not rs:
            continue

        def d(key: str) -> int:
            return sum(r.lfs_delta(key) for r in rs)

        empty, full = d("cleaner_segs_empty"), d("cleaner_segs_cleaned")
        moved = d("cleaner_blocks_moved")
        kmoved = d("blocks_moved") if "blocks_moved" in rs[0].lfs_after else d("blocks_clean")
        disk = sum((r.io_after["rsectors"] - r.io_before["rsectors"]
                    + r.io_after["wsectors"] - r.io_before["wsectors"]) * 512 for r in rs)
        cleaner_bytes = full * SEGBYTES + kmoved * BLOCK
        per[a] = {"segs": empty + full, "empty_segs": empty, "full_segs": full,
                  "empty": empty / (empty + full) if empty + full else None,
                  "util": moved / (full * segblocks) if full else None,
                  "share": kmoved / d("blocks") if d("blocks") else None,
                  "traffic": cleaner_bytes / disk if disk else None,
                  "moved": kmoved, "blocks": d("blocks"),
                  "waits": d("cleaner_waits"),
                  "hist": [d(f"cleaner_util{i}0") for i in range(10)]}
    return per


# ----- the report -----------------------------------------------------------------------

def kb(nbytes: float) -> str:
    return f"{nbytes / 1024:.1f}"


def table(res: dict[tuple[str, str], Result], cfg: Config, args: argparse.Namespace) -> str:
    prof = drivemodel.get_profile(args.profile)
    lines = [f"Supercomputer benchmark (thesis 7.9), profile {args.profile}: "
             f"{prof.description}",
             f"guest {SINGLE_MEM} MB, buffer cache {BUFCACHE_KB} KB; FFS, EFS and LFS each on "
             f"a fresh {cfg.sectors // SECTORS_PER_MB} MB file system at the start of sd1 "
             f"(LFS: 1 MB segments, lfs_cleanerd running).",
             "Per application: supercomp create (W-sized units written in a random order, "
             "then fsync), then "
             f"{cfg.runs} runs of requests (reads of R and writes of W bytes, Nr:Nw, at "
             "random 4 KB-aligned offsets; plain write(2) calls, one fsync at the end of "
             "each run), then rm and sync.  Each call is timed in the guest "
             "(gettimeofday); the fsync is reported apart.", "",
             "Table 7-10 and the derived sizes: W = A(Nw+Nr)/(Nw(1+RW)), "
             "R = RW W Nw / Nr, A in KB of 1024 bytes.",
             f"{'app':6s} {'data MB':>8s} {'thesis':>7s} {'A KB':>6s} {'Nr':>4s} "
             f"{'Nw':>4s} {'RW':>5s} {'W bytes':>8s} {'(KB)':>7s} {'R bytes':>8s} "
             f"{'(KB)':>7s} {'thesis W, R':>12s} {'requests/run':>13s}"]
    for a in cfg.apps:
        app = APPS[a]
        nr = round(cfg.count[a] * app.nreads / (app.nreads + app.nwrites))
        lines.append(f"{a:6s} {cfg.size_mb[a]:8.1f} {app.data_mb:7.1f} {app.avg_kb:6.1f} "
                     f"{app.nreads:4d} {app.nwrites:4d} {app.rw:5.2f} {app.wsize:8d} "
                     f"{app.write_kb:7.2f} {app.rsize:8d} {app.read_kb:7.2f} "
                     f"{app.thesis_write_kb:6.1f},{app.thesis_read_kb:5.1f} "
                     f"{cfg.count[a]:7d} ({nr}:{cfg.count[a] - nr})")
    lines += ["The thesis' sizes are ours in bytes over 1000 (bvi's W: 29,562 bytes, its "
              "'29.6 KB'): it took A in 1024-byte KB and printed thousands of bytes.", "",
              "Table 7-11: seconds per I/O (s.d. over the I/Os) and KB/s (1024 bytes; the "
              "thesis' unit too), ours above the thesis'.",
              f"{'':27s}" + "".join(f"{n:>22s}" for n in FILESYSTEMS)
              + f"{'EFS/FFS':>9s}{'LFS/FFS':>9s}  KB/s"]
    for a in cfg.apps:
        app = APPS[a]
        for k in KINDS:
            size = app.rsize if k == "read" else app.wsize
            head = f"{a.upper()} {k} {kb(size)} KB"
            ours, thes = [], []
            for fs in FILESYSTEMS:
                r = res.get((fs, a))
                if r is None:
                    ours.append("-")
                    continue
                mean, sd, _ = r.pooled(k)
                ours.append(f"{mean:.3f} ({sd:.3f}) {r.kbps(k):7.1f}")
                t = THESIS[a, k][fs]
                thes.append(f"{t[0]:.2f} ({t[1]:.2f}) {t[2]:7.1f}")

            def rel(num: str, get) -> str:
                return f"{get(num) / get('FFS'):9.2f}" if get("FFS") else f"{'-':>9s}"

            def our_kbps(fs: str) -> float:
                return res[fs, a].kbps(k) if (fs, a) in res else 0.0

            def thesis_kbps(fs: str) -> float:
                return THESIS[a, k][fs][2]

            lines.append(f"{head:20s} {'ours':6s}" + "".join(f"{c:>22s}" for c in ours)
                         + rel("EFS", our_kbps) + rel("LFS", our_kbps))
            lines.append(f"{'':20s} {'thesis':6s}" + "".join(f"{c:>22s}" for c in thes)
                         + rel("EFS", thesis_kbps) + rel("LFS", thesis_kbps))
    lines += ["", "Creating the file (seconds, MB/s, the fsync's share) and the fsync "
              "ending each run (mean seconds):",
              f"{'app':6s}" + "".join(f"{n:>28s}" for n in FILESYSTEMS)]
    for a in cfg.apps:
        cells = []
        for fs in FILESYSTEMS:
            r = res.get((fs, a))
            if r is None:
                cells.append("-")
                continue
            fsync = sum(x.fsync_us for x in r.runs) / len(r.runs) / 1e6
            cells.append(f"{r.create_s:6.1f} s {cfg.size_mb[a] / r.create_s:5.2f} "
                         f"({r.create_fsync_s:4.1f}) {fsync:5.2f}")
        lines.append(f"{a:6s}" + "".join(f"{c:>28s}" for c in cells))
    lines += ["", "The disk's bytes per byte asked for (sd1's counters over the runs): "
              "reads beyond 1 are read-ahead and the blocks a partial write must read, "
              "writes beyond 1 are metadata and the cleaner:",
              f"{'app':6s}" + "".join(f"{n + ' read':>12s}{n + ' write':>12s}"
                                      for n in FILESYSTEMS)]
    for a in cfg.apps:
        lines.append(f"{a:6s}" + "".join(
            f"{res[fs, a].disk_per_requested('read'):12.2f}"
            f"{res[fs, a].disk_per_requested('write'):12.2f}"
            if (fs, a) in res else f"{'-':>24s}" for fs in FILESYSTEMS))
    cl = cleaner(res, cfg.apps)
    if cl:
        lines += ["", "The LFS cleaner, per application (the file is removed before the "
                  "next) and in all, beside 7.9's text:",
                  f"{'':8s}{'cleaned':>8s}{'empty':>7s}{'non-empty':>10s}{'% empty':>8s}"
                  f"{'util':>6s}{'moved':>7s}{'blocks':>8s}{'share':>7s}{'traffic':>8s}"
                  f"{'waits':>6s}  non-empty by live fraction 0-10%..90-100%"]
        for a, c in cl.items():
            def pct(x) -> str:
                return f"{100 * x:.0f}%" if x is not None else "-"
            lines.append(f"{a:8s}{c['segs']:8d}{c['empty_segs']:7d}{c['full_segs']:10d}"
                         f"{pct(c['empty']):>8s}{pct(c['util']):>6s}{c['moved']:7d}"
                         f"{c['blocks']:8d}{pct(c['share']):>7s}{pct(c['traffic']):>8s}"
                         f"{c['waits']:6d}  {' '.join(str(h) for h in c['hist'])}")
        lines += ["thesis  150 segments cleaned, 148 of them during LES; 78% empty; the "
                  "non-empty 29% utilized; 2% of the blocks written and 1% of the I/Os the "
                  "cleaner's.",
                  "util: the live blocks the cleaner moved over the blocks of the non-empty "
                  "segments it cleaned; share: the kernel's count of the cleaner's copies "
                  "over all blocks LFS wrote; traffic: the cleaner's bytes (whole segments "
                  "read, copies written) over sd1's bytes read and written, a stand-in for "
                  "the thesis' share of I/Os; waits: writers that waited for clean "
                  "segments."]
    return "\n".join(lines)


def json_tables(res: dict[tuple[str, str], Result], cfg: Config) -> list[dict]:
    sizes = []
    for a in cfg.apps:
        app = APPS[a]
        sizes += [cell(a.upper(), "data size", cfg.size_mb[a], unit="MB",
                       note=f"thesis {app.data_mb} MB" + (
                           "; scaled down" if cfg.size_mb[a] != app.data_mb else "")),
                  cell(a.upper(), "average write size", app.wsize,
                       thesis=round(app.thesis_write_kb * 1000),
                       note="the thesis' KB read as 1000 bytes"),
                  cell(a.upper(), "average read size", app.rsize,
                       thesis=round(app.thesis_read_kb * 1000),
                       note="the thesis' KB read as 1000 bytes")]
    tables = [results_table("table 7-10", "Supercomputer applications: the data size used "
                            "and the derived request sizes", "bytes", sizes)]
    for a in cfg.apps:
        cells = []
        for fs in FILESYSTEMS:
            r = res.get((fs, a))
            if r is None:
                continue
            for k in KINDS:
                mean, sd, n = r.pooled(k)
                t = THESIS[a, k][fs]
                cells += [cell(fs, f"{k} time per I/O", mean, sd, len(r.runs), t[0], t[1],
                               unit="s", note=f"s.d. over {n} I/Os"),
                          cell(fs, f"{k} throughput", r.kbps(k), r.kbps_sd(k), len(r.runs),
                               t[2])]
        tables.append(results_table(
            "table 7-11", f"{a.upper()}: reads of {APPS[a].rsize} and writes of "
            f"{APPS[a].wsize} bytes, {cfg.count[a]} requests per run", "KB/s", cells))
    cl = cleaner(res, cfg.apps)
    if "all" in cl:
        c = cl["all"]
        cells = [cell("LFS", "segments cleaned", c["segs"], thesis=THESIS_CLEANER["segs"][0],
                      unit="segments", note=THESIS_CLEANER["segs"][1])]
        if "les" in cl:
            cells.append(cell("LFS", "segments cleaned during LES", cl["les"]["segs"],
                              thesis=THESIS_CLEANER["segs_les"][0], unit="segments",
                              note=THESIS_CLEANER["segs_les"][1]))
        for key, col in (("empty", "empty segments' share of those cleaned"),
                         ("util", "utilization of the non-empty ones"),
                         ("share", "cleaner's share of the blocks written"),
                         ("traffic", "cleaner's share of the disk's traffic")):
            cells.append(cell("LFS", col, c[key], thesis=THESIS_CLEANER[key][0],
                              note=THESIS_CLEANER[key][1]))
        tables.append(results_table("table 7-11", "The LFS cleaner over the benchmark "
                                    "(7.9's text)", "fraction", cells))
    return tables


@plotter
def plot(res: dict[tuple[str, str], Result], cfg: Config, path: Path) -> None:
    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8))
    colours = {"FFS": "tab:red", "EFS": "tab:blue", "LFS": "tab:green"}
    width = 0.13
    for ax, k in zip(axes, KINDS):
        for i, fs in enumerate(FILESYSTEMS):
            xs = [j + (2 * i - 2.5) * width for j in range(len(cfg.apps))]
            ax.bar(xs, [res[fs, a].kbps(k) if (fs, a) in res else 0 for a in cfg.apps],
                   width, yerr=[res[fs, a].kbps_sd(k) if (fs, a) in res else 0
                                for a in cfg.apps],
                   color=colours[fs], label=f"{fs} ours")
            ax.bar([x + width for x in xs], [THESIS[a, k][fs][2] for a in cfg.apps], width,
                   color=colours[fs], alpha=0.35, hatch="//", label=f"{fs} thesis")
        ax.set_xticks(range(len(cfg.apps)))
        ax.set_xticklabels([f"{a.upper()}\n"
                            f"{kb(APPS[a].rsize if k == 'read' else APPS[a].wsize)} KB"
                            for a in cfg.apps])
        ax.set_ylabel("KB/s")
        ax.set_title(f"Supercomputer benchmark: {k}s (table 7-11)")
        ax.legend(fontsize=7, ncol=3, loc="upper left")
    savefig(fig, path)


def main(argv: list[str]) -> int:
    ap = parser(__doc__)
    ap.add_argument("--runs", type=int, default=3, help="runs per application (3)")
    ap.add_argument("--size-mb", type=float, default=0,
                    help="the file of every application, MB (default: the thesis' size "
                    "over 28, 4 MB at least: " + ", ".join(
                        f"{a} {default_mb(app):g}" for a, app in APPS.items()) + ")")
    ap.add_argument("--count", type=int, default=0,
                    help="requests per run for every application (default: "
                    + ", ".join(f"{a} {n}" for a, n in DEFAULT_COUNT.items())
                    + f"; --thesis {THESIS_COUNT})")
    ap.add_argument("--apps", default=",".join(APPS), help="some of " + ",".join(APPS))
    ap.add_argument("--thesis", action="store_true",
                    help=f"the thesis' data sizes, {THESIS_COUNT} requests per run, "
                    f"{THESIS_RUNS} runs")
    args = ap.parse_args(argv)
    if args.profile == "none":
        ap.error("the none profile has no timing")
    if args.thesis:
        args.runs = max(args.runs, THESIS_RUNS)
    cfg = config(args)
    start = time.monotonic()
    res = measure(args.profile, cfg, lambda s: print(s, flush=True))
    report = table(res, cfg, args)
    footer = f"benchmark took {time.monotonic() - start:.0f} s"
    print("\n" + report + "\n\n" + footer, flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    txt, png = args.out / "supercomputer.txt", args.out / "supercomputer.png"
    txt.write_text(report + "\n\n" + footer + "\n")
    plot(res, cfg, png)
    js = write_json(args, "supercomputer", json_tables(res, cfg), mem=SINGLE_MEM,
                    runs=cfg.runs, plots={png.name: ["table 7-11"]})
    print(f"wrote {txt}, {js.name} and {png.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
