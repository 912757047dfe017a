"""Bigfile (thesis 5.3.2): create, copy and remove sets of large files on FFS, EFS and
LFS, to measure large-file transfer.

    python3 -m bench.bigfile [--profile hp97560] [--thesis] [--out build/bench]

The thesis used it (with Andrew) to show that kernel transaction support costs
programs that do not use it nothing: "It creates, copies, and removes a set of 10-20
relatively large files (1 megabyte, 5 megabytes, and 10 megabytes on a 300 megabyte
file system)", and gives no per-phase numbers (figure 5-7 only).  Here each set is
its own sub-run, on a fresh file system at least 2.2 times the set (the set and its
copy, with room):

  create  dd of each file from /dev/zero in 64 KB writes, then sync
  copy    (after umount and mount: a cold cache) cp of each file to a new one, sync
  remove  (after umount and mount) rm of the originals and the copies, sync

each timed by time(1) in the guest, with the scratch disk's counters read after.
The figure is MB/s: the set's size over the phase's elapsed time (for copy, the
bytes copied, read once and written once).  A file of "1 MB" is 2^20 bytes (dd's 16
blocks of 64 KB); MB/s is 10^6 bytes/s, as in raw_disk.py and fs_bandwidth.py, so the
rates compare with the drive's.

sync(2) starts the writes and returns, as 4.4BSD's did: on FFS and EFS the
create's last writes are still queued when its time is taken, while LFS's sync
is a checkpoint, which waits for the log (the thesis' figure 7-2 discusses the
same asymmetry).  So the row "create, on disk" adds the umount that follows the
create, which waits for every write: the time until the set is on the disk.

Default sets, 10 MB each so that make bench stays short: 10 x 1 MB, 2 x 5 MB,
1 x 10 MB on 48 MB file systems.  --thesis: 20 x 1 MB, 20 x 5 MB and 10 x 10 MB on
300 MB file systems (the 100 MB sets take tens of minutes on FFS).  The guest has
16 MB and a 1.6 MB buffer cache, as for Andrew.  LFS runs without its cleaner (a
fresh file system per set never fills).  The transaction comparison of 5.3.2 (the
same on kernels with and without the transaction code) is in bench/txn.py, which
runs a set of these phases and an Andrew run on both.  Writes
build/bench/bigfile.txt, bigfile.json (the same for bench/report.py) and
bigfile.png.
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from bench.andrew import BUFCACHE_KB, IOSTAT, REAL, SINGLE_MEM
from bench.driver import cell, parser, plotter, pyplot, results_table, savefig, write_json
from qemu import drivemodel
from tests.guest import Guest

QUICK_SETS = ((10, 1), (2, 5), (1, 10))          # (files, MB each)
THESIS_SETS = ((20, 1), (20, 5), (10, 10))
PHASES = ("create", "copy", "remove")
ONDISK = "create, on disk"       # create and the umount after it
ROWS = ("create", ONDISK, "copy", "remove")
TIMEOUT = 7200


def systems(sectors: int) -> dict[str, tuple[str, str]]:
    return {"FFS": (f"newfs -s {sectors}", "mount"),
            "EFS": (f"newfs -E -s {sectors}", "mount"),
            "LFS": (f"newfs_lfs -S {sectors}", "mount -n -t lfs")}


def fs_sectors(sets) -> int:
    """300 MB for the thesis' sets (its file system); else 2.2 times the largest
    set, rounded up to 16 MB, and 48 MB at least."""
    if sets == THESIS_SETS:
        return 300 * 2048
    biggest = max(n * mb for n, mb in sets)
    return max(48, -(-int(2.2 * biggest) // 16) * 16) * 2048


def timed(g: Guest, script: str) -> tuple[float, int, int]:
    """Run script under time(1); seconds, disk reads and writes of sd1."""
    out = g.ok(f"iostat -z 1 > /dev/null; time sh -c '{script}'; iostat 1", timeout=TIMEOUT)
    m, io = REAL.search(out), IOSTAT.search(out)
    if m is None or io is None:
        raise RuntimeError(f"bigfile: {script[:80]}...:\n{out[-2000:]}")
    return float(m.group(1)), int(io.group(1)), int(io.group(2))


def scripts(files: int, mb: int) -> list[tuple[str, str]]:
    """The three phases of one set in /mnt, as (phase, shell script); the
    caller unmounts and mounts before copy and remove (a cold cache)."""
    each = "for i in " + " ".join(str(i) for i in range(files)) + "; do "
    create = (each + f"dd if=/dev/zero of=/mnt/f$i bs=64k count={mb * 16} "
              "2> /dev/null; done; sync")
    copy = each + "cp /mnt/f$i /mnt/f$i.copy; done; sync"
    remove = each + "rm /mnt/f$i /mnt/f$i.copy; done; sync"
    return list(zip(PHASES, (create, copy, remove)))


def measure(profile: str, sets) -> dict:
    """(fs, set, phase) -> (seconds, reads, writes)"""
    res = {}
    sectors = fs_sectors(sets)
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        with Guest(Path(tmp), profile=profile, mem=SINGLE_MEM,
                   kargs=f"bufcache={BUFCACHE_KB}") as g:
            for name, (make, mount) in systems(sectors).items():
                for files, mb in sets:
                    g.ok(f"{make} /dev/rsd1a > /dev/null", timeout=TIMEOUT)
                    g.ok(f"{mount} /dev/sd1a /mnt")
                    for phase, script in scripts(files, mb):
                        if phase != "create":
                            um = timed(g, "umount /mnt")
                            g.ok(f"{mount} /dev/sd1a /mnt")
                        if phase == "copy":
                            res[name, (files, mb), ONDISK] = tuple(
                                c + u for c, u in zip(res[name, (files, mb), "create"], um))
                            say(name, files, mb, ONDISK, res)
                        res[name, (files, mb), phase] = timed(g, script)
                        say(name, files, mb, phase, res)
                    g.ok("umount /mnt", timeout=TIMEOUT)
            g.halt()
    return res


def mbps(files: int, mb: int, seconds: float) -> float:
    """The set's rate in 10^6 bytes/s (its files are mb * 2^20 bytes each)."""
    return files * (mb << 20) / seconds / 1e6 if seconds > 0 else 0.0


def say(name: str, files: int, mb: int, phase: str, res: dict) -> None:
    """One phase's line on the console, as it is measured."""
    s, r, w = res[name, (files, mb), phase]
    print(f"  {name} {files} x {mb} MB {phase:15s} {s:8.2f} s ({r} reads, {w} writes)",
          flush=True)


def table(res: dict, profile: str, sets) -> str:
    prof = drivemodel.get_profile(profile)
    mb_fs = fs_sectors(sets) // 2048
    lines = [f"Bigfile (thesis 5.3.2), profile {profile}: {prof.description}",
             f"guest {SINGLE_MEM} MB, buffer cache {BUFCACHE_KB} KB; a fresh {mb_fs} MB file "
             "system per set; create and copy end with sync; umount and mount before copy "
             "and remove.",
             "Seconds (MB/s, 10^6 bytes/s; for copy the bytes copied), one run each.", "",
             f"{'set':12s} {'phase':16s}" + "".join(f"{n:>18s}" for n in ("FFS", "EFS", "LFS"))
             + f"{'LFS/FFS':>9s}{'EFS/FFS':>9s}{'LFS/EFS':>9s}"]
    for files, mb in sets:
        for phase in ROWS:
            cells, secs = [], {}
            for name in ("FFS", "EFS", "LFS"):
                s = res[name, (files, mb), phase][0]
                secs[name] = s
                cells.append(f"{s:8.2f} ({mbps(files, mb, s):5.2f})" if phase != "remove"
                             else f"{s:8.2f}")
            lines.append(f"{f'{files} x {mb} MB':12s} {phase:16s}" +
                         "".join(f"{c:>18s}" for c in cells) +
                         f"{secs['LFS'] / secs['FFS']:9.2f}{secs['EFS'] / secs['FFS']:9.2f}"
                         f"{secs['LFS'] / secs['EFS']:9.2f}")
    lines += ["", f"'{ONDISK}': the create and the umount after it, which waits for the "
              "writes FFS's and EFS's sync only started (LFS's sync, a checkpoint, waits).",
              "", "The thesis gives no Bigfile numbers (figure 5-7 only): it ran Bigfile on "
              "kernels with and without the transaction code and found them within 1-2%.",
              "bench/txn.py makes that comparison (txn.txt, 'big-create' and the rest); "
              "the table above is the three file systems on one kernel.  Expect EFS and "
              "LFS to approach the raw disk on create, and FFS to be held to a block or "
              "two per revolution by its rotdelay (fs_bandwidth.txt)."]
    return "\n".join(lines)


def json_tables(res: dict, sets) -> list[dict]:
    """For bench/report.py: seconds per set and phase (the thesis has none)."""
    cells = [cell(name, f"{files} x {mb} MB {phase}", res[name, (files, mb), phase][0])
             for name in ("FFS", "EFS", "LFS") for files, mb in sets for phase in ROWS]
    return [results_table(None, f"Bigfile (5.3.2) on {fs_sectors(sets) // 2048} MB file "
                          "systems", "s", cells)]


@plotter
def plot(res: dict, sets, path: Path) -> None:
    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    width = 0.25
    for ax, phase in zip(axes, ("create", "copy")):
        for i, (name, colour) in enumerate((("FFS", "tab:red"), ("EFS", "tab:blue"),
                                            ("LFS", "tab:green"))):
            xs = [k + (i - 1) * width for k in range(len(sets))]
            ax.bar(xs, [mbps(files, mb, res[name, (files, mb), phase][0]) for files, mb in sets],
                   width, color=colour, label=name)
        ax.set_xticks(range(len(sets)))
        ax.set_xticklabels([f"{f} x {mb} MB" for f, mb in sets])
        ax.set_ylabel("MB/s (10^6 bytes/s)")
        ax.set_title(f"Bigfile {phase}")
        ax.legend()
    savefig(fig, path)


def main(argv: list[str]) -> int:
    ap = parser(__doc__)
    ap.add_argument("--thesis", action="store_true",
                    help="20 x 1 MB, 20 x 5 MB, 10 x 10 MB on 300 MB file systems")
    args = ap.parse_args(argv)
    sets = THESIS_SETS if args.thesis else QUICK_SETS
    start = time.monotonic()
    res = measure(args.profile, sets)
    report = table(res, args.profile, sets)
    footer = f"benchmark took {time.monotonic() - start:.0f} s"
    print("\n" + report + "\n", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "bigfile.txt").write_text(report + "\n\n" + footer + "\n")
    plot(res, sets, args.out / "bigfile.png")
    write_json(args, "bigfile", json_tables(res, sets), mem=SINGLE_MEM, runs=1,
               plots={"bigfile.png": []})
    print(f"{footer}\nwrote {args.out / 'bigfile.txt'}, bigfile.json and bigfile.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
