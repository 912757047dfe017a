"""python3 -m tests.damage: list the cases, make one, or make a random one."""
from __future__ import annotations

import sys
from pathlib import Path

from tests.damage import CASES, __doc__ as DOC, make_case, make_random


def main(argv: list[str]) -> int:
    if len(argv) >= 1 and argv[0] == "list":
        for n, c in CASES.items():
            print(f"{n:28} {','.join(c.layouts):12} {c.why}")
        return 0
    if len(argv) == 4 and argv[0] == "make":
        make_case(argv[1], argv[2], Path(argv[3]))
        return 0
    if len(argv) == 4 and argv[0] == "random":
        for line in make_random(argv[1], int(argv[2], 0), Path(argv[3])):
            print(line)
        return 0
    print(DOC.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
