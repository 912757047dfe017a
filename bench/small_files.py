"""Small-file performance (thesis 7.4): FFS, EFS and LFS creating, reading and deleting
1 KB files in 100 directories: 2,000 by default, the thesis' 10,000 with --thesis.

    python3 -m bench.small_files [--profile hp97560] [--files N | --thesis] [--out build/bench]

The rates (files per second) do not depend on the count once the directories
hold a few blocks each; 2,000 keeps make bench practical (FFS and EFS create and
delete at tens of files a second: about 8 minutes in all), 10,000 takes about 40.

Boots a guest whose scratch disk sd1 is served by the drive model and, for each file
system (made on the first 48 MB of sd1, as fs_bandwidth.py does), runs bin/smallfiles
three times with an unmount and mount before each phase (a cold cache):

  create  mkdir 100 directories, then open/write 1 KB/close each file in turn; sync
  read    open/read/close each file
  delete  unlink each file, rmdir each directory; sync

Each phase is timed in the guest from its first call to the end of its sync; the
figure is files per second.  LFS is mounted without a cleaner (the test never fills
it).  Writes build/bench/small_files.txt (the table, with LFS / FFS ratios),
small_files.json (the same for bench/report.py) and build/bench/small_files.png
(a bar chart).  Nothing here is asserted.
"""
from __future__ import annotations

import re
import sys
import tempfile
import time
from pathlib import Path

from bench.fs_bandwidth import SYSTEMS, newfs
from bench.driver import cell, parser, plotter, pyplot, results_table, savefig, write_json
from bench.raw_disk import CMD_TIMEOUT
from qemu import drivemodel
from tests.guest import MEM, Guest

PHASES = ("create", "read", "delete")
LINE = re.compile(r"smallfiles (\w+) files (\d+) usecs (\d+) per_sec (\d+)")


def measure(profile: str, files: int) -> dict[tuple[str, str], float]:
    """files per second, by (file system, phase)"""
    res = {}
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        with Guest(Path(tmp), profile=profile) as g:
            for name, (make, mount) in SYSTEMS.items():
                newfs(g, make, mount)
                for phase in PHASES:
                    g.ok(f"umount /mnt && {mount} /dev/sd1a /mnt")
                    out = g.ok(f"smallfiles -n {files} {phase} /mnt",
                               timeout=CMD_TIMEOUT * 4)
                    m = LINE.search(out)
                    if m is None:
                        raise RuntimeError(f"smallfiles {phase} on {name}: {out}")
                    res[name, phase] = int(m.group(2)) * 1e6 / int(m.group(3))
                    print(f"  {name} {phase:6s} {res[name, phase]:9.1f} files/s",
                          flush=True)
                g.ok("umount /mnt")
            g.halt()
    return res


def table(res: dict, profile: str, files: int) -> str:
    prof = drivemodel.get_profile(profile)
    lines = [f"Small-file performance (thesis 7.4), profile {profile}: {prof.description}",
             f"{files} files of 1 KB in 100 directories; unmount and mount before each "
             "phase; create and delete end with sync.",
             "files/second, one run each.", "",
             f"{'phase':8s} {'FFS':>9s} {'EFS':>9s} {'LFS':>9s} {'LFS/FFS':>8s} "
             f"{'LFS/EFS':>8s}"]
    for phase in PHASES:
        f, e, lf = (res[n, phase] for n in ("FFS", "EFS", "LFS"))
        lines.append(f"{phase:8s} {f:9.1f} {e:9.1f} {lf:9.1f} {lf / f:7.2f}x "
                     f"{lf / e:7.2f}x")
    return "\n".join(lines)


def json_tables(res: dict, files: int) -> list[dict]:
    """Figure 7-5 for bench/report.py: the rates, and LFS's ratios to the others
    (the thesis draws bars; its text gives the read ratio alone)."""
    rates = [cell(name, phase, res[name, phase]) for name in SYSTEMS for phase in PHASES]
    ratios = [cell(f"LFS/{other}", phase, res["LFS", phase] / res[other, phase],
                   thesis=0.7 if phase == "read" else None,
                   note="7.4: LFS reads 'approximately 30% worse than the other "
                   "file systems'" if phase == "read" else None)
              for other in ("FFS", "EFS") for phase in PHASES]
    return [results_table("figure 7-5", f"Small files, {files} of 1 KB", "files/s", rates),
            results_table("figure 7-5", "LFS against the others", "ratio", ratios)]


@plotter
def plot(res: dict, profile: str, path: Path) -> None:
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8, 5))
    width = 0.25
    for i, (name, colour) in enumerate((("FFS", "tab:red"), ("EFS", "tab:blue"),
                                        ("LFS", "tab:green"))):
        xs = [p + (i - 1) * width for p in range(len(PHASES))]
        ax.bar(xs, [res[name, ph] for ph in PHASES], width, color=colour, label=name)
    ax.set_xticks(range(len(PHASES)))
    ax.set_xticklabels(PHASES)
    ax.set_ylabel("files per second")
    ax.set_title(f"Small files (thesis 7.4), {profile}")
    ax.legend()
    savefig(fig, path)


def main(argv: list[str]) -> int:
    ap = parser(__doc__)
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--thesis", action="store_true", help="10,000 files, as the thesis")
    args = ap.parse_args(argv)
    if args.thesis:
        args.files = 10000
    start = time.monotonic()
    res = measure(args.profile, args.files)
    report = table(res, args.profile, args.files)
    footer = f"benchmark took {time.monotonic() - start:.0f} s"
    print("\n" + report + "\n", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    txt, png = args.out / "small_files.txt", args.out / "small_files.png"
    txt.write_text(report + "\n\n" + footer + "\n")
    plot(res, args.profile, png)
    js = write_json(args, "small_files", json_tables(res, args.files), mem=MEM, runs=1,
                    plots={png.name: ["figure 7-5"]})
    print(f"{footer}\nwrote {txt}, {js.name} and {png.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
