"""EFS: FFS with clustering (kern/vfs_cluster.c), seen from the guest.

The kernel's disk counters (thesis 7.2, iostat) count SCSI commands, so
they show whether blocks moved one by one or in clusters: a 4 MB file is
1024 blocks of 4 KB, about 1000 commands on FFS and about 64 (64 KB each)
on EFS.  Profile "none": untimed, so the tests take seconds.
"""
from __future__ import annotations

import pytest

from tests.fslib import (check_program, ffs, fsck_ffs_clean, iostat_counters,
                         remount)

MB4 = 4 * 1024 * 1024


def io(g) -> dict[str, int]:
    """sd1's counters since the last call (iostat -z zeroes them)."""
    return iostat_counters(g.ok("iostat -z"))["sd1"]


def test_mount_names_the_layout(guest):
    ffs(guest, efs=True)
    assert "/dev/sd1a on /mnt (efs, local)" in guest.ok("mount")
    guest.ok("umount /mnt")
    ffs(guest)
    assert "/dev/sd1a on /mnt (ffs, local)" in guest.ok("mount")


@pytest.mark.parametrize("kind", ["ffs", "efs"])
def test_reading_and_writing_4mb(guest, kind):
    ffs(guest, efs=kind == "efs")
    io(guest)
    # unmount, not sync: it returns only when every write is done
    guest.ok("dd if=/dev/zero of=/mnt/f bs=64k count=64 2>/dev/null")
    guest.ok("umount /mnt")
    written = io(guest)
    guest.ok("mount /dev/sd1a /mnt")
    io(guest)
    guest.ok("dd if=/mnt/f of=/dev/null bs=4k 2>/dev/null")
    read = io(guest)
    assert read["rsectors"] * 512 >= MB4
    if kind == "ffs":
        # one command per 4 KB block (plus the metadata)
        assert read["reads"] >= 1024 and written["writes"] >= 1024
    else:
        # 64 KB commands once the read-ahead window has grown
        assert 64 <= read["reads"] <= 90, read
        assert 64 <= written["writes"] <= 90, written


def test_btree_pages_do_not_trigger_maximal_read_ahead(guest):
    """Thesis 7.7: 8 KB B-tree pages on 4 KB blocks read blocks 0, 1, 2,
    22, 23, 41, 42, ...: each page looks like the start of a sequential
    scan.  Read-ahead in 64 KB units would read 16 blocks per page; the
    adaptive window keeps it to a few."""
    ffs(guest, efs=True)
    guest.ok("dd if=/dev/zero of=/mnt/f bs=64k count=64 2>/dev/null")
    remount(guest)
    pages = [19 * i + (i * i) % 7 for i in range(1, 50)]   # block numbers
    io(guest)
    guest.ok("for b in " + " ".join(map(str, pages)) + "; do "
             "dd if=/mnt/f of=/dev/null bs=4k skip=$b count=2 2>/dev/null; done")
    read = io(guest)
    wanted = len(pages) * 2 * 4096
    # some read-ahead (a page's second block is a sequential read: the
    # window, one block, is read ahead), never the whole 64 KB per page
    assert read["rsectors"] * 512 < 3 * wanted, read
    assert read["rsectors"] * 512 >= 1.25 * wanted, read


@pytest.mark.parametrize("kind", ["ffs", "efs"])
def test_data_survives_mixed_writes_and_a_remount(guest, kind):
    ffs(guest, efs=kind == "efs")
    for seed in (1, 7, 1992):
        check_program(guest, "clustertest", f"-s {seed} -n 300 write /mnt/f{seed}")
    remount(guest)
    for seed in (1, 7, 1992):
        check_program(guest, "clustertest", f"-s {seed} -n 300 verify /mnt/f{seed}")
    guest.ok("umount /mnt")
    fsck_ffs_clean(guest)


def test_fstests_on_efs(guest):
    """The file-system suite (tests/prog/fstests) on EFS."""
    ffs(guest, efs=True)
    check_program(guest, "fstests", "-d /mnt")
    guest.ok("umount /mnt")
    fsck_ffs_clean(guest)
