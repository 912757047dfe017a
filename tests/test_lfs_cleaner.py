"""BSD-LFS under pressure, from the guest: the cleaner, a full disk, a
small memory, concurrent writers, a reboot.

Each test makes its own LFS on the scratch disk; mount -t lfs starts
lfs_cleanerd.  Small segments (newfs_lfs -s 262144) give a small disk
many segments, so cleaning starts soon.  Every test ends with dumplfs
finding valid checksums and a consistent ifile.
"""
from __future__ import annotations

import re

import pytest

from tests.fslib import check_program, dumplfs_ok, lfs
from tests.guest import Guest

IDLE_SECTORS = 14336        # 7 MB: 28 segments of 256 KB


def stats(g: Guest) -> dict[str, str]:
    """lfsstat /mnt as a dict (counters as strings)."""
    return dict(line.split("\t", 1) for line in
                g.ok("lfsstat /mnt").splitlines() if "\t" in line)


def test_aging_keeps_every_file(guest):
    """Generations of creates, rewrites and deletes between 75% and 90%
    full: the cleaner must reclaim segments holding live data, and every
    file still matches the hash taken when it was written, before and
    after an unmount."""
    lfs(guest)
    check_program(guest, "agetest", "-s 7 -g 3 -l 75 -h 90 -t /tmp/tab run /mnt")
    st = stats(guest)
    assert int(st["segs_cleaned"]) > 0 and int(st["blocks_clean"]) > 0, st
    assert int(st["cleaner_blocks_moved"]) > 0, st
    guest.ok("umount /mnt")
    dumplfs_ok(guest)
    guest.ok("mount -n -t lfs /dev/sd1a /mnt")
    check_program(guest, "agetest", "-t /tmp/tab verify /mnt")
    guest.ok("umount /mnt")


def test_writing_until_full_ends_in_enospc(guests):
    """fstests -n: writes stop with ENOSPC, everything accepted reads
    back, removing the files gives every block and inode back."""
    g = guests.boot(sd1_sectors=32768)
    lfs(g)
    check_program(g, "fstests", "-d /mnt -n")
    g.ok("umount /mnt")
    dumplfs_ok(g)


def fill_the_log(g: Guest) -> str:
    """A 16 MB LFS (1 MB segments) full of 64 KB files, then 4 KB of
    each overwritten, round and round, until ENOSPC: live data
    everywhere, the dead blocks of the overwrites too scattered for the
    cleaner to gather.  Returns the overwrite loop, to run again."""
    lfs(g, segsize=1048576)
    files = int(g.ok("i=0; while dd if=/dev/zero of=/mnt/f$i bs=64k count=1"
                     " 2>/dev/null; do i=$((i+1)); done; echo $i").split()[-1])
    overwrite = ("i=0; while dd if=/dev/zero of=/mnt/f$i bs=4k count=1 "
                 f"conv=notrunc 2>/dev/null; do i=$(((i+1) % {files})); "
                 "done; echo ENOSPC at f$i")
    g.ok(overwrite, timeout=600)        # the cleaner gathers what it can
    return overwrite


def test_a_full_log_says_enospc_once_the_cleaner_has_tried(guests):
    """An overwrite needs log space too.  On a full log a write gets
    ENOSPC once the cleaner has ended two passes that reclaim nothing:
    a couple of waits, not ten seconds of them (lfs_reserve).  The
    waiter may hold a directory's lock, and the unlink that would make
    room queues behind it: make stress's full-disk hang."""
    g = guests.boot(sd1_sectors=32768)
    overwrite = fill_the_log(g)
    tried = []
    for _ in range(4):
        before = stats(g)
        assert "ENOSPC" in g.ok(overwrite, timeout=60)
        after = stats(g)
        if after["segs_cleaned"] == before["segs_cleaned"]:
            tried.append(int(after["cleaner_waits"]) -
                         int(before["cleaner_waits"]))
    assert len(tried) >= 2 and max(tried) <= 3, tried
    g.ok("umount /mnt")
    dumplfs_ok(g)


# What each shape makes before the log fills, and does to it after: a
# directory operation that frees (never refused) or an inode's change,
# forced out by an fsync.
SHAPES = {"unlink": (": > /mnt/e/x$i", "rm /mnt/e/x$i; fsync /mnt/e"),
          "rmdir": ("mkdir /mnt/e/x$i", "rmdir /mnt/e/x$i; fsync /mnt/e"),
          "chmod": (": > /mnt/e/x$i",
                    "chmod 600 /mnt/e/x$i; fsync /mnt/e/x$i")}
ROUNDS = 400


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_full_log_keeps_the_cleaners_reserve(guests, shape: str):
    """Only data is admitted (lfs_reserve), but a segment write of
    nothing new still costs a summary, inode blocks and the ifile.  On a
    full log, operations that free or change an inode, each forced out
    by an fsync, must not take the segments kept for the cleaner and for
    the unmount's checkpoint: fsync says ENOSPC instead, and umount
    writes its checkpoint (before: "no clean segment after segment N",
    and umount said EBUSY)."""
    prep, op = SHAPES[shape]
    g = guests.boot(sd1_sectors=32768)
    lfs(g, segsize=1048576)
    g.ok(f"mkdir /mnt/e && i=0; while [ $i -lt {ROUNDS} ]; do {prep}; "
         "i=$((i+1)); done", timeout=300)
    g.ok("i=0; while dd if=/dev/zero of=/mnt/f$i bs=64k count=1 "
         "2>/dev/null; do i=$((i+1)); done", timeout=300)
    out = g.ok(f"i=0; n=0; while [ $i -lt {ROUNDS} ]; do {op} 2>/dev/null"
               " || n=$((n+1)); i=$((i+1)); done; echo refused $n",
               timeout=600)
    assert int(out.split()[-1]) > 0, out        # the log did fill
    out = g.ok("umount /mnt", timeout=120)
    assert "lfs:" not in out, out
    dumplfs_ok(g)


def test_a_16mb_guest_reaches_stop_access_and_recovers(guests):
    """With 16 MB of memory the cache is small: concurrent writers run
    past the start-write threshold while a segment write is under way,
    reach stop access, wait, and all finish with their data intact."""
    g = guests.boot(mem=16)
    lfs(g, segsize=1048576)
    st = stats(g)
    start = int(re.match(r"(\d+) KB", st["start_write_at"]).group(1))
    stop = int(re.match(r"(\d+) KB", st["stop_access_at"]).group(1))
    assert 0 < start < stop < 1638, st       # fractions of the 1.6 MB cache
    dd = "dd if=/dev/zero of=/mnt/{} bs=64k count=96 2>/dev/null"
    g.ok(f"{dd.format('a')} & {dd.format('b')} & {dd.format('c')}; wait",
         timeout=300)
    st = stats(g)
    assert int(st["stop_access"]) > 0, st
    assert int(st["start_write"]) > 0, st
    g.ok("umount /mnt && mount -n -t lfs /dev/sd1a /mnt")
    for f in "abc":
        assert g.ok(f"ls -l /mnt/{f}").split()[4] == str(96 * 65536)
        dump = g.ok(f"od /mnt/{f}").split("\n")   # zeros: a line, *
        assert dump[1] == "*" and dump[2] == "30000000", dump
    check_program(g, "fstests", "-d /mnt -t concurrent")
    g.ok("umount /mnt")
    dumplfs_ok(g)


def test_writers_and_an_eager_cleaner_do_not_deadlock(guest):
    """A cleaner that always wants more clean segments, aging in the
    background and concurrent writers in the foreground: all finish (the
    harness's command timeout is the watchdog)."""
    lfs(guest, cleaner=False)
    guest.ok("(/usr/libexec/lfs_cleanerd -m 1000 /mnt > /tmp/cl.log 2>&1 &)")
    guest.ok("(/usr/tests/agetest -s 3 -g 2 -l 60 -h 80 -t /tmp/tab run /mnt"
             " > /tmp/age.log 2>&1; echo AGED >> /tmp/age.log) & true")
    check_program(guest, "fstests", "-d /mnt -t concurrent")
    guest.ok("wait", timeout=600)       # for the background aging
    out = guest.ok("cat /tmp/age.log")
    assert "0 failed" in out, out
    guest.ok("umount /mnt")
    dumplfs_ok(guest)


def test_files_survive_a_reboot(guests):
    g = guests.boot()
    lfs(g)
    g.ok("mkdir /mnt/keep && echo kept > /mnt/keep/f && sync")
    g.ok("dd if=/dev/zero of=/mnt/keep/big bs=64k count=16 2>/dev/null")
    g.ok("umount /mnt")
    g.halt()
    g.close()
    g = guests.boot()                   # the same disk images
    g.ok("mount -t lfs /dev/sd1a /mnt")
    assert g.ok("cat /mnt/keep/f").strip() == "kept"
    assert g.ok("ls -l /mnt/keep/big").split()[4] == str(16 * 65536)
    g.ok("umount /mnt")
    dumplfs_ok(g)


def test_the_reorganizer_puts_a_scattered_file_back_in_order(guest):
    """A file whose every other block was rewritten with an fsync lies in
    about as many runs as blocks; lfs_cleanerd -r rewrites it in block
    order (one or two runs), with the same contents before and after a
    remount, and leaves a file in order alone."""
    lfs(guest, segsize=1048576, cleaner=False)
    guest.ok("dd if=/dev/zero bs=4k count=64 2>/dev/null | tr '\\0' a > /mnt/f; "
             "dd if=/dev/zero bs=4k count=1 2>/dev/null | tr '\\0' b > /tmp/b; sync")
    guest.ok(f"for i in {' '.join(str(i) for i in range(0, 64, 2))}; do "
             "dd if=/tmp/b of=/mnt/f bs=4k seek=$i conv=notrunc 2>/dev/null; "
             "fsync /mnt/f; done")
    before = guest.ok("od -c /mnt/f")
    out = guest.ok("/usr/libexec/lfs_cleanerd -rv /mnt/f")
    m = re.search(r"/mnt/f: 64 blocks in (\d+) runs\n.*/mnt/f: rewritten, 64 blocks "
                  r"in (\d+) runs", out)
    assert m and int(m.group(1)) >= 32 and int(m.group(2)) <= 2, out
    assert re.search(r"files_reorg\s+1\b", out), out
    assert guest.ok("od -c /mnt/f") == before
    guest.ok("umount /mnt && mount -n -t lfs /dev/sd1a /mnt")
    assert guest.ok("od -c /mnt/f") == before
    out = guest.ok("/usr/libexec/lfs_cleanerd -rv /mnt/f")    # in order: left alone
    assert re.search(r"files_reorg\s+0\b", out) and "rewritten" not in out, out
    guest.ok("umount /mnt")
    dumplfs_ok(guest)


def test_the_reorganizer_refuses_what_it_cannot_do(guest):
    """Bad arguments get a message and a non-zero status, never a hang."""
    lfs(guest, cleaner=False)
    guest.ok("echo x > /mnt/x")
    for cmd, says in (("/usr/libexec/lfs_cleanerd -r /mnt/none", "No such file"),
                      ("/usr/libexec/lfs_cleanerd -r /etc/passwd", "not an LFS"),
                      ("/usr/libexec/lfs_cleanerd -r", "usage"),
                      ("/usr/libexec/lfs_cleanerd -r /mnt/x /etc/passwd", "/etc/passwd")):
        out, status = guest.run(cmd)
        assert status != 0 and says in out, (cmd, out)
    guest.ok("umount /mnt")


def test_the_cleaner_cleans_ahead_in_idle_time(guest):
    """Half-dead segments and more clean ones than the cleaner keeps (its
    low-water mark, 4 here): a cleaner that only kept the mark would leave
    them; one that finds nothing written for -i seconds cleans ahead
    (towards twice the mark, at most half the free space), moving the live
    half, and the file is intact."""
    guest.ok(f"newfs_lfs -s 262144 -S {IDLE_SECTORS} /dev/rsd1a > /dev/null")
    guest.ok("mount -n -t lfs /dev/sd1a /mnt")
    guest.ok("dd if=/dev/zero bs=64k count=48 2>/dev/null | tr '\\0' a > /mnt/f; "
             "dd if=/dev/zero bs=64k count=1 2>/dev/null | tr '\\0' b > /tmp/b; sync")
    # fsync: the forced write keeps the rewrites at the hot head, among
    # the file's other blocks (a sync's would take them to the cold one)
    guest.ok("i=0; while [ $i -lt 48 ]; do dd if=/tmp/b of=/mnt/f bs=64k seek=$i "
             "conv=notrunc 2>/dev/null; fsync /mnt/f; i=$((i+2)); sync; done")
    before = guest.ok("od -c /mnt/f")
    clean0 = int(stats(guest)["clean_segs"])
    assert 4 <= clean0 < 8, clean0
    guest.ok("(/usr/libexec/lfs_cleanerd -i 1 /mnt > /dev/null 2>&1 &)")
    guest.ok("i=0; while [ $i -lt 120 ] && "
             "! lfsstat /mnt | grep -q '^cleaner_segs_cleaned.[1-9]'; "
             "do sleep 1; i=$((i+1)); done", timeout=300)
    st = stats(guest)
    assert int(st["clean_segs"]) > clean0 and int(st["cleaner_segs_cleaned"]) > 0, st
    assert int(st["cleaner_blocks_moved"]) > 0, st
    assert guest.ok("od -c /mnt/f") == before
    guest.ok("umount /mnt")
    dumplfs_ok(guest)


def test_the_cleaners_copies_go_to_the_cold_head(guest):
    """TPC-B's commits and page writes go on while an eager cleaner moves
    the account relation's live pages: the copies lfs_markv gathers land
    at the cold head, not taken by a write that came first and stamped
    young (all but the few moved while the cold head had no clean segment
    to go to: 15 of 979 here, where 79% went astray before), the live
    blocks of several segments go in one lfs_markv, and the database
    still checks out."""
    guest.ok("newfs_lfs -S 98304 /dev/rsd1a > /dev/null && mount -n -t lfs /dev/sd1a /mnt")
    guest.ok("tpcb -i -s 1 /mnt/db > /dev/null", timeout=300)
    guest.ok("(/usr/libexec/lfs_cleanerd -m 1000 /mnt > /dev/null 2>&1 &)")
    guest.ok("tpcb -m user -n 3000 /mnt/db > /dev/null", timeout=600)
    st = stats(guest)
    moved, hot = int(st["blocks_moved"]), int(st["blocks_moved_hot"])
    assert moved > 200 and hot * 20 < moved, st
    # several segments' live blocks to one lfs_markv (one batch, one call)
    calls, segs = int(st["cleaner_markv_calls"]), int(st["cleaner_segs_cleaned"])
    assert 0 < calls < segs, st
    assert "check: consistent" in guest.ok("tpcb -c /mnt/db", timeout=180)
    guest.ok("umount /mnt")
    dumplfs_ok(guest)
