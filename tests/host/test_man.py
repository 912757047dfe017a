"""The manual (share/man, issue 26): every guest program has a page in
section 1 or 8 and every system call a student uses, or that is the
project's own, one in section 2; Debian's mandoc finds nothing wrong in
any page; and each program's SYNOPSIS names every option its usage
message does, so a page cannot fall behind the program's options."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.guest import TOP

MAN = TOP / "share" / "man"
PROGRAM_DIRS = ("bin", "sbin", "usr.bin", "usr.sbin", "libexec")

# The calls the course's students use, as libc names them.
STUDENT_CALLS = """open read write close lseek fork execve wait4 exit pipe
dup stat mkdir unlink rename link mount unmount fsync sync sbrk kill
sigaction""".split()


def programs() -> list[Path]:
    return sorted(d for top in PROGRAM_DIRS for d in (TOP / top).iterdir()
                  if d.is_dir())


def pages() -> list[Path]:
    return sorted(p for n in "1238" for p in (MAN / f"man{n}").glob(f"*.{n}"))


def names(page: Path) -> list[str]:
    """The .Nm names of a page's NAME section."""
    text = page.read_text()
    section = text[text.index(".Sh NAME"):]
    section = section[:section.index(".Sh ", 4)]
    return [n.replace("\\&", "") for n in
            re.findall(r"^\.Nm (\S+)", section, re.M)]


def documented(section: str) -> set[str]:
    """The names a reader finds pages under: each page's file name
    (exit.2 for _exit) and the names of its NAME section."""
    return {n for p in (MAN / f"man{section}").glob(f"*.{section}")
            for n in names(p) + [p.stem]}


def syscalls() -> list[str]:
    """The calls of kern/syscalls.master, by their C names."""
    text = (TOP / "kern" / "syscalls.master").read_text()
    calls = re.findall(r"^\d+\s+\w+\s+\{\s*[\w ]+?\**\s*(\w+)\(", text, re.M)
    return ["sbrk" if c == "break" else c for c in calls]


def own_syscalls() -> list[str]:
    """The project's calls: numbered after 4.4BSD's, and the cleaner's."""
    text = (TOP / "kern" / "syscalls.master").read_text()
    return [name for num, name in
            re.findall(r"^(\d+)\s+\w+\s+\{\s*[\w ]+?\**\s*(\w+)\(", text, re.M)
            if int(num) >= 300 or name.startswith("lfs_")]


def test_every_program_has_a_page_under_each_of_its_names():
    pages1, pages8 = documented("1"), documented("8")
    missing = []
    for d in programs():
        links = (d / "LINKS").read_text().split() if (d / "LINKS").exists() else []
        for name in [d.name] + links:
            if name not in pages1 | pages8:
                missing.append(f"{d.relative_to(TOP)}: {name}")
    assert not missing, f"programs without a man page: {missing}"


def test_the_system_calls_have_pages():
    calls = set(STUDENT_CALLS) | set(own_syscalls()) | set(syscalls())
    missing = sorted(calls - documented("2"))
    assert not missing, f"system calls without a man2 page: {missing}"
    assert {"txn_begin", "lfs_markv", "vmstats"} <= set(own_syscalls())


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.name)
def test_mandoc_finds_nothing_wrong(page):
    r = subprocess.run(["mandoc", "-T", "lint", "-W", "warning", str(page)],
                       capture_output=True, text=True)
    assert r.returncode == 0 and not r.stdout + r.stderr, r.stdout + r.stderr


def test_every_page_has_the_sections_a_reader_looks_for():
    for page in pages():
        text = page.read_text()
        for sh in ("NAME", "SYNOPSIS", "DESCRIPTION"):
            assert f".Sh {sh}" in text, f"{page.name}: no {sh}"
        if page.suffix not in (".2", ".3"):
            assert ".Sh EXIT STATUS" in text, f"{page.name}: no EXIT STATUS"
        else:
            assert ".Sh RETURN VALUES" in text, f"{page.name}: no RETURN VALUES"


def usage_text(prog: Path) -> str:
    """The program's usage message: the string literals of every
    statement that prints "usage: ..."."""
    out = []
    for src in sorted(prog.glob("*.c")):
        code = src.read_text()
        for m in re.finditer(r'"usage:', code):
            stmt = code[m.start():code.index(";", m.start())]
            out += re.findall(r'"((?:[^"\\]|\\.)*)"', stmt)
    return " ".join(out)


def option_letters(text: str) -> set[str]:
    """The option letters of a usage line or a SYNOPSIS: each -xyz word
    (not -word_with_underscore, not --long) gives x, y and z."""
    letters = set()
    for word in re.findall(r"(?<![\w-])-([A-Za-z0-9]+)(?![\w-])", text):
        letters |= set(word)
    return letters


def synopsis(page: Path) -> str:
    text = subprocess.run(["mandoc", "-T", "ascii", str(page)],
                          capture_output=True, text=True, check=True).stdout
    text = re.sub(r".\x08", "", text)
    return re.search(r"^SYNOPSIS\n(.*?)^\S", text, re.M | re.S).group(1)


def program_page(prog: Path) -> Path:
    for n in "18":
        if (MAN / f"man{n}" / f"{prog.name}.{n}").exists():
            return MAN / f"man{n}" / f"{prog.name}.{n}"
    pytest.fail(f"{prog.name}: no page")


@pytest.mark.parametrize("prog", programs(), ids=lambda p: p.name)
def test_synopsis_names_every_option_of_the_usage(prog):
    usage = usage_text(prog)
    if not usage:
        pytest.skip(f"{prog.name} prints no usage message")
    missing = option_letters(usage) - option_letters(synopsis(program_page(prog)))
    assert not missing, f"{prog.name}: the usage has -{''.join(sorted(missing))}, " \
                        f"the SYNOPSIS does not: {usage!r}"


def getopt_letters(prog: Path) -> set[str]:
    letters = set()
    for src in prog.glob("*.c"):
        for call in re.findall(r'getopt\(\s*argc,\s*argv,((?:\s*"[^"]*")+)\)',
                               src.read_text()):
            letters |= set("".join(re.findall(r'"([^"]*)"', call))) - {":"}
    return letters


@pytest.mark.parametrize("prog", programs(), ids=lambda p: p.name)
def test_the_page_describes_every_option_getopt_takes(prog):
    """An option a program accepts but its usage leaves out (cp -P,
    mv's helper) is still on the page."""
    source = program_page(prog).read_text()
    flags = set()
    for line in re.findall(r"\bFl (\S+)", source):
        flags |= set(line)
    missing = getopt_letters(prog) - flags
    assert not missing, f"{prog.name}: getopt takes -{''.join(sorted(missing))}, " \
                        f"the page has no Fl for it"
