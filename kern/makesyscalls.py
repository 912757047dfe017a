"""Make the system-call files from kern/syscalls.master (its opening
comment says what each line holds), as 4.4BSD's makesyscalls.sh did:

    sys/syscall.h            the numbers
    kern/syscallargs.h       the argument structures and the handlers'
                             prototypes, so the compiler checks each handler
    kern/init_sysent.c       the table syscall() dispatches on
    lib/libc/sys/syscalls.S  libc's stubs

Usage: makesyscalls.py MASTER OUTDIR (the files go under OUTDIR)."""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

# The most argument words a call may take (MAXARGS, kern/i386/syscall.c).
MAXARGS = 8

# Argument types that take two words on the user stack; every other
# argument is one 32-bit word (an int, a pointer, a long).
TWO_WORDS = {"off_t", "quad_t", "u_quad_t", "int64_t", "u_int64_t"}

# NUMBER TYPE { PROTOTYPE } [STUB] [; COMMENT]
LINE = re.compile(r"(\d+)\s+(STD|NOSTUB)\s+\{\s*(.*?)\s*\}\s*(\w*)\s*"
                  r"(?:;\s*(.*))?$")
PROTO = re.compile(r"(.*?)\b(\w+)\s*\((.*)\)\s*;$")
PARAM = re.compile(r"(.*?)(\w+)$")


@dataclass
class Call:
    number: int
    type: str
    name: str
    params: list[tuple[str, str]]   # (C type, name)
    stub: str                       # libc's name for the stub
    comment: str

    @property
    def words(self) -> int:
        return sum(2 if t in TWO_WORDS else 1 for t, _ in self.params)


def fail(where: str, why: str) -> NoReturn:
    sys.exit(f"{where}: {why}")


def entries(master: Path) -> list[tuple[str, str]]:
    """(where, text) of each entry: comments and blank lines dropped,
    continuation lines (ending in a backslash) joined."""
    out, text, where = [], "", ""
    for n, line in enumerate(master.read_text().splitlines(), 1):
        if not text:
            if line.startswith(";") or not line.strip():
                continue
            where = f"{master}:{n}"
        if line.endswith("\\"):
            text += line[:-1] + " "
            continue
        out.append((where, " ".join((text + line).split())))
        text = ""
    if text:
        fail(where, "the entry never ends (a backslash on its last line)")
    return out


def parse(master: Path) -> list[Call]:
    calls: list[Call] = []
    for where, text in entries(master):
        m = LINE.match(text)
        if not m:
            fail(where, "not NUMBER TYPE { PROTOTYPE } [STUB] [; COMMENT]")
        number, type_, proto, stub, comment = m.groups()
        p = PROTO.match(proto)
        if not p:
            fail(where, f"not a C prototype: {proto}")
        name, plist = p.group(2), p.group(3).strip()
        params = []
        if plist != "void":
            for param in plist.split(","):
                q = PARAM.match(param.strip())
                if not q or not q.group(1).strip():
                    fail(where, f"parameter without a type or name: {param}")
                params.append((q.group(1).strip(), q.group(2)))
        if calls and int(number) <= calls[-1].number:
            fail(where, f"{number} does not come after {calls[-1].number}")
        call = Call(int(number), type_, name, params, stub or name,
                    comment or "")
        if call.words > MAXARGS:
            fail(where, f"{call.words} argument words, more than {MAXARGS}")
        if type_ == "NOSTUB" and stub:
            fail(where, "a NOSTUB call names a stub")
        calls.append(call)
    return calls


def tab_to(text: str, column: int) -> str:
    """text and the tabs that take it to column (at least one tab)."""
    tabs = max(1, (column - len(text) + 7) // 8)
    return text + "\t" * tabs


def header(what: str) -> list[str]:
    """The opening comment of a made file: what it holds, and where from."""
    lines = what.strip("\n").split("\n") + [
        "Made by kern/makesyscalls.py from kern/syscalls.master: edit that."]
    return ["/*", *[f" * {line}".rstrip() for line in lines], " */"]


def syscall_h(calls: list[Call]) -> str:
    out = header("System call numbers, 4.4BSD's where 4.4BSD had the call.")
    out += ["#ifndef _SYS_SYSCALL_H_", "#define _SYS_SYSCALL_H_", ""]
    for c in calls:
        line = tab_to(f"#define SYS_{c.name}", 32) + str(c.number)
        out.append(line + (f"\t/* {c.comment} */" if c.comment else ""))
    out += ["", tab_to("#define SYS_MAXSYSCALL", 32) +
            str(calls[-1].number + 1), "",
            "#endif", ""]
    return "\n".join(out)


def syscallargs_h(calls: list[Call]) -> str:
    structs = sorted({m for c in calls for t, _ in c.params
                      for m in re.findall(r"struct (\w+)", t)})
    out = header("""
The arguments of each system call, as the words the user stack holds,
and the handlers (4.4BSD syscallargs.h).  syscall() copies the words
into a struct NAME_args and calls sys_NAME(p, uap, retval).""")
    out += ["#ifndef _KERN_SYSCALLARGS_H_", "#define _KERN_SYSCALLARGS_H_",
            "", "#include <sys/types.h>", "#include <sys/signal.h>", "",
            "struct proc;"]
    out += [f"struct {s};" for s in structs]
    out.append("")
    for c in calls:
        if c.params:
            out.append(f"struct {c.name}_args {{")
            out += [f"\t{t}{'' if t.endswith('*') else ' '}{n};"
                    for t, n in c.params]
            out += ["};", ""]
    for c in calls:
        uap = f"struct {c.name}_args *" if c.params else "void *"
        out.append(f"int\tsys_{c.name}(struct proc *, {uap}, int *);")
    out += ["", "#endif", ""]
    return "\n".join(out)


def init_sysent_c(calls: list[Call]) -> str:
    out = header("""
The system call table, by number: how many argument words each call
takes and its handler.  A number without an entry is ENOSYS.  The
assertions check the word counts against the structures.""")
    out += ['#include "kern/systm.h"', '#include "kern/syscalls.h"',
            '#include "kern/syscallargs.h"', ""]
    for c in calls:
        if c.params:
            out.append(f"_Static_assert(sizeof(struct {c.name}_args) == "
                       f"{c.words} * 4, \"{c.name}: the word count\");")
    out += ["", "const struct sysent sysent[] = {"]
    for c in calls:
        out.append(f"\t[{c.number}] = {{ {c.words}, "
                   f"(sy_call_t *)sys_{c.name}, \"{c.name}\" }},")
    out += ["};", "const int nsysent = nitems(sysent);", ""]
    return "\n".join(out)


def syscalls_s(calls: list[Call]) -> str:
    out = header("""
The system call stubs.  Each is called like a C function, so the
arguments are already on the stack where the kernel reads them: the
stub loads the number into %eax and traps.  Carry clear means success
and the result is in %eax (%edx:%eax for 64-bit results); carry set
means %eax is an errno, and __cerror stores it and returns -1.  The
__sys_ stubs are wrapped in C (lib/libc/sys/).""")
    out += ["#include <sys/syscall.h>", "",
            "#define SYSCALL(name, num)\t\\",
            "\t.text;\t\t\t\\",
            "\t.globl name;\t\t\\",
            "\t.type name, @function;\t\\",
            "name:\t\t\t\t\\",
            "\tmovl $num, %eax;\t\\",
            "\tint $0x80;\t\t\\",
            "\tjc __cerror;\t\t\\",
            "\tret;\t\t\t\\",
            "\t.size name, . - name", ""]
    out += [f"SYSCALL({c.stub}, SYS_{c.name})"
            for c in calls if c.type == "STD"]
    out += ["", '\t.section .note.GNU-stack, "", @progbits', ""]
    return "\n".join(out)


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__.rsplit("\n\n", 1)[1])
    master, outdir = Path(sys.argv[1]), Path(sys.argv[2])
    calls = parse(master)
    for path, text in (("sys/syscall.h", syscall_h(calls)),
                       ("kern/syscallargs.h", syscallargs_h(calls)),
                       ("kern/init_sysent.c", init_sysent_c(calls)),
                       ("lib/libc/sys/syscalls.S", syscalls_s(calls))):
        out = outdir / path
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)


if __name__ == "__main__":
    main()
