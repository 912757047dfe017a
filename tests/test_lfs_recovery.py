"""LFS roll-forward (lfs/lfs_rfw.c), from the guest: what was fsync'd after
the last checkpoint is there after the power goes off, and mounting says
how much it rolled forward.  The exhaustive version, a crash at every
write of several workloads, is tests/crash/ (make crashtest).

The guest runs with syncinterval=0, so the only checkpoints are the ones
the test asks for (sync, unmount).
"""
from __future__ import annotations

import re

from tests.fslib import dumplfs_ok, fsck_lfs_clean
from tests.guest import Guest

ROLLED = re.compile(r"rolled forward (\d+) partial segments, "
                    r"discarded (\d+) of an unfinished dirop, in (\d+) ms")
KARGS = "syncinterval=0"


def power_cycle(g: Guest, guests) -> Guest:
    """Cut the power (kill QEMU, no unmount) and boot again on the disks."""
    g.close()
    return guests.boot(kargs=KARGS)


def test_fsynced_work_after_the_checkpoint_is_rolled_forward(guests):
    g = guests.boot(kargs=KARGS)
    g.ok("newfs_lfs /dev/rsd1a > /dev/null && mount -n -t lfs /dev/sd1a /mnt"
         " && mkdir /mnt/d && echo hello > /mnt/d/a && sync")
    # After the checkpoint: dirops (create, mkdir) and their data ...
    g.ok("echo new > /mnt/new1 && mkdir /mnt/e && echo x > /mnt/e/f"
         " && rawbench -b 65536 -t 262144 fwrite /mnt/big")
    # ... then a rewrite that is not a dirop: after the last ifile.
    g.ok("rawbench -b 4096 -t 81920 fwrite /mnt/big")
    before = g.ok("ls -lR /mnt; od /mnt/big | tail -3")
    g = power_cycle(g, guests)
    out = g.ok("mount -n -t lfs /dev/sd1a /mnt")
    m = ROLLED.search(out)
    assert m, out
    assert int(m.group(1)) >= 2 and m.group(2) == "0", out
    rec = g.ok("lfsstat /mnt | grep recovery")
    assert f"{m.group(1)} partial segments rolled forward, 0 discarded" \
        in rec, rec
    after = g.ok("ls -lR /mnt; od /mnt/big | tail -3")
    assert after == before
    assert g.ok("cat /mnt/new1 /mnt/d/a /mnt/e/f").split() == \
        ["new", "hello", "x"]
    g.ok("umount /mnt")
    dumplfs_ok(g)
    # Rolled forward and checkpointed: the next mount is plain.
    out = g.ok("mount -n -t lfs /dev/sd1a /mnt && ls /mnt && umount /mnt")
    assert "rolled forward" not in out and "big" in out
    out = g.ok("mount -n -t lfs /dev/sd1a /mnt && lfsstat /mnt"
               " | grep recovery && umount /mnt")
    assert "none (unmounted cleanly)" in out


def test_crash_right_after_recovery_and_read_only_mount(guests):
    g = guests.boot(kargs=KARGS)
    g.ok("newfs_lfs /dev/rsd1a > /dev/null && mount -n -t lfs /dev/sd1a /mnt"
         " && sync && rawbench -b 4096 -t 40960 fwrite /mnt/f")
    g = power_cycle(g, guests)
    # Read-only: the checkpoint alone, and it says what it left out.
    out = g.ok("mount -r -t lfs /dev/sd1a /mnt && ls /mnt && umount /mnt")
    assert "read-only, without the" in out and "f" not in out.split()
    out = g.ok("mount -n -t lfs /dev/sd1a /mnt")
    assert ROLLED.search(out), out
    # Power off again at once: the recovery's checkpoint holds.
    g = power_cycle(g, guests)
    out = g.ok("mount -n -t lfs /dev/sd1a /mnt && ls -l /mnt/f")
    assert out.split()[-5] == "40960", out
    m = ROLLED.search(out)
    assert m and m.group(1) == "0", out
    g.ok("umount /mnt")
    dumplfs_ok(g)


def test_file_removed_before_the_last_write_leaves_no_orphan(guests):
    """A written, closed, then removed file is held by the writer until
    written (lfs_inactive); the write after the remove must carry its free
    in its ifile, or the crash after it leaves an inode no directory
    names (fsck_lfs finds it)."""
    g = guests.boot(kargs=KARGS)
    g.ok("newfs_lfs /dev/rsd1a > /dev/null && mount -n -t lfs /dev/sd1a /mnt"
         " && sync && echo doomed > /mnt/a && mkdir /mnt/d"
         " && echo x > /mnt/d/b && rm /mnt/a /mnt/d/b"
         " && echo keep > /mnt/k && fsync /mnt/k")
    g = power_cycle(g, guests)
    out = g.ok("mount -n -t lfs /dev/sd1a /mnt && ls /mnt /mnt/d"
               " && cat /mnt/k && umount /mnt")
    assert ROLLED.search(out), out
    assert out.split()[-1] == "keep" and "a" not in out.split()
    fsck_lfs_clean(g, "-n")
    dumplfs_ok(g)


def test_mount_after_a_crash_checks_in_the_background(guests):
    g = guests.boot(kargs=KARGS)
    g.ok("newfs_lfs /dev/rsd1a > /dev/null && mount -n -t lfs /dev/sd1a /mnt"
         " && sync && mkdir /mnt/d && echo x > /mnt/d/f && fsync /mnt/d/f")
    g = power_cycle(g, guests)
    out = g.ok("mount -t lfs /dev/sd1a /mnt")
    assert "fsck_lfs checks it in the background, report in " \
        "/var/run/fsck_lfs.sd1a" in out, out
    # The report is complete when its summary line is there.
    report = g.ok("while ! grep -q problems /var/run/fsck_lfs.sd1a;"
                  " do sleep 1; done; cat /var/run/fsck_lfs.sd1a")
    assert report.rstrip().endswith("; 0 problems"), report
    assert g.ok("cat /mnt/d/f").strip() == "x"
    g.ok("umount /mnt")


def test_file_open_but_removed_at_the_crash_is_freed(guests):
    """An open file's inode outlives its last name until the close; the
    power goes first.  Roll-forward frees the inode, as fsck would."""
    g = guests.boot(kargs=KARGS)
    g.ok("newfs_lfs /dev/rsd1a > /dev/null && mount -n -t lfs /dev/sd1a /mnt"
         " && sync && echo data > /mnt/o")
    g.ok("sleep 1000 >> /mnt/o & true")
    g.ok("rm /mnt/o && echo keep > /mnt/k && fsync /mnt/k")
    g = power_cycle(g, guests)
    out = g.ok("mount -n -t lfs /dev/sd1a /mnt && ls /mnt && umount /mnt")
    assert ROLLED.search(out) and "o" not in out.split(), out
    fsck_lfs_clean(g, "-n")
