"""The LOCKED queue's two thresholds (thesis 6.3.2, 6.5.2; lfs/lfs_bio.c),
from the guest: a writer that crosses start write runs the segment writer,
one that crosses stop access waits.  A 16 MB guest has a 1.6 MB cache, so a
few megabytes cross both."""
from __future__ import annotations

import re

from tests.fslib import dumplfs_ok, lfs
from tests.test_lfs_cleaner import stats


def test_one_writer_writes_a_segment_each_time_it_crosses_start_write(guests):
    """One writer alone never gets to stop access: crossing start write it
    runs the segment writer itself, which takes everything locked, about
    the threshold's worth of blocks each time."""
    g = guests.boot(mem=16)
    lfs(g, segsize=1048576, cleaner=False)
    g.ok("lfsstat -z /mnt > /dev/null")
    g.ok("dd if=/dev/zero of=/mnt/f bs=64k count=64 2>/dev/null")     # 4 MB
    st = stats(g)
    start_kb = int(re.match(r"(\d+) KB", st["start_write_at"]).group(1))
    assert int(st["start_write"]) >= 4, st
    assert int(st["stop_access"]) == 0, st
    # 4 KB blocks: each segment write about the threshold's worth
    assert int(st["blocks"]) / int(st["segwrites"]) >= start_kb / 4 / 2, st
    assert g.ok("ls -l /mnt/f").split()[4] == str(64 * 65536)
    g.ok("umount /mnt")
    dumplfs_ok(g)
