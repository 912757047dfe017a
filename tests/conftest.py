"""pytest fixtures: guests booted on their own copies of the disks.

    def test_plain(guest):                  # one guest, booted as it comes
        guest.ok("ls /")

    def test_with_arguments(guests):        # guests as the test wants them
        g = guests.boot(kargs="syncinterval=0", mem=16)
        ...
        g.close()                           # the power goes off
        g = guests.boot(kargs="syncinterval=0")   # the same disks, booted again

    def test_disk_made_first(guests):
        g = guests.new(sd1_sectors=8192)    # disks made, nothing started
        ...                                 # change g.sd1 on the host
        g.boot()

Every guest is closed (QEMU and its disk servers stopped) when the test
ends, however it ends; closing one earlier, to look at its disks from the
host, is harmless.

A module may share one guest among its tests (SharedGuest, in
tests/guest.py): a test that fails leaves the next a guest booted afresh,
not a shell left inside the program that failed.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import pytest

from tests.guest import Guest


class Guests:
    """The guests of one test, in its tmp_path unless told otherwise.  The
    keyword arguments are Guest's: kargs, mem, profile, sd1_sectors, sd1,
    faults, allow_reboot, gdb_port, gdb_wait."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.all: list[Guest] = []

    def new(self, workdir: Optional[Path] = None, **kwargs) -> Guest:
        """A guest whose disks are made (or kept, from an earlier guest in
        the same workdir) but which is not started: g.boot() starts it."""
        if workdir is not None:
            workdir.mkdir(parents=True, exist_ok=True)
        g = Guest(workdir or self.workdir, **kwargs)
        self.all.append(g)
        return g

    def boot(self, workdir: Optional[Path] = None, **kwargs) -> Guest:
        """A guest booted to its shell prompt."""
        g = self.new(workdir, **kwargs)
        g.boot()
        return g

    def close(self) -> None:
        for g in self.all:
            g.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Each phase's report kept on its test (item.rep_call), so that a
    fixture's teardown knows whether the test it served failed."""
    outcome = yield
    rep = outcome.get_result()
    setattr(item, f"rep_{rep.when}", rep)


@pytest.fixture
def guests(tmp_path: Path):
    g = Guests(tmp_path)
    yield g
    g.close()


@pytest.fixture
def guest(guests: Guests) -> Guest:
    return guests.boot()
