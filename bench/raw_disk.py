"""Raw-disk benchmark: what the guest gets from the timed drive, next to the model.

    python3 -m bench.raw_disk [--profile hp97560] [--mb 4] [--random 300] [--stroke 100]
                      [--requests 1000] [--no-validate] [--out build/bench]

Boots a guest whose scratch disk sd1 is served by the drive model (tests/guest.py)
and, on the raw disk /dev/rsd1c, measures

  - sequential read and write bandwidth for transfer sizes 4 KB .. 1 MB, with dd
    (its own bytes/sec figure; --mb megabytes per point, from sector 0 on); the
    kernel's I/O log (thesis 7.2, read by bin/rawbench) gives the idle gap between
    commands for each point;
  - the random-access time: single-sector reads at random sectors (bin/rawbench);
  - the full-stroke access time: single-sector reads alternating between the first
    and the last cylinder (bin/rawbench);
  - the turnaround between commands and where it goes (qemu/turnaround.py: the
    guest, QEMU, the socket, the server), on raw and file-system passes.

Each figure is printed next to two model figures (qemu/drivemodel.py on a virtual
clock, no guest):
  model      what qemu/validate_drive.py --raw prints: one request of the whole size,
             back to back (sequential), or isolated accesses at a random spindle
             phase (random, full stroke);
  model@gap  the requests the guest really sends (the sd driver splits transfers
             into 64 KB commands, physio) with the idle gap the kernel measured
             between commands, and for random and stroke the same sectors in the
             same order.
Then runs qemu/validate_drive.py (demerit and sleep lateness of the drive server).

Writes build/bench/raw_disk.txt (the report), raw_disk.json (the same figures for
bench/report.py) and build/bench/raw_disk.png (MB/s by transfer size).  Nothing here
is asserted: benchmarks report, tests assert.
"""
from __future__ import annotations

import random
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from bench import PY
from bench.driver import (TOP, cell, parser, plotter, pyplot, results_table, savefig,
                          write_json)
from qemu import drivemodel, turnaround, validate_drive
from tests.guest import MEM, Guest

SECTOR = drivemodel.SECTOR
MAXPHYS = 64 * 1024  # the guest's largest command (kern/buf.h)
SIZES_KB = (4, 8, 16, 32, 64, 128, 256, 512, 1024)
CMD_TIMEOUT = 600
DD_RATE = re.compile(r"(\d+) bytes transferred in [\d.]+ secs \((\d+) bytes/sec\)")


# ----- measurements in the guest ------------------------------------------------------

@dataclass
class SeqPoint:
    """One sequential pass: dd's figure and the kernel's view of its commands."""

    op: str  # "r" or "w"
    size: int  # bytes per read(2)/write(2)
    mbps: float  # dd's bytes/sec / 10^6
    commands: int  # READ/WRITE commands the disk saw
    gap_us: int  # mean idle time between commands (I/O log)
    svc_us: int  # mean command time at the disk (I/O log)
    model: float = 0.0
    model_gap: float = 0.0


@dataclass
class AccessPoint:
    """Single-sector reads (random or full stroke): per-read times in ms."""

    name: str
    n: int
    mean_ms: float  # read(2) as the program timed it
    svc_ms: float  # the disk's command time (I/O log)
    gap_us: int
    model: float = 0.0
    model_gap: float = 0.0
    note: str = ""


@dataclass
class Results:
    profile: str
    seq: list[SeqPoint] = field(default_factory=list)
    access: list[AccessPoint] = field(default_factory=list)
    validation: str = ""
    guest_s: float = 0.0
    turnaround: list[turnaround.Split] = field(default_factory=list)
    clock_drift_ns: int = 0


def fields(line: str) -> dict[str, float]:
    """rawbench's name=value output: integers, and decimals such as mbps=1.234."""
    return {k: float(v) if "." in v else int(v)
            for k, v in re.findall(r"(\w+)=(\d+(?:\.\d+)?)", line)}


def rawbench(g: Guest, args: str) -> dict[str, float]:
    out = g.ok(f"rawbench -u 1 {args}", timeout=CMD_TIMEOUT)
    return fields(out.strip().splitlines()[-1])


def sequential(g: Guest, op: str, size: int, total: int) -> SeqPoint:
    count = max(1, total // size)
    if op == "r":
        dd = f"dd if=/dev/rsd1c of=/dev/null bs={size} count={count}"
    else:
        dd = f"dd if=/dev/zero of=/dev/rsd1c bs={size} count={count} conv=notrunc"
    g.ok("iostat -z 1 > /dev/null")
    out = g.ok(dd, timeout=CMD_TIMEOUT)
    m = DD_RATE.search(out)
    if m is None:
        raise RuntimeError(f"no dd summary in {out!r}")
    ring = rawbench(g, "ring")
    return SeqPoint(op, size, int(m.group(2)) / 1e6, ring["n"], ring["gap_mean_us"],
                    ring["svc_mean_us"])


def access(g: Guest, name: str, n: int) -> AccessPoint:
    f = rawbench(g, f"-n {n} {name}")
    return AccessPoint(name, f["n"], f["mean_us"] / 1e3, f["svc_mean_us"] / 1e3,
                       f["gap_mean_us"])


def measure(profile: str, total: int, n_random: int, n_stroke: int) -> Results:
    res = Results(profile)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        off0 = turnaround.clock_offset()
        with Guest(Path(tmp), profile=profile, trace=True) as g:
            print(f"guest up ({time.monotonic() - t0:.0f} s); sd1 is "
                  f"{g.boot_log.split('sd1 at ')[-1].splitlines()[0].strip()}", flush=True)
            for op in ("r", "w"):
                for kb in SIZES_KB:
                    p = sequential(g, op, kb * 1024, total)
                    res.seq.append(p)
                    print(f"  {'read ' if op == 'r' else 'write'} {kb:5d} KB  "
                          f"{p.mbps:6.3f} MB/s  ({p.commands} commands, gap "
                          f"{p.gap_us} us)", flush=True)
            for name, n in (("random", n_random), ("stroke", n_stroke)):
                a = access(g, name, n)
                res.access.append(a)
                print(f"  {name:6s} {a.n} reads  {a.mean_ms:.2f} ms each "
                      f"(disk {a.svc_ms:.2f} ms)", flush=True)
            print("turnaround passes (qemu/turnaround.py):", flush=True)
            logs = turnaround.run_passes(g, log=lambda m: print(m, flush=True))
            g.halt()
        off1 = turnaround.clock_offset()
        res.turnaround = turnaround.analyse(Path(tmp), logs, (off0 + off1) // 2)
        res.clock_drift_ns = off1 - off0
    res.guest_s = time.monotonic() - t0
    return res


# ----- the model ----------------------------------------------------------------------

def model_sequential_at_gap(prof: drivemodel.Profile, op: str, size: int, total: int,
                            gap_ns: int) -> float:
    """MB/s for dd's pass as the guest issues it: 64 KB commands, gap_ns apart."""
    drive = drivemodel.make_drive(prof)
    piece = min(size, MAXPHYS)
    count = max(1, total // size) * (size // piece)
    t, lba, first = 0, 0, None
    for _ in range(count):
        r = drive.submit(op, lba, piece // SECTOR, t)
        first = r.t_start if first is None else first
        lba += piece // SECTOR
        t = r.t_done + gap_ns
    return count * piece / ((t - gap_ns - first) / 1e9) / 1e6


def xorshift32(seed: int):
    """bin/rawbench's generator, so the model reads the same sectors."""
    x = seed
    while True:
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        yield x


def access_sectors(prof: drivemodel.Profile, name: str, n: int) -> list[int]:
    """The sectors rawbench reads: its random sequence, or first/last cylinder."""
    if name == "random":
        gen = xorshift32(1)
        return [next(gen) % prof.sectors for _ in range(n)]
    ident = prof.identity
    last = (ident.cyls - 1) * ident.heads * ident.secs
    return [last if i & 1 else 0 for i in range(n)]


def model_access_ms(prof: drivemodel.Profile, sectors: list[int], gap_ns: Optional[int],
                    seed: int = 1) -> float:
    """Mean service time of one-sector reads of sectors, gap_ns apart, or (None)
    after random idle times (a random spindle phase, as validate_drive does)."""
    rng = random.Random(seed)
    drive = drivemodel.make_drive(prof)
    t, total = 0, 0
    for s in sectors:
        t += gap_ns if gap_ns is not None else rng.randrange(1, 50_000_000)
        r = drive.submit("r", s, 1, t)
        total += r.t_done - r.t_start
        t = r.t_done
    return total / len(sectors) / 1e6


def add_model(res: Results, total: int) -> None:
    prof = drivemodel.get_profile(res.profile)
    for p in res.seq:
        p.model = validate_drive.sequential_rate(prof, p.op, p.size, 0)
        p.model_gap = model_sequential_at_gap(prof, p.op, p.size, total, p.gap_us * 1000)
    for a in res.access:
        sectors = access_sectors(prof, a.name, a.n)
        if a.name == "random":
            a.model = validate_drive.random_mean_ms(prof, "r", SECTOR)
        else:
            a.model = model_access_ms(prof, sectors * 10, None)
        a.model_gap = model_access_ms(prof, sectors, a.gap_us * 1000)
        if a.name == "stroke" and isinstance(drivemodel.make_drive(prof),
                                             drivemodel.MechanicalDrive):
            d = prof.identity.cyls - 1
            a.note = f"seek curve alone, {d} cylinders: {prof.mechanism.seek.ms(d):.2f} ms"


def validate(profile: str, requests: int) -> str:
    """qemu/validate_drive.py's demerit and lateness, with a modest request count."""
    cmd = [PY, "-m", "qemu.validate_drive", "--profile", profile,
           "--requests", str(requests), "--interarrival-ms", "60"]
    line = f"$ python3 {' '.join(cmd[1:])}"
    print(line, flush=True)
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, cwd=TOP)
    text = (out.stdout + out.stderr).strip()
    print(text, flush=True)
    return f"{line}\n{text}"


# ----- report ---------------------------------------------------------------------------

def table(res: Results, total: int) -> str:
    prof = drivemodel.get_profile(res.profile)
    lines = [
        f"Raw disk /dev/rsd1c, profile {res.profile}: {prof.description}",
        f"Sequential: dd bs=SIZE, {total >> 20} MB per point from sector 0; MB/s = 10^6 "
        "bytes/s; gap = mean idle us between commands (kernel I/O log).",
        "",
        f"{'':8s} {'------------- read -------------':>34s}   "
        f"{'------------- write ------------':>34s}",
        f"{'size':>8s} {'measured':>9s} {'model':>7s} {'model@gap':>10s} {'gap':>6s}   "
        f"{'measured':>9s} {'model':>7s} {'model@gap':>10s} {'gap':>6s}",
    ]
    reads = {p.size: p for p in res.seq if p.op == "r"}
    writes = {p.size: p for p in res.seq if p.op == "w"}
    for kb in SIZES_KB:
        r, w = reads[kb * 1024], writes[kb * 1024]
        lines.append(f"{kb:>6d}KB {r.mbps:9.3f} {r.model:7.3f} {r.model_gap:10.3f} "
                     f"{r.gap_us:6d}   {w.mbps:9.3f} {w.model:7.3f} {w.model_gap:10.3f} "
                     f"{w.gap_us:6d}")
    lines += ["", "Single-sector reads, ms per read (measured: read(2) / the disk's "
              "command time in the I/O log):",
              f"{'':12s} {'n':>5s} {'measured':>9s} {'disk':>7s} {'model':>7s} "
              f"{'model@gap':>10s} {'gap us':>7s}"]
    for a in res.access:
        label = {"random": "random", "stroke": "full stroke"}[a.name]
        lines.append(f"{label:12s} {a.n:5d} {a.mean_ms:9.2f} {a.svc_ms:7.2f} {a.model:7.2f} "
                     f"{a.model_gap:10.2f} {a.gap_us:7d}" + (f"   ({a.note})" if a.note else ""))
    if res.turnaround:
        lines += [""] + turnaround.report(res.turnaround, res.clock_drift_ns)
    return "\n".join(lines)


def json_tables(res: Results) -> list[dict]:
    """The tables for bench/report.py: the drive beside table 7-1's figures, and
    beside its model."""
    best = max((p for p in res.seq if p.op == "r"), key=lambda p: p.mbps)
    rnd = next(a for a in res.access if a.name == "random")
    hardware = [
        cell("sequential read", "MB/s", best.mbps, thesis=1.6,
             note=f"ours at {best.size >> 10} KB; thesis: table 7-1's bus bandwidth"),
        cell("random single-sector read", "ms", rnd.mean_ms, thesis=21.5,
             note="thesis: 13.0 ms average seek + 7.5 ms half rotation + 1.0 ms "
             "controller (table 7-1); it measured none")]
    tables = [results_table("table 7-1", "The drive as the guest sees it", "", hardware)]
    for op, name in (("r", "read"), ("w", "write")):
        cells = []
        for p in (p for p in res.seq if p.op == op):
            col = f"{p.size >> 10} KB"
            cells += [cell("measured", col, p.mbps), cell("model", col, p.model),
                      cell("model@gap", col, p.model_gap)]
        tables.append(results_table(None, f"Raw sequential {name} against the drive "
                                    "model (/dev/rsd1c, dd)", "MB/s", cells))
    cells = []
    for a in res.access:
        col = {"random": "random", "stroke": "full stroke"}[a.name]
        cells += [cell("measured", col, a.mean_ms), cell("disk", col, a.svc_ms),
                  cell("model", col, a.model), cell("model@gap", col, a.model_gap)]
    tables.append(results_table(None, "Single-sector reads against the drive model",
                                "ms", cells))
    cells = [cell(sp.name, col, v) for sp in res.turnaround if sp.n
             for col, v in [*((p, sp.median[p]) for p in turnaround.PARTS),
                            ("total", sp.total), ("outside", sp.outside),
                            ("model", sp.model)]]
    if cells:
        tables.append(results_table(
            None, "Turnaround between commands, medians by part (qemu/turnaround.py; "
            "outside = late + reply + kick + request, what neither the guest nor the "
            "drive does; model = what the drive model saw, the host's share forgiven)",
            "us", cells))
    return tables


def size_axis(ax, xlabel: str) -> None:
    """The x axis of a bandwidth plot: transfer sizes 4K .. 1M, log 2, gridded."""
    ax.set_xscale("log", base=2)
    ax.set_xticks(list(SIZES_KB))
    ax.set_xticklabels([f"{k}K" if k < 1024 else f"{k // 1024}M" for k in SIZES_KB])
    ax.set_xlabel(xlabel)
    ax.grid(True, which="both", alpha=0.3)


@plotter
def plot(res: Results, path: Path) -> None:
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8, 5))
    for op, colour, name in (("r", "tab:blue", "read"), ("w", "tab:red", "write")):
        pts = [p for p in res.seq if p.op == op]
        kb = [p.size // 1024 for p in pts]
        ax.plot(kb, [p.mbps for p in pts], "o-", color=colour, label=f"{name}, measured")
        ax.plot(kb, [p.model for p in pts], "--", color=colour, label=f"{name}, model")
        ax.plot(kb, [p.model_gap for p in pts], ":", color=colour, alpha=0.7,
                label=f"{name}, model@gap (64 KB commands, measured gaps)")
    size_axis(ax, "transfer size (dd bs)")
    ax.set_ylabel("MB/s (10^6 bytes/s)")
    ax.set_ylim(bottom=0)
    ax.set_title(f"Raw sequential bandwidth, /dev/rsd1c, {res.profile}")
    ax.legend(fontsize=8, loc="lower right")
    savefig(fig, path)


# ----- main ---------------------------------------------------------------------------

def main(argv: list[str]) -> int:
    ap = parser(__doc__)
    ap.add_argument("--mb", type=int, default=4, help="megabytes per sequential point")
    ap.add_argument("--random", type=int, default=300, help="random single-sector reads")
    ap.add_argument("--stroke", type=int, default=100, help="full-stroke reads")
    ap.add_argument("--requests", type=int, default=1000,
                    help="validate_drive.py requests (inter-arrival U(0, 60) ms)")
    ap.add_argument("--no-validate", action="store_true")
    args = ap.parse_args(argv)
    if not drivemodel.get_profile(args.profile).timed:
        print(f"raw_disk: profile {args.profile} has no timing to measure", file=sys.stderr)
        return 2

    start = time.monotonic()
    total = args.mb << 20
    res = measure(args.profile, total, args.random, args.stroke)
    add_model(res, total)
    report = table(res, total)
    print("\n" + report + "\n", flush=True)
    if not args.no_validate:
        res.validation = validate(args.profile, args.requests)
    elapsed = time.monotonic() - start
    args.out.mkdir(parents=True, exist_ok=True)
    txt, png = args.out / "raw_disk.txt", args.out / "raw_disk.png"
    footer = (f"guest part {res.guest_s:.0f} s, whole benchmark {elapsed:.0f} s")
    txt.write_text(report + "\n\n" + (res.validation + "\n\n" if res.validation else "")
                   + footer + "\n")
    plot(res, png)
    js = write_json(args, "raw_disk", json_tables(res), mem=MEM, runs=1,
                    plots={png.name: []})
    print(f"{footer}\nwrote {txt}, {js.name} and {png.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
