"""Reliability regressions (issue 14), each on FFS, EFS and LFS: an
ordinary user shrinking a file across its indirect levels, writes that
fail half way (EFAULT, ENOSPC), a block pointer or a directory size
damaged on the disk.  None may panic, hang or leak; the checker finds
the file system clean afterwards.

The in-guest half is /usr/tests/reltests (tests/prog/reltests).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests import damage, fslib
from tests.guest import Guest


def reltests(g: Guest, args: str, user: str = "student") -> None:
    """Run reltests as user; every check passes and the kernel is quiet."""
    cmd = f"/usr/tests/reltests {args}"
    if user != "root":
        cmd = f"su {user} -c '{cmd}'"
    out, status = g.run(cmd, timeout=300)
    run = fslib.parse("reltests", out)
    assert not run.failed, "reltests:\n" + "\n".join(run.failed.values())
    complaints = [l for l in run.stray if fslib.KERNEL_COMPLAINTS.search(l)]
    assert not complaints, "the kernel complained:\n" + "\n".join(complaints)
    assert run.summary is not None and status == 0, out[-2000:]


@pytest.mark.parametrize("layout", fslib.LAYOUTS)
def test_user_shrinks_and_fails_writes_without_a_panic_or_a_leak(
        guest: Guest, layout: str):
    """ftruncate of a 6 MB file to 5 MB used to fault in ffs_indirtrunc
    (a level below a partly kept one truncated with an index past the end
    of its block); a write(2) from a kernel address used to leak the block
    it had allocated ("bad block N (size 0) freed")."""
    fslib.make_fs(guest, layout)
    guest.ok("mkdir /mnt/u && chmod 777 /mnt/u")
    reltests(guest, "-d /mnt/u")
    fslib.unmount_and_check(guest, layout)


@pytest.mark.parametrize("layout", ["ffs", "lfs"])
def test_filling_the_disk_gives_every_block_back(guests, layout: str):
    """Writes until ENOSPC through the single and double indirect blocks;
    the error path truncates what did not arrive."""
    g = guests.boot(sd1_sectors=32768)
    fslib.make_fs(g, layout)
    reltests(g, "-d /mnt -t fill", user="root")
    fslib.unmount_and_check(g, layout)


@pytest.mark.parametrize("layout", fslib.LAYOUTS)
def test_a_bad_block_pointer_is_eio_and_one_line(guests, tmp_path: Path,
                                                   layout: str):
    """The root directory's first block pointer with its top byte
    corrupted: a create must fail with EIO and the console say which
    inode, once; it used to go on with the pointer (a negative cylinder
    group in ffs_realloccg, a walk of zeros: 'mangled entry', EINVAL)."""
    img = tmp_path / "damaged.img"
    damage.make_case(layout, "root-db0-negative", img)
    t = "-n -t lfs " if layout == "lfs" else ""     # no cleaner to look
    g = guests.boot(sd1=img)
    said = g.ok(f"mount {t}/dev/sd1a /mnt")
    out, status = g.run("touch /mnt/x; touch /mnt/y")
    said += out
    assert status != 0 and "Input/output error" in out, out
    assert said.count("block pointer") == 1, said
    assert "mangled" not in said, said
    g.ok("umount /mnt")


@pytest.mark.parametrize("layout", ["ffs", "efs"])
def test_minus_one_is_no_block_pointer_on_ffs(guests, tmp_path: Path,
                                              layout: str):
    """-1 is a valid pointer only where the layout says so (LFS: a block
    in the cache, not written yet); on FFS it was taken for one too,
    because ufs asked for an LFS superblock in a union that always holds
    one.  Reading the file's first block must be EIO, said once."""
    img = tmp_path / "damaged.img"
    damage.make_case(layout, "file-db-negative", img)
    g = guests.boot(sd1=img)
    said = g.ok("mount -r /dev/sd1a /mnt")
    out, status = g.run("dd if=/mnt/single of=/dev/null bs=4096 count=1")
    said += out
    assert status != 0 and "Input/output error" in out, out
    assert "block pointer -1 out of range" in said, said
    g.ok("umount /mnt")


@pytest.mark.parametrize("size", ["2g", "huge"])
@pytest.mark.parametrize("layout", ["ffs", "lfs"])
def test_a_directory_bigger_than_its_blocks_is_refused_once(
        guests, tmp_path: Path, layout: str, size: str):
    """A directory whose size on disk is 2^31 - 1 or 2^63 - 1 hung the
    lookup, which walked the holes and said 'mangled entry' for every
    512 bytes; now it is reported once and refused with EIO."""
    img = tmp_path / "damaged.img"
    damage.make_case(layout, f"dir-size-{size}", img)
    t = "-n -t lfs " if layout == "lfs" else ""
    g = guests.boot(sd1=img)
    said = g.ok(f"mount {t}/dev/sd1a /mnt")
    said += g.run("ls /mnt/a", timeout=60)[0]
    for cmd in ("cat /mnt/a/frag", "ls /mnt/a/b", "touch /mnt/a/new",
                "rmdir /mnt/a"):
        out, status = g.run(cmd, timeout=60)
        assert status != 0, f"{cmd}: {out}"
        said += out
    assert "Input/output error" in said, said
    assert said.count("bad dir ino") == 1, said
    assert "mangled" not in said, said
    assert g.ok("ls /mnt/many | wc -l").split() == ["150"]
    g.ok("umount /mnt")


@pytest.mark.parametrize("layout", fslib.LAYOUTS)
def test_no_new_name_in_a_removed_directory(guest: Guest, layout: str):
    """A directory removed while it is a process's current directory takes
    no new names: ENOENT.  ufs_lookup used to answer ENOENT both for "absent,
    you may create it" and for "removed", so namei let a link go on with
    the slot hints an earlier lookup had left: `ln /mnt/f x` in a removed
    directory panicked in allocbuf (the stress test's link/rmdir race)."""
    fslib.make_fs(guest, layout)
    guest.ok("echo hi > /mnt/f && touch /mnt/a /mnt/b")
    for cmd in ("ln /mnt/f x", "touch x", "mkdir x", "ln -s /mnt/f x",
                "mv /mnt/b x"):
        out, status = guest.run(f"mkdir /mnt/d && (cd /mnt/d && "
                                f"rmdir /mnt/d && {cmd})")
        assert status != 0 and "No such file or directory" in out, \
            f"{cmd}: {out}"
    assert guest.ok("cat /mnt/f") == "hi\n"
    fslib.unmount_and_check(guest, layout)


@pytest.mark.parametrize("layout", fslib.LAYOUTS)
def test_a_truncation_under_a_running_sync_reaches_the_disk(guest: Guest, layout: str):
    """A file with blocks under its single indirect block, the cache cold
    (mounted again), truncated to its direct blocks while a child calls
    sync() without pause: the truncation sleeps reading the indirect
    block, the LFS writer copied the inode meanwhile and cleared its
    flags, and the blocks freed after the copy never reached the disk
    (fsck_lfs: blocks past the end of the file, segment live bytes and
    the free count off)."""
    fslib.make_fs(guest, layout)
    guest.ok("dd if=/dev/zero of=/mnt/synctrunc bs=4k count=12 2>/dev/null && "
             "dd if=/dev/zero of=/mnt/synctrunc bs=4k seek=1012 count=2 "
             "conv=notrunc 2>/dev/null")
    fslib.remount(guest, layout)
    reltests(guest, "-d /mnt -t synctrunc", user="root")
    fslib.unmount_and_check(guest, layout)


@pytest.mark.parametrize("layout", fslib.LAYOUTS)
def test_renames_that_lock_two_vnodes_never_deadlock(guests, layout: str):
    """An ordinary user's processes renaming a directory over its sibling
    within their parent while others move a directory between the two,
    and renaming files over each other in two directories that both hold
    names of the two files.  A rename within one directory took its locks
    without the mount's rename lock, and two files in the order of their
    names: each pair slept in vnlock for good (issue 21).  lockyield=2
    gives up the CPU before one lock in two, so the interleavings come
    within the test's 200 loops."""
    g = guests.boot(kargs="lockyield=2")
    fslib.make_fs(g, layout)
    g.ok("mkdir /mnt/u && chmod 777 /mnt/u")
    reltests(g, "-d /mnt/u -t renames")
    fslib.unmount_and_check(g, layout)
