"""BSD-LFS in the kernel, from the guest: what this kernel has so far.

A file system made by newfs_lfs mounts read-only (mount -r -t lfs): the
checkpoint is found through the superblock copies, inodes through the
ifile's inode map, and reads go through the shared UFS code.  A read-write
mount is refused with a message until the segment writer exists.
"""
from __future__ import annotations


def newfs_lfs(g) -> None:
    g.ok("newfs_lfs /dev/rsd1a > /dev/null", timeout=120)


def test_read_only_mount_shows_the_new_file_system(guest):
    newfs_lfs(guest)
    guest.ok("mount -r -t lfs /dev/sd1a /mnt")
    assert "/dev/sd1a on /mnt (lfs, local, read-only)" in guest.ok("mount")
    names = guest.ok("ls -a /mnt").split()
    assert "lost+found" in names
    inums = dict(reversed(line.split()) for line in
                 guest.ok("ls -ai /mnt/lost+found").splitlines())
    assert inums["."] == "3" and inums[".."] == "2"
    df = guest.ok("df /mnt").splitlines()[-1].split()
    total, used, avail = map(int, df[1:4])
    assert 60000 < total <= 65536 and 0 < used < 100 and avail < total
    out, status = guest.run("touch /mnt/x")
    assert status != 0 and "Read-only file system" in out
    guest.ok("umount /mnt")
    guest.ok("mount -r -t lfs /dev/sd1a /mnt && ls /mnt && umount /mnt")


def test_read_write_mount_is_refused_with_a_reason(guest):
    newfs_lfs(guest)
    out, status = guest.run("mount -t lfs /dev/sd1a /mnt")
    assert status != 0
    assert "segment writer" in out and "read-only" in out
    assert "/mnt" not in guest.ok("mount")


def test_a_damaged_first_superblock_falls_back_to_another_copy(guest):
    """The first copy's checksum fails (a byte of its mount-point name
    changed); its list of copies still leads to a good one."""
    newfs_lfs(guest)
    guest.ok("dd if=/dev/rsd1a of=/tmp/sb bs=512 skip=16 count=1 2>/dev/null")
    guest.ok("printf X | dd of=/tmp/sb bs=1 seek=200 conv=notrunc 2>/dev/null")
    guest.ok("dd if=/tmp/sb of=/dev/rsd1a bs=512 seek=16 2>/dev/null")
    guest.ok("mount -r -t lfs /dev/sd1a /mnt")
    assert "lost+found" in guest.ok("ls /mnt")
    guest.ok("umount /mnt")


def test_mount_refuses_a_file_system_that_is_not_lfs(guest):
    guest.ok("newfs /dev/rsd1a > /dev/null", timeout=120)
    out, status = guest.run("mount -r -t lfs /dev/sd1a /mnt")
    assert status != 0 and "bad superblock" in out
    assert guest.ok("echo alive").strip() == "alive"
