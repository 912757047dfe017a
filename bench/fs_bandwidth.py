"""File-system bandwidth (thesis 7.3, figures 7-1 and 7-4): FFS, EFS and LFS next to the raw disk.

    python3 -m bench.fs_bandwidth [--profile hp97560] [--mb 4] [--out build/bench]

Boots a guest whose scratch disk sd1 is served by the drive model (tests/guest.py)
and measures sequential bandwidth for transfer sizes S = 4 KB .. 1 MB, one pass per
point:

  RAW    dd bs=S on /dev/rsd1c from sector 0, dd's own bytes/sec, as raw_disk.py
         does it (write, then read);
  FFS    newfs: 4 KB blocks, rotdelay 4 ms, maxcontig 1;
  EFS    newfs -E: rotdelay 0, maxcontig 16 (64 KB clusters);
  LFS    newfs_lfs: 4 KB blocks, 1 MB segments, mounted without a cleaner
         (the passes never fill it).

A file pass is bin/rawbench: WRITE removes the old file and syncs, then times
write(2) calls of S bytes that make a fresh --mb MB file, and the fsync after them
(rawbench fwrite); READ unmounts and mounts the file system (a cold cache), then
times read(2) calls of S bytes to the end of the file (rawbench fread).  Every pass
also gives the READ/WRITE commands the kernel counted for sd1 (thesis 7.2).

Figure 7-2 on each file system: a 0.5 MB file written in 64 KB calls, the time
until the last write returns and the time the fsync then takes.

Then the rotdelay sweep of thesis 7.3.1: FFS made with newfs -d 0, 1, 2, 3, 4, 6, 8
ms (maxcontig 1), a write and a read pass with S = 64 KB on each; the best rotdelay
is the one that writes and reads the file in the least time.  The same sweep for
EFS's gap between clusters (newfs -E -d 0 .. 4): the thesis' EFS left one, ours
leaves none unless the sweep says a gap pays.

The file systems are newfs -s 98304 (48 MB at the start of sd1): a newfs of the
whole disk writes every inode block of 1.3 GB, 37 s on the timed disk, and the
benchmark makes nine.  MB/s means 10^6 bytes/s (bytes per microsecond), the unit of
raw_disk.py and of the drive's 1.6 MB/s bus.

Writes build/bench/fs_bandwidth.txt (the tables), fs_bandwidth.json (the same for
bench/report.py) and build/bench/fs_bandwidth.png (MB/s by transfer size, write
and read).  Nothing here is asserted: benchmarks
report, tests assert.
"""
from __future__ import annotations

import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.driver import cell, parser, plotter, pyplot, results_table, savefig, write_json
from bench.raw_disk import CMD_TIMEOUT, SIZES_KB, rawbench, sequential, size_axis
from qemu import drivemodel
from tests.guest import MEM, Guest

FS_SECTORS = 98304  # newfs -s: 48 MB, the file system at the start of sd1
FILE = "/mnt/fsbench"
SWEEP_SIZE = 64 * 1024
ROTDELAYS_MS = (0, 1, 2, 3, 4, 6, 8)
# The rotdelay sweeps (figure 7-3): a layout -> its newfs and the gaps tried.
SWEEPS = {"FFS": ("newfs -d {ms} -s {sectors}", ROTDELAYS_MS),
          "EFS": ("newfs -E -d {ms} -s {sectors}", (0, 1, 2, 3, 4))}
DEFAULT_GAP_MS = {"FFS": 4, "EFS": 0}     # newfs's (sbin/newfs)
# name -> (newfs command, mount command)
SYSTEMS = {"FFS": (f"newfs -s {FS_SECTORS}", "mount"),
           "EFS": (f"newfs -E -s {FS_SECTORS}", "mount"),
           "LFS": (f"newfs_lfs -S {FS_SECTORS}", "mount -n -t lfs")}
OPS = ("write", "read")
ACCUM_BYTES = 512 * 1024  # figure 7-2: "a one-half megabyte write"


@dataclass
class Pass:
    """One timed pass: its bandwidth and the commands the disk saw."""

    mbps: float  # 10^6 bytes/s
    commands: int
    usecs: int = 0  # the pass as rawbench timed it (file passes)
    gap_us: int = 0  # mean idle time between commands (I/O log)


@dataclass
class Results:
    profile: str
    raw: dict[tuple[str, int], Pass] = field(default_factory=dict)  # (op, S)
    fs: dict[tuple[str, str, int], Pass] = field(default_factory=dict)  # (fs, op, S)
    sweep: dict[tuple[str, int, str], Pass] = field(default_factory=dict)  # (fs, ms, op)
    accum: dict[str, tuple[int, int]] = field(default_factory=dict)  # fs: (write, fsync) us
    guest_s: float = 0.0


# ----- measurements in the guest ------------------------------------------------------

def raw_pass(g: Guest, op: str, size: int, total: int) -> Pass:
    p = sequential(g, op[0], size, total)
    return Pass(p.mbps, p.commands, gap_us=p.gap_us)


def newfs(g: Guest, make: str, mount: str = "mount") -> None:
    """A fresh file system on sd1a, mounted on /mnt."""
    g.ok(f"{make} /dev/rsd1a > /dev/null", timeout=CMD_TIMEOUT)
    g.ok(f"{mount} /dev/sd1a /mnt")
    g.mountcmd = mount


def file_pass(g: Guest, op: str, size: int, total: int) -> Pass:
    """WRITE a fresh file of total bytes, or READ it back from a cold cache."""
    if op == "write":
        g.ok(f"rm -f {FILE} && sync")
        f = rawbench(g, f"-b {size} -t {total} fwrite {FILE}")
    else:
        g.ok(f"umount /mnt && {g.mountcmd} /dev/sd1a /mnt")
        f = rawbench(g, f"-b {size} fread {FILE}")
    if f["bytes"] != total:
        raise RuntimeError(f"rawbench {op} moved {f['bytes']} bytes, not {total}: {f}")
    return Pass(f["bytes"] / f["usecs"], f["n"], f["usecs"], f["gap_mean_us"])


def accum_pass(g: Guest) -> tuple[int, int]:
    """Figure 7-2: microseconds the writes of a fresh 0.5 MB file took, and
    the fsync after them."""
    g.ok(f"rm -f {FILE} && sync")
    f = rawbench(g, f"-b {SWEEP_SIZE} -t {ACCUM_BYTES} fwrite {FILE}")
    return f["write_usecs"], f["usecs"] - f["write_usecs"]


def show(what: str, p: Pass) -> None:
    print(f"  {what:24s} {p.mbps:6.3f} MB/s  ({p.commands} commands)", flush=True)


def measure(profile: str, total: int) -> Results:
    res = Results(profile)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        with Guest(Path(tmp), profile=profile) as g:
            print(f"guest up ({time.monotonic() - t0:.0f} s); sd1 is "
                  f"{g.boot_log.split('sd1 at ')[-1].splitlines()[0].strip()}", flush=True)
            for op in OPS:
                for kb in SIZES_KB:
                    res.raw[op, kb] = raw_pass(g, op, kb * 1024, total)
                    show(f"raw {op} {kb} KB", res.raw[op, kb])
            for name, (make, mount) in SYSTEMS.items():
                newfs(g, make, mount)
                for kb in SIZES_KB:
                    for op in OPS:
                        res.fs[name, op, kb] = file_pass(g, op, kb * 1024, total)
                        show(f"{name} {op} {kb} KB", res.fs[name, op, kb])
                res.accum[name] = w, f = accum_pass(g)
                print(f"  {name} 0.5 MB: writes {w / 1e3:.1f} ms, fsync {f / 1e3:.1f} ms",
                      flush=True)
                g.ok("umount /mnt")
            for name, (make, gaps) in SWEEPS.items():
                for ms in gaps:
                    newfs(g, make.format(ms=ms, sectors=FS_SECTORS))
                    for op in OPS:
                        res.sweep[name, ms, op] = file_pass(g, op, SWEEP_SIZE, total)
                        show(f"{name} rotdelay {ms} ms {op}", res.sweep[name, ms, op])
                    g.ok("umount /mnt")
            g.halt()
    res.guest_s = time.monotonic() - t0
    return res


# ----- report ---------------------------------------------------------------------------

def best_rotdelay(res: Results, name: str = "FFS") -> tuple[int, int, int]:
    """The rotdelays of layout name that write, read, and write-and-read the
    file in the least time."""
    gaps = SWEEPS[name][1]

    def usecs(ms: int, *ops: str) -> int:
        return sum(res.sweep[name, ms, op].usecs for op in ops)
    return (min(gaps, key=lambda ms: usecs(ms, "write")),
            min(gaps, key=lambda ms: usecs(ms, "read")),
            min(gaps, key=lambda ms: usecs(ms, *OPS)))


def table(res: Results, total: int) -> str:
    prof = drivemodel.get_profile(res.profile)
    lines = [
        f"File-system bandwidth (thesis 7.3), profile {res.profile}: {prof.description}",
        f"{total >> 20} MB file, one pass per point, on newfs -s {FS_SECTORS} /dev/rsd1a "
        f"({FS_SECTORS >> 11} MB at the start of sd1).",
        "FFS: newfs (4 KB blocks, rotdelay 4 ms, maxcontig 1).  EFS: newfs -E "
        "(rotdelay 0, maxcontig 16).  LFS: newfs_lfs (1 MB segments, no cleaner).",
        "WRITE: rm, sync, write(2) x SIZE to a fresh file, fsync; timed from the first "
        "write to fsync's return.",
        "READ: umount, mount (cold cache), read(2) x SIZE to the end of the file.",
        "RAW: dd bs=SIZE on /dev/rsd1c from sector 0, dd's bytes/sec (as raw_disk.py).",
        "MB/s = 10^6 bytes/s; cmds = READ/WRITE commands the kernel counted for sd1 "
        "during the pass (thesis 7.2).",
    ]
    for op, figure in (("write", "figure 7-1"), ("read", "figure 7-4")):
        lines += ["", f"{op.capitalize()} bandwidth ({figure})",
                  f"{'size':>8s} {'raw MB/s':>9s} {'FFS MB/s':>9s} {'EFS MB/s':>9s} "
                  f"{'LFS MB/s':>9s} {'LFS/raw':>8s} {'FFS cmds':>9s} {'EFS cmds':>9s} "
                  f"{'LFS cmds':>9s} {'raw cmds':>9s}"]
        for kb in SIZES_KB:
            raw = res.raw[op, kb]
            ffs, efs, lfs = (res.fs[n, op, kb] for n in ("FFS", "EFS", "LFS"))
            lines.append(f"{kb:>6d}KB {raw.mbps:9.3f} {ffs.mbps:9.3f} {efs.mbps:9.3f} "
                         f"{lfs.mbps:9.3f} {100 * lfs.mbps / raw.mbps:7.0f}% "
                         f"{ffs.commands:9d} {efs.commands:9d} {lfs.commands:9d} "
                         f"{raw.commands:9d}")
    lines += ["", f"Write accumulation (figure 7-2): a {ACCUM_BYTES >> 10} KB file, "
              f"write(2) x {SWEEP_SIZE >> 10} KB then fsync",
              f"{'':8s} {'writes ms':>10s} {'fsync ms':>9s} {'total ms':>9s}"]
    for name, (w, f) in res.accum.items():
        lines.append(f"{name:8s} {w / 1e3:10.1f} {f / 1e3:9.1f} {(w + f) / 1e3:9.1f}")
    for name, (make, gaps) in SWEEPS.items():
        lines += ["", f"{name} rotdelay sweep (thesis 7.3.1): "
                  f"{make.format(ms='MS', sectors=FS_SECTORS)}, "
                  f"SIZE {SWEEP_SIZE >> 10} KB; both = 2 x file / (write time + read time); "
                  "gap = mean idle us between commands",
                  f"{'rotdelay':>8s} {'write MB/s':>11s} {'read MB/s':>10s} {'both MB/s':>10s} "
                  f"{'write cmds':>11s} {'read cmds':>10s} {'write gap':>10s} {'read gap':>9s}"]
        for ms in gaps:
            w, r = res.sweep[name, ms, "write"], res.sweep[name, ms, "read"]
            both = 2 * total / (w.usecs + r.usecs)
            lines.append(f"{ms:>5d} ms {w.mbps:11.3f} {r.mbps:10.3f} {both:10.3f} "
                         f"{w.commands:11d} {r.commands:10d} {w.gap_us:10d} {r.gap_us:9d}")
        bw, br, bb = best_rotdelay(res, name)
        lines.append(f"{name}'s best rotdelay: {bb} ms (least write + read time; newfs's "
                     f"default {DEFAULT_GAP_MS[name]} ms); for writing alone {bw} ms, "
                     f"for reading alone {br} ms")
    return "\n".join(lines)


def json_tables(res: Results, total: int) -> list[dict]:
    """The tables for bench/report.py: figures 7-1 and 7-4 (the thesis draws
    them without numbers; the few its text gives are tables of their own),
    and the rotdelay sweep (figure 7-3)."""
    tables = []
    for op, figure in (("write", "figure 7-1"), ("read", "figure 7-4")):
        cells = [cell("RAW", f"{kb} KB", res.raw[op, kb].mbps) for kb in SIZES_KB]
        cells += [cell(name, f"{kb} KB", res.fs[name, op, kb].mbps)
                  for name in SYSTEMS for kb in SIZES_KB]
        tables.append(results_table(figure, f"{op.capitalize()} bandwidth by transfer "
                                    f"size, a {total >> 20} MB file", "MB/s", cells))
    big = SIZES_KB[-1]
    tables.append(results_table("figure 7-1", "The thesis' text, at S = 1 MB", "MB/s", [
        cell("FFS", "write", res.fs["FFS", "write", big].mbps, thesis=0.5,
             note="7.3.1: 'closer to 31% of the transfer bandwidth (0.5 megabytes "
             "per second)'")]))
    tables.append(results_table("figure 7-4", "The thesis' text, at S = 1 MB", "", [
        cell("FFS", "read", res.fs["FFS", "read", big].mbps, thesis=0.55, unit="MB/s",
             note="7.3.2: as its writes, a quarter of the disk's 2.2 MB/s")] + [
        cell(name, "read / raw read", res.fs[name, "read", big].mbps /
             res.raw["read", big].mbps, thesis=1.0, unit="ratio",
             note="7.3.2: 'very small (3%) differences' from the raw disk")
        for name in ("EFS", "LFS")]))
    if res.accum:
        tables.append(results_table("figure 7-2", f"A {ACCUM_BYTES >> 10} KB write: "
                                    "the writes, then the fsync", "ms", [
            cell(name, phase, us / 1e3) for name, (w, f) in res.accum.items()
            for phase, us in (("writes", w), ("fsync", f))]))
    for name, (_, gaps) in SWEEPS.items():
        sw = res.sweep
        sweep = [cell(op, f"{ms} ms", sw[name, ms, op].mbps) for op in OPS for ms in gaps]
        sweep += [cell("both", f"{ms} ms", 2 * total / (sw[name, ms, "write"].usecs +
                                                         sw[name, ms, "read"].usecs))
                  for ms in gaps]
        tables.append(results_table("figure 7-3" if name == "FFS" else None,
                                    f"{name} by rotdelay, S = {SWEEP_SIZE >> 10} KB "
                                    "(both: the file written and read)", "MB/s", sweep))
    tables.append(results_table("figure 7-3", "The best rotdelay", "ms", [
        cell("FFS", "best rotdelay", best_rotdelay(res)[2], thesis=4,
             note="7.3.1: 'experimentally determined to be 4 milliseconds'")]))
    tables.append(results_table(None, "EFS's best gap between clusters (newfs -E -d)",
                                "ms", [cell("EFS", "best rotdelay",
                                            best_rotdelay(res, "EFS")[2])]))
    return tables


@plotter
def plot(res: Results, path: Path) -> None:
    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(12, 5), sharey=True)
    for ax, op, figure in zip(axes, OPS, ("7-1", "7-4")):
        curves = [("raw /dev/rsd1c", "tab:gray", [res.raw[op, kb] for kb in SIZES_KB])]
        curves += [(name, colour, [res.fs[name, op, kb] for kb in SIZES_KB])
                   for name, colour in (("FFS", "tab:red"), ("EFS", "tab:blue"),
                                        ("LFS", "tab:green"))]
        for label, colour, points in curves:
            ax.plot(SIZES_KB, [p.mbps for p in points], "o-", color=colour, label=label)
        size_axis(ax, "transfer size (read(2)/write(2) bytes)")
        ax.set_title(f"{op} (thesis figure {figure})")
        ax.legend(fontsize=8, loc="lower right")
    axes[0].set_ylabel("MB/s (10^6 bytes/s)")
    axes[0].set_ylim(bottom=0)
    fig.suptitle(f"File-system bandwidth, {res.profile}")
    savefig(fig, path)


# ----- main ---------------------------------------------------------------------------

def main(argv: list[str]) -> int:
    ap = parser(__doc__)
    ap.add_argument("--mb", type=int, default=4, help="megabytes per pass (the file size)")
    args = ap.parse_args(argv)
    if not drivemodel.get_profile(args.profile).timed:
        print(f"fs_bandwidth: profile {args.profile} has no timing to measure",
              file=sys.stderr)
        return 2

    start = time.monotonic()
    total = args.mb << 20
    res = measure(args.profile, total)
    report = table(res, total)
    elapsed = time.monotonic() - start
    footer = f"guest part {res.guest_s:.0f} s, whole benchmark {elapsed:.0f} s"
    print("\n" + report + "\n", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    txt, png = args.out / "fs_bandwidth.txt", args.out / "fs_bandwidth.png"
    txt.write_text(report + "\n\n" + footer + "\n")
    plot(res, png)
    js = write_json(args, "fs_bandwidth", json_tables(res, total), mem=MEM, runs=1,
                    plots={png.name: ["figure 7-1", "figure 7-4"]})
    print(f"{footer}\nwrote {txt}, {js.name} and {png.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
