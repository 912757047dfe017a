"""Directory operations and the segment writer (thesis 6.3.3,
lfs/lfs_dirop.c), from the guest: the writer waits for a dirop in
progress, so no checkpoint holds half of one, and a dirop waits at the
gate while the writer waits to write.

A dirop is over in microseconds, so these tests stop one in the middle
with the kernel's test hook: booted with dirop_pause=moved, a rename to
"moved" stops after entering the new name and before removing the old
(ufs_rename.c), until it gets a signal (kill -CONT).  `ps -l` shows where
each process sleeps: "dirpause" (the hook), "lfswriter" (the writer
waiting for the dirops in progress to end), "lfsdirop" (a dirop waiting
at the gate).  The guest runs with syncinterval=0: only the test's sync
writes.
"""
from __future__ import annotations

import time

from tests.fslib import fsck_lfs_clean, lfs
from tests.guest import Guest
from tests.test_lfs_cleaner import stats

KARGS = "syncinterval=0 dirop_pause=moved"
WAIT = 30.0         # seconds a step may take to show in ps


def wchan(g: Guest, pid: int) -> str | None:
    """Where process pid sleeps ("-" if it runs), None once it is gone.
    ps prints 7 characters of it: "lfswrit" for "lfswriter"."""
    for line in g.ok("ps -l").splitlines()[1:]:
        f = line.split()
        if len(f) >= 7 and f[1] == str(pid) and not f[6].startswith("Z"):
            return f[5]
    return None


def asleep_in(g: Guest, pid: int, want: str) -> bool:
    return want[:7] == wchan(g, pid)


def sleeps_in(g: Guest, pid: int, want: str) -> str | None:
    """Wait until pid sleeps in want, or is gone; where it is then."""
    deadline = time.monotonic() + WAIT
    while True:
        w = wchan(g, pid)
        if w is None or w == want[:7] or time.monotonic() > deadline:
            return want if w == want[:7] else w
        time.sleep(0.2)


def background(g: Guest, cmd: str) -> int:
    """Start cmd in the background; its pid."""
    return int(g.ok(f"{cmd} > /dev/null 2>&1 & echo $!").split()[-1])


def paused_rename(g: Guest) -> int:
    """A fresh LFS with /mnt/r/a checkpointed, and a rename of it to
    /mnt/r/moved stopped in the middle by the test hook: its pid."""
    lfs(g, cleaner=False)
    g.ok("mkdir /mnt/r && echo data > /mnt/r/a && sync")
    mv = background(g, "mv /mnt/r/a /mnt/r/moved")
    assert sleeps_in(g, mv, "dirpause") == "dirpause", \
        "the rename to 'moved' did not stop in the test hook (dirop_pause)"
    return mv


def test_the_writer_waits_for_a_rename_in_progress_so_the_disk_never_has_half(
        guests):
    """sync runs while a rename is between its two names.  The writer must
    wait for the rename to end before it writes the directory and the
    ifile (its dirop pass): the checkpoint then holds the new name alone.
    A writer that does not wait writes both names, a file with two links
    that the user never made, and the power goes before anything fixes
    it."""
    g = guests.boot(kargs=KARGS)
    mv = paused_rename(g)
    sync = background(g, "sync")
    where = sleeps_in(g, sync, "lfswriter")     # None: it wrote at once
    g.ok(f"kill -CONT {mv}; wait")
    assert g.ok("ls /mnt/r").split() == ["moved"]
    g.close()                                   # the power goes
    g = guests.boot(kargs=KARGS)
    fsck_lfs_clean(g, "-n")
    g.ok("mount -n -t lfs /dev/sd1a /mnt")
    names = g.ok("ls /mnt/r").split()
    assert names != ["a", "moved"], (
        "half a rename on the disk: the checkpoint has both names (the "
        f"writer did not wait for the rename; sync slept in {where!r})")
    assert names == ["moved"], names
    assert g.ok("ls -l /mnt/r/moved").split()[1] == "1"    # links
    assert g.ok("cat /mnt/r/moved").strip() == "data"
    g.ok("umount /mnt")
    fsck_lfs_clean(g, "-n")


def test_a_dirop_waits_at_the_gate_while_the_writer_waits_to_write(guests):
    """While the writer waits for the rename in progress, the gate is
    closed: a create in another directory waits for the writer to be done,
    or dirops could keep the writer waiting for ever (and one that began
    during the dirop pass would be written half).  Once the rename ends,
    all three finish, and lfsstat has counted each wait."""
    g = guests.boot(kargs=KARGS)
    mv = paused_rename(g)
    sync = background(g, "sync")
    assert sleeps_in(g, sync, "lfswriter") == "lfswriter", \
        "sync did not wait for the rename in progress (lfs_writer_enter)"
    touch = background(g, "touch /mnt/late")
    where = sleeps_in(g, touch, "lfsdirop")
    seen = "ended" if where is None else f"slept in {where}"
    assert where == "lfsdirop", (
        "a create began while the writer waited for the dirops in progress "
        f"(lfs_dirop_begin: it {seen})")
    assert asleep_in(g, mv, "dirpause") and asleep_in(g, sync, "lfswriter")
    g.ok(f"kill -CONT {mv}; wait")
    assert g.ok("ls /mnt/r").split() == ["moved"]
    g.ok("test -f /mnt/late")
    # lfsstat counts the sleeps: the writer's once, the create's once.
    st = stats(g)
    assert (st["writer_waits"], st["dirop_waits"]) == ("1", "1"), st
    g.ok("umount /mnt")
    fsck_lfs_clean(g, "-n")
