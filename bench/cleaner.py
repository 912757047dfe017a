"""The LFS cleaner's cost curve: TPC-B's transactions per second and the
write cost against how full the disk is, greedy against cost-benefit.

    python3 -m bench.cleaner [--profile hp97560] [--fullness 60,70,80,90]
        [--runs 2] [--txns 200] [--clean-passes 1] [--full] [--out build/bench]

The thesis measured its cleaner at two points only: chapter 5's disk 70%
full, where it barely ran, and table 7-9's 80%, where it cost TPC-B 40% of
its speed (7.8: "log-structured file systems are particularly sensitive to
the disk capacity").  Rosenblum and Ousterhout drew the whole curve for
Sprite LFS, write cost against utilization, and found cost-benefit ahead of
greedy under locality, not under uniform updates (TPC-B's).  This driver
draws ours: for each fullness, tpcb's LFS-C1M (lfs_cleanerd's greedy
policy, the default) and LFS-B1M (lfs_cleanerd -b, cost-benefit) on a
partition sized so that df reads that fullness right after the load (tpcb.py
sizes its "80% full" partition the same way), warm up until the cleaner has
cleaned --clean-passes times the partition's segments, then RUNS runs of
TXNS transactions.  Per point: TPS (mean, s.d.), the write cost (blocks the
disk moved, the cleaner's reads included, per new block), the utilization of
the segments cleaned and transactions per cleaned segment.

Default: 1 pass, 2 runs of 200 (about 30 minutes); --full: 3 passes, 3 runs
of 400, tpcb.py's protocol (about 2 hours).  A point where the load or the
runs fail (a disk too full for the database) is reported as such.  Writes
build/bench/cleaner.txt, cleaner.json and cleaner.png.  Nothing is asserted.
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench import tpcb
from bench.driver import (cell, parser, plotter, pyplot, results_table, savefig,
                          why_failed, write_json)
from qemu import drivemodel
from tests.guest import Guest, GuestError

POLICIES = {"greedy": "LFS-C1M", "cost-benefit": "LFS-B1M"}
SEGBLOCKS = 256             # 1 MB segments of 4 KB blocks


def measure(args) -> dict:
    """(fullness %, policy) -> tpcb.Result, or the error text."""
    res: dict = {}
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        with Guest(Path(tmp), profile=args.profile, mem=tpcb.MEM) as g:
            for pct in args.fullness:
                for policy, config in POLICIES.items():
                    sectors = tpcb.partition(args.scale, pct / 100)
                    print(f"{pct}% full, {policy} ({sectors} sectors):", flush=True)
                    try:
                        res[pct, policy] = tpcb.measure(
                            g, config, args, lambda s: print(s, flush=True), sectors)
                    except (GuestError, RuntimeError) as e:
                        res[pct, policy] = why_failed(e, 200)
                        print(f"  failed: {res[pct, policy]}", flush=True)
                        g.run("umount -f /mnt", 600)
            g.halt()
    return res


def figures(r) -> dict | None:
    if isinstance(r, str) or not r.tps:
        return None
    c = r.cleaner(SEGBLOCKS) or {}
    return {"tps": r.mean, "sd": r.sd, "n": len(r.tps), "df": r.df.split()[-2] if r.df
            else "-", "write_cost": c.get("write_cost"), "util": c.get("util"),
            "txns_per_seg": c.get("txns_per_seg")}


def table(res: dict, args) -> str:
    prof = drivemodel.get_profile(args.profile)
    lines = [f"The LFS cleaner's cost curve (TPC-B, scale {args.scale}), profile "
             f"{args.profile}: {prof.description}",
             f"1 MB segments; {args.clean_passes} cleaner pass(es) of warm-up, "
             f"{args.runs} runs of {args.txns} transactions; greedy = lfs_cleanerd, "
             "cost-benefit = lfs_cleanerd -b", "",
             f"{'full':>5s} {'policy':13s} {'df':>5s} {'TPS':>7s} {'s.d.':>6s} "
             f"{'write cost':>10s} {'util':>6s} {'txns/seg':>9s}"]
    for (pct, policy), r in res.items():
        f = figures(r)
        if f is None:
            lines.append(f"{pct:4d}% {policy:13s} failed: {r if isinstance(r, str) else 'no runs'}")
            continue
        wc = f"{f['write_cost']:10.2f}" if f["write_cost"] else f"{'-':>10s}"
        ut = f"{f['util']:6.2f}" if f["util"] is not None else f"{'-':>6s}"
        ts = f"{f['txns_per_seg']:9.1f}" if f["txns_per_seg"] else f"{'-':>9s}"
        lines.append(f"{pct:4d}% {policy:13s} {f['df']:>5s} {f['tps']:7.2f} "
                     f"{f['sd']:6.2f} {wc} {ut} {ts}")
    lines += ["", "The thesis: 80% full, 1 MB segments, its cost-benefit cleaner: 11.6 TPS "
              "(0.60 of LFS without the cleaner), segments cleaned 71% utilized, one per "
              "50 transactions (7.8); at 70% (chapter 5) the cleaner barely ran."]
    return "\n".join(lines)


def json_tables(res: dict) -> list[dict]:
    cells = []
    for (pct, policy), r in res.items():
        f = figures(r)
        row = f"{pct}% {policy}"
        if f is None:
            cells.append(cell(row, "TPS", None, note=r if isinstance(r, str) else None))
            continue
        cells += [cell(row, "TPS", f["tps"], sd=f["sd"], n=f["n"]),
                  cell(row, "write cost", f["write_cost"]),
                  cell(row, "utilization of the segments cleaned", f["util"]),
                  cell(row, "transactions per segment cleaned", f["txns_per_seg"])]
    return [results_table(None, "The cleaner's cost curve: TPC-B against disk fullness, "
                          "greedy and cost-benefit", "", cells)]


@plotter
def plot(res: dict, path: Path) -> None:
    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    for policy, colour in (("greedy", "tab:green"), ("cost-benefit", "tab:purple")):
        pts = [(pct, figures(r)) for (pct, p), r in res.items() if p == policy]
        pts = [(pct, f) for pct, f in pts if f is not None]
        axes[0].errorbar([p for p, _ in pts], [f["tps"] for _, f in pts],
                         yerr=[f["sd"] for _, f in pts], marker="o", color=colour,
                         label=policy)
        wc = [(p, f["write_cost"]) for p, f in pts if f["write_cost"]]
        axes[1].plot([p for p, _ in wc], [w for _, w in wc], marker="o", color=colour,
                     label=policy)
    axes[0].set_ylabel("TPS")
    axes[1].set_ylabel("write cost (blocks moved per new block)")
    for ax in axes:
        ax.set_xlabel("disk full after the load (%)")
        ax.legend()
    axes[0].set_title("TPC-B with the cleaner")
    axes[1].set_title("Write cost")
    savefig(fig, path)


def options(argv: list[str]):
    """The command line, with what tpcb.measure reads and the cleaner does
    not ask for (no scan, not chapter 5's preset)."""
    ap = parser(__doc__)
    ap.add_argument("--scale", type=int, default=1)
    ap.add_argument("--fullness", default="60,70,80,90",
                    help="percentages of the disk full after the load")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--txns", type=int, default=200)
    ap.add_argument("--clean-passes", type=int, default=1)
    ap.add_argument("--full", action="store_true",
                    help="tpcb.py's protocol: 3 passes, 3 runs of 400")
    args = ap.parse_args(argv)
    if args.profile == "none":
        ap.error("the none profile has no timing")
    try:
        args.fullness = [int(x) for x in args.fullness.split(",")]
    except ValueError:
        ap.error(f"--fullness: percentages, comma-separated: {args.fullness!r}")
    if any(not 30 <= p <= 95 for p in args.fullness):
        ap.error("--fullness: each between 30 and 95")
    if args.full:
        args.clean_passes, args.runs, args.txns = 3, 3, 400
    args.scan_txns, args.no_scan, args.chapter5 = 0, True, False
    return args


def main(argv: list[str]) -> int:
    args = options(argv)
    start = time.monotonic()
    res = measure(args)
    report = table(res, args)
    footer = f"benchmark took {time.monotonic() - start:.0f} s"
    print("\n" + report + "\n\n" + footer, flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    txt, png = args.out / "cleaner.txt", args.out / "cleaner.png"
    txt.write_text(report + "\n\n" + footer + "\n")
    plot(res, png)
    js = write_json(args, "cleaner", json_tables(res), mem=tpcb.MEM, runs=args.runs,
                    plots={png.name: []})
    print(f"wrote {txt}, {js.name} and {png.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
