"""The course's labs: take a lab's code out of the tree, grade a tree, check
that every lab can be handed out.

    python3 -m labs.lab list                                   (make labs)
    python3 -m labs.lab strip NAME [--out DIR]                 (make lab LAB=NAME)
    python3 -m labs.lab grade NAME [--tree DIR] [--seed N]     (make grade LAB=NAME)
    python3 -m labs.lab check [NAME ...]                       (make labcheck)

A lab is a folder labs/NAME/ with its handout (README.md) and its manifest
(lab.toml: title, thesis sections, hours, and the tests with their points).
The code a student writes is marked in the reference tree, in place:

        /* LAB(NAME) begin */
        ... the reference implementation ...
        /* LAB(NAME) end, stub:
         *	return 0;
         */

strip copies the tree (the files git tracks) and puts, in place of each of
NAME's regions, a line naming the lab and the stub: code that compiles and
keeps the rest of the kernel working without doing the lab's work.  Other
labs' markers are dropped and their code kept.  The student's tree is a git
repository of its own with one commit, so `git diff` shows their work.

grade builds the tree, runs the lab's tests (pytest node ids) and commands
(shell lines, passing on exit status 0; "{seed}" in one is the seed, so an
instructor's hidden run can sample other crash points than the handout's),
prints the points and writes build/grade/NAME.json for an autograder.

check strips each lab in turn and grades every lab on the result: the
stripped lab must score nothing, every other lab full marks; then every lab
must score full marks on the reference tree.  A lab that fails this cannot
be handed out.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
LABS = TOP / "labs"

BEGIN = re.compile(r"^(\s*)/\* LAB\(([\w-]+)\) begin \*/\s*$")
END = re.compile(r"^\s*/\* LAB\(([\w-]+)\) end(, stub:)?( \*/)?\s*$")
STUB_END = re.compile(r"^\s*\*/\s*$")
STUB_LINE = re.compile(r"^\s*\*(.*)$")


class LabError(Exception):
    """A lab or a tree the tools cannot use; the message says where."""


# ----- what a lab is ----------------------------------------------------------------------

@dataclass
class Test:
    id: str                 # a pytest node id, or a shell command
    points: int
    command: bool = False


@dataclass
class Lab:
    name: str
    title: str
    thesis: str
    hours: float
    tests: list[Test] = field(default_factory=list)

    @property
    def points(self) -> int:
        return sum(t.points for t in self.tests)


def load_lab(name: str, top: Path = TOP) -> Lab:
    path = top / "labs" / name / "lab.toml"
    if not path.is_file():
        raise LabError(f"no lab {name!r} (labs/{name}/lab.toml); the labs: "
                       + ", ".join(lab_names(top)))
    with open(path, "rb") as f:
        m = tomllib.load(f)
    try:
        lab = Lab(name, m["title"], m["thesis"], float(m["hours"]))
        for t in m.get("test", []):
            lab.tests.append(Test(t["id"], int(t["points"])))
        for c in m.get("command", []):
            lab.tests.append(Test(c["run"], int(c["points"]), command=True))
    except (KeyError, ValueError, TypeError) as e:
        raise LabError(f"labs/{name}/lab.toml: {e!r}") from None
    if not lab.tests:
        raise LabError(f"labs/{name}/lab.toml: no tests")
    return lab


def lab_names(top: Path = TOP) -> list[str]:
    return sorted(p.parent.name for p in (top / "labs").glob("*/lab.toml"))


# ----- the markers ------------------------------------------------------------------------

@dataclass
class Region:
    lab: str
    path: str
    begin: int              # line numbers, 0-based: the begin marker
    end: int                # the end marker
    stop: int               # the last line of the stub comment (end if none)
    stub: list[str]


def regions(text: str, path: str) -> list[Region]:
    """The marked regions of one file, checked: paired, not nested."""
    lines = text.split("\n")
    found, open_ = [], None
    i = 0
    while i < len(lines):
        b, e = BEGIN.match(lines[i]), END.match(lines[i])
        if b:
            if open_ is not None:
                raise LabError(f"{path}:{i + 1}: LAB({b.group(2)}) begins inside "
                               f"LAB({open_[0]})")
            open_ = (b.group(2), i)
        elif e:
            if open_ is None or open_[0] != e.group(1):
                raise LabError(f"{path}:{i + 1}: LAB({e.group(1)}) ends but did not begin")
            stub, stop = [], i
            if e.group(2):
                if e.group(3):
                    raise LabError(f"{path}:{i + 1}: a stub follows the end marker's "
                                   "comment, it does not close it")
                j = i + 1
                while j < len(lines) and not STUB_END.match(lines[j]):
                    m = STUB_LINE.match(lines[j])
                    if m is None:
                        raise LabError(f"{path}:{j + 1}: a stub line starts with ' *'")
                    stub.append(m.group(1)[1:] if m.group(1).startswith(" ") else
                                m.group(1))
                    j += 1
                if j == len(lines):
                    raise LabError(f"{path}:{i + 1}: the stub's comment never closes")
                stop = j
            found.append(Region(open_[0], path, open_[1], i, stop, stub))
            open_ = None
            i = stop
        i += 1
    if open_ is not None:
        raise LabError(f"{path}:{open_[1] + 1}: LAB({open_[0]}) never ends")
    return found


def tracked(top: Path) -> list[str]:
    """The files git tracks in top (the tree a student gets)."""
    out = subprocess.run(["git", "ls-files", "-z"], cwd=top, capture_output=True,
                         check=True).stdout.decode()
    return [p for p in out.split("\0") if p and (top / p).is_file()]


def marked_files(top: Path) -> dict[str, list[Region]]:
    out = subprocess.run(["git", "grep", "-l", "-z", "LAB(.*) begin", "--", "*.c", "*.h"],
                         cwd=top, capture_output=True).stdout.decode()
    return {p: regions((top / p).read_text(), p) for p in out.split("\0") if p}


def stripped(text: str, path: str, lab: str) -> str:
    """text with lab's regions replaced by their stubs, other markers gone."""
    lines = text.split("\n")
    out, last = [], 0
    for r in regions(text, path):
        out += lines[last:r.begin]
        if r.lab == lab:
            indent = BEGIN.match(lines[r.begin]).group(1)
            out.append(f"{indent}/* LAB({lab}): yours to write (labs/{lab}/README.md) */")
            out += r.stub
        else:
            out += lines[r.begin + 1:r.end]
        last = r.stop + 1
    return "\n".join(out + lines[last:])


def strip(name: str, out: Path, top: Path = TOP) -> int:
    """Write lab name's student tree to out; returns the regions replaced."""
    load_lab(name, top)
    if out.exists() and any(out.iterdir()):
        raise LabError(f"{out} exists and is not empty: choose another --out (LABDIR=)")
    marked = marked_files(top)
    n = sum(r.lab == name for rs in marked.values() for r in rs)
    if n == 0:
        raise LabError(f"lab {name}: no LAB({name}) regions in the tree")
    for p in tracked(top):
        dst = out / p
        dst.parent.mkdir(parents=True, exist_ok=True)
        if p in marked:
            dst.write_text(stripped((top / p).read_text(), p, name))
            shutil.copymode(top / p, dst)
        else:
            shutil.copy2(top / p, dst)
    git = ["git", "-c", "user.name=lab", "-c", "user.email=lab@localhost"]
    subprocess.run(["git", "init", "-q"], cwd=out, check=True)
    subprocess.run(["git", "add", "-A"], cwd=out, check=True)
    subprocess.run(git + ["commit", "-q", "-m", f"lab {name}: the starter tree"],
                   cwd=out, check=True)
    return n


# ----- grading ----------------------------------------------------------------------------

def build(tree: Path) -> tuple[bool, str]:
    r = subprocess.run(["make", "-j2", "all"], cwd=tree, capture_output=True, text=True)
    return r.returncode == 0, (r.stdout + r.stderr)[-3000:]


def junit_results(path: Path, tree: Path) -> dict[str, bool]:
    """node id -> passed, from pytest's junit XML."""
    res = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        cls, name = case.get("classname", ""), case.get("name", "")
        parts = cls.split(".")
        # tests.test_x.TestClass -> tests/test_x.py::TestClass
        for k in range(len(parts), 0, -1):
            mod = "/".join(parts[:k]) + ".py"
            rest = parts[k:]
            if (tree / mod).exists() or k == 1:
                break
        node = "::".join([mod] + rest + [name])
        res[node] = not any(c.tag in ("failure", "error", "skipped") for c in case)
    return res


def run_tests(tree: Path, labs: list[Lab], seed: int, tag: str) -> dict[str, bool]:
    """Every test and command of labs on tree: id -> passed."""
    gdir = tree / "build" / "grade"
    gdir.mkdir(parents=True, exist_ok=True)
    ids = [t.id for lab in labs for t in lab.tests if not t.command]
    res: dict[str, bool] = {}
    if ids:
        xml = gdir / f"{tag}.xml"
        xml.unlink(missing_ok=True)
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        f"--junitxml={xml}", *ids], cwd=tree)
        got = junit_results(xml, tree) if xml.exists() else {}
        for i in ids:
            res[i] = got.get(i, False)
    for lab in labs:
        for t in lab.tests:
            if t.command:
                cmd = t.id.replace("{seed}", str(seed))
                print(f"+ {cmd}", flush=True)
                res[t.id] = subprocess.run(cmd, shell=True, cwd=tree).returncode == 0
    return res


def score(lab: Lab, res: dict[str, bool]) -> int:
    return sum(t.points for t in lab.tests if res.get(t.id))


def report(lab: Lab, res: dict[str, bool], built: bool, seed: int, tree: Path) -> dict:
    print(f"\nlab {lab.name}: {lab.title}")
    for t in lab.tests:
        mark = "pass" if res.get(t.id) else "FAIL"
        print(f"  {mark}  {t.points:3d}  {t.id}")
    got = score(lab, res) if built else 0
    print(f"score: {got}/{lab.points}" + ("" if built else "  (the tree does not build)"))
    result = {"lab": lab.name, "title": lab.title, "score": got, "max": lab.points,
              "built": built, "seed": seed,
              "tests": [{"id": t.id, "points": t.points, "passed": bool(res.get(t.id))}
                        for t in lab.tests]}
    out = tree / "build" / "grade" / f"{lab.name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {out}")
    return result


def grade(name: str, tree: Path, seed: int) -> dict:
    lab = load_lab(name, tree)
    ok, log = build(tree)
    if not ok:
        print(log, file=sys.stderr)
        return report(lab, {}, False, seed, tree)
    return report(lab, run_tests(tree, [lab], seed, name), True, seed, tree)


def check(names: list[str], seed: int) -> int:
    """Each lab stripped: its tests fail, the others' pass; on the
    reference tree every lab's pass.  Returns the number of problems."""
    labs = [load_lab(n) for n in names]
    problems, lines = [], []
    start = time.monotonic()
    for lab in labs:
        with tempfile.TemporaryDirectory(prefix=f"lab-{lab.name}-") as tmp:
            tree = Path(tmp) / lab.name
            strip(lab.name, tree)
            ok, log = build(tree)
            if not ok:
                problems.append(f"{lab.name}: the stripped tree does not build:\n{log}")
                continue
            res = run_tests(tree, labs, seed, f"check-{lab.name}")
        for other in labs:
            got = score(other, res)
            if other is lab:
                passed = [t.id for t in lab.tests if res.get(t.id)]
                if passed:
                    problems.append(f"{lab.name}: passes on its own stripped tree: "
                                    + ", ".join(passed))
                lines.append(f"  {lab.name} stripped: its own {got}/{lab.points}")
            elif got != other.points:
                failed = [t.id for t in other.tests if not res.get(t.id)]
                problems.append(f"{other.name}: fails on {lab.name}'s stripped tree: "
                                + ", ".join(failed))
            else:
                lines.append(f"  {lab.name} stripped: {other.name} {got}/{other.points}")
    ok, log = build(TOP)
    res = run_tests(TOP, labs, seed, "check-reference") if ok else {}
    for lab in labs:
        got = score(lab, res)
        lines.append(f"  reference: {lab.name} {got}/{lab.points}")
        if got != lab.points:
            problems.append(f"{lab.name}: {got}/{lab.points} on the reference tree")
    print("\nlab check (" + f"{time.monotonic() - start:.0f} s):")
    print("\n".join(lines))
    for p in problems:
        print("PROBLEM: " + p)
    print("every lab can be handed out" if not problems else f"{len(problems)} problem(s)")
    return len(problems)


# ----- the command line -------------------------------------------------------------------

def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="the labs, their hours and points")
    s = sub.add_parser("strip", help="write a lab's student tree")
    s.add_argument("lab")
    s.add_argument("--out", type=Path, help="where (default: student/LAB)")
    g = sub.add_parser("grade", help="build a tree and grade a lab on it")
    g.add_argument("lab")
    g.add_argument("--tree", type=Path, default=Path.cwd())
    g.add_argument("--seed", type=int, default=1)
    c = sub.add_parser("check", help="every lab fails stripped and passes whole")
    c.add_argument("labs", nargs="*")
    c.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    try:
        if a.cmd == "list":
            for n in lab_names():
                lab = load_lab(n)
                print(f"{n:14s} {lab.hours:4.0f} h  {lab.points:3d} points  "
                      f"thesis {lab.thesis:10s} {lab.title}")
        elif a.cmd == "strip":
            out = a.out or TOP / "student" / a.lab
            n = strip(a.lab, out)
            print(f"lab {a.lab}: {n} region(s) replaced by stubs in {out}\n"
                  f"the handout: {out}/labs/{a.lab}/README.md; grade with "
                  f"`make grade LAB={a.lab}` there")
        elif a.cmd == "grade":
            r = grade(a.lab, a.tree.resolve(), a.seed)
            return 0 if r["score"] == r["max"] else 1
        else:
            return 1 if check(a.labs or lab_names(), a.seed) else 0
    except LabError as e:
        print(f"lab: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
