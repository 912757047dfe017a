"""BSD-LFS in the kernel, from the guest.

A file system made by newfs_lfs mounts read-only or read-write: the
checkpoint is found through the superblock copies, inodes through the
ifile's inode map, reads go through the shared UFS code, and writes
through the segment writer; dumplfs then checks the log and the ifile.
"""
from __future__ import annotations

from tests.fslib import check_program, dumplfs_ok, newfs_lfs


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
    assert "clean" in guest.ok("lfsstat /mnt"), "counters read read-only"
    guest.ok("umount /mnt")
    guest.ok("mount -r -t lfs /dev/sd1a /mnt && ls /mnt && umount /mnt")


def test_files_survive_unmount_and_mount(guest):
    newfs_lfs(guest)
    guest.ok("mount -t lfs /dev/sd1a /mnt")
    assert "/dev/sd1a on /mnt (lfs, local)" in guest.ok("mount")
    guest.ok("mkdir /mnt/d && echo hello > /mnt/d/a && ln /mnt/d/a /mnt/b"
             " && ln -s d/a /mnt/c")
    guest.ok("dd if=/dev/zero of=/mnt/big bs=64k count=40 2>/dev/null")
    guest.ok("umount /mnt")
    dumplfs_ok(guest)
    guest.ok("mount -t lfs /dev/sd1a /mnt")
    assert guest.ok("cat /mnt/b /mnt/c").split() == ["hello", "hello"]
    assert guest.ok("ls -l /mnt/big").split()[4] == str(40 * 65536)
    dump = guest.ok("od /mnt/big").split("\n")     # all zeros: one line, *
    assert dump[1] == "*" and dump[2] == "12000000", dump
    guest.ok("rm -r /mnt/d /mnt/b /mnt/c /mnt/big")
    guest.ok("umount /mnt")
    dumplfs_ok(guest)


def test_dirops_are_batched_and_flagged(guest):
    """A create is written with the ifile in partial segments marked
    SS_DIROP; the last of a dirop write has no SS_CONT; sync ends with a
    checkpoint (SS_CKP)."""
    newfs_lfs(guest)
    guest.ok("mount -t lfs /dev/sd1a /mnt")
    guest.ok("echo x > /mnt/f && sync")
    guest.ok("umount /mnt")
    out = dumplfs_ok(guest)
    flags = [line.split("flags ")[1].split()[0] for line in out.splitlines()
             if line.startswith("pseg\t")]
    assert flags[0] == "DIROP,CKP"          # newfs's first checkpoint
    written = flags[1:]
    assert any("DIROP" in f for f in written)
    assert written[-1].endswith("CKP")
    ends = [f for f in written if "DIROP" in f and "CONT" not in f]
    assert ends, written


def test_fstests_on_lfs(guest):
    """The file-system suite (tests/prog/fstests) on LFS."""
    newfs_lfs(guest)
    guest.ok("mount -t lfs /dev/sd1a /mnt")
    check_program(guest, "fstests", "-d /mnt")
    guest.ok("umount /mnt")
    dumplfs_ok(guest)


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


def test_a_file_forced_data_only_then_removed_lets_the_file_system_go(guest):
    """fsync of an overwrite writes only the data (IN_DATAONLY: the inode
    follows later).  Removed before that, the file's freed inode was never
    written, so it stayed dirty and held: umount said EBUSY for good.  The
    same for a protected file's commit."""
    newfs_lfs(guest)
    guest.ok("mount -n -t lfs /dev/sd1a /mnt")
    for name, protect in (("plain", False), ("protected", True)):
        f = f"/mnt/{name}"
        guest.ok(f"dd if=/dev/zero of={f} bs=4096 count=2 2>/dev/null && "
                 f"fsync {f}" + (f" && chflags txn {f}" if protect else ""))
        guest.ok(f"dd if=/dev/zero of={f} bs=4096 count=1 conv=notrunc "
                 f"2>/dev/null && fsync {f} && rm {f}")
    guest.ok("umount /mnt")
    dumplfs_ok(guest)
