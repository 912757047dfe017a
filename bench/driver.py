"""What every benchmark driver shares: its command line (--profile, the
drive of qemu/drivemodel.py; --out, where its report and plots go), its
plots (matplotlib drawing to files only), and its machine-readable results.

Results: beside its text, a driver writes NAME.json (write_json), which
bench/report.py turns into doc/results.md.  The file holds the run's
metadata and the driver's tables, each a list of cells:

    {"schema": 1, "driver": "tpcb",
     "meta": {"commit", "dirty", "date", "elapsed_s", "profile", "drive",
              "ctrl_ms", "guest_mem_mb", "options", "runs", "loadavg", "cpus"},
     "tables": [{"id": "table 7-9", "title": ..., "unit": "TPS",
                 "cells": [{"row": "FFS", "col": "TPS", "ours": 13.2, "sd": 0.3,
                            "n": 3, "thesis": 14.2, "thesis_sd": null,
                            "unit": null, "note": null}, ...]}, ...],
     "plots": {"tpcb.png": ["table 7-9", "figure 5-6"]}}

A table's rows are the things compared (file systems, configurations), its
columns the measures; id names the thesis table or figure it reproduces (null:
ours alone).  sd is the standard deviation over n runs; thesis is the
thesis' figure where the driver knows it (note says where a number comes
from the thesis' text rather than a table).
"""
from __future__ import annotations

import argparse
import datetime
import functools
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional, Union

from qemu import drivemodel, turnaround

TOP = Path(__file__).resolve().parent.parent
SCHEMA = 1
# Each driver runs in an interpreter of its own and imports this first, so
# these are its start and the host's load before the benchmark added to it.
STARTED = time.time()
LOAD_BEFORE = os.getloadavg()


def parser(doc: str) -> argparse.ArgumentParser:
    """The driver's argument parser, described by its docstring's first
    paragraph, with --profile and --out; the driver adds its own."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--profile", default="hp97560", choices=drivemodel.profile_names())
    ap.add_argument("--out", type=Path, default=TOP / "build" / "bench",
                    help="where the report and the plots go (build/bench)")
    return ap


def plotter(fn):
    """A driver's plot function: where this Python has no matplotlib it
    says which plot is missing and returns, so the tables still come."""
    @functools.wraps(fn)
    def draw(*args, **kwargs):
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print(f"{sys.executable} has no matplotlib: {fn.__module__}."
                  f"{fn.__name__} not drawn", file=sys.stderr)
            return None
        return fn(*args, **kwargs)
    return draw


def pyplot():
    """matplotlib.pyplot drawing to files only (no display)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def savefig(fig, path: Path) -> None:
    """Lay the figure out, write it to path, and let it go."""
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    pyplot().close(fig)


# ----- machine-readable results -----------------------------------------------------

Number = Union[int, float]


def num(x: Optional[Number]) -> Optional[Number]:
    """A figure for JSON: six significant digits; NaN and infinity (a ratio
    over nothing) become null."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return None
    return x if isinstance(x, int) else float(f"{x:.6g}")


def cell(row: str, col: str, ours: Optional[Number], sd: Optional[Number] = None,
         n: int = 1, thesis: Optional[Number] = None, thesis_sd: Optional[Number] = None,
         unit: Optional[str] = None, note: Optional[str] = None) -> dict:
    """One figure of a table: ours (mean of n runs, sd their spread) and the
    thesis'; unit only where it differs from the table's."""
    return {"row": row, "col": col, "ours": num(ours), "sd": num(sd), "n": n,
            "thesis": num(thesis), "thesis_sd": num(thesis_sd), "unit": unit,
            "note": note}


def why_failed(e: Exception, limit: int = 300) -> str:
    """Why a guest command failed, in one line: the command and its status
    (a GuestError's first line) and the last two lines it printed, where a
    program says why (tpcb: "transaction 812: No space left on device")."""
    lines = [ln.strip() for ln in str(e).split("\n") if ln.strip()]
    tail = lines[1:][-2:]
    return " ".join(lines[:1] + (["..."] if len(lines) > 3 else []) + tail)[:limit]


def results_table(thesis_id: Optional[str], title: str, unit: str,
                  cells: list[dict]) -> dict:
    """A table of cells; thesis_id is the thesis' ("table 7-3", "figure 5-6"),
    None for a table of ours alone."""
    return {"id": thesis_id, "title": title, "unit": unit, "cells": cells}


def git_commit() -> tuple[Optional[str], Optional[bool]]:
    """The tree's commit and whether tracked files had changes (which the
    figures then measured too); (None, None) outside a git checkout."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=TOP, capture_output=True, text=True,
                              check=True).stdout.strip()
    try:
        return git("rev-parse", "HEAD"), bool(git("status", "--porcelain",
                                                  "--untracked-files=no"))
    except (OSError, subprocess.CalledProcessError):
        return None, None


def metadata(args: argparse.Namespace, mem: Union[int, dict[str, int]],
             runs: Union[int, dict[str, int]]) -> dict:
    """What a reader needs to trust or repeat a run: the tree, the drive,
    the guest, the options and how loaded the host was."""
    prof = drivemodel.get_profile(args.profile)
    commit, dirty = git_commit()
    options = {k: str(v) if isinstance(v, Path) else v
               for k, v in vars(args).items() if k != "out"}
    return {"commit": commit, "dirty": dirty,
            "date": datetime.datetime.fromtimestamp(STARTED, datetime.timezone.utc)
            .isoformat(timespec="seconds"),
            "elapsed_s": round(time.time() - STARTED),
            "profile": prof.name, "drive": prof.description,
            "ctrl_ms": prof.mechanism.ctrl_ms if prof.mechanism else None,
            # the host's share per command the drive forgave (DRIVE.md P8)
            "host_us": turnaround.calibrated_host_us() if prof.timed else 0.0,
            "guest_mem_mb": mem, "options": options, "runs": runs,
            "loadavg": {"start": [round(x, 2) for x in LOAD_BEFORE],
                        "end": [round(x, 2) for x in os.getloadavg()]},
            "cpus": os.cpu_count()}


def write_json(args: argparse.Namespace, driver: str, tables: list[dict], *,
               mem: Union[int, dict[str, int]], runs: Union[int, dict[str, int]],
               plots: Optional[dict[str, list[str]]] = None,
               stem: Optional[str] = None) -> Path:
    """Write args.out/STEM.json (stem: the driver's name, unless its text
    file has another); plots maps each of the driver's plot files to the
    thesis tables and figures it shows."""
    doc = {"schema": SCHEMA, "driver": driver, "meta": metadata(args, mem, runs),
           "tables": tables, "plots": plots or {}}
    path = args.out / f"{stem or driver}.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n")
    tmp.replace(path)           # whole or not at all, should the driver die
    return path
