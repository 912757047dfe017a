"""The whatis file for man -k, from the mdoc sources' NAME sections.

    python3 share/man/makewhatis.py MANDIR share/man > MANDIR/whatis

One line per page, as 4.4BSD's makewhatis wrote them:

    txn_begin, txn_commit, txn_abort (2) - kernel transactions

Each name after the first also gets its catpage, a hard link to the
first's (MANDIR/catN/NAME.0), so that "man txn_commit" finds it.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path


def name_section(src: Path) -> tuple[list[str], str]:
    """The names (.Nm) and the one-line description (.Nd) of a page."""
    names: list[str] = []
    desc = ""
    inside = False
    for line in src.read_text().splitlines():
        if line.startswith(".Sh "):
            if inside:
                break
            inside = line.split(None, 1)[1].strip() == "NAME"
        elif inside and line.startswith(".Nm "):
            names.append(line.split()[1].replace("\\&", ""))
        elif inside and line.startswith(".Nd "):
            desc = line[4:].strip()
    return names, desc


def main(argv: list[str]) -> int:
    mandir, sources = Path(argv[1]), Path(argv[2])
    pages = [p for n in "1238" for p in (sources / f"man{n}").glob(f"*.{n}")]
    for src in sorted(pages, key=lambda p: p.name):
        sect = src.suffix[1:]
        names, desc = name_section(src)
        if not names or not desc:
            print(f"makewhatis: {src}: no .Nm or .Nd in NAME", file=sys.stderr)
            return 1
        first = mandir / f"cat{sect}" / f"{src.stem}.0"
        for name in names:
            other = first.with_name(f"{name}.0")
            if other != first:
                if other.exists():
                    other.unlink()
                os.link(first, other)
        print(f"{', '.join(names)} ({sect}) - {desc}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
