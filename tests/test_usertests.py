"""The in-guest stress programs in the style of xv6's usertests, each run
in a fresh guest: /usr/tests/proctests, pipetests, sigtests, badptrs and
fstests (tests/prog/NAME).  A program prints one line per check,
"(NAME) what: ok" or "(NAME) what: FAILED: why", and last "N passed, M
failed"; a failed check is reported with a hint of what usually causes it
(tests/fslib.py runs them and holds the hints).

Kernel bugs these programs found (and that their checks now guard):
truncation zeroing memory before an indirect block's buffer, copyin and
copyout not growing the stack, a failed write growing the file, and a
stop signal aborting a sleep.
"""
from __future__ import annotations

from tests.fslib import check_program, fsck_ffs_clean


def test_proctests(guest):
    check_program(guest, "proctests")


def test_pipetests(guest):
    check_program(guest, "pipetests")


def test_sigtests(guest):
    check_program(guest, "sigtests")


def test_badptrs(guest):
    check_program(guest, "badptrs")


def test_fstests(guest):
    check_program(guest, "fstests")


def test_fstests_out_of_space(guests):
    """fstests -n on a 4 MB file system mounted on /mnt."""
    g = guests.boot(sd1_sectors=8192)
    g.ok("newfs /dev/rsd1c")
    g.ok("mount /dev/sd1c /mnt")
    check_program(g, "fstests", "-d /mnt -n")
    g.ok("umount /mnt")
    fsck_ffs_clean(g, "/dev/rsd1c")
