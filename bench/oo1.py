"""OO1 (thesis 7.6): Cattell's object-operations benchmark on FFS, EFS and LFS:
the database's relations (table 7-4) and the cold-cache lookup, insert and
forward and backward traversals (table 7-5).

    python3 -m bench.oo1 [--profile hp97560] [--parts 20000] [--runs 2] [--thesis]
                 [--systems FFS,EFS,LFS] [--out build/bench]

The guest program is bin/oo1 on lib/libdb: a database of electronic parts (a
B-tree keyed by part id), their connections (a fixed-length record file, three
from each part, nine in ten to a part within 1% of the id space of its own),
and two B-trees indexing the connections by their from and their to part.
Each relation's entries take table 7-4's bytes, so the files have its sizes.
On each file system, made fresh (the 48 MB of fs_bandwidth.py at the start of
sd1; LFS mounted without its cleaner: the database and ten runs' inserts fill
under half of it, and the report prints how full it got), the database is
loaded once; then each run makes four tests, each one oo1 command (a
transaction of libdb's user-level manager: page locks, the log forced at
commit):

  lookup     1000 random parts fetched, a null procedure called with x, y
  insert     100 new parts and their 300 connections, committed
  traverse   from a random part, its connections followed depth first for 7
             hops: 3280 parts
  rtraverse  the same backwards, along the connections to a part, until 3280
             parts are visited (a walk that ends sooner is followed by one from
             another random part: the connections to a part are random in
             number, and the thesis' steady backward times say its runs did
             the forward traversal's work)

Before every test the file system is unmounted and mounted: a cold cache.
The thesis recopied the database and read unrelated files through the cache
before each test; umount and mount empties the buffer cache as surely, and
oo1, a new process each time, starts with empty page caches.  The database
is not recopied: each run's insert stays (100 parts a run on 20,000).  Run r
gives every test the seed r, so each file system does the same work.  The
time is oo1's own, from opening the database to the commit (with the pages
the test changed written to the kernel, as delayed writes); the scratch
disk's counters (iostat) are read around each test.

The guest has 16 MB and a 1.6 MB buffer cache, as for Andrew.  Default: the
thesis' 20,000 parts, 2 runs (a run of the four tests on the three file
systems takes four to five minutes on hp97560: the tests are disk-bound);
--thesis: 10 runs.  Writes build/bench/oo1.txt,
oo1.json (the same for bench/report.py) and oo1.png.  Nothing is asserted.
"""
from __future__ import annotations

import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.andrew import BUFCACHE_KB, IOSTAT, SINGLE_MEM, mean_sd
from bench.driver import cell, parser, plotter, pyplot, results_table, savefig, write_json
from bench.fs_bandwidth import FS_SECTORS, SYSTEMS
from qemu import drivemodel
from tests.guest import Guest

DB = "/mnt/oo1"
TESTS = ("lookup", "insert", "traverse", "rtraverse")
COLS = {"lookup": "lookup", "insert": "insert", "traverse": "traverse forward",
        "rtraverse": "traverse backward"}
TIMEOUT = 1800
RELATIONS = ("part", "connect_forward", "connect_backward", "connector")
REL_NAMES = {"part": "Part", "connect_forward": "Connect Forward",
             "connect_backward": "Connect Backward", "connector": "Connector"}

# Table 7-4: (format, entry size, entries, MB) for 20,000 parts.
THESIS_SIZES = {
    "part": ("B-tree records", 63, 20000, 2.5),
    "connect_forward": ("B-tree", 43, 60000, 3.7),
    "connect_backward": ("B-tree", 43, 60000, 2.5),
    "connector": ("fixed-length record", 96, 60000, 5.8),
}
THESIS_TOTAL_MB = 14.5
# Table 7-5: seconds, mean (s.d.) of 10 runs.
THESIS = {
    "FFS": {"lookup": (16.30, 0.46), "insert": (4.40, 0.49), "traverse": (28.10, 0.54),
            "rtraverse": (28.60, 0.49)},
    "EFS": {"lookup": (16.40, 0.49), "insert": (4.20, 0.40), "traverse": (28.40, 0.49),
            "rtraverse": (28.80, 0.60)},
    "LFS": {"lookup": (16.30, 0.64), "insert": (4.30, 0.46), "traverse": (28.30, 0.46),
            "rtraverse": (29.00, 0.45)},
}

SIZE_LINE = re.compile(r"^(\w+)\s+(?:B-tree|fixed-length record)\s+(\d+)\s+(\d+)\s+(\d+)$",
                       re.M)
LOAD = re.compile(r"oo1 load: (\d+) parts, (\d+) connections in (\d+) ms")
DONE = re.compile(r"oo1 (\w+): (\d+) parts (?:found|visited|inserted)"
                  r"(?: \((\d+) (?:connections|walks?)\))?"
                  r" in (\d+) ms, (\d+) pages read, (\d+) pages written, close (\d+) ms")
DF = re.compile(r"^/dev/sd1a\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)%", re.M)


@dataclass
class Test:
    seconds: float
    count: int          # parts found, visited or inserted
    walks: int          # traversals: the walks it took to visit them
    pages_read: int     # by libdb's page caches
    disk_reads: int     # sd1's counters
    disk_writes: int
    disk_busy_s: float  # the time sd1 had a command
    close_s: float      # closing: fsync and checkpoint, not in seconds


@dataclass
class System:
    sizes: dict[str, tuple[int, int]] = field(default_factory=dict)   # entries, bytes
    load_s: float = 0.0
    runs: list[dict[str, Test]] = field(default_factory=list)
    df_used_pct: int = 0
    seconds: float = 0.0        # all of it, newfs to umount

    def mean_sd(self, test: str) -> tuple[float, float]:
        return mean_sd([r[test].seconds for r in self.runs])

    def mean(self, test: str, key: str) -> float:
        return statistics.mean(getattr(r[test], key) for r in self.runs)


def parse_sizes(out: str) -> dict[str, tuple[int, int]]:
    sizes = {m.group(1): (int(m.group(2)), int(m.group(4))) for m in SIZE_LINE.finditer(out)}
    if set(sizes) != set(RELATIONS):
        raise RuntimeError(f"oo1: no table of sizes in:\n{out[-2000:]}")
    return sizes


def one_test(g: Guest, test: str, seed: int, mount: str) -> Test:
    """umount and mount (a cold cache), then the test under the disk's counters."""
    g.ok(f"umount /mnt && {mount} /dev/sd1a /mnt", timeout=TIMEOUT)
    out = g.ok(f"iostat -z 1 > /dev/null; oo1 -d {DB} -s {seed} {test}; iostat 1",
               timeout=TIMEOUT)
    m, io = DONE.search(out), IOSTAT.search(out)
    if m is None or io is None or m.group(1) != test:
        raise RuntimeError(f"oo1 {test}:\n{out[-2000:]}")
    walks = int(m.group(3)) if "traverse" in test and m.group(3) else 0
    return Test(int(m.group(4)) / 1000, int(m.group(2)), walks, int(m.group(5)),
                int(io.group(1)), int(io.group(2)), float(io.group(7)) / 1000,
                int(m.group(7)) / 1000)


def measure(profile: str, parts: int, runs: int, systems: list[str]) -> dict[str, System]:
    res: dict[str, System] = {}
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        with Guest(Path(tmp), profile=profile, mem=SINGLE_MEM,
                   kargs=f"bufcache={BUFCACHE_KB}") as g:
            for name in systems:
                make, mount = SYSTEMS[name]
                t0 = time.monotonic()
                s = res[name] = System()
                g.ok(f"{make} /dev/rsd1a > /dev/null", timeout=TIMEOUT)
                g.ok(f"{mount} /dev/sd1a /mnt")
                out = g.ok(f"oo1 -d {DB} -n {parts} load", timeout=TIMEOUT)
                m = LOAD.search(out)
                if m is None:
                    raise RuntimeError(f"oo1 load on {name}:\n{out[-2000:]}")
                s.load_s = int(m.group(3)) / 1000
                s.sizes = parse_sizes(out)
                print(f"  {name}: loaded {parts} parts in {s.load_s:.1f} s, "
                      f"{sum(b for _, b in s.sizes.values()) / 1e6:.1f} MB", flush=True)
                for run in range(1, runs + 1):
                    r = {test: one_test(g, test, run, mount) for test in TESTS}
                    s.runs.append(r)
                    print(f"  {name} run {run}: " + "  ".join(
                        f"{t} {r[t].seconds:6.2f} s ({r[t].count})" for t in TESTS),
                        flush=True)
                df = DF.search(g.ok("df /mnt"))
                s.df_used_pct = int(df.group(4)) if df else -1
                g.ok("umount /mnt", timeout=TIMEOUT)
                s.seconds = time.monotonic() - t0
            g.halt()
    return res


def fmt_sd(x: tuple[float, float]) -> str:
    return f"{x[0]:6.2f} ({x[1]:4.2f})"


def table(res: dict[str, System], profile: str, parts: int, runs: int) -> str:
    prof = drivemodel.get_profile(profile)
    first = next(iter(res.values()))
    lines = [f"OO1 (thesis 7.6, tables 7-4 and 7-5), profile {profile}: {prof.description}",
             f"guest {SINGLE_MEM} MB, buffer cache {BUFCACHE_KB} KB; {parts:,} parts; a fresh "
             f"{FS_SECTORS // 2048} MB file system each (LFS without its cleaner); umount and "
             "mount before every test (a cold cache); each test one user-level transaction.",
             "",
             f"Table 7-4: the database after load ({next(iter(res))}; the files are the same "
             "size on each file system), MB = 10^6 bytes",
             f"{'relation':17s} {'format':20s} {'entry':>5s} {'entries':>8s} {'MB':>6s}"
             f"   {'thesis':>8s} {'MB':>6s}"]
    total = 0
    for rel in RELATIONS:
        fmt_, size, n, mb = THESIS_SIZES[rel]
        entries, nbytes = first.sizes[rel]
        total += nbytes
        lines.append(f"{REL_NAMES[rel]:17s} {fmt_:20s} {size:5d} {entries:8d} "
                     f"{nbytes / 1e6:6.2f}   {n:8d} {mb:6.1f}")
    lines.append(f"{'total':17s} {'':20s} {'':5s} {'':8s} {total / 1e6:6.2f}   "
                 f"{'':8s} {THESIS_TOTAL_MB:6.1f}")
    lines += ["", f"Table 7-5: seconds, mean (s.d.) of {runs} run{'s' * (runs > 1)}; "
              "thesis: 10 runs",
              f"{'':5s}" + "".join(f"{COLS[t]:>34s}" for t in TESTS),
              f"{'':5s}" + "".join(f"{'ours':>17s}{'thesis':>17s}" for _ in TESTS)]
    for name, s in res.items():
        lines.append(f"{name:5s}" + "".join(
            f"{fmt_sd(s.mean_sd(t)):>17s}{fmt_sd(THESIS[name][t]):>17s}" for t in TESTS))
    lines += ["", "ratios of the means (ours, thesis):"]
    for a in ("EFS", "LFS"):
        if a in res and "FFS" in res:
            lines.append(f"  {a}/FFS " + "  ".join(
                f"{t} {res[a].mean_sd(t)[0] / res['FFS'].mean_sd(t)[0]:4.2f} "
                f"({THESIS[a][t][0] / THESIS['FFS'][t][0]:4.2f})" for t in TESTS))
    lines += ["", "per test, the mean of the runs: parts counted (found, inserted, visited), "
              "pages libdb read (its caches' misses), sd1's reads and writes, and the "
              "seconds sd1 was busy",
              f"{'':5s}" + "".join(f"{t:>32s}" for t in TESTS)]
    for name, s in res.items():
        lines.append(f"{name:5s}" + "".join(
            f"{s.mean(t, 'count'):7.0f} {s.mean(t, 'pages_read'):6.0f} "
            f"{s.mean(t, 'disk_reads'):5.0f} {s.mean(t, 'disk_writes'):5.0f} "
            f"{s.mean(t, 'disk_busy_s'):5.1f}" for t in TESTS))
    lines += ["", "load (untimed by the thesis) and the file system at the end:"]
    for name, s in res.items():
        close = statistics.mean(r["insert"].close_s for r in s.runs)
        walks = ", ".join(str(r["rtraverse"].walks) for r in s.runs)
        lines.append(f"  {name}: load {s.load_s:.1f} s; {s.df_used_pct}% of the file system "
                     f"used after the runs; insert's close (fsync, checkpoint) {close:.2f} s; "
                     f"rtraverse's walks by run: {walks}")
    return "\n".join(lines)


def json_tables(res: dict[str, System], runs: int) -> list[dict]:
    """For bench/report.py: table 7-4 (sizes), table 7-5 (seconds), and our disk
    counters per test."""
    first = next(iter(res.values()))
    entries = [cell(REL_NAMES[rel], "entries", first.sizes[rel][0],
                    thesis=THESIS_SIZES[rel][2]) for rel in RELATIONS]
    sizing = [cell(REL_NAMES[rel], "total size", first.sizes[rel][1] / 1e6,
                   thesis=THESIS_SIZES[rel][3]) for rel in RELATIONS]
    sizing.append(cell("total", "total size", sum(b for _, b in first.sizes.values()) / 1e6,
                       thesis=THESIS_TOTAL_MB))
    perf = [cell(name, COLS[t], *s.mean_sd(t), n=len(s.runs), thesis=THESIS[name][t][0],
                 thesis_sd=THESIS[name][t][1])
            for name, s in res.items() for t in TESTS]
    io = [cell(name, f"{t} {what}", s.mean(t, key))
          for name, s in res.items() for t in TESTS
          for what, key in (("reads", "disk_reads"), ("writes", "disk_writes"))]
    busy = [cell(name, COLS[t], s.mean(t, "disk_busy_s")) for name, s in res.items()
            for t in TESTS]
    return [results_table("table 7-4", "OO1's relations after load: entries", "entries",
                          entries),
            results_table("table 7-4", "OO1's relations after load: size (10^6 bytes)",
                          "MB", sizing),
            results_table("table 7-5", f"OO1, cold cache, mean of {runs} runs", "s", perf),
            results_table(None, "OO1: sd1's reads and writes per test (mean of the runs)",
                          "I/Os", io),
            results_table(None, "OO1: the time sd1 was busy per test (mean of the runs)",
                          "s", busy)]


@plotter
def plot(res: dict[str, System], profile: str, path: Path) -> None:
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(9, 5))
    width = 0.27
    colours = {"FFS": "tab:red", "EFS": "tab:blue", "LFS": "tab:green"}
    for i, (name, s) in enumerate(res.items()):
        xs = [k + (i - 1) * width for k in range(len(TESTS))]
        means = [s.mean_sd(t) for t in TESTS]
        ax.bar(xs, [m for m, _ in means], width, yerr=[sd for _, sd in means],
               color=colours.get(name), label=f"{name} (ours)")
        ax.errorbar(xs, [THESIS[name][t][0] for t in TESTS],
                    yerr=[THESIS[name][t][1] for t in TESTS], fmt="_", color="black",
                    markersize=18, label="thesis table 7-5" if i == 0 else None)
    ax.set_xticks(range(len(TESTS)))
    ax.set_xticklabels([COLS[t] for t in TESTS])
    ax.set_ylabel("seconds")
    ax.set_title(f"OO1, cold cache, {profile}")
    ax.legend()
    savefig(fig, path)


def main(argv: list[str]) -> int:
    ap = parser(__doc__)
    ap.add_argument("--parts", type=int, default=20000, help="parts in the database")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--systems", default=",".join(SYSTEMS),
                    help=f"some of {','.join(SYSTEMS)}")
    ap.add_argument("--thesis", action="store_true", help="20,000 parts, 10 runs")
    args = ap.parse_args(argv)
    if args.profile == "none":
        ap.error("the none profile has no timing")
    if args.thesis:
        args.parts, args.runs = 20000, 10
    if args.parts < 2 or args.runs < 1:
        ap.error("--parts must be at least 2 and --runs at least 1")
    systems = args.systems.split(",")
    if not systems or not set(systems) <= set(SYSTEMS):
        ap.error(f"--systems: some of {','.join(SYSTEMS)}")
    start = time.monotonic()
    res = measure(args.profile, args.parts, args.runs, systems)
    report = table(res, args.profile, args.parts, args.runs)
    footer = (f"benchmark took {time.monotonic() - start:.0f} s ("
              + ", ".join(f"{n} {s.seconds:.0f} s" for n, s in res.items()) + ")")
    print("\n" + report + "\n\n" + footer, flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    txt, png = args.out / "oo1.txt", args.out / "oo1.png"
    txt.write_text(report + "\n\n" + footer + "\n")
    plot(res, args.profile, png)
    write_json(args, "oo1", json_tables(res, args.runs), mem=SINGLE_MEM, runs=args.runs,
               plots={png.name: ["table 7-5"]})
    print(f"wrote {txt}, oo1.json and {png.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
