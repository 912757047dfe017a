"""bin/supercomp, the supercomputer benchmark of thesis 7.9 (bench/supercomputer.py).

create cuts a file into W-sized units, writes them in a random order and stamps
each with its index; verify reads them back.  run performs reads and writes of
the given sizes in the given ratio at random offsets and reports each kind.
Profile "none": nothing is timed, so the counts and bytes are checked, never a
time.
"""
from __future__ import annotations

import re

from tests import fslib

FILE = 100_000          # not a multiple of the unit: the last one is short
UNIT = 7_000            # 15 units, 14 whole and one of 2,000 bytes
UNITS = -(-FILE // UNIT)
KIND = re.compile(r"^supercomp (read|write) n=(\d+) size=(\d+) bytes=(\d+) usecs=(\d+) "
                  r"mean_us=(\d+) sd_us=(\d+) min_us=(\d+) max_us=(\d+) kbps=(\d+\.\d\d)$",
                  re.M)


def create(guest, seed: int = 3) -> str:
    return guest.ok(f"supercomp -f /mnt/f -s {FILE} -w {UNIT} create -S {seed}")


def verify(guest) -> tuple[str, int]:
    return guest.run(f"supercomp -f /mnt/f -s {FILE} -w {UNIT} verify")


def test_create_writes_every_unit_once_with_its_stamp(guest):
    fslib.ffs(guest)
    out = create(guest)
    assert f"supercomp create units={UNITS} bytes={FILE} size={UNIT} " in out, out
    assert guest.ok("wc -c < /mnt/f").strip() == str(FILE)
    # Unit 0 starts the file, unit 1 starts at byte 7,000, the short last
    # unit (14) at 98,000: each is its own index in 16-byte lines.
    dump = guest.ok("od -c /mnt/f")
    assert "u   n   i   t       0   0   0   0   0   0   0   0   0   0  \\n" in dump, dump[:400]
    first = guest.ok("dd if=/mnt/f bs=16 count=1 2>/dev/null")
    assert first == "unit 0000000000\n", first
    second = guest.ok("dd if=/mnt/f bs=1000 skip=7 count=1 2>/dev/null")
    assert second.startswith("unit 0000000001\nunit 0000000001\n"), second[:40]
    last = guest.ok("dd if=/mnt/f bs=1000 skip=98 count=1 2>/dev/null")
    assert last.startswith("unit 0000000014\n") and len(last) == 1000, last[:40]
    out, status = verify(guest)
    assert status == 0 and f"units={UNITS} bytes={FILE} bad=0" in out, out
    # Another order (seed) makes the same file.
    guest.ok("rm /mnt/f")
    create(guest, seed=99)
    out, status = verify(guest)
    assert status == 0 and "bad=0" in out, out
    guest.ok("umount /mnt")


def test_run_does_the_reads_and_writes_asked_for(guest):
    fslib.lfs(guest)
    create(guest)
    out = guest.ok("supercomp -f /mnt/f -r 5000 -w 7000 -n 913 -N 185 -c 100 run -S 5",
                   timeout=120)
    kinds = {m.group(1): m.groups() for m in KIND.finditer(out)}
    assert set(kinds) == {"read", "write"}, out
    # 100 requests split 913:185 is 83 reads and 17 writes, of their sizes.
    assert kinds["read"][1:4] == ("83", "5000", str(83 * 5000)), out
    assert kinds["write"][1:4] == ("17", "7000", str(17 * 7000)), out
    assert re.search(r"^supercomp fsync usecs=\d+$", out, re.M), out
    assert "supercomp run requests=100 " in out, out
    # The writes changed some units, and the file is as long as it was.
    out, status = verify(guest)
    assert status == 1 and not re.search(r"bad=0\b", out), out
    assert guest.ok("wc -c < /mnt/f").strip() == str(FILE)

    # Reads alone leave every unit as it was; -c sets the count.
    guest.ok("rm /mnt/f")
    create(guest)
    out = guest.ok("supercomp -f /mnt/f -r 9000 -w 7000 -n 1 -N 0 -c 40 run")
    assert re.search(r"^supercomp read n=40 size=9000 bytes=360000 ", out, re.M), out
    assert re.search(r"^supercomp write n=0 ", out, re.M), out
    out, status = verify(guest)
    assert status == 0 and "bad=0" in out, out
    guest.ok("umount /mnt")


def test_bad_arguments_give_the_usage(guest):
    fslib.ffs(guest)
    create(guest)
    for args in ("", "-f /mnt/f", "-f /mnt/f -s 1000 -w 100 bogus", "-x",
                 "-f /mnt/f -s 12q -w 1 create", "-f /mnt/f -s 1k create",
                 "-f /mnt/f -s 4096m -w 1k create", "-f /mnt/f -s -5 -w 1k create",
                 "-f /mnt/f -s 1k -w 100 create verify",
                 "-f /mnt/f -r 100 -w 100 -n 0 -N 0 run",
                 "-f /mnt/f -r 100 -w 100 -n 1 -N 1 -c 0 run"):
        out, status = guest.run(f"supercomp {args}")
        assert status == 1 and "usage: supercomp" in out, (args, out)
    # A request larger than the file is refused by name, not a usage.
    out, status = guest.run(f"supercomp -f /mnt/f -r {FILE + 1} -w 100 -n 1 -N 1 run")
    assert status == 1 and "smaller than a request" in out, out
    out, status = guest.run("supercomp -f /mnt/nothing -r 100 -w 100 -n 1 -N 1 run")
    assert status == 1 and "/mnt/nothing" in out, out
    guest.ok("umount /mnt")
