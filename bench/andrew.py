"""The Andrew benchmark (thesis 7.5): single-user on FFS, EFS, LFS and LFS with its
cleaner (table 7-3), and multi-user (figures 7-6 and 7-7).

    python3 -m bench.andrew [--profile hp97560] [--runs 3] [--users 1,2,4,8] [--user-runs 1]
                    [--no-single | --no-multi] [--thesis] [--out build/bench]

The input is the frozen tree of bench/andrew (24 of our own programs, 67 files,
210 KB, 25 directories; bench/andrew/MANIFEST lists it), installed in the guest as
/usr/share/andrew/tree on the root disk.  The five phases are the scripts
/usr/share/andrew/phaseN.sh, each run under time(1) in the guest, with the scratch
disk's counters (iostat) and the LFS counters (lfsstat) zeroed before and read
after each phase, as the thesis sampled its kernel counters:

  1 MakeDir   mkdir of the 25 directories
  2 Copy      67 cp's from the root disk into the copy
  3 ScanDir   ls -lR of the copy (every inode, no data)
  4 ReadAll   grep through every byte of every file
  5 Make      make -s: the guest's cc (tcc, through compat/linux) compiles and
              links the 24 programs

After a run the copy is removed and the file system synced (untimed).

Single-user: the guest has 16 MB, as the thesis' HP 9000/380, with the buffer cache
at a tenth of it (1.6 MB).  FFS, EFS and LFS are the 48 MB file systems at the start
of sd1 that fs_bandwidth.py makes (LFS mounted without its cleaner); --runs runs
each.  LFSC is LFS with lfs_cleanerd on a smaller file system (16 MB; --thesis: the
48 MB one) and as many runs as it takes to write twice its size, so that the
cleaner has cleaned it over (thesis: 100 runs "to ensure that the file system was
completely overwritten at least twice").

Multi-user: N concurrent invocations (andrew.sh), each in its own directory, for
each N of --users, --user-runs times; the figure is the invocations' mean elapsed
time divided by N, the thesis' "elapsed seconds per invocation".  Our kernel has no
paging, so eight compilers do not fit in 16 MB: the multi-user guest has 48 MB, with
the buffer cache held at the single-user 1.6 MB so that the working set outgrows
the cache as on the thesis machine.

--thesis: 10 runs per file system, LFSC on the 48 MB file system, N = 1..8 with 10
runs each (hours on hp97560).  Writes build/bench/andrew.txt, andrew.json (the
same for bench/report.py) and andrew.png (single-user) and andrew_multi.png.  Under
TCG the guest compiles a few times as fast as the thesis' 68040 (the report
measures it by phase 5) while the disk is 1992's, so compare ratios (LFS/FFS,
EFS/FFS) with the thesis', not seconds.  Nothing here is asserted.
"""
from __future__ import annotations

import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.fs_bandwidth import FS_SECTORS, SYSTEMS
from bench.driver import cell, parser, plotter, pyplot, results_table, savefig, write_json
from qemu import drivemodel
from tests.guest import Guest

PHASES = (1, 2, 3, 4, 5)
PHASE_NAMES = {1: "MakeDir", 2: "Copy", 3: "ScanDir", 4: "ReadAll", 5: "Make"}
SINGLE_MEM = 16          # MB, the HP 9000/380
MULTI_MEM = 48           # MB, eight compilers at once (no paging)
BUFCACHE_KB = 1638       # a tenth of 16 MB, in both guests
LFSC_SECTORS = 32768     # 16 MB: the LFSC file system unless --thesis
RUN_TIMEOUT = 1800
DEST = "/mnt/andrew"

# Thesis table 7-3: seconds, mean (s.d.), 10 runs (LFSC 100).
THESIS = {
    "FFS": ((2.10, 0.30), (7.90, 0.30), (6.30, 0.46), (9.00, 0.00), (44.80, 0.40), 70.1),
    "EFS": ((2.10, 0.30), (7.90, 0.30), (6.70, 1.19), (9.10, 0.30), (44.40, 0.49), 70.2),
    "LFS": ((0.33, 0.47), (5.00, 0.00), (6.50, 0.81), (9.07, 0.25), (42.90, 1.40), 63.8),
    "LFSC": ((0.43, 0.49), (5.09, 0.28), (6.37, 0.48), (9.07, 0.26), (42.61, 0.49), 63.6),
}
# Thesis 7.5.1's disk counters, by (file system, phase).
THESIS_IO = {
    ("FFS", 1): "100 synchronous writes (EFS too)",
    ("LFS", 1): "no writes",
    ("FFS", 2): "263 I/Os, about 750 KB, over half synchronous (EFS too)",
    ("LFS", 2): "no writes",
    ("FFS", 5): "46 reads; 45 of 48 writes synchronous (EFS too)",
    ("LFS", 5): "1 read; about a third of FFS's writes",
}
# The same counts as numbers, by (file system, phase, counter): what
# json_single() sets beside ours, with a note where the text is not exact.
THESIS_COUNTS = {
    ("FFS", 1, "swrites"): 100, ("EFS", 1, "swrites"): 100, ("LFS", 1, "writes"): 0,
    ("FFS", 2, "ios"): 263, ("EFS", 2, "ios"): 263, ("LFS", 2, "writes"): 0,
    ("FFS", 5, "reads"): 46, ("LFS", 5, "reads"): 1,
    ("FFS", 5, "writes"): 48, ("EFS", 5, "writes"): 48,
    ("LFS", 5, "writes"): (16, "'nearly one-third the number' of FFS's 48"),
    ("FFS", 5, "swrites"): 45, ("EFS", 5, "swrites"): 45,
}
COUNT_NAMES = {"reads": "reads", "writes": "writes", "swrites": "synchronous writes",
               "ios": "reads + writes"}
# name -> (newfs command, mount command); LFSC: LFS with its cleaner
FILESYSTEMS = dict(SYSTEMS)
FILESYSTEMS["LFSC"] = (f"newfs_lfs -S {LFSC_SECTORS}", "mount -t lfs")

REAL = re.compile(r"^\s*(\d+\.\d+) real\s+(\d+\.\d+) user\s+(\d+\.\d+) sys", re.M)
IOSTAT = re.compile(r"^sd1\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)",
                    re.M)
IOKEYS = ("reads", "writes", "sreads", "swrites", "rsectors", "wsectors", "busy_ms")
LFSKEYS = ("psegs", "psegs_sync", "psegs_clean", "blocks", "blocks_clean",
           "segs_cleaned", "ckps")


@dataclass
class Phase:
    real: float
    user: float
    io: dict[str, float]
    lfs: dict[str, int] = field(default_factory=dict)


@dataclass
class Single:
    runs: dict[str, list[dict[int, Phase]]] = field(default_factory=dict)
    lfsc_mb: float = 0.0       # LFSC file system size
    lfsc_written_mb: float = 0.0


def parse_phase(out: str, lfs: bool) -> Phase:
    m = REAL.search(out)
    io = IOSTAT.search(out)
    if m is None or io is None or "error" in out or "Stop." in out:
        raise RuntimeError(f"Andrew phase failed:\n{out[-3000:]}")
    counters = {k: float(v) for k, v in zip(IOKEYS, io.groups())}
    res = Phase(float(m.group(1)), float(m.group(2)), counters)
    if lfs:
        for k in LFSKEYS:
            mm = re.search(rf"^{k}\t(\d+)", out, re.M)
            res.lfs[k] = int(mm.group(1)) if mm else 0
    return res


def newfs(g: Guest, make: str, mount: str) -> None:
    g.ok(f"{make} /dev/rsd1a > /dev/null", timeout=RUN_TIMEOUT)
    g.ok(f"{mount} /dev/sd1a /mnt")


def one_run(g: Guest, lfs: bool) -> dict[int, Phase]:
    """The five phases once in /mnt/andrew; the copy is removed after."""
    res = {}
    for n in PHASES:
        zero = "iostat -z 1 > /dev/null; " + ("lfsstat -z /mnt > /dev/null; " if lfs else "")
        read = "iostat 1" + ("; lfsstat /mnt" if lfs else "")
        out = g.ok(f"{zero}time sh /usr/share/andrew/phase{n}.sh {DEST}; {read}",
                   timeout=RUN_TIMEOUT)
        res[n] = parse_phase(out, lfs)
    g.ok(f"rm -rf {DEST}; sync", timeout=RUN_TIMEOUT)
    return res


def single_user(profile: str, runs: int, thesis: bool) -> Single:
    res = Single()
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        with Guest(Path(tmp), profile=profile, mem=SINGLE_MEM,
                   kargs=f"bufcache={BUFCACHE_KB}") as g:
            for name, (make, mount) in FILESYSTEMS.items():
                lfs = "lfs" in mount
                if name == "LFSC" and thesis:
                    make = f"newfs_lfs -S {FS_SECTORS}"
                newfs(g, make, mount)
                res.runs[name] = []
                written = 0.0
                if name == "LFSC":
                    sectors = FS_SECTORS if thesis else LFSC_SECTORS
                    res.lfsc_mb = sectors * 512 / 2**20
                while True:
                    r = one_run(g, lfs)
                    res.runs[name].append(r)
                    written += sum(p.io["wsectors"] for p in r.values()) * 512 / 2**20
                    print(f"  {name} run {len(res.runs[name])}: " +
                          " ".join(f"{r[n].real:6.2f}" for n in PHASES) +
                          f"  total {sum(p.real for p in r.values()):6.2f} s", flush=True)
                    if name != "LFSC" and len(res.runs[name]) >= runs:
                        break
                    if name == "LFSC" and len(res.runs[name]) >= runs and \
                            written >= 2 * res.lfsc_mb:
                        break
                if name == "LFSC":
                    res.lfsc_written_mb = written
                g.ok("umount /mnt", timeout=RUN_TIMEOUT)
            g.halt()
    return res


def multi_user(profile: str, users: list[int], user_runs: int) -> dict[tuple[str, int], list[float]]:
    """elapsed seconds per invocation, by (file system, N), one value per run"""
    res: dict[tuple[str, int], list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        with Guest(Path(tmp), profile=profile, mem=MULTI_MEM,
                   kargs=f"bufcache={BUFCACHE_KB}") as g:
            for name, (make, mount) in SYSTEMS.items():
                newfs(g, make, mount)
                for n in users:
                    for run in range(user_runs):
                        dirs = " ".join(str(i) for i in range(n))
                        g.ok("rm -f /tmp/andrew.*")
                        g.ok(f"for i in {dirs}; do sh /usr/share/andrew/andrew.sh "
                             f"/mnt/u$i 2> /tmp/andrew.$i & done; wait",
                             timeout=RUN_TIMEOUT * n)
                        totals = []
                        for i in range(n):
                            out = g.ok(f"cat /tmp/andrew.{i}")
                            reals = [float(m.group(1)) for m in REAL.finditer(out)]
                            if len(reals) != 5 or "error" in out or "Stop." in out:
                                raise RuntimeError(f"invocation {i} of {n} on {name}:\n{out}")
                            totals.append(sum(reals))
                        per = statistics.mean(totals) / n
                        res.setdefault((name, n), []).append(per)
                        print(f"  {name} N={n} run {run + 1}: {per:6.2f} s per invocation "
                              f"(invocations {min(totals):.1f}..{max(totals):.1f} s)",
                              flush=True)
                        g.ok("rm -rf /mnt/u*; sync", timeout=RUN_TIMEOUT)
                g.ok("umount /mnt", timeout=RUN_TIMEOUT)
            g.halt()
    return res


def mean_sd(xs: list[float]) -> tuple[float, float]:
    return statistics.mean(xs), (statistics.pstdev(xs) if len(xs) > 1 else 0.0)


def cpu_line(means: dict) -> str:
    """The guest's speed against the thesis' 68040, measured by phase 5 (the
    compile, CPU-bound) on the file systems both ran: it moves with the host."""
    rs = [THESIS[n][4][0] / means[n, 5] for n in ("FFS", "EFS", "LFS")
          if (n, 5) in means and means[n, 5] > 0]
    if not rs:
        return "CPU: no phase 5 measured."
    return (f"CPU: phase 5 (the compile) ran {statistics.mean(rs):.1f} times as fast as on "
            f"the thesis' 25 MHz 68040 (mean over FFS, EFS, LFS; TCG on this host, so it "
            f"moves with the host); the disk is the 1992 drive's model.")


def single_table(res: Single, profile: str) -> str:
    prof = drivemodel.get_profile(profile)
    lines = [f"Andrew benchmark, single user (thesis 7.5.1, table 7-3), profile {profile}: "
             f"{prof.description}",
             f"guest {SINGLE_MEM} MB, buffer cache {BUFCACHE_KB} KB; FFS, EFS, LFS: 48 MB file "
             f"systems; LFSC: LFS with lfs_cleanerd on {res.lfsc_mb:.0f} MB, "
             f"{len(res.runs['LFSC'])} runs writing {res.lfsc_written_mb:.0f} MB "
             f"({res.lfsc_written_mb / res.lfsc_mb:.1f} times the file system).",
             "Elapsed seconds per phase, mean (s.d.) over the runs.", "",
             f"{'':5s}" + "".join(f"{f'{n} {PHASE_NAMES[n]}':>15s}" for n in PHASES) +
             f"{'Total':>9s} {'runs':>5s}"]
    means = {}
    for name, runs in res.runs.items():
        cells = []
        for n in PHASES:
            m, s = mean_sd([r[n].real for r in runs])
            means[name, n] = m
            cells.append(f"{m:7.2f} ({s:4.2f})")
        tot = statistics.mean(sum(r[n].real for n in PHASES) for r in runs)
        means[name, "total"] = tot
        lines.append(f"{name:5s}" + "".join(f"{c:>15s}" for c in cells) +
                     f"{tot:9.2f} {len(runs):5d}")
    lines += ["", "The thesis (HP 9000/380, 68040 at 25 MHz, 16 MB, HP 97560; 10 runs, LFSC 100):",
              f"{'':5s}" + "".join(f"{f'{n} {PHASE_NAMES[n]}':>15s}" for n in PHASES) +
              f"{'Total':>9s}"]
    for name, row in THESIS.items():
        lines.append(f"{name:5s}" + "".join(f"{f'{m:.2f} ({s:.2f})':>15s}" for m, s in row[:5])
                     + f"{row[5]:9.1f}")
    lines += ["", cpu_line(means),
              "Ratios (ours, thesis): CPU-bound phases shrink by that factor and disk-bound "
              "ones stay; compare ratios, not seconds.",
              f"{'':9s}" + "".join(f"{f'{n} {PHASE_NAMES[n]}':>15s}" for n in PHASES) +
              f"{'Total':>15s}"]
    for a, b in (("LFS", "FFS"), ("EFS", "FFS"), ("LFSC", "LFS")):
        cells = []
        for n in list(PHASES) + ["total"]:
            ours = means[a, n] / means[b, n] if means[b, n] > 0 else float("nan")
            i = 5 if n == "total" else n - 1
            tb = THESIS[b][i] if n == "total" else THESIS[b][i][0]
            ta = THESIS[a][i] if n == "total" else THESIS[a][i][0]
            cells.append(f"{ours:5.2f}, {ta / tb:4.2f}")
        lines.append(f"{a + '/' + b:9s}" + "".join(f"{c:>15s}" for c in cells))
    lines += ["", "Disk sd1 per phase, mean per run: reads (synchronous) / writes (synchronous), "
              "KB written; LFS: partial segments (synchronous).",
              f"{'':5s} {'phase':10s} {'reads':>12s} {'writes':>13s} {'KB written':>11s} "
              f"{'psegs':>10s}  thesis"]
    for name, runs in res.runs.items():
        for n in PHASES:
            avg = {k: statistics.mean(r[n].io[k] for r in runs) for k in IOKEYS}
            lfs = ""
            if runs[0][n].lfs:
                lfs = (f"{statistics.mean(r[n].lfs['psegs'] for r in runs):5.1f} "
                       f"({statistics.mean(r[n].lfs['psegs_sync'] for r in runs):3.1f})")
            note = THESIS_IO.get((name, n), "")
            lines.append(f"{name:5s} {f'{n} {PHASE_NAMES[n]}':10s} "
                         f"{avg['reads']:6.1f} ({avg['sreads']:4.1f}) "
                         f"{avg['writes']:6.1f} ({avg['swrites']:5.1f}) "
                         f"{avg['wsectors'] / 2:11.1f} {lfs:>10s}  {note}")
    return "\n".join(lines)


def multi_table(res: dict[tuple[str, int], list[float]], users: list[int], runs: int) -> str:
    lines = ["Multi-user Andrew (thesis 7.5.2, figures 7-6 and 7-7): elapsed seconds per "
             f"invocation (mean elapsed / N), {runs} run(s) per N;",
             f"guest {MULTI_MEM} MB (eight compilers need it: no paging), buffer cache "
             f"{BUFCACHE_KB} KB as single-user.", "",
             f"{'N':>3s}" + "".join(f"{n:>9s}" for n in SYSTEMS) + f"{'LFS/FFS':>9s}{'LFS/EFS':>9s}"]
    for n in users:
        v = {name: statistics.mean(res[name, n]) for name in SYSTEMS}
        lines.append(f"{n:3d}" + "".join(f"{v[name]:9.2f}" for name in SYSTEMS) +
                     f"{v['LFS'] / v['FFS']:9.2f}{v['LFS'] / v['EFS']:9.2f}")
    best = {name: min(statistics.mean(res[name, n]) for n in users) for name in SYSTEMS}
    one = {name: statistics.mean(res[name, users[0]]) for name in SYSTEMS}
    lines += ["", "Gain from multiprogramming (1 - best / N=%d): " % users[0] +
              ", ".join(f"{name} {100 * (1 - best[name] / one[name]):.0f}%" for name in SYSTEMS),
              "Thesis: at most 9% per invocation; CPU utilization rises 60%->80% (LFS) and "
              "50%->89% (EFS); beyond N=4 reads dominate and LFS ~ EFS."]
    return "\n".join(lines)


def json_single(res: Single) -> list[dict]:
    """Table 7-3 for bench/report.py: seconds per phase, the ratios between
    file systems, and the disk counts 7.5.1's text gives."""
    def per_run(name: str, n) -> list[float]:
        runs = res.runs[name]
        if n == "total":
            return [sum(r[p].real for p in PHASES) for r in runs]
        return [r[n].real for r in runs]

    cols = [(n, f"{n} {PHASE_NAMES[n]}") for n in PHASES] + [("total", "Total")]
    secs, ratios = [], []
    for name in res.runs:
        for n, col in cols:
            m, sd = mean_sd(per_run(name, n))
            t = THESIS[name][5] if n == "total" else THESIS[name][n - 1][0]
            tsd = None if n == "total" else THESIS[name][n - 1][1]
            secs.append(cell(name, col, m, sd, len(res.runs[name]), t, tsd))
    for a, b in (("LFS", "FFS"), ("EFS", "FFS"), ("LFSC", "LFS")):
        for n, col in cols:
            i = 5 if n == "total" else n - 1
            ta, tb = (THESIS[x][i] if n == "total" else THESIS[x][i][0] for x in (a, b))
            ours_b = statistics.mean(per_run(b, n))
            ratios.append(cell(f"{a}/{b}", col, statistics.mean(per_run(a, n)) / ours_b
                               if ours_b > 0 else None, thesis=ta / tb))
    counts = []
    for name in ("FFS", "EFS", "LFS"):
        for (fs, n, key), t in THESIS_COUNTS.items():
            if fs == name:
                t, note = t if isinstance(t, tuple) else (t, None)
                per = [r[n].io["reads"] + r[n].io["writes"] if key == "ios"
                       else r[n].io[key] for r in res.runs[name]]
                m, sd = mean_sd(per)
                counts.append(cell(name, f"{n} {PHASE_NAMES[n]} {COUNT_NAMES[key]}", m, sd,
                                   len(per), t, note=note))
    # The guest's CPU against the 68040: the thesis' compile time over ours.
    speed = [cell(name, "phase 5 speed", THESIS[name][4][0] / statistics.mean(per_run(name, 5)),
                  n=len(res.runs[name]), thesis=1.0,
                  note="the thesis' phase 5 seconds over ours: times the 25 MHz 68040")
             for name in ("FFS", "EFS", "LFS")
             if name in res.runs and statistics.mean(per_run(name, 5)) > 0]
    return [results_table("table 7-3", "Andrew, single user: seconds per phase", "s", secs),
            results_table(None, "The guest's CPU against the thesis' 68040 (Andrew's "
                          "compile phase; TCG, it moves with the host)", "ratio", speed),
            results_table("table 7-3", "Ratios between the file systems", "ratio", ratios),
            results_table("table 7-3", "Disk commands per phase (7.5.1's text; the thesis' "
                          "tree, not ours)", "commands", counts)]


def json_multi(res: dict[tuple[str, int], list[float]], users: list[int]) -> list[dict]:
    """Figures 7-6 and 7-7 for bench/report.py (the thesis draws them, no numbers)."""
    cells = [cell(name, f"N={n}", *mean_sd(res[name, n]), len(res[name, n]))
             for name in SYSTEMS for n in users]
    return [results_table("figure 7-6", "Andrew, multi-user: elapsed seconds per "
                          "invocation", "s", cells)]


@plotter
def plot_single(res: Single, path: Path) -> None:
    plt = pyplot()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 5))
    names = list(res.runs)
    width = 0.8 / len(names)
    colours = {"FFS": "tab:red", "EFS": "tab:blue", "LFS": "tab:green", "LFSC": "tab:olive"}
    for i, name in enumerate(names):
        xs = [p + (i - (len(names) - 1) / 2) * width for p in range(len(PHASES))]
        ax1.bar(xs, [statistics.mean(r[n].real for r in res.runs[name]) for n in PHASES],
                width, color=colours[name], label=name)
    ax1.set_xticks(range(len(PHASES)))
    ax1.set_xticklabels([f"{n} {PHASE_NAMES[n]}" for n in PHASES])
    ax1.set_ylabel("elapsed seconds (mean)")
    ax1.set_title("Andrew per phase, ours")
    ax1.legend()
    labels = [f"{n}" for n in PHASES] + ["total"]
    for j, (a, b, c) in enumerate((("LFS", "FFS", "tab:green"), ("EFS", "FFS", "tab:blue"))):
        ours, theirs = [], []
        for n in PHASES:
            ours.append(statistics.mean(r[n].real for r in res.runs[a]) /
                        statistics.mean(r[n].real for r in res.runs[b]))
            theirs.append(THESIS[a][n - 1][0] / THESIS[b][n - 1][0])
        ours.append(statistics.mean(sum(r[n].real for n in PHASES) for r in res.runs[a]) /
                    statistics.mean(sum(r[n].real for n in PHASES) for r in res.runs[b]))
        theirs.append(THESIS[a][5] / THESIS[b][5])
        xs = range(len(labels))
        ax2.bar([x + (j * 2 - 1.5) * 0.2 for x in xs], ours, 0.2, color=c, label=f"{a}/{b} ours")
        ax2.bar([x + (j * 2 - 0.5) * 0.2 for x in xs], theirs, 0.2, color=c, alpha=0.4,
                hatch="//", label=f"{a}/{b} thesis")
    ax2.axhline(1.0, color="black", linewidth=0.5)
    ax2.set_xticks(range(len(labels)))
    ax2.set_xticklabels(labels)
    ax2.set_xlabel("phase")
    ax2.set_ylabel("time ratio")
    ax2.set_title("Ratios to FFS, ours and thesis table 7-3")
    ax2.legend(fontsize=8)
    savefig(fig, path)


@plotter
def plot_multi(res: dict, users: list[int], path: Path) -> None:
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 5))
    for name, c in (("FFS", "tab:red"), ("EFS", "tab:blue"), ("LFS", "tab:green")):
        ax.plot(users, [statistics.mean(res[name, n]) for n in users], "o-", color=c, label=name)
    ax.set_xlabel("concurrent invocations N")
    ax.set_ylabel("elapsed seconds per invocation")
    ax.set_title("Multi-user Andrew (thesis figures 7-6, 7-7)")
    ax.legend()
    savefig(fig, path)


def main(argv: list[str]) -> int:
    ap = parser(__doc__)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--users", default="1,2,4,8")
    ap.add_argument("--user-runs", type=int, default=1)
    ap.add_argument("--no-multi", action="store_true", help="single-user only")
    ap.add_argument("--no-single", action="store_true", help="multi-user only")
    ap.add_argument("--thesis", action="store_true",
                    help="10 runs, LFSC on 48 MB, N = 1..8 with 10 runs each")
    args = ap.parse_args(argv)
    if args.thesis:
        args.runs, args.users, args.user_runs = 10, "1,2,3,4,5,6,7,8", 10
    users = [int(u) for u in args.users.split(",")]
    start = time.monotonic()
    args.out.mkdir(parents=True, exist_ok=True)
    report = ""
    tables, plots = [], {}
    parts = [p for p, off in (("single-user", args.no_single), ("multi-user", args.no_multi))
             if not off]
    mem = {p: m for p, m in (("single-user", SINGLE_MEM), ("multi-user", MULTI_MEM))
           if p in parts}
    runs = {p: r for p, r in (("single-user", args.runs), ("multi-user", args.user_runs))
            if p in parts}

    def results(stem: str) -> None:
        write_json(args, "andrew", tables, mem=mem, runs=runs, plots=plots, stem=stem)

    if not args.no_single:
        print("single user:", flush=True)
        single = single_user(args.profile, args.runs, args.thesis)
        report = single_table(single, args.profile)
        plot_single(single, args.out / "andrew.png")
        tables += json_single(single)
        plots["andrew.png"] = ["table 7-3"]
        (args.out / "andrew.txt").write_text(report + "\n")   # kept should multi-user fail
        results("andrew")
    if not args.no_multi:
        print("multi-user:", flush=True)
        multi = multi_user(args.profile, users, args.user_runs)
        report += ("\n\n" if report else "") + multi_table(multi, users, args.user_runs)
        plot_multi(multi, users, args.out / "andrew_multi.png")
        tables += json_multi(multi, users)
        plots["andrew_multi.png"] = ["figure 7-6"]
    footer = f"benchmark took {time.monotonic() - start:.0f} s"
    print("\n" + report + "\n", flush=True)
    stem = "andrew_multi" if args.no_single else "andrew"
    (args.out / f"{stem}.txt").write_text(report + "\n\n" + footer + "\n")
    results(stem)
    print(f"{footer}\nwrote {args.out / stem}.txt, {stem}.json and the plots beside it")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
