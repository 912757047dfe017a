"""Concurrency stress (issue 14): /usr/tests/stress runs four processes of
mixed namespace and data operations on one tree (tests/prog/stress) on
FFS, EFS and LFS (with lfs_cleanerd running), as root and as the
ordinary user, under its watchdog; then the file system is unmounted
and its checker must find nothing.

Three mixes: "all" is every operation, directory and file renames
included (the load that corrupted FFS directories before ufs_rename
took its rename lock, and deadlocked LFS before dirops took their
vnode locks ahead of the dirop gate); "norename" leaves renames out;
"dirs" is only mkdir, rmdir, readdir and stat, the load that lost the
inactive of a removed directory (vrele, kern/vfs_subr.c), leaving it
allocated for fsck to find.  With a small vnode table, lookups meet
vnodes being recycled.  On a full disk, every allocation that
meets ENOSPC part way must give back what it took (ffs_balloc's
indirect levels left blocks past the end of files).

STRESS_SECONDS (default 8) and STRESS_SEED (default 1) set the run;
make stress runs longer.
"""
from __future__ import annotations

import os
import re

import pytest

from tests import fslib
from tests.guest import Guest

SECONDS = int(os.environ.get("STRESS_SECONDS", "8"))
SEED = int(os.environ.get("STRESS_SEED", "1"))
MIXES = {"all": "", "norename": "-x rendir,rename",
         "dirs": "-x create,write,trunc,read,rename,rendir,link,unlink,fsync"}
SUMMARY = re.compile(r"stress: (\d+) ops by (\d+) procs in \d+ s, (\d+) "
                     r"expected errors .*?, (\d+) unexpected.*, (\d+) wrong, "
                     r"(\d+) stuck")


def stress(g: Guest, user: str, mix: str, procs: int = 4) -> str:
    cmd = (f"/usr/tests/stress -p {procs} -t {SECONDS} -s {SEED} -w 20 "
           f"{MIXES[mix]} /mnt/s")
    if user != "root":
        cmd = f"su {user} -c '{cmd}'"
    out, status = g.run(cmd, timeout=SECONDS + 120)
    lines = [l for l in out.splitlines() if l.startswith("stress: ")]
    m = SUMMARY.match(lines[-1]) if lines else None
    assert m, f"stress did not finish:\n{out[-3000:]}"
    ops, unexpected, wrong, stuck = (int(m.group(i)) for i in (1, 4, 5, 6))
    assert stuck == 0, f"workers made no progress (deadlock?):\n{out[-4000:]}"
    assert unexpected == 0 and wrong == 0 and status == 0, out[-4000:]
    assert ops > 100, out
    assert fslib.KERNEL_COMPLAINTS.search(out) is None, out[-4000:]
    return lines[-1]


def unmount(g: Guest) -> None:
    """umount /mnt at once (LFS waits for a cleaner call under way, which
    holds vnodes, instead of saying EBUSY), the kernel saying nothing: the
    last segment writes happen here."""
    out = g.ok("umount /mnt", timeout=120)
    assert fslib.KERNEL_COMPLAINTS.search(out) is None, out


RUNS = [(layout, user, mix) for layout in fslib.LAYOUTS
        for user in ("root", "student") for mix in MIXES
        if mix != "dirs" or user == "root"]


@pytest.mark.parametrize("layout,user,mix", RUNS,
                         ids=["-".join(r) for r in RUNS])
def test_stress(guest: Guest, layout: str, user: str, mix: str):
    fslib.make_fs(guest, layout)
    guest.ok("mkdir /mnt/s && chmod 777 /mnt/s")
    print(stress(guest, user, mix))
    unmount(guest)
    fslib.fsck_clean(guest, layout)


SMALL_VNODES = 64               # recycled all the time: vgone meets lookups


@pytest.mark.parametrize("layout", ("ffs", "efs"))
def test_stress_with_a_small_vnode_table(guests, layout: str):
    """With 64 vnodes, getnewvnode recycles one on nearly every lookup,
    and vgone sleeps writing its dirty buffers while its inode is still
    in the hash.  A lookup of that inode meanwhile must wait and read it
    afresh (VXLOCK), not take the vnode that is losing its inode: that
    was a page fault in rename, ffs_balloc or ufs_getindir.  (LFS holds
    its written vnodes until a checkpoint, so 64 are too few for it:
    ENFILE.)"""
    g = guests.boot(kargs=f"vnodes={SMALL_VNODES}")
    fslib.make_fs(g, layout)
    g.ok("mkdir /mnt/s && chmod 777 /mnt/s")
    print(stress(g, "root", "all"))
    unmount(g)
    fslib.fsck_clean(g, layout)


FULL_SECTORS = 32768            # 16 MB
FULL_LEAVE_KB = 256             # left free by the filler: gone at once,
                                # however slow the host (the run is 8 s)


@pytest.mark.parametrize("layout", fslib.LAYOUTS)
def test_stress_on_a_full_disk(guests, layout: str):
    g = guests.boot(sd1_sectors=FULL_SECTORS)
    fslib.make_fs(g, layout)
    avail = int(g.ok("df /mnt").splitlines()[-1].split()[3])
    g.ok(f"dd if=/dev/zero of=/mnt/filler bs=64k "
         f"count={max(0, avail - FULL_LEAVE_KB) // 64} 2>/dev/null",
         timeout=300)
    g.ok("mkdir /mnt/s && chmod 777 /mnt/s")
    summary = stress(g, "root", "all", procs=2)
    print(summary)
    assert "ENOSPC" in summary, "the disk never filled: " + summary
    unmount(g)
    fslib.fsck_clean(g, layout)
