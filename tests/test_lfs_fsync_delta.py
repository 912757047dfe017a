"""Delta fsyncs (lfs/lfs_delta.c), from the guest: an fsync of a plain
file whose blocks the disk already has logs the bytes written since as
DELTAs in its summary instead of writing the blocks, and what it logged
is there after the power goes off, applied by roll-forward.

The guest runs with syncinterval=0, so the only checkpoints are the ones
the test asks for (sync, unmount).
"""
from __future__ import annotations

import re

from tests.fslib import dumplfs_ok, fsck_lfs_clean
from tests.guest import Guest

KARGS = "syncinterval=0"
ROLLED = re.compile(r"rolled forward (\d+) partial segments")


def stats(g: Guest) -> dict[str, int]:
    out = g.ok("lfsstat /mnt")
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"^(\w+)\t(-?\d+)$", out, re.M)}


def power_cycle(g: Guest, guests) -> Guest:
    g.close()
    g = guests.boot(kargs=KARGS)
    out = g.ok("mount -n -t lfs /dev/sd1a /mnt")
    assert ROLLED.search(out), out
    return g


def fresh_lfs(guests, content: str = "") -> Guest:
    g = guests.boot(kargs=KARGS)
    g.ok("newfs_lfs /dev/rsd1a > /dev/null && mount -n -t lfs /dev/sd1a /mnt")
    if content:
        g.ok(content)
    g.ok("sync")
    return g


def test_appends_fsynced_one_by_one_are_logged_and_rolled_forward(guests):
    g = fresh_lfs(guests, "dd if=/dev/zero of=/mnt/z bs=4096 count=1 2> /dev/null"
              " && printf 'head\\n' > /mnt/log")
    before = stats(g)
    g.ok("i=0; while [ $i -lt 30 ]; do echo line $i >> /mnt/log && "
         "fsync /mnt/log || exit 1; i=$((i + 1)); done")
    after = stats(g)
    # The log's block was on the disk: every append but none went as a
    # DELTA, each fsync a summary alone.
    logged = after["blocks_delta"] - before["blocks_delta"]
    assert logged == 30, (before, after)
    assert after["blocks_data"] == before["blocks_data"], (before, after)
    assert after["psegs"] - before["psegs"] == 30, (before, after)
    want = g.ok("cat /mnt/log")
    g = power_cycle(g, guests)
    assert g.ok("cat /mnt/log") == want
    assert g.ok("wc -l < /mnt/log").strip() == "31"
    assert stats(g)["rfw_deltas"] == 30
    g.ok("umount /mnt")
    dumplfs_ok(g)
    fsck_lfs_clean(g, "-n")


def test_an_overwrite_inside_a_file_and_a_growth_past_its_block(guests):
    g = fresh_lfs(guests, "dd if=/dev/zero of=/mnt/f bs=4096 count=3 2> /dev/null")
    before = stats(g)
    # Bytes in the middle block, then in the first: DELTAs; then a block
    # the disk does not have: written whole, with its FINFO.
    g.ok("printf middle | dd of=/mnt/f bs=1 seek=5000 conv=notrunc"
         " 2> /dev/null && fsync /mnt/f")
    g.ok("printf first | dd of=/mnt/f bs=1 seek=10 conv=notrunc"
         " 2> /dev/null && fsync /mnt/f")
    g.ok("printf tail | dd of=/mnt/f bs=1 seek=12300 conv=notrunc"
         " 2> /dev/null && fsync /mnt/f")
    after = stats(g)
    assert after["blocks_delta"] - before["blocks_delta"] == 2, (before, after)
    assert after["blocks_data"] - before["blocks_data"] == 1, (before, after)
    want = g.ok("od -c /mnt/f; ls -l /mnt/f")
    g = power_cycle(g, guests)
    assert g.ok("od -c /mnt/f; ls -l /mnt/f") == want
    assert "m   i   d   d   l   e" in want and "t   a   i   l" in want
    g.ok("umount /mnt")
    fsck_lfs_clean(g, "-n")


def test_a_checkpoint_writes_the_logged_block_and_later_deltas_apply_to_it(
        guests):
    g = fresh_lfs(guests, "printf 'a\\n' > /mnt/log")
    g.ok("echo b >> /mnt/log && fsync /mnt/log && sync"
         " && echo c >> /mnt/log && fsync /mnt/log"
         " && echo d >> /mnt/log && fsync /mnt/log")
    s = stats(g)
    assert s["blocks_delta"] == 3, s
    g = power_cycle(g, guests)
    assert g.ok("cat /mnt/log").split() == ["a", "b", "c", "d"]
    # What was written and not fsync'd is not promised; what was, is.
    g.ok("echo e >> /mnt/log && fsync /mnt/log && echo f >> /mnt/log")
    g = power_cycle(g, guests)
    assert g.ok("cat /mnt/log").split()[:5] == ["a", "b", "c", "d", "e"]
    g.ok("umount /mnt")
    fsck_lfs_clean(g, "-n")


def test_a_truncated_file_does_not_get_its_old_deltas_back(guests):
    g = fresh_lfs(guests, "dd if=/dev/zero of=/mnt/f bs=4096 count=2 2> /dev/null")
    g.ok("printf gone | dd of=/mnt/f bs=1 seek=6000 conv=notrunc 2> /dev/null"
         " && fsync /mnt/f && printf '' > /mnt/f && fsync /mnt/f"
         " && printf kept > /mnt/f && fsync /mnt/f")
    g = power_cycle(g, guests)
    assert g.ok("cat /mnt/f") == "kept"
    assert g.ok("ls -l /mnt/f").split()[4] == "4"
    g.ok("umount /mnt")
    fsck_lfs_clean(g, "-n")


def test_fsyncdelta_0_writes_every_changed_block_whole(guests):
    """The kernel argument that turns delta fsyncs off (for comparing the
    two forms, and for the recovery walk-through's image)."""
    g = guests.boot(kargs=KARGS + " fsyncdelta=0")
    g.ok("newfs_lfs /dev/rsd1a > /dev/null && mount -n -t lfs /dev/sd1a /mnt"
         " && printf 'head\\n' > /mnt/log && sync")
    before = stats(g)
    g.ok("i=0; while [ $i -lt 5 ]; do echo line $i >> /mnt/log && "
         "fsync /mnt/log || exit 1; i=$((i + 1)); done")
    after = stats(g)
    assert after["blocks_delta"] == before["blocks_delta"], (before, after)
    assert after["blocks_data"] - before["blocks_data"] == 5, (before, after)
