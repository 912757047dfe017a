"""Rewrites at the cold log head (lfs_writecold, issue 22), from the
guest: a block a user rewrites goes to the cold head when a write nobody
waits for takes it (a sync's, the buffer cache's), as the cleaner's
copies do, so that the hot head keeps what dies young (a database's
commits); an fsync's forced write keeps its blocks, and new blocks go to
the hot head as before.  lfsstat counts the rewrites the cold head took
(blocks_cold); roll-forward finds them after the power goes off.
"""
from __future__ import annotations

from tests.fslib import dumplfs_ok
from tests.test_lfs_fsync_delta import fresh_lfs, power_cycle, stats

SH = "dd if=/bin/sh bs=4096 count=16 2> /dev/null"


def cold(g) -> int:
    return stats(g)["blocks_cold"]


def same(g, a: str, b: str) -> bool:
    return g.run(f"diff {a} {b} > /dev/null")[1] == 0


def test_rewrites_go_cold_new_blocks_and_fsyncs_stay_hot(guests):
    g = fresh_lfs(guests, "dd if=/dev/zero of=/mnt/f bs=4096 count=32 2> /dev/null")
    assert cold(g) == 0, stats(g)           # new blocks: the hot head
    g.ok(f"{SH} > /tmp/sh16 && dd if=/tmp/sh16 of=/mnt/f bs=4096 conv=notrunc "
         "2> /dev/null && sync")
    assert cold(g) == 16, stats(g)          # the sync's write took them
    g.ok("dd if=/bin/cat of=/mnt/f bs=4096 seek=16 count=4 conv=notrunc 2> /dev/null"
         " && fsync /mnt/f && sync")
    assert cold(g) == 16, stats(g)          # the fsync's forced write did
    g.ok("dd if=/mnt/f of=/tmp/head bs=4096 count=16 2> /dev/null")
    assert same(g, "/tmp/sh16", "/tmp/head")
    g.ok("umount /mnt")
    dumplfs_ok(g)


def test_a_rewrite_the_buffer_cache_wrote_cold_is_rolled_forward(guests):
    g = fresh_lfs(guests, "dd if=/dev/zero of=/mnt/f bs=4096 count=32 2> /dev/null")
    g.ok(f"{SH} > /tmp/sh16")
    before = cold(g)
    # The rewrite, then enough new data that the buffer cache starts a
    # write of its own (not a checkpoint: syncinterval=0, no sync).
    g.ok("dd if=/tmp/sh16 of=/mnt/f bs=4096 conv=notrunc 2> /dev/null && "
         "dd if=/dev/zero of=/mnt/big bs=65536 count=64 2> /dev/null")
    assert cold(g) - before == 16, stats(g)
    g = power_cycle(g, guests)
    g.ok(f"{SH} > /tmp/sh16")
    g.ok("dd if=/mnt/f of=/tmp/head bs=4096 count=16 2> /dev/null")
    assert same(g, "/tmp/sh16", "/tmp/head")
    g.ok("umount /mnt")
    dumplfs_ok(g)
