"""EFS's clustering (kern/vfs_cluster.c; thesis chapter 4, 7.7), measured
from outside: iostat's counters and I/O log (thesis 7.2) give the number
and the size of the commands that moved a file.  FFS moves a 4 KB block
per command; EFS gathers a file's contiguous blocks into transfers of up
to 64 KB, on writes (cluster_write) and on reads, through a read-ahead
window that starts at one block, doubles on each sequential read up to
the 64 KB maximum and halves on each non-sequential one (cluster_read).
Profile "none": untimed, each test takes seconds.
"""
from __future__ import annotations

from collections import Counter

from tests.fslib import (check_program, ffs, fsck_ffs_clean, iostat_counters,
                         remount)
from tests.test_iostat import log_entries

KB = 1024
BLOCK = 4 * KB              # newfs -E's block size
MAXPHYS = 64 * KB           # the largest transfer


def io(g) -> tuple[dict[str, int], list[dict[str, object]]]:
    """sd1's counters and its I/O log since the last call (-z zeroes both)."""
    out = g.ok("iostat -l -z sd1")
    return iostat_counters(out)["sd1"], log_entries(out)


def sizes(log: list[dict[str, object]], op: str) -> list[int]:
    """The sizes, in KB and in order, of the log's reads ("r") or writes."""
    return [e["bytes"] // KB for e in log if e["op"] == op]


def shown(kbs: list[int]) -> str:
    """Transfer sizes for a message: how many of each, and the first few."""
    counts = ", ".join(f"{n} of {kb} KB" for kb, n in
                       sorted(Counter(kbs).items(), reverse=True))
    first = " ".join(map(str, kbs[:24])) + (" ..." if len(kbs) > 24 else "")
    return f"{len(kbs)} transfers ({counts}); in KB, in order: {first}"


def blocks_read(g, cmd: str) -> int:
    """How many blocks' worth the disk read while cmd ran."""
    io(g)
    g.ok(cmd)
    return io(g)[0]["rsectors"] * 512 // BLOCK


def read_blocks(first: int, count: int) -> str:
    return f"dd if=/mnt/f of=/dev/null bs=4k skip={first} count={count} 2>/dev/null"


def test_a_file_written_4kb_at_a_time_goes_to_disk_in_64kb_writes(guests):
    """cluster_write gathers the blocks of 512 write(2) calls into 64 KB
    clusters.  The guest's cache (1.6 MB in 16 MB) cannot hold the 2 MB
    file: a cluster must go out when it is full, not wait for a sync."""
    g = guests.boot(mem=16)
    ffs(g, efs=True)
    io(g)
    g.ok("dd if=/dev/zero of=/mnt/f bs=4k count=512 2>/dev/null")
    g.ok("umount /mnt")             # returns when every write is done
    counts, log = io(g)
    writes = sizes(log, "w")
    assert counts["wsectors"] * 512 >= 2 * 1024 * KB, counts
    assert writes.count(MAXPHYS // KB) >= 24, \
        f"2 MB in 4 KB blocks should be written mostly in 64 KB clusters: " \
        f"{shown(writes)}"
    assert counts["writes"] <= 60, \
        f"{counts['writes']} writes for 512 blocks: the blocks went out one by one?"


def test_a_files_last_partial_cluster_goes_in_one_write_when_the_cache_sheds_it(guests):
    """Each file ends in a partial cluster (16 KB past its last 64 KB one),
    left as delayed writes when the writer moves on to the next file.  The
    guest's 1.6 MB cache cannot hold six such files: it sheds the early
    files' tails before any sync, and each goes in one 16 KB transfer
    (bawrite_delayed), not four 4 KB ones at consecutive addresses."""
    g = guests.boot(mem=16)
    ffs(g, efs=True)
    io(g)
    g.ok("for i in 1 2 3 4 5 6; do dd if=/dev/zero of=/mnt/f$i bs=4k count=128 "
         "2>/dev/null; done")
    counts, log = io(g)             # before any sync: what the cache shed
    writes = [e for e in log if e["op"] == "w"]
    singles = [e for e in writes if e["bytes"] == BLOCK]
    adjacent = [(a["sector"], b["sector"]) for a in singles for b in singles
                if b["sector"] == a["sector"] + BLOCK // 512]
    assert not adjacent, \
        f"blocks contiguous on disk went out one at a time: {adjacent}; " \
        f"{shown(sizes(log, 'w'))}"
    assert sizes(log, "w").count(16) >= 2, \
        f"no file's 16 KB tail was written whole before the sync: {shown(sizes(log, 'w'))}"
    g.ok("umount /mnt")
    fsck_ffs_clean(g)


def test_a_file_read_4kb_at_a_time_comes_in_reads_that_double_to_64kb(guest):
    """A sequential reader: the window starts at one block, so the first
    transfers are small, and doubles with each sequential read, so they
    grow 8 KB, 16 KB, ... to 64 KB, and most of the file comes that way."""
    ffs(guest, efs=True)
    guest.ok("dd if=/dev/zero of=/mnt/f bs=64k count=16 2>/dev/null")    # 1 MB
    remount(guest)
    io(guest)
    guest.ok("dd if=/mnt/f of=/dev/null bs=4k 2>/dev/null")
    counts, log = io(guest)
    reads = sizes(log, "r")
    assert 1024 * KB <= counts["rsectors"] * 512 <= 1100 * KB, \
        f"read-ahead reads the file, and nothing past its end: {counts}"
    assert max(reads) <= MAXPHYS // KB, shown(reads)
    assert reads.count(MAXPHYS // KB) >= 12, \
        f"1 MB read sequentially should come mostly in 64 KB reads: " \
        f"{shown(reads)}"
    first64 = reads.index(MAXPHYS // KB)
    assert 8 in reads[:first64] and 16 in reads[:first64], \
        f"the window starts at one block and doubles (8 KB, 16 KB, ...) " \
        f"before it reaches 64 KB: {shown(reads)}"
    assert counts["reads"] <= 30, \
        f"{counts['reads']} reads for 256 blocks: too little read-ahead"


def test_the_window_halves_on_each_non_sequential_read(guest):
    """After a sequential scan the window is 16 blocks (64 KB).  A
    non-sequential read reads only its block and halves the window: an
    8 KB page (two blocks) right after the scan still reads half a window
    ahead (its second block is sequential, which doubles the window back).
    Four one-block reads in other places halve it down to one block, and
    then a page reads barely more than itself (the B-tree of thesis 7.7)."""
    ffs(guest, efs=True)
    guest.ok("dd if=/dev/zero of=/mnt/f bs=64k count=64 2>/dev/null")    # 4 MB
    remount(guest)
    scan = blocks_read(guest, read_blocks(0, 64))
    assert scan >= 64, f"the scan of 64 blocks read {scan}"

    page = blocks_read(guest, read_blocks(400, 2))
    assert 6 <= page <= 24, \
        f"a 2-block page right after a scan read {page} blocks: with the " \
        f"window halved from 16 to 8 blocks it reads about 8 + 8 ahead " \
        f"(fewer: the window was cut to 1, not halved; more: not cut)"

    singles = blocks_read(guest, "; ".join(read_blocks(b, 1)
                                           for b in (300, 500, 700, 900)))
    assert singles == 4, \
        f"four non-sequential one-block reads read {singles} blocks: " \
        f"no read-ahead without a sequential read"

    page = blocks_read(guest, read_blocks(600, 2))
    assert 2 <= page <= 4, \
        f"a 2-block page after four halvings read {page} blocks: the " \
        f"window should be down to one block"


def read_pages(first: int, count: int) -> str:
    """count 8 KB pages from block first on, each in one read(2) call, as
    the record library reads a B-tree page."""
    return (f"dd if=/mnt/f of=/dev/null bs=8k skip={first // 2} "
            f"count={count} 2>/dev/null")


def test_a_page_read_in_one_call_moves_only_the_page(guest):
    """A read(2) of an 8 KB page wants two blocks: they come in one
    transfer, and its second block is not taken for the start of a
    sequential run (thesis 7.7 read ahead of it), even right after a scan
    has grown the window to 64 KB.  Pages read one after another in
    separate calls are a sequential run, and are read ahead."""
    ffs(guest, efs=True)
    guest.ok("dd if=/dev/zero of=/mnt/f bs=64k count=64 2>/dev/null")    # 4 MB
    remount(guest)
    assert blocks_read(guest, read_blocks(0, 64)) >= 64
    for first in (400, 600, 300, 802):
        io(guest)
        guest.ok(read_pages(first, 1))
        counts, log = io(guest)
        assert sizes(log, "r") == [8], \
            f"an 8 KB page at block {first} after a scan: {shown(sizes(log, 'r'))}"
    run = blocks_read(guest, read_pages(900, 16))
    assert run > 32, f"16 pages read one after another read {run} blocks: " \
        f"a sequential run of pages reads ahead"


def test_ffs_reads_ahead_only_for_a_sequential_reader(guest):
    """FFS reads one block ahead (4.4BSD's rule): when the read(2) wants
    the next block, or continues a sequential run.  A reader at random
    places pays only for the blocks it asks for."""
    ffs(guest)
    guest.ok("dd if=/dev/zero of=/mnt/f bs=64k count=32 2>/dev/null")    # 2 MB
    remount(guest)
    guest.ok(read_blocks(500, 1))   # the directory, inode, indirect block
    singles = blocks_read(guest, "; ".join(read_blocks(b, 1)
                                           for b in (100, 300, 50, 420)))
    assert singles == 4, \
        f"four one-block reads at random places read {singles} blocks"
    pages = blocks_read(guest, "; ".join(read_pages(b, 1)
                                         for b in (200, 350, 10)))
    assert pages == 6, f"three 8 KB pages read {pages} blocks"
    scan = blocks_read(guest, read_blocks(0, 8))
    assert scan == 9, \
        f"8 blocks read one by one from the start read {scan}: one ahead"


def test_mixed_writes_are_clustered_and_stay_intact(guest):
    """clustertest's sequential and random writes, reads, truncations and
    fsyncs (tests/prog/clustertest): the data comes back from the disk as
    written, and both ways the disk moved more than a block per command."""
    ffs(guest, efs=True)
    io(guest)
    for seed in (1, 7):
        check_program(guest, "clustertest", f"-s {seed} -n 300 write /mnt/f{seed}")
    guest.ok("umount /mnt")
    written = io(guest)[0]
    guest.ok("mount /dev/sd1a /mnt")
    io(guest)
    for seed in (1, 7):
        check_program(guest, "clustertest", f"-s {seed} -n 300 verify /mnt/f{seed}")
    read = io(guest)[0]
    assert written["wsectors"] >= 16 * written["writes"], \
        f"fewer than two blocks per write: {written}"
    assert read["rsectors"] >= 16 * read["reads"], \
        f"fewer than two blocks per read: {read}"
    guest.ok("umount /mnt")
    fsck_ffs_clean(guest)
