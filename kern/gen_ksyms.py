#!/usr/bin/env python3
"""Generate the kernel symbol table (.ksyms section) from `nm -n` output.

Usage: nm -n kernel.tmp | gen_ksyms.py > ksyms.S
With no input it writes an empty table, for the first link.
"""
import sys


def main() -> None:
    syms = []
    for line in sys.stdin:
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            syms.append((int(parts[0], 16), parts[2]))
    out = ['\t.section .ksyms, "a"', "\t.align 4", "\t.globl ksyms_count",
           "ksyms_count:", f"\t.long {len(syms)}", "\t.globl ksyms_table",
           "ksyms_table:"]
    offset = 0
    for addr, name in syms:
        out.append(f"\t.long {addr:#x}, {offset}")
        offset += len(name) + 1
    out += ["\t.globl ksyms_names", "ksyms_names:"]
    out += [f'\t.asciz "{name}"' for _, name in syms]
    out.append("\t.byte 0")
    out.append('\t.section .note.GNU-stack,"",@progbits')
    print("\n".join(out))


if __name__ == "__main__":
    main()
