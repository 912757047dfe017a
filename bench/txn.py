"""Kernel transactions (thesis 5.2): throughput and commit latency by the number
of processes, with group commit on and off, a multi-user TPC-B, and what the
transaction code costs programs that do not use it.

    python3 -m bench.txn [--profile hp97560] [--txns 100] [--sweep] [--chapter5]
                         [--tpcb-only] [--out build/bench]

Throughput: an LFS on the first 48 MB of the timed scratch disk, a protected
file of 16 x 64 pages, and bin/txnbench with 1, 2, 4, 8 and 16 processes, each
committing --txns transactions that read and rewrite one page of its own region
(so processes meet only at commit).  Group commit "on" is the kernel's defaults
(txn_gcwait, txn_gcmin), "off" is txn_gcwait=0 txn_gcmin=1: no committer waits
for company, though those that come while a group is being written still form
the next one.  txnstat gives the mean group size.  --sweep also tries other
txn_gcwait and txn_gcmin values at 1, 4 and 16 processes: how the defaults
were chosen.

Multi-user TPC-B (the thesis ran it single-user and left the multi-user case
to [SELT92]): bench/tpcb.py's LFS-K (16 MB guest, scale 1, no cleaner), then
tpcb -m kernel -P P -r 2 -n 400 for 1, 2, 4 and 8 processes, each with its
own seed, all updating the one branch row.  Three settings, each on its own
boot: the kernel's defaults (group commit, and a group's locks released as
soon as its write is issued: early lock release), group commit off (as
above), and txn_elr=0 (the locks held until the disk is done).  Every
transaction changes the branch row and the history file's last page and
count, so each waits for the transaction before it to let those pages go.
With the defaults a committer that would wait for its group's write lets
them go at once (pre-commit, lfs_txndelta.c), so the next transaction runs
and joins the same group; with txn_elr=0 it keeps them until the disk is
done, and groups stay at one transaction.  TPS is the mean of the
two runs; txnstat gives the mean group size and the deadlock victims (tpcb
tries each again).

No cost to others (thesis 5.3: 1-2%): bin/smallfiles (create, read and delete
of 2,000 1 KB files), a 16 MB sequential write and read, one Andrew run (its
five phases, bench/andrew.py) and Bigfile's phases for 2 x 5 MB files
(bench/bigfile.py; thesis figure 5-7 made the same comparison with these two),
each on a fresh LFS, three boots each of build/kernel and of
build/kernel-notxn, the same kernel built with -DNOTXN (lfs/lfs_notxn.c).

Writes build/bench/txn.txt, txn.json (the same for bench/report.py) and
build/bench/txn.png.  --chapter5: only the cost to others (figure 5-7), on
chapter 5's drive and memory (the RZ55, 32 MB, as tpcb --chapter5), in
txn-ch5.txt and txn-ch5.json.  Nothing is asserted.
"""
from __future__ import annotations

import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import andrew, bigfile, tpcb
from bench.tpcb import CH5_MEM, CH5_PROFILE
from bench.driver import (TOP, cell, parser, plotter, pyplot, results_table, savefig,
                          write_json)
from bench.raw_disk import CMD_TIMEOUT
from qemu import drivemodel
from tests.guest import BUILD, MEM, Guest

FS = "newfs_lfs -S 98304 /dev/rsd1a > /dev/null && mount -n -t lfs /dev/sd1a /mnt"
FILE = "/mnt/db"
PROCS = (1, 2, 4, 8, 16)
GC_OFF = "txn_gcwait=0 txn_gcmin=1"
SWEEP = [(w, m) for w in (0, 5, 10, 20, 40) for m in (2, 4, 8)]
LINE = re.compile(r"txnbench procs (\d+) txns (\d+) usecs (\d+) per_sec (\d+) "
                  r"latency_us (\d+)")
GROUPS = re.compile(r"group commits (\d+) of (\d+) transactions")
VICTIMS = re.compile(r"victims (\d+)")
TPCB_PROCS = (1, 2, 4, 8)
TPCB_TXNS, TPCB_RUNS = 400, 2
TPCB_KARGS = (("defaults", ""), ("group commit off", GC_OFF),
              ("strict 2PL (txn_elr=0)", "txn_elr=0"))


def protected_file(g: Guest) -> None:
    g.ok(FS, timeout=CMD_TIMEOUT)
    g.ok(f"dd if=/dev/zero of={FILE} bs=64k count={16 * 64 * 4096 // 65536}"
         f" 2>/dev/null && sync && chflags txn {FILE}", timeout=CMD_TIMEOUT)


def run(g: Guest, procs: int, txns: int) -> tuple[float, float, float]:
    """(transactions per second, mean commit latency in ms, mean group size)"""
    g.ok("txnstat -z > /dev/null")
    out = g.ok(f"txnbench -p {procs} -n {txns} {FILE}", timeout=CMD_TIMEOUT * 4)
    m = LINE.search(out)
    if m is None:
        raise RuntimeError(f"txnbench -p {procs}: {out}")
    st = GROUPS.search(g.ok("txnstat"))
    groups, members = (int(st.group(1)), int(st.group(2))) if st else (0, 0)
    return int(m.group(4)), int(m.group(5)) / 1000, members / max(groups, 1)


def throughput(profile: str, txns: int, kargs: str, procs=PROCS) -> dict:
    res = {}
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        with Guest(Path(tmp), profile=profile, kargs=kargs) as g:
            protected_file(g)
            for p in procs:
                res[p] = run(g, p, txns)
                print(f"  [{kargs or 'defaults'}] {p:2d} processes: "
                      f"{res[p][0]:6.1f} txn/s, commit {res[p][1]:7.2f} ms, "
                      f"group {res[p][2]:.2f}", flush=True)
            g.halt()
    return res


def tpcb_multi(profile: str, kargs: str, procs=TPCB_PROCS) -> dict:
    """Multi-user TPC-B on kernel transactions: {P: (TPS, s.d., mean group
    size, deadlock victims per commit)}."""
    res = {}
    per_p = tpcb.WARMUP_TXNS + TPCB_RUNS * TPCB_TXNS
    sectors = min(tpcb.partition(1) + len(procs) * per_p * tpcb.LFS_SECTORS_PER_TXN,
                  tpcb.DISK_SECTORS)
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        with Guest(Path(tmp), profile=profile, kargs=kargs, mem=tpcb.MEM) as g:
            g.ok(f"newfs_lfs -S {sectors} /dev/rsd1a > /dev/null", timeout=CMD_TIMEOUT)
            g.ok("mount -n -t lfs /dev/sd1a /mnt")
            g.ok("tpcb -i -m kernel -s 1 /mnt/db", timeout=CMD_TIMEOUT * 4)
            for p in procs:
                g.ok("txnstat -z > /dev/null")
                out = g.ok(f"tpcb -m kernel -P {p} -r {TPCB_RUNS} -n {TPCB_TXNS} /mnt/db",
                           timeout=CMD_TIMEOUT * 8)
                tps = [int(m.group(2)) * 1e6 / int(m.group(3))
                       for m in tpcb.RUN.finditer(out)]
                st = g.ok("txnstat")
                gm, vm = GROUPS.search(st), VICTIMS.search(st)
                if len(tps) != TPCB_RUNS or gm is None or vm is None:
                    raise RuntimeError(f"tpcb -P {p}: {out}\n{st}")
                groups, members = int(gm.group(1)), int(gm.group(2))
                res[p] = (statistics.mean(tps), statistics.pstdev(tps),
                          members / max(groups, 1), int(vm.group(1)) / max(members, 1))
                print(f"  [tpcb, {kargs or 'defaults'}] {p} processes: {res[p][0]:5.2f} TPS, "
                      f"group {res[p][2]:.2f}, victims per commit {res[p][3]:.2f}",
                      flush=True)
            g.ok("tpcb -c /mnt/db", timeout=CMD_TIMEOUT)
            g.halt()
    return res


NOCOST = [("create", "smallfiles -n 2000 create /mnt"),
          ("read", "umount /mnt && mount -n -t lfs /dev/sd1a /mnt && "
                   "smallfiles -n 2000 read /mnt"),
          ("delete", "smallfiles -n 2000 delete /mnt"),
          ("bigwrite", "rawbench -b 65536 -t 16777216 fwrite /mnt/big"),
          ("bigread", "umount /mnt && mount -n -t lfs /dev/sd1a /mnt && "
                      "rawbench -b 65536 fread /mnt/big")]
USECS = re.compile(r"usecs[ =](\d+)")


BIGFILE_SET = (2, 5)            # files, MB each
NOCOST_NAMES = [n for n, _ in NOCOST] + ["andrew"] + \
    [f"big-{p}" for p in bigfile.PHASES]


def fresh_lfs(g: Guest) -> None:
    """A new LFS on /mnt: no cleaner, so each workload starts on clean log."""
    g.ok("umount /mnt; " + FS, timeout=CMD_TIMEOUT)


def nocost_run(profile: str, kernel: Path, res: dict[str, list[float]],
               mem: int = MEM) -> None:
    """One boot of kernel: the seconds of each workload, added to res."""
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        with Guest(Path(tmp), profile=profile, kernel=kernel, mem=mem) as g:
            g.ok(FS, timeout=CMD_TIMEOUT)
            for name, cmd in NOCOST:
                out = g.ok(cmd, timeout=CMD_TIMEOUT * 4)
                m = USECS.search(out)
                if m is None:
                    raise RuntimeError(f"{name}: {out}")
                res.setdefault(name, []).append(int(m.group(1)) / 1e6)
            fresh_lfs(g)
            phases = andrew.one_run(g, lfs=True)
            res.setdefault("andrew", []).append(
                sum(p.real for p in phases.values()))
            fresh_lfs(g)
            for phase, script in bigfile.scripts(*BIGFILE_SET):
                if phase != "create":
                    g.ok("umount /mnt && mount -n -t lfs /dev/sd1a /mnt")
                res.setdefault(f"big-{phase}", []).append(
                    bigfile.timed(g, script)[0])
            g.halt()


NOCOST_RUNS = 3


def nocost(profile: str, runs: int = NOCOST_RUNS,
           mem: int = MEM) -> dict[str, dict[str, list[float]]]:
    """Each workload's seconds per run, with the transaction code and
    without; the boots alternate, so a machine that slows down or speeds
    up meanwhile weighs on both alike."""
    cost: dict[str, dict[str, list[float]]] = {"with": {}, "without": {}}
    for _ in range(runs):
        nocost_run(profile, BUILD / "kernel", cost["with"], mem)
        nocost_run(profile, BUILD / "kernel-notxn", cost["without"], mem)
    return cost


def table(on: dict, off: dict, sweep: dict, cost: dict, profile: str,
          txns: int, mem: int = MEM, multi: dict | None = None) -> str:
    prof = drivemodel.get_profile(profile)
    lines = [f"Kernel transactions (thesis 5.2), profile {profile}: "
             f"{prof.description}; guest memory {mem} MB"]
    if on:
        lines += [f"LFS on 48 MB; each process commits {txns} transactions of one "
                  "page read and rewritten in its own region.", "",
                  f"{'procs':>5} | {'on: txn/s':>9} {'commit ms':>9} {'group':>5} | "
                  f"{'off: txn/s':>10} {'commit ms':>9} {'group':>5} | on/off"]
    for p in on:
        a, b = on[p], off[p]
        lines.append(f"{p:5d} | {a[0]:9.1f} {a[1]:9.2f} {a[2]:5.2f} | "
                     f"{b[0]:10.1f} {b[1]:9.2f} {b[2]:5.2f} | {a[0] / b[0]:5.2f}x")
    if sweep:
        lines += ["", "Group commit knobs (txn/s at 1, 4 and 16 processes):",
                  f"{'gcwait ms':>9} {'gcmin':>5} {'1':>7} {'4':>7} {'16':>7}"]
        for (w, m), r in sorted(sweep.items()):
            lines.append(f"{w:9d} {m:5d} {r[1][0]:7.1f} {r[4][0]:7.1f} "
                         f"{r[16][0]:7.1f}")
    if multi:
        lines += ["", f"Multi-user TPC-B (tpcb -m kernel -P P, scale 1, {tpcb.MEM} MB, "
                  f"{TPCB_RUNS} runs of {TPCB_TXNS}): TPS (s.d.), mean group size, "
                  "deadlock victims per commit",
                  f"{'':24s}" + "".join(f" | {'P=' + str(p):>22s}" for p in TPCB_PROCS)]
        for name, r in multi.items():
            lines.append(f"{name:24s}" + "".join(
                f" | {r[p][0]:5.2f} ({r[p][1]:4.2f}) {r[p][2]:4.2f} {r[p][3]:4.2f}"
                for p in r))
    if cost:
        lines += ["", "No cost to programs that use no transactions (seconds, "
                  "mean and s.d. of 3 alternating boots; thesis: within 1-2%):",
                  f"{'workload':>9} {'with txn':>15} {'without':>15} {'ratio':>7}"]
        for name in NOCOST_NAMES:
            w, wo = cost["with"][name], cost["without"][name]
            lines.append(f"{name:>9} {statistics.mean(w):8.3f} "
                         f"({statistics.pstdev(w):4.2f}) {statistics.mean(wo):8.3f} "
                         f"({statistics.pstdev(wo):4.2f}) "
                         f"{statistics.mean(w) / statistics.mean(wo):7.3f}")
    return "\n".join(lines)


def json_tables(on: dict, off: dict, sweep: dict, cost: dict,
                multi: dict | None = None) -> list[dict]:
    """For bench/report.py: figure 5-7 (no cost to others), and the throughput
    by processes and the multi-user TPC-B, which the thesis does not measure."""
    tables = []
    for i, (title, unit) in enumerate((("Kernel transactions by P processes", "txn/s"),
                                       ("Mean commit latency", "ms"),
                                       ("Mean group commit size", "transactions"))):
        cells = [cell(f"group commit {name}", f"P={p}", res[p][i])
                 for name, res in (("on", on), ("off", off)) for p in res]
        if cells:
            tables.append(results_table(None, title, unit, cells))
    if multi:
        for i, (title, unit) in ((0, ("Multi-user TPC-B on kernel transactions, by P "
                                      "processes", "TPS")),
                                 (2, ("Multi-user TPC-B: mean group commit size",
                                      "transactions")),
                                 (3, ("Multi-user TPC-B: deadlock victims per commit",
                                      "victims"))):
            tables.append(results_table(None, title, unit, [
                cell(name, f"P={p}", r[p][i], r[p][1] if i == 0 else None,
                     TPCB_RUNS if i == 0 else 1)
                for name, r in multi.items() for p in r]))
    if sweep:
        tables.append(results_table(None, "Group commit knobs", "txn/s", [
            cell(f"gcwait {w} ms, gcmin {m}", f"P={p}", r[p][0])
            for (w, m), r in sorted(sweep.items()) for p in r]))
    if cost:
        secs = [cell(f"{key} the transaction code", name, statistics.mean(cost[key][name]),
                     statistics.pstdev(cost[key][name]), len(cost[key][name]))
                for key in ("with", "without") for name in NOCOST_NAMES]
        ratio = [cell("with / without", name, statistics.mean(cost["with"][name]) /
                      statistics.mean(cost["without"][name]), n=len(cost["with"][name]),
                      thesis=1.0, note="5.3.2: 'within 1-2% of the total elapsed time'")
                 for name in NOCOST_NAMES]
        tables += [results_table("figure 5-7", "Programs without transactions, with and "
                                 "without the transaction code", "s", secs),
                   results_table("figure 5-7", "Their ratio", "ratio", ratio)]
    return tables


@plotter
def plot(on: dict, off: dict, path: Path) -> None:
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(list(on), [on[p][0] for p in on], "o-", label="group commit on")
    ax.plot(list(off), [off[p][0] for p in off], "s--", label="group commit off")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("processes")
    ax.set_ylabel("transactions per second")
    ax.set_title("Kernel transactions on BSD-LFS")
    ax.legend()
    savefig(fig, path)


def main(argv: list[str]) -> int:
    ap = parser(__doc__)
    ap.add_argument("--txns", type=int, default=100)
    ap.add_argument("--sweep", action="store_true",
                    help="also try the group-commit knobs (about 20 minutes)")
    ap.add_argument("--nocost-only", action="store_true",
                    help="only the cost to programs without transactions")
    ap.add_argument("--tpcb-only", action="store_true",
                    help="only the multi-user TPC-B (about 13 minutes), "
                    "in txn-tpcb.txt (no json: the report's txn.json needs all)")
    ap.add_argument("--chapter5", action="store_true",
                    help=f"only the cost to others (figure 5-7), on chapter 5's "
                    f"{CH5_PROFILE} and {CH5_MEM} MB")
    args = ap.parse_args(argv)
    mem, stem = MEM, "txn"
    if args.chapter5:
        args.profile, args.nocost_only, mem, stem = CH5_PROFILE, True, CH5_MEM, "txn-ch5"
    if args.tpcb_only:
        stem = "txn-tpcb"
    start = time.monotonic()
    on = off = {}
    multi = {}
    if not args.nocost_only and not args.tpcb_only:
        on = throughput(args.profile, args.txns, "")
        off = throughput(args.profile, args.txns, GC_OFF)
    if not args.nocost_only:
        multi = {name: tpcb_multi(args.profile, kargs) for name, kargs in TPCB_KARGS}
    sweep = {}
    if args.sweep:
        for w, m in SWEEP:
            sweep[w, m] = throughput(args.profile, args.txns,
                                     f"txn_gcwait={w} txn_gcmin={m}", (1, 4, 16))
    cost = {}
    if not args.tpcb_only:
        subprocess.run(["make", "-s", "build/kernel-notxn"], cwd=TOP, check=True)
        cost = nocost(args.profile, mem=mem)
    report = table(on, off, sweep, cost, args.profile, args.txns, mem, multi)
    footer = f"benchmark took {time.monotonic() - start:.0f} s"
    print("\n" + report + "\n", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    txt, png = args.out / f"{stem}.txt", args.out / f"{stem}.png"
    txt.write_text(report + "\n\n" + footer + "\n")
    if args.tpcb_only:
        print(f"{footer}\nwrote {txt}")
        return 0
    if on:
        plot(on, off, png)
    js = write_json(args, "txn", json_tables(on, off, sweep, cost, multi), mem=mem,
                    runs={"throughput": 1, "no cost": NOCOST_RUNS} if on else NOCOST_RUNS,
                    plots={png.name: []} if on else {}, stem=stem)
    print(f"{footer}\nwrote {txt} and {js.name}" + (f" and {png.name}" if on else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
