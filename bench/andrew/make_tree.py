#!/usr/bin/python3
"""Assemble the Andrew benchmark's source tree (thesis 7.5.1) from the project's own
programs, once; the result is frozen in bench/andrew/tree and not rebuilt.

    bench/andrew/make_tree.py        (rewrites bench/andrew/tree and MANIFEST)

The original benchmark used a read-only tree of about 70 files and 200 KB; the thesis'
"100 synchronous writes" in phase 1 suggest 20 to 25 directories.  This one is 24
programs of our userland, each in a directory of its own with a Makefile, under a top
Makefile that makes them in turn: 25 directories, 67 files, about 213 KB.  Each
program compiles with the guest's cc against /usr/include and links with our libc.

MANIFEST lists every file of the tree with its size and the source it was copied
from.  The five phases are shell scripts written beside it, phase1.sh .. phase5.sh,
each taking the target directory as $1 (installed with the tree in the guest as
/usr/share/andrew), and andrew.sh runs all five, timing each with time(1):

  1 MakeDir  one mkdir of every directory of the tree
  2 Copy     one cp per file from /usr/share/andrew/tree
  3 ScanDir  ls -lR of the copy: every file's inode, no data
  4 ReadAll  grep for a string that is nowhere, through every file
  5 Make     make -s at the top of the copy: compile and link all 24 programs
  Keeping the tree frozen (rather than copying the sources at build time) keeps
the benchmark's input the same as the programs it came from change.
"""
from __future__ import annotations

import shutil
from pathlib import Path

TOP = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
TREE = HERE / "tree"

# directory in the tree -> the project's source folder
PROGRAMS = ["sh", "make", "ed", "ls", "cp", "find", "test", "dd", "sort", "printf",
            "chmod", "tr", "od", "grep", "cut", "more", "du", "tail", "wc", "rm",
            "mkdir", "mv", "cat", "head"]


def makefile(prog: str, sources: list[str]) -> str:
    objs = " ".join(s[:-2] + ".o" for s in sources if s.endswith(".c"))
    return (f"# {prog}: from the project's bin/{prog} (Andrew benchmark tree)\n"
            f"PROG = {prog}\nOBJS = {objs}\nCFLAGS = -O -I.\n\n"
            f"$(PROG): $(OBJS)\n\t$(CC) -o $@ $(OBJS)\n\n"
            f"clean:\n\trm -f $(PROG) $(OBJS)\n")


def main() -> None:
    if TREE.exists():
        shutil.rmtree(TREE)
    TREE.mkdir()
    manifest = []
    for prog in PROGRAMS:
        src = TOP / "bin" / prog
        d = TREE / prog
        d.mkdir()
        files = sorted(p.name for p in src.iterdir() if p.suffix in (".c", ".h"))
        for f in files:
            shutil.copy(src / f, d / f)
            manifest.append((f"{prog}/{f}", (d / f).stat().st_size, f"bin/{prog}/{f}"))
        (d / "Makefile").write_text(makefile(prog, files))
        manifest.append((f"{prog}/Makefile", (d / "Makefile").stat().st_size, "generated"))
    top = ("# The Andrew benchmark's tree: make every program in turn (phase 5).\n"
           "all:\n" + "".join(f"\tcd {p} && $(MAKE)\n" for p in PROGRAMS) +
           "\nclean:\n" + "".join(f"\tcd {p} && $(MAKE) clean\n" for p in PROGRAMS))
    (TREE / "Makefile").write_text(top)
    manifest.append(("Makefile", (TREE / "Makefile").stat().st_size, "generated"))
    total = sum(m[1] for m in manifest)
    lines = [f"# Andrew benchmark tree: {len(manifest)} files, {total} bytes, "
             f"{len(PROGRAMS) + 1} directories (bench/andrew/make_tree.py)",
             "# path\tbytes\tcopied from"]
    lines += [f"{p}\t{s}\t{o}" for p, s, o in manifest]
    (HERE / "MANIFEST").write_text("\n".join(lines) + "\n")
    write_phases([m[0] for m in manifest])
    print(lines[0])


SRC = "/usr/share/andrew/tree"


def write_phases(files: list[str]) -> None:
    head = "#!/bin/sh\n# Andrew benchmark phase {n}: {what} (bench/andrew/make_tree.py)\n"
    dirs = " ".join(["$1"] + [f"$1/{p}" for p in PROGRAMS])
    phases = {
        1: ("make the directory tree", f"mkdir {dirs}\n"),
        2: ("copy every file", "".join(f"cp {SRC}/{f} $1/{f}\n" for f in files)),
        3: ("examine every file's status", "ls -lR $1 > /dev/null\n"),
        4: ("read every byte", "".join(
            "grep andrew-finds-nothing " +
            " ".join(f"$1/{f}" for f in files if f.startswith(p + "/")) + "\n"
            for p in PROGRAMS) + "grep andrew-finds-nothing $1/Makefile\nexit 0\n"),
        5: ("compile and link", "cd $1 && make -s\n"),
    }
    for n, (what, body) in phases.items():
        (HERE / f"phase{n}.sh").write_text(head.format(n=n, what=what) + body)
    (HERE / "andrew.sh").write_text(
        "#!/bin/sh\n# andrew.sh DIR: the five phases of the Andrew benchmark on a copy\n"
        "# of the tree in DIR, each timed by time(1) on the standard error.\n"
        + "".join(f"echo andrew phase {n} >&2\ntime sh /usr/share/andrew/phase{n}.sh $1\n"
                  for n in phases))


if __name__ == "__main__":
    main()
