"""Host tests of the reproduction report (bench/report.py): no guest, no timing.

Every driver's json_tables is given made-up results and written by
bench.driver.write_json as the driver writes it; the report must take them
all, show each thesis table they cover with the right ratios, say where the
shape matches and where not, list what no driver covers, and refuse a
malformed file by naming the file and the field at fault.  The figures are
invented: nothing here says how fast anything is.
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from bench import (andrew, bigfile, cleaner, fs_bandwidth, oo1, raw_disk, recovery, report,
                   small_files, supercomputer, tpcb, txn, wisconsin)
from bench.driver import cell, results_table, write_json
from bench.report import fmt

KB = raw_disk.SIZES_KB
try:
    import matplotlib  # noqa: F401
    HAVE_MATPLOTLIB = True
except ImportError:
    HAVE_MATPLOTLIB = False


def args(out: Path, **options) -> argparse.Namespace:
    return argparse.Namespace(profile="hp97560", out=out, **options)


# ----- made-up results, one per driver -----------------------------------------------

def raw_disk_json(out: Path) -> None:
    seq = [raw_disk.SeqPoint(op, kb * 1024, 0.5 + kb / 1000, 64, 30, 2000, 1.2, 1.1)
           for op in ("r", "w") for kb in KB]
    res = raw_disk.Results("hp97560", seq, [raw_disk.AccessPoint("random", 300, 23.0, 22.8,
                                                                  40, 22.9, 23.1),
                                             raw_disk.AccessPoint("stroke", 100, 40.0, 39.8,
                                                                  40, 39.5, 39.9)])
    write_json(args(out), "raw_disk", raw_disk.json_tables(res), mem=64, runs=1,
               plots={"raw_disk.png": []})


def fs_bandwidth_json(out: Path) -> None:
    P = fs_bandwidth.Pass
    res = fs_bandwidth.Results("hp97560")
    speed = {"FFS": 0.3, "EFS": 1.5, "LFS": 1.2}
    for op in fs_bandwidth.OPS:
        for kb in KB:
            res.raw[op, kb] = P(1.4, 64)
            for name, mbps in speed.items():
                res.fs[name, op, kb] = P(mbps, 1000, int(4e6 / mbps))
    for name, (_, gaps) in fs_bandwidth.SWEEPS.items():
        for ms in gaps:
            for op in fs_bandwidth.OPS:
                res.sweep[name, ms, op] = P(0.4, 1000, 10_000_000 - abs(ms - 4) * 100_000)
    res.accum = {"FFS": (900_000, 1_100_000), "EFS": (300_000, 80_000),
                 "LFS": (60_000, 330_000)}     # figure 7-2: writes, fsync
    write_json(args(out), "fs_bandwidth", fs_bandwidth.json_tables(res, 4 << 20), mem=64,
               runs=1, plots={"fs_bandwidth.png": ["figure 7-1", "figure 7-4"]})


def small_files_json(out: Path) -> None:
    res = {("FFS", "create"): 20.0, ("FFS", "read"): 100.0, ("FFS", "delete"): 25.0,
           ("EFS", "create"): 21.0, ("EFS", "read"): 101.0, ("EFS", "delete"): 26.0,
           ("LFS", "create"): 300.0, ("LFS", "read"): 75.0, ("LFS", "delete"): 400.0}
    write_json(args(out, files=2000), "small_files", small_files.json_tables(res, 2000),
               mem=64, runs=1, plots={"small_files.png": ["figure 7-5"]})


def recovery_json(out: Path) -> None:
    rows = {kb: (kb // 256, kb // 10, 1.0 + kb / 1e4) for kb in recovery.AMOUNTS_KB}
    fsck = {kb: 2.0 for kb in recovery.AMOUNTS_KB}
    write_json(args(out), "recovery", recovery.json_tables(rows, fsck), mem=64, runs=1)


def phase(real: float) -> andrew.Phase:
    io = dict.fromkeys(andrew.IOKEYS, 0.0)
    io.update(reads=40.0, writes=50.0, swrites=45.0)
    return andrew.Phase(real, real / 2, io)


# Seconds per phase, ordered among the file systems as table 7-3 orders them.
ANDREW = {"FFS": (1.0, 4.0, 0.1, 0.2, 20.0), "EFS": (1.0, 4.0, 0.1, 0.2, 20.0),
          "LFS": (0.2, 2.5, 0.1, 0.2, 19.0), "LFSC": (0.2, 2.5, 0.1, 0.2, 19.0)}


def andrew_json(out: Path) -> None:
    single = andrew.Single(lfsc_mb=16, lfsc_written_mb=33)
    for name, secs in ANDREW.items():
        single.runs[name] = [{n: phase(s * k) for n, s in zip(andrew.PHASES, secs)}
                             for k in (0.9, 1.1)]
    users = [1, 2]
    multi = {(name, n): [25.0 - n] for name in andrew.SYSTEMS for n in users}
    write_json(args(out, runs=2), "andrew",
               andrew.json_single(single) + andrew.json_multi(multi, users),
               mem={"single-user": 16, "multi-user": 48},
               runs={"single-user": 2, "multi-user": 1},
               plots={"andrew.png": ["table 7-3"], "andrew_multi.png": ["figure 7-6"]})


def bigfile_json(out: Path) -> None:
    res = {(name, s, ph): (10.0, 1, 2) for name in ("FFS", "EFS", "LFS")
           for s in bigfile.QUICK_SETS for ph in bigfile.ROWS}
    write_json(args(out), "bigfile", bigfile.json_tables(res, bigfile.QUICK_SETS), mem=16,
               runs=1, plots={"bigfile.png": []})


def txn_json(out: Path) -> None:
    on = {p: (20.0 * p, 50.0, 1.5) for p in txn.PROCS}
    off = {p: (10.0 * p, 90.0, 1.0) for p in txn.PROCS}
    cost = {k: {name: [1.0, 1.02, 0.98] for name in txn.NOCOST_NAMES}
            for k in ("with", "without")}
    write_json(args(out), "txn", txn.json_tables(on, off, {}, cost), mem=64,
               runs={"throughput": 1, "no cost": 3}, plots={"txn.png": []})


def txn_ch5_json(out: Path) -> None:
    """python3 -m bench.txn --chapter5: figure 5-7 only, on the RZ55."""
    cost = {k: {name: [2.0, 2.04, 1.96] for name in txn.NOCOST_NAMES}
            for k in ("with", "without")}
    write_json(argparse.Namespace(profile=tpcb.CH5_PROFILE, out=out), "txn",
               txn.json_tables({}, {}, {}, cost), mem=tpcb.CH5_MEM, runs=3, stem="txn-ch5")


def cleaner_counters(before: bool) -> dict[str, int]:
    k = 0 if before else 1
    return {"cleaner_segs_cleaned": 10 * k, "cleaner_segs_empty": 2 * k,
            "blocks": 1000 * k, "blocks_clean": 600 * k, "cleaner_blocks_moved": 1400 * k,
            "segs_cleaned": 10 * k, "cleaner_blocks_read": 2000 * k}


TPS = {"FFS": 13.2, "EFS": 14.3, "LFS": 21.5, "LFS-C1M": 4.5, "LFS-C256K": 3.4,
       "LFS-K": 18.2}


def tpcb_results(configs) -> dict[str, tpcb.Result]:
    res = {}
    for name in configs:
        tps = TPS[name]
        r = tpcb.Result(name, tps=[tps * 0.98, tps, tps * 1.02], runs_txns=[200] * 3)
        if name in ("LFS-C1M", "LFS-C256K"):
            r.lfs = [cleaner_counters(True), cleaner_counters(False)]
        if name in tpcb.SCANNED:
            r.scan0, r.scan1, r.n_scan = 10.0, {"LFS": 100.0}.get(name, 10.0), 1100
        res[name] = r
    return res


def tpcb_json(out: Path) -> None:
    write_json(args(out, scale=1, runs=3), "tpcb", tpcb.json_tables(tpcb_results(TPS)),
               mem=16, runs=3, plots={"tpcb.png": ["table 7-9"]})


def tpcb_ch5_json(out: Path) -> None:
    """python3 -m bench.tpcb --chapter5: chapter 5's figures only, on the RZ55."""
    res = tpcb_results(tpcb.CH5_CONFIGS.split(","))
    write_json(argparse.Namespace(profile=tpcb.CH5_PROFILE, out=out, scale=1, runs=3),
               "tpcb", tpcb.json_tables(res, chapter5=True), mem=tpcb.CH5_MEM, runs=3,
               stem="tpcb-ch5", plots={"tpcb-ch5.png": ["figure 5-6"]})


def cleaner_json(out: Path) -> None:
    res = {}
    for pct in (60, 70, 80, 90):
        for policy in cleaner.POLICIES:
            r = tpcb.Result("LFS-C1M", tps=[10.0, 11.0], runs_txns=[200] * 2, df="x 80% /mnt")
            r.lfs = [cleaner_counters(True), cleaner_counters(False)]
            res[pct, policy] = r
    res[90, "greedy"] = "tpcb -i: No space left on device"
    write_json(args(out, scale=1, runs=2), "cleaner", cleaner.json_tables(res), mem=16,
               runs=2, plots={"cleaner.png": []})


def supercomputer_json(out: Path) -> None:
    sc = supercomputer
    cfg = sc.config(args(out, apps="bvi,ccm,les,venus", thesis=False, size_mb=0, count=0,
                         runs=2))
    res = {}
    for fs, speed in (("FFS", 1.0), ("EFS", 2.0), ("LFS", 2.5)):
        for a in cfg.apps:
            app = sc.APPS[a]
            kinds = {"read": sc.Kind(10, 10 * app.rsize, int(1e6 / speed), 20_000),
                     "write": sc.Kind(5, 5 * app.wsize, int(4e5 / speed), 10_000)}
            io = dict.fromkeys(andrew.IOKEYS, 100.0)
            r = sc.Result(create_s=10.0, create_fsync_s=1.0,
                          runs=[sc.Run(kinds, 100_000, io)] * cfg.runs,
                          io_before=dict.fromkeys(andrew.IOKEYS, 0.0),
                          io_after=dict.fromkeys(andrew.IOKEYS, 5000.0))
            if fs == "LFS":
                r.lfs_before = {"cleaner_segs_empty": 0, "cleaner_segs_cleaned": 0,
                                "cleaner_blocks_moved": 0, "blocks": 0, "blocks_moved": 0}
                r.lfs_after = {"cleaner_segs_empty": 7, "cleaner_segs_cleaned": 2,
                               "cleaner_blocks_moved": 150, "blocks": 2000,
                               "blocks_moved": 150}
            res[fs, a] = r
    write_json(args(out, runs=2), "supercomputer", sc.json_tables(res, cfg), mem=16,
               runs=2, plots={"supercomputer.png": ["table 7-11"]})


def oo1_json(out: Path) -> None:
    res = {}
    for name, scale in (("FFS", 1.0), ("EFS", 0.97), ("LFS", 1.02)):
        s = oo1.System(sizes={rel: (n, int(mb * 1e6)) for rel, (_, _, n, mb)
                              in oo1.THESIS_SIZES.items()}, load_s=40.0)
        for k in range(2):
            s.runs.append({t: oo1.Test((10.0 + k) * scale, 1000, 1, 900, 600, 10, 8.0, 0.5)
                           for t in oo1.TESTS})
        res[name] = s
    write_json(args(out, parts=20000, runs=2), "oo1", oo1.json_tables(res, 2), mem=16,
               runs=2, plots={"oo1.png": ["table 7-5"]})


def wisconsin_json(out: Path) -> None:
    io = {k: 10.0 for k in andrew.IOKEYS}
    res = {}
    for k, name in enumerate(("FFS", "EFS", "LFS")):
        r = wisconsin.FsResult(load_s=10.0, files={"tenktup1": (2000, 92, 736),
                                                   "tenktup1.u1": (2000, 7, 56)})
        for q in range(1, wisconsin.NQUERIES + 1):
            r.samples[q] = [wisconsin.Sample(1.0 + k + q, wisconsin.expected_rows(q, 2000),
                                             (0, 0), 50, 5, dict(io, writes=10.0 + k),
                                             2.0, [4096, 8192, 65536])
                            for _ in range(2)]
        res[name] = r
    qs = list(range(1, wisconsin.NQUERIES + 1))
    write_json(args(out, tuples=2000), "wisconsin", wisconsin.json_tables(res, qs, 2000),
               mem=16, runs=2, plots={"wisconsin.png": ["table 7-8"]})


WRITERS = (raw_disk_json, fs_bandwidth_json, small_files_json, recovery_json, andrew_json,
           bigfile_json, txn_json, txn_ch5_json, tpcb_json, tpcb_ch5_json, cleaner_json,
           supercomputer_json, oo1_json, wisconsin_json)


@pytest.fixture
def results(tmp_path: Path) -> Path:
    """build/bench as make bench leaves it, every driver's JSON in it."""
    out = tmp_path / "bench"
    out.mkdir()
    for write in WRITERS:
        write(out)
    return out


def make_report(indir: Path, tmp_path: Path) -> str:
    doc = tmp_path / "doc" / "results.md"
    doc.parent.mkdir(exist_ok=True)
    assert report.main(["--in", str(indir), "--doc", str(doc)]) == 0
    return doc.read_text()


def section(text: str, heading: str) -> str:
    """The text under a heading, to the next heading of its level or above."""
    level = heading.split()[0]
    start = text.index(heading + "\n")
    rest = text[start + len(heading):]
    m = re.search(rf"^#{{1,{len(level)}}} ", rest, re.M)
    return rest[:m.start()] if m else rest


def row(text: str, *first: str) -> list[str]:
    """The cells of the markdown table row that begins with the cells first."""
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[:len(first)] == list(first):
            return cells
    raise AssertionError(f"no row {first} in:\n{text}")


# ----- the tests ---------------------------------------------------------------------

COVERED = [e for e in report.CATALOGUE if e.driver and not e.same_as]


def test_every_driver_is_taken_and_every_covered_table_shown(results, tmp_path):
    text = make_report(results, tmp_path)
    for e in COVERED:
        heading = f"### {e.id.capitalize()}: {e.title} ({e.section})"
        assert heading in text, f"{e.id} ({e.driver}) missing from the report"
        assert "**Shape" in section(text, heading)
    runs = section(text, "## The runs")
    for write in WRITERS:
        assert f"`{write.__name__[:-5].replace('_ch5', '-ch5')}.json`" in runs


def test_ratios_are_ours_over_the_thesis(results, tmp_path):
    text = make_report(results, tmp_path)
    t79 = section(text, "### Table 7-9: TPC-B performance results (7.8)")
    cells = row(t79, "FFS", "TPS")
    assert cells[2] == "14.20"                             # the thesis' figure
    assert cells[3].startswith("13.20 (")                  # ours, with its s.d.
    assert cells[5] == f"{13.2 / 14.2:.2f}"
    ratio = row(t79, "LFS/FFS", "TPS")                     # a ratio of ratios
    assert ratio[2] == fmt(19.3 / 14.2) and ratio[3] == fmt(21.5 / 13.2)
    assert ratio[5] == f"{(21.5 / 13.2) / (19.3 / 14.2):.2f}"

    t73 = section(text, "### Table 7-3: Single-user Andrew benchmark results (7.5.1)")
    total = sum(ANDREW["LFS"]) / sum(ANDREW["FFS"])
    cells = row(t73, "LFS/FFS", "Total")
    assert cells[2] == fmt(63.8 / 70.1) and cells[3] == fmt(total)
    assert cells[5] == f"{total / (63.8 / 70.1):.2f}"
    assert row(t73, "FFS", "5 Make")[2] == "44.80 (0.40)"  # the thesis' mean (s.d.)

    f59 = section(text, "### Figure 5-9: Elapsed time for combined benchmark (5.3.3)")
    even = (100.0 - 10.0) / (1 / 13.2 - 1 / 21.5)
    cells = row(f59, "LFS vs FFS, LFS's TPS", "break-even")
    assert cells[2] == "134,300" and cells[3] == f"{even:,.0f}"


def test_supercomputer_sizes_and_throughputs(results, tmp_path):
    text = make_report(results, tmp_path)
    t710 = section(text, "### Table 7-10: Supercomputer applications I/O characteristics "
                   "(7.9)")
    # bvi's W: 29,562 bytes from the formula, the thesis' "29.6 KB" as 29,600
    assert row(t710, "BVI", "average write size")[2:4] == ["29,600", "29,562"]
    t711 = section(text, "### Table 7-11: Performance of the supercomputer benchmark (7.9)")
    cells = row(t711, "FFS", "read throughput")     # the first table: BVI
    assert cells[2] == "206.02"
    assert cells[3].startswith(f"{10 * supercomputer.APPS['bvi'].rsize / 1024:.2f} (")
    cleaner = row(t711, "LFS", "empty segments' share of those cleaned")
    assert cleaner[2] == "0.780" and cleaner[3] == "0.778"      # 28 of 36


def test_the_shape_line_says_where_ours_differs(results, tmp_path):
    text = make_report(results, tmp_path)
    # Made-up LFS reads slower than FFS, as the thesis says: LFS/FFS < 1 both.
    f75 = section(text, "### Figure 7-5: Small file performance (7.4)")
    assert "**Shape: matches.**" in f75
    # Made-up EFS is 8% ahead of FFS on TPC-B, the thesis' 18%: both ">".
    # Made-up LFS-C1M is behind LFS-C256K, the thesis has it the other way.
    t79 = section(text, "### Table 7-9: TPC-B performance results (7.8)")
    assert "**Shape: differs**" in t79
    assert "TPS: thesis LFS-C1M < LFS-C256K, ours LFS-C1M > LFS-C256K" in t79


def test_shape_rules():
    def t(unit, *cells):
        return results_table("table 7-9", "t", unit, [cell(r, "c", o, thesis=th)
                                                      for r, o, th in cells])
    same = t("TPS", ("FFS", 10, 14), ("EFS", 12, 17), ("LFS", 20, 19))
    assert report.shape([same]) == (3, [])
    # within 5% is equal: the thesis' FFS and EFS tie, ours must too
    tie = t("s", ("FFS", 10, 2.10), ("EFS", 13, 2.10))
    assert report.shape([tie]) == (1, ["c: thesis FFS ≈ EFS, ours FFS < EFS"])
    # a ratio is judged by its side of 1
    side = t("ratio", ("LFS/FFS", 0.8, 0.7), ("EFS/FFS", 1.2, 1.0))
    made, wrong = report.shape([side])
    assert made == 2 and wrong == ["EFS/FFS c: thesis 1.00 (≈ 1), ours 1.20 (> 1)"]


def test_what_is_missing_is_listed(results, tmp_path):
    text = make_report(results, tmp_path)
    missing = section(text, "## Not covered yet")
    # figures 5-8 and 5-9 are drawn from TPC-B's tables, as the thesis drew
    # them, once for each run: chapter 7's and chapter 5's configurations
    for thesis_id in ("Figure 5-8", "Figure 5-9"):
        assert f"- {thesis_id} (" not in missing, thesis_id
        title = next(e.title for e in report.CATALOGUE if e.id == thesis_id.lower())
        for stem in ("tpcb", "tpcb-ch5"):
            name = f"{thesis_id.lower().replace(' ', '-')}-{stem}.png"
            fig = section(text, f"### {thesis_id}: {title} (5.3.3)")
            if not HAVE_MATPLOTLIB:     # the tables stand, and say so
                assert "no matplotlib here" in fig
                continue
            assert f"(results/{name})" in fig
            assert (tmp_path / "doc" / "results" / name).read_bytes()[:4] == b"\x89PNG"
    # the chapter-5 runs are in these results: nothing is wanted
    assert "Wanted beside them" not in text
    # the cleaner's cost curve has a driver now: ours alone
    assert "cost curve" not in missing and "### `cleaner`" in section(text, "## Ours alone")
    # covered now: figure 7-2 (fs_bandwidth's write and fsync phases), OO1's,
    # Wisconsin's and the supercomputer benchmark's tables
    assert "- Figure 7-2 (" not in missing and "### Figure 7-2" in text
    for thesis_id in ("Table 7-4", "Table 7-5", "Table 7-6", "Table 7-7", "Table 7-8",
                      "Table 7-10", "Table 7-11"):
        assert f"- {thesis_id} (" not in missing and f"### {thesis_id}" in text, thesis_id


def test_chapter5_is_compared_in_chapter_5_only(results, tmp_path):
    """tpcb --chapter5's figures sit beside chapter 7's run in figures 5-6,
    5-8 and 5-9, its drive and memory in the runs table, and it adds
    nothing to table 7-9."""
    text = make_report(results, tmp_path)
    runs = section(text, "## The runs")
    assert row(runs, "`tpcb-ch5.json`")[3].startswith("rz55") and \
        row(runs, "`tpcb-ch5.json`")[4] == "32"
    fig56 = section(text, "### Figure 5-6: Transaction performance summary (5.3.1)")
    assert "from `tpcb-ch5.json`" in fig56 and "from `tpcb.json`" in fig56
    assert "tpcb-ch5" not in section(text, "### Table 7-9: TPC-B performance results (7.8)")
    fig57 = section(text, "### Figure 5-7: Performance impact of kernel transaction "
                          "support (5.3.2)")
    assert "from `txn-ch5.json`" in fig57 and "from `txn.json`" in fig57
    assert "rz55" in fig57


def test_tpcb_refuses_an_unknown_configuration(capsys):
    """A misspelt --configs is named before any guest boots."""
    with pytest.raises(SystemExit) as e:
        tpcb.main(["--chapter5", "--configs", "FFS,LFS-X"])
    assert e.value.code == 2
    assert "no configuration LFS-X" in capsys.readouterr().err


def test_a_failed_tpcb_configuration_is_reported_beside_the_others(tmp_path):
    """A configuration that gave no figure (bench/tpcb.py goes on to the next)
    is named in the report with why, and the others' figures are kept."""
    out = tmp_path / "bench"
    out.mkdir()
    res = tpcb_results(["FFS", "EFS", "LFS"])
    why = "transaction 8191: No space left on device"
    write_json(args(out, scale=1, runs=3), "tpcb",
               tpcb.json_tables(res, failed={"LFS-C256K": why}), mem=16, runs=3)
    text = make_report(out, tmp_path)
    assert row(section(text, "### Table 7-9: TPC-B performance results (7.8)"),
               "LFS", "TPS")[3].startswith("21.50 (")
    alone = section(text, "### `tpcb`")
    assert "*Configurations that failed* (TPS)" in alone
    assert row(alone, "LFS-C256K") == ["LFS-C256K", fmt(None)]
    assert f"- LFS-C256K, TPS: failed: {why}" in alone


def test_a_driver_that_did_not_run_is_named(tmp_path):
    out = tmp_path / "bench"
    out.mkdir()
    tpcb_json(out)
    text = make_report(out, tmp_path)
    missing = section(text, "## Not covered yet")
    assert "`python3 -m bench.andrew` measures it" in missing
    assert "### Table 7-9" in text and "### Table 7-3" not in text
    wanted = section(text, "Wanted beside them (issue 27):")
    assert "`python3 -m bench.tpcb --chapter5`" in wanted
    assert "`python3 -m bench.txn --chapter5`" in wanted


def test_results_are_kept_and_a_driver_run_again_replaces_only_its_own(results, tmp_path):
    (results / "tpcb.png").write_bytes(b"\x89PNG first")
    first = make_report(results, tmp_path)
    kept = tmp_path / "doc" / "results" / "data"
    assert sorted(p.name for p in kept.glob("*.json")) == sorted(
        p.name for p in results.glob("*.json"))
    assert (kept / "tpcb.png").read_bytes() == b"\x89PNG first"
    # A fresh clone: nothing in build/bench, the same document from what is kept.
    empty = tmp_path / "empty"
    empty.mkdir()
    assert make_report(empty, tmp_path) == first
    # One driver run again: its part changes, the others stay.
    again = tmp_path / "again"
    again.mkdir()
    tpcb_json(again)
    corrupt(again / "tpcb.json", lambda d: d["meta"].update(date="2030-01-01T00:00:00+00:00"))
    text = make_report(again, tmp_path)
    assert "2030-01-01" in text and "### Table 7-3" in text
    assert not (kept / "tpcb.png").exists()    # the new run drew none
    assert "`tpcb.png` is not in the results" in text


def corrupt(path: Path, change) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(schema=2), "tpcb.json: schema: expected schema 1"),
    (lambda d: d["meta"].pop("profile"), "tpcb.json: meta: no 'profile'"),
    (lambda d: d["tables"][0]["cells"][1].update(ours="fast"),
     "tpcb.json: tables[0].cells[1].ours: expected a number or null, got 'fast'"),
    (lambda d: d["tables"][2].update(cells={}),
     "tpcb.json: tables[2].cells: expected a list of cells"),
    (lambda d: d["tables"][0]["cells"][0].update(n=0),
     "tpcb.json: tables[0].cells[0].n: expected a run count of 1 or more"),
    (lambda d: d["tables"][0]["cells"][0].update(thesis=float("nan")),
     "tpcb.json: tables[0].cells[0].thesis: expected a number or null, got nan"),
])
def test_a_malformed_file_is_refused(results, tmp_path, capsys, change, message):
    corrupt(results / "tpcb.json", change)
    doc = tmp_path / "results.md"
    assert report.main(["--in", str(results), "--doc", str(doc)]) == 2
    assert message in capsys.readouterr().err
    assert not doc.exists()


def test_not_json_and_no_results_are_refused(results, tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert report.main(["--in", str(empty), "--doc", str(tmp_path / "r.md")]) == 2
    assert "no results (*.json)" in capsys.readouterr().err
    (results / "txn.json").write_text('{"schema": 1, "driver": ')
    assert report.main(["--in", str(results), "--doc", str(tmp_path / "r.md")]) == 2
    assert "txn.json: not a JSON file" in capsys.readouterr().err


def test_metadata(results):
    meta = json.loads((results / "tpcb.json").read_text())["meta"]
    assert meta["profile"] == "hp97560" and meta["ctrl_ms"] == 2.2
    assert meta["guest_mem_mb"] == 16 and meta["runs"] == 3
    assert meta["options"] == {"profile": "hp97560", "scale": 1, "runs": 3}
    assert len(meta["loadavg"]["start"]) == 3 and re.match(r"\d{4}-\d\d-\d\dT", meta["date"])
    assert meta["commit"] is None or re.fullmatch(r"[0-9a-f]{40}", meta["commit"])


def test_plots_are_copied_and_the_document_is_stable(results, tmp_path):
    (results / "tpcb.png").write_bytes(b"\x89PNG made up")
    first = make_report(results, tmp_path)
    plots = tmp_path / "doc" / "results"
    assert (plots / "tpcb.png").read_bytes() == b"\x89PNG made up"
    assert "![tpcb: tpcb.png](results/tpcb.png)" in section(
        first, "### Table 7-9: TPC-B performance results (7.8)")
    assert "`andrew.png` is not in the results" in first
    assert make_report(results, tmp_path) == first


def test_ratio_plots_where_matplotlib_is(results, tmp_path):
    pytest.importorskip("matplotlib")
    text = make_report(results, tmp_path)
    assert (tmp_path / "doc" / "results" / "table-7-9-ratio.png").stat().st_size > 0
    assert "(results/table-7-9-ratio.png)" in text
