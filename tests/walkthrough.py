"""Run a GDB walk-through (doc/lfs-recovery.md, doc/transactions.md) as a
student does: every command it shows, typed in its order where it says,
and what it shows under a command found in what the command printed.

The convention the walk-throughs keep (each says so near its top):

  - In an indented block, a line that begins `$ ` is typed on the host at
    the top of the tree, `(gdb) ` in GDB, `# ` in the guest's console.
  - The lines under a command, up to the next command or the end of the
    block, are what it prints, or some of it: each must be a line of the
    output, in the same order, and lines may be left out between them.
    `...` in a line stands for any text, and a line of `...` alone says
    that lines are left out.  A run of blanks counts as one blank.
  - Blocks without a command are not run.

The host commands are the Makefile's, done as the tests do them: `make
crashimage` (its image in the test's directory), `make qemu` and `make
qemu-gdb [SD1=IMG]` (a guest on the test's disks; the second waits for
GDB), `make gdb` (GDB with a .gdbinit like the one make qemu-gdb writes).
Any other host command is refused.  A guest command gets `; echo MARK$?`
after it, so its end and exit status are seen (it must exit 0).  A line of
GDB's output that is an error fails its step unless the walk-through shows
it.

Commands on the two sides are typed in the walk-through's order; what one
printed is read when it is needed: before the next command on the same
side, or at the end.  So `(gdb) continue` then a guest command that reaches
the breakpoint works as it does for a student.

    python3 -m tests.walkthrough doc/lfs-recovery.md    # the transcript
"""
from __future__ import annotations

import argparse
import itertools
import os
import re
import shlex
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import pexpect

from qemu import crashimage, launch
from tests.guest import PANICKED, TOP, Guest, free_port

PROMPTS = (("$ ", "host"), ("(gdb) ", "gdb"), ("# ", "guest"))
TIMEOUT = 60                    # seconds for any one command's output
# GDB commands that let the guest run: their prompt may come only after
# a guest command typed later reaches a breakpoint.
RESUMING = {"c", "continue", "fin", "finish", "n", "next", "s", "step",
            "ni", "nexti", "si", "stepi", "until", "advance"}
GDB_ERROR = re.compile(
    r"^(No symbol|Undefined command|Cannot access memory|No source file|"
    r"Function \".*\" not defined|Python Exception|Traceback|"
    r"Error |Make breakpoint pending|break-at: )|usage: |warning: ")


class WalkError(AssertionError):
    """A step of the walk-through did not do what the walk-through says."""


@dataclass
class Step:
    where: str                  # "host", "gdb" or "guest"
    command: str
    line: int                   # its line in the walk-through
    shown: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        prompt = {"host": "$ ", "gdb": "(gdb) ", "guest": "# "}[self.where]
        return f"line {self.line}: {prompt}{self.command}"


def parse(text: str) -> list[Step]:
    """The steps of a walk-through, in order."""
    steps: list[Step] = []
    in_block, blank_before = False, True
    current: Optional[Step] = None
    loose: list[int] = []       # lines of a block before its first command
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            blank_before = True
            continue
        if not raw.startswith("    ") or not (in_block or blank_before):
            in_block, current, loose = False, None, []    # prose
            blank_before = False
            continue
        if not in_block:
            in_block, current, loose = True, None, []
        blank_before = False
        line = raw[4:]
        prompt = next((p for p, _ in PROMPTS if line.startswith(p)), None)
        if prompt is not None:
            if loose:
                raise WalkError(f"line {loose[0]}: output before any command "
                                "in its block")
            current = Step(dict(PROMPTS)[prompt], line[len(prompt):].strip(),
                           n)
            steps.append(current)
        elif current is not None:
            current.shown.append(line)
        else:
            loose.append(n)
    return steps


def squeeze(line: str) -> str:
    return " ".join(line.split())


def missing(step: Step, output: str) -> list[str]:
    """What the walk-through shows under step that its output lacks (and
    errors in GDB's output it does not show); empty if all is there."""
    lines = [squeeze(x) for x in output.splitlines()]
    used, i, problems = set(), 0, []
    for shown in step.shown:
        want = squeeze(shown)
        if want == "...":
            continue
        pat = re.compile(".*".join(re.escape(p) for p in want.split("...")))
        while i < len(lines) and not pat.fullmatch(lines[i]):
            i += 1
        if i == len(lines):
            problems.append(f"not printed (in this order): {shown!r}")
            break
        used.add(i)
        i += 1
    if step.where == "gdb":
        problems += [f"an error the walk-through does not show: {x!r}"
                     for j, x in enumerate(lines)
                     if j not in used and GDB_ERROR.search(x)]
    return problems


def listening(port: int) -> bool:
    """Is a TCP port of this host listening (QEMU's gdbstub)?"""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            local, state = row.split()[1], row.split()[3]
            if int(local.split(":")[1], 16) == port and state == "0A":
                return True
    return False


class Walk:
    """One run of a walk-through's steps in a directory of its own.
    strict: stop at the first step that fails (a test); otherwise go on,
    so the transcript shows every step."""

    def __init__(self, workdir: Path, strict: bool = True,
                 echo: bool = False) -> None:
        self.workdir = workdir
        self.strict = strict
        self.echo = echo
        self.port = free_port()
        self.guest: Optional[Guest] = None
        self.ready = False
        self.gdb: Optional[pexpect.spawn] = None
        self.images: dict[str, Path] = {}   # a path the doc names -> ours
        self.gdb_pending: Optional[Step] = None
        self.guest_pending: Optional[tuple[Step, int]] = None
        self.marks = itertools.count()
        self.boots = itertools.count()
        self.problems: list[str] = []
        self.transcript: list[str] = []

    # -- the steps ---------------------------------------------------------
    def run(self, steps: list[Step]) -> None:
        try:
            for step in steps:
                getattr(self, f"on_{step.where}")(step)
            self.finish()
        finally:
            self.close()

    def on_host(self, step: Step) -> None:
        words = shlex.split(step.command, comments=True)
        if words[:2] == ["make", "crashimage"]:
            self.crashimage(step)
        elif words[:2] in (["make", "qemu"], ["make", "qemu-gdb"]):
            make = dict(w.split("=", 1) for w in words[2:] if "=" in w)
            self.boot(step, words[1] == "qemu-gdb", make.get("SD1"))
        elif words == ["make", "gdb"]:
            self.start_gdb(step)
        else:
            self.fail(step, "a host command the walk-through tests do not "
                      "run (make crashimage, qemu, qemu-gdb, gdb)", "")

    def on_gdb(self, step: Step) -> None:
        if self.gdb_pending is None and self.gdb is None:
            self.fail(step, "no GDB: the walk-through must say make gdb "
                      "first", "")
            return
        self.resolve_gdb()
        self.gdb.sendline(step.command)
        self.gdb_pending = step

    def on_guest(self, step: Step) -> None:
        if self.guest is None:
            self.fail(step, "no guest: the walk-through must say make qemu "
                      "or make qemu-gdb first", "")
            return
        self.resolve_guest()
        if not self.ready:
            self.guest.wait_ready()
            self.ready = True
        n = next(self.marks)
        self.guest.child.sendline(f"{step.command} ; echo __W{n}__$?")
        self.guest_pending = (step, n)

    def finish(self) -> None:
        """What the last commands printed, where the walk-through shows
        it or it comes without the guest's help."""
        if self.gdb_pending is not None:
            self.resolve_gdb(last=True)
        if self.guest_pending is not None and self.guest_pending[0].shown:
            self.resolve_guest()

    # -- host commands -----------------------------------------------------
    def crashimage(self, step: Step) -> None:
        image = self.workdir / "crashed-lfs.img"
        cut = crashimage.make(self.workdir / "crashimage", image)
        name = "build/crashed-lfs.img"
        self.images[name] = image
        self.record(step, crashimage.describe(image, cut)
                    .replace(str(image), name))

    def boot(self, step: Step, wait_gdb: bool, sd1: Optional[str]) -> None:
        """A new machine, as make qemu(-gdb) starts one: the scratch disk
        is kept from the last boot (build/sd1.img), or a fresh copy of
        SD1.  What the last machine's commands printed is read first, as
        the student sees it before leaving."""
        self.finish()
        self.close()
        if sd1 is not None and sd1 not in self.images:
            self.fail(step, f"SD1={sd1}: no such image made earlier", "")
            return
        workdir = self.workdir / (f"sd1-from-{next(self.boots)}" if sd1
                                  else "qemu")
        workdir.mkdir(parents=True, exist_ok=True)
        self.guest = Guest(workdir, sd1=self.images.get(sd1),
                           gdb_port=self.port if wait_gdb else None,
                           gdb_wait=wait_gdb)
        self.guest.boot(wait_prompt=False)
        self.ready = False
        self.record(step, "")

    def start_gdb(self, step: Step) -> None:
        if self.guest is None or not self.guest.gdb_wait:
            self.fail(step, "make gdb without make qemu-gdb", "")
            return
        deadline = time.monotonic() + TIMEOUT
        while not listening(self.port):
            if time.monotonic() > deadline:
                self.fail(step, "QEMU's gdbstub never listened", "")
                return
            time.sleep(0.05)
        init = launch.write_gdbinit(self.port, self.guest.sd1,
                                    self.workdir / "gdbinit")
        self.gdb = pexpect.spawn(
            "gdb", ["-q", "-nx", "-x", str(init)], cwd=str(TOP),
            env={**os.environ, "TERM": "dumb"}, encoding="utf-8",
            codec_errors="replace", dimensions=(24, 80))
        self.gdb_pending = step

    # -- reading what was printed -----------------------------------------
    def resolve_gdb(self, last: bool = False) -> None:
        """Read what the pending GDB command printed, up to the prompt.
        The last command of a walk-through may leave the guest running
        (continue): then what it printed in a few seconds is all."""
        step, self.gdb_pending = self.gdb_pending, None
        if step is None:
            return
        running = last and step.command.split()[0] in RESUMING
        try:
            self.gdb.expect_exact("(gdb) ", timeout=3 if running else TIMEOUT)
        except pexpect.TIMEOUT:
            if not running:
                self.fail(step, f"GDB: no prompt after {TIMEOUT} s",
                          self.gdb.before or "")
                return
        except pexpect.EOF:
            self.fail(step, "GDB exited", self.gdb.before or "")
            return
        out = self.gdb.before.replace("\r", "")
        if step.where == "gdb":             # the first line is the echo
            out = out.split("\n", 1)[1] if "\n" in out else ""
        self.record(step, out)

    def resolve_guest(self) -> None:
        pending, self.guest_pending = self.guest_pending, None
        if pending is None:
            return
        step, n = pending
        child = self.guest.child
        try:
            i = child.expect([rf"__W{n}__(\d+)\r*\n(?:[^\n]*\n)*?# ",
                              PANICKED], timeout=TIMEOUT)
        except (pexpect.TIMEOUT, pexpect.EOF) as e:
            kind = "timed out" if isinstance(e, pexpect.TIMEOUT) else "EOF"
            self.fail(step, f"the guest {kind}", child.before or "")
            return
        text = child.before.replace("\r", "")
        out = text.split("\n", 1)[1] if "\n" in text else ""
        if i == 1:
            self.fail(step, "the kernel panicked", out)
            return
        status = int(child.match.group(1))
        self.record(step, out)
        if status != 0:
            self.fail(step, f"exit status {status}", out, recorded=True)

    def record(self, step: Step, out: str) -> None:
        self.transcript.append(f"{step}\n{out.rstrip()}\n")
        if self.echo:
            print(self.transcript[-1], flush=True)
        problems = missing(step, out)
        if problems:
            self.fail(step, "\n  ".join(problems), out, recorded=True)

    def fail(self, step: Step, why: str, out: str,
             recorded: bool = False) -> None:
        text = f"{step}\n  {why}"
        if not recorded:
            text += f"\n--- it printed:\n{out.rstrip()}"
        self.problems.append(text)
        if self.echo:
            print(f"!! {text}\n", flush=True)
        if self.strict:
            tail = "".join(self.transcript[-6:])
            raise WalkError(f"{text}\n--- the last steps and their output:\n"
                            f"{tail}")

    def close(self) -> None:
        if self.gdb is not None:
            self.gdb.terminate(force=True)
            self.gdb = None
        if self.guest is not None:
            self.guest.close()
            self.guest = None


def walk(doc: Path, workdir: Path, strict: bool = True,
         echo: bool = False) -> Walk:
    """Run every step of the walk-through doc; the Walk, with its
    transcript and problems."""
    w = Walk(workdir, strict, echo)
    w.run(parse(doc.read_text()))
    return w


def main() -> int:
    ap = argparse.ArgumentParser(description="Run a walk-through and print "
                                 "what each command printed.")
    ap.add_argument("doc", type=Path)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="walk.") as tmp:
        w = walk(args.doc, Path(tmp), strict=False, echo=True)
    print(f"{len(w.problems)} steps did not do what the walk-through says")
    return 1 if w.problems else 0


if __name__ == "__main__":
    sys.exit(main())
