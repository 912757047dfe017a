"""fsck_lfs in the guest, on file systems the kernel wrote.

Whatever the kernel writes and checkpoints must pass fsck_lfs exactly:
0 problems, mounted (after sync, the newest checkpoint) or not, and
after aging with the cleaner.  An image repaired by fsck_lfs -y on the
host must mount read-write and stay consistent.
"""
from __future__ import annotations

from tests.fslib import (FSCK_LFS_SUMMARY, check_program, dumplfs_ok,
                         fsck_lfs_clean, lfs)
from tests.guest import Guest
from tests.host.tools import HOSTBIN, MB, damage_all, newfs_lfs, run


def populate(g: Guest) -> None:
    g.ok("mkdir -p /mnt/a/b/c /mnt/d && echo hello > /mnt/a/f")
    g.ok("ln /mnt/a/f /mnt/d/link && ln -s /mnt/a/f /mnt/d/sym")
    g.ok("ln -s " + "x" * 100 + " /mnt/d/longsym")
    g.ok("dd if=/dev/zero of=/mnt/big bs=64k count=80 2>/dev/null")
    g.ok("for i in 1 2 3 4 5 6 7 8 9 10; do echo $i > /mnt/d/f$i; done")
    g.ok("rm /mnt/d/f3 /mnt/d/f7 && rmdir /mnt/a/b/c")


def test_mounted_and_unmounted_file_system_checks_out(guest):
    """Files, directories, hard and symbolic links, a file with double
    indirect blocks, removals: fsck -n while mounted (after sync) and
    after unmount finds 0 problems; the counts agree with df."""
    guest.ok("newfs_lfs /dev/rsd1a > /dev/null", timeout=120)
    guest.ok("mount -t lfs /dev/sd1a /mnt")
    populate(guest)
    guest.ok("sync")
    fsck_lfs_clean(guest, "-n")
    guest.ok("umount /mnt")
    out = fsck_lfs_clean(guest)
    assert "note:" not in out, out
    files = int(FSCK_LFS_SUMMARY.search(out).group(1))
    # the ifile, root, lost+found, a, b, d, f, sym, longsym, big, 8 fN
    assert files == 18, out
    dumplfs_ok(guest)


def test_aged_file_system_checks_out(guest):
    """agetest with the cleaner: segments cleaned, live data moved;
    the checkpoint left at unmount passes every check."""
    lfs(guest)
    check_program(guest, "agetest", "-s 5 -g 2 -l 70 -h 85 -t /tmp/tab run /mnt")
    guest.ok("sync")
    fsck_lfs_clean(guest, "-n")
    guest.ok("umount /mnt")
    out = fsck_lfs_clean(guest, "-n")
    assert "note:" not in out, out
    out = fsck_lfs_clean(guest, "-y")
    assert out.rstrip().endswith("0 problems, 0 repaired"), out


def test_repaired_image_mounts_read_write(tmp_path, guests):
    """A host image damaged (link count, segment usage, free list) and
    repaired by fsck_lfs -y: the kernel mounts it read-write, writes to
    it, and afterwards fsck_lfs and dumplfs find it consistent."""
    img = tmp_path / "sd1src.img"
    newfs_lfs(HOSTBIN, img, 64 * MB)
    damage_all(img)
    run(HOSTBIN, "fsck_lfs", "-y", img)
    g = guests.boot(tmp_path / "g", sd1=img)
    g.ok("mount -t lfs /dev/sd1a /mnt")
    populate(g)
    g.ok("umount /mnt")
    fsck_lfs_clean(g)
    dumplfs_ok(g)


def test_checking_a_busy_mounted_file_system(guest):
    """fsck_lfs -n while a writer copies files and syncs: it checks the
    newest checkpoint, checks again when a new one appears meanwhile,
    and finds no problem in any."""
    lfs(guest, cleaner=False)
    guest.ok("dd if=/dev/zero of=/mnt/big bs=64k count=32 2>/dev/null")
    guest.ok("( (for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do"
             " cp /mnt/big /mnt/c$i; sync; rm /mnt/c$i; sync; done;"
             " echo DONE > /tmp/w) > /dev/null 2>&1 & )")
    for _ in range(4):
        fsck_lfs_clean(guest, "-n")
    guest.ok("while [ ! -f /tmp/w ]; do sleep 1; done", timeout=300)
    guest.ok("umount /mnt")
    out = fsck_lfs_clean(guest)
    assert "note:" not in out, out
