"""Compiling the file-system tools (usr.sbin/) for the host tests the
way the Makefile does, and running them.  Each tool is its own sources
plus the Makefile's TOOLSHARED list, read from the Makefile so the two
never disagree.  Extra compiler flags (say -fsanitize=address,undefined) come from the
environment variable the caller names."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def shared_sources() -> list[str]:
    text = (ROOT / "Makefile").read_text()
    m = re.search(r"^TOOLSHARED\s*:=\s*(.*)$", text, re.M)
    assert m, "the Makefile lost its TOOLSHARED line"
    return m.group(1).split()


def build_tools(out: Path, tools: list[str] | tuple[str, ...],
                flags_env: str) -> Path:
    extra = os.environ.get(flags_env, "").split()
    for tool in tools:
        srcs = sorted(str(p.relative_to(ROOT))
                      for p in (ROOT / "usr.sbin" / tool).glob("*.c"))
        cmd = ["gcc", "-O2", "-g", "-Wall", "-Werror", "-iquote", ".",
               "-DHOSTBUILD", *extra, "-o", str(out / tool), *srcs,
               *shared_sources()]
        subprocess.run(cmd, cwd=ROOT, check=True)
    return out


def run(bindir: Path, tool: str, *args: object,
        expect: int | None = 0) -> subprocess.CompletedProcess[str]:
    """Run a built tool; with expect, its exit status must be that."""
    p = subprocess.run([str(bindir / tool), *map(str, args)],
                       capture_output=True, text=True, timeout=120,
                       stdin=subprocess.DEVNULL)
    if expect is not None:
        assert p.returncode == expect, (
            f"{tool} {args}: exit {p.returncode}, wanted {expect}\n"
            f"stdout:\n{p.stdout[-4000:]}\nstderr:\n{p.stderr}")
    return p
