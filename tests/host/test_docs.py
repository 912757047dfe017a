"""The documents that map the tree: README's concept table is the one map
of the kernel's files (issue 24), so it must name every one of them."""
from __future__ import annotations

import fnmatch
import re
import subprocess

from tests.guest import TOP

KERNEL_DIRS = ("kern", "ufs", "ffs", "lfs", "compat", "conf")


def concept_table() -> str:
    """The rows of README's table under "Where things are"."""
    readme = (TOP / "README.md").read_text()
    lines = readme[readme.index("## Where things are"):].splitlines()
    first = next(i for i, l in enumerate(lines) if l.startswith("|"))
    end = next((i for i in range(first, len(lines))
                if not lines[i].startswith("|")), len(lines))
    return "\n".join(lines[first:end])


def named_paths(table: str) -> set[str]:
    """The paths the file column names; a bare name continues the folder
    of the path before it in its cell (`kern/a.c`, `b.c`)."""
    named = set()
    for row in table.splitlines():
        cells = row.split("|")
        if not row.startswith("|") or len(cells) < 4:
            continue
        folder = ""
        for name in re.findall(r"`([^`]+)`", cells[2]):
            name = name.split()[0].rstrip("/")
            if "/" in name:
                named.add(name)
                # a folder, or the folder of a file
                folder = name.rsplit("/", 1)[0] if "." in name.rsplit("/", 1)[1] \
                    else name
            elif folder and re.fullmatch(r"[\w.-]+\.(c|h|S|py|md)", name):
                named.add(f"{folder}/{name}")
    return named


def covered(path: str, named: set[str]) -> bool:
    return any(path == n or fnmatch.fnmatch(path, n) or path.startswith(n + "/")
               for n in named)


def test_readme_names_every_kernel_file():
    named = named_paths(concept_table())
    files = sorted(str(p.relative_to(TOP)) for d in KERNEL_DIRS
                   for p in (TOP / d).rglob("*")
                   if p.suffix in (".c", ".h", ".S"))
    missing = [f for f in files if not covered(f, named)]
    assert not missing, ("README's concept table does not name: "
                         + ", ".join(missing))


def test_the_table_names_only_files_that_exist():
    gone = [n for n in named_paths(concept_table())
            if "*" not in n and not (TOP / n).exists()]
    assert not gone, "README's concept table names files that are gone: " + \
        ", ".join(gone)


def test_kern_and_ufs_see_only_their_layers():
    """make layers: kern/ compiles against kern/ and sys/ alone, ufs/ with
    ufs/ added (README, "Where things are")."""
    r = subprocess.run(["make", "-s", "layers"], cwd=TOP, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "kern/ sees only kern sys" in r.stdout
