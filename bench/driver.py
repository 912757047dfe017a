"""What every benchmark driver shares: its command line (--profile, the
drive of qemu/drivemodel.py; --out, where its report and plots go) and
its plots (matplotlib drawing to files only)."""
from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from qemu import drivemodel

TOP = Path(__file__).resolve().parent.parent


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
