"""Host tests of the BSD-LFS tools: newfs_lfs and dumplfs (sys/ufs/lfs.h).

newfs_lfs makes image files; the Python reader of the format
(qemu/lfsdisk.py) checks what it wrote independently of the C code, and
dumplfs must agree.  Then the images are damaged on purpose: dumplfs
must name the damage and exit 1, and never crash or hang on garbage.
"""
from __future__ import annotations

import hashlib
import random
import re
import struct
from pathlib import Path

import pytest

from qemu import lfsdisk
from qemu.lfsdisk import DLFS_OFFSET, IFILE_OFFSET, SEGUSE_OFFSET
from tests.host.tools import (MB, build_tools, dumplfs_ok, fields, image,
                              run)

TOOLS = ("newfs_lfs", "dumplfs")
LABELPAD = lfsdisk.LFS_LABELPAD
SS_DIROP, SS_CKP = 0x01, 0x08
IFREG, IFDIR = 0o100000, 0o040000


# --- building and running the tools ---------------------------------------

@pytest.fixture(scope="session")
def bindir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Compile the tools for the host, as the Makefile does (extra flags,
    e.g. -fsanitize=address,undefined, from $LFS_TOOLS_CFLAGS)."""
    return build_tools(tmp_path_factory.mktemp("bin"), TOOLS,
                       "LFS_TOOLS_CFLAGS")


def lines(text: str, key: str) -> list[str]:
    return [l.split("\t", 1)[1] for l in text.splitlines()
            if l.startswith(key + "\t")]


# --- what newfs_lfs wrote, read by qemu/lfsdisk.py --------------------------

def check_new_fs(img: Path, size: int, bsize: int, segbytes: int
                 ) -> lfsdisk.Image:
    """What newfs_lfs must have written, read without the C code."""
    fs = lfsdisk.Image(img)
    sb = fs.fs
    ssize = segbytes // bsize
    assert (sb.bsize, sb.ssize) == (bsize, ssize)
    assert sb.nseg == size // segbytes
    assert sb.size == sb.nseg * ssize
    assert sb.sboffs[0] * bsize == max(LABELPAD, bsize)
    used = [o for o in sb.sboffs if o]
    assert len(set(o // ssize for o in used)) == len(used)
    ckpidx = DLFS_OFFSET["ckpidx"]
    for i, off in enumerate(sb.sboffs):
        if not off:
            continue
        copy = fs.superblock(off)
        assert copy.cksum_ok(), f"copy {i}"
        assert copy.ckpidx == (1 if i == 1 else 0)
        assert copy.raw[:ckpidx] == sb.raw[:ckpidx]   # all but ckpidx, sum
    assert sb.dsize == sum((sn + 1) * ssize - sb.sbfirstblock(sn)
                           for sn in range(sb.nseg))

    # The initial partial segment: a checkpoint making two directories.
    pseg = sb.sbfirstblock(0)
    assert sb.lastpseg == pseg and sb.serial == 1
    p = fs.pseg(pseg)
    ss = p.ss
    assert ss.magic == lfsdisk.SS_MAGIC and ss.serial == 1
    assert ss.flags == SS_CKP | SS_DIROP
    assert (ss.nfinfo, ss.ninos) == (3, 1)
    assert ss.next == ssize                         # segment 1
    assert ss.sumsum_ok
    assert p.datasum_ok
    assert sb.offset == pseg + 1 + ss.nblocks
    assert sb.idaddr == pseg + ss.nblocks           # the last block
    # live file blocks only: not the summary, not the inode block
    assert sb.bfree == sb.dsize - (ss.nblocks - ss.ninos)
    assert (sb.free, sb.nfiles, sb.clean) == (4, 3, 1)

    ino = fs.inodes(sb.idaddr)
    assert sorted(ino) == [1, 2, 3]
    assert ino[1]["mode"] == IFREG | 0o400
    assert ino[2]["mode"] == IFDIR | 0o755 and ino[2]["nlink"] == 3
    assert ino[3]["mode"] == IFDIR | 0o755 and ino[3]["nlink"] == 2
    root = fs.block(ino[2]["db"][0])
    assert lfsdisk.dirents(root) == [(".", 2), ("..", 2), ("lost+found", 3),
                                     ("ifile", 1)]
    assert lfsdisk.dirents(fs.block(ino[3]["db"][0])) == [(".", 3), ("..", 2)]
    return fs


# --- newfs_lfs and dumplfs agree on a new file system ----------------------

@pytest.mark.parametrize("size", [32 * MB, 200 * MB])
@pytest.mark.parametrize("opts,bsize,segbytes", [
    ((), 4096, MB),
    (("-b", 8192, "-s", "512k"), 8192, 512 * 1024),
])
def test_new_file_system_checks_out(bindir, tmp_path, size, opts, bsize,
                                    segbytes):
    img = image(tmp_path, size)
    nseg = size // segbytes
    made = run(bindir, "newfs_lfs", *opts, img).stdout
    assert f"in {nseg} segments of {segbytes // bsize} blocks of {bsize} " \
           "bytes" in made
    fs = check_new_fs(img, size, bsize, segbytes)
    copies = ", ".join(str(o) for o in fs.fs.sboffs if o)
    assert f"super-block copies at blocks: {copies}" in made

    out = dumplfs_ok(bindir, img)
    f = fields(out)
    assert (f["nseg"], f["ssize"], f["bsize"]) == (
        str(nseg), str(segbytes // bsize), str(bsize))
    assert f["checkpoint"] == "sb[0] serial 1"
    sbl = [v for i in range(lfsdisk.LFS_NSB) for v in lines(out, f"sb[{i}]")
           if v != "unused"]
    assert len(sbl) == len([o for o in fs.fs.sboffs if o])
    assert all(l.endswith(" ok") for l in sbl), sbl
    assert "dinode\t1 mode 100400 size" in out
    assert "dinode\t2 mode 40755 size %d nlink 3" % bsize in out
    assert "dinode\t3 mode 40755 size %d nlink 2" % bsize in out
    assert (f["ci_clean"], f["ci_dirty"]) == (str(nseg - 1), "1")
    assert lines(out, "segment")[0].startswith("0 dirty,active,superblock")
    assert f["freelist"] == str(fs.fs.ifpb - 4)
    assert lines(out, "inomap") == [
        f"{i} version 1 daddr {fs.fs.idaddr}" for i in (1, 2, 3)]
    assert lines(out, "psegs") == ["1"]        # only segment 0 has log


def test_inode_option_follows_the_inode_map(bindir, tmp_path):
    img = image(tmp_path, 32 * MB)
    run(bindir, "newfs_lfs", img)
    fs = lfsdisk.Image(img)
    root = fields(run(bindir, "dumplfs", "-i", 2, img).stdout)
    assert root["mode"] == "40755" and root["nlink"] == "3"
    assert root["daddr"] == str(fs.fs.idaddr)
    assert root["db"].split()[0] == str(fs.inodes(fs.fs.idaddr)[2]["db"][0])
    assert fields(run(bindir, "dumplfs", "-i", 1, img).stdout)["size"] == \
        str(3 * 4096)
    assert "is free" in run(bindir, "dumplfs", "-i", 7, img, expect=1).stderr
    out = run(bindir, "dumplfs", "-s", img).stdout
    assert "serial\t1" in out and "ifile" not in out and "\npseg" not in out


def test_big_segment_table_goes_through_an_indirect_block(bindir, tmp_path):
    """3200 segments: 13 SEGUSE blocks make a 15-block ifile, past the 12
    direct pointers; dumplfs must follow the indirect block."""
    img = image(tmp_path, 400 * MB)
    run(bindir, "newfs_lfs", "-s", "128k", img)
    check_new_fs(img, 400 * MB, 4096, 128 * 1024)
    out = dumplfs_ok(bindir, img)
    f = fields(out)
    assert f["segtabsz"] == "13" and f["ifile_ib"].split()[0] != "0"
    assert re.search(r"finfo\tino 1 version 1 nblocks 16 .*: 0-14@\d+-\d+ "
                     r"-12@\d+\n", out)
    assert len(lines(out, "segment")) == 3200


def test_dash_n_writes_nothing(bindir, tmp_path):
    img = image(tmp_path, 32 * MB)
    before = hashlib.sha1(img.read_bytes()).hexdigest()
    out = run(bindir, "newfs_lfs", "-N", "-b", 8192, img).stdout
    assert "in 32 segments of 128 blocks of 8192 bytes" in out
    assert hashlib.sha1(img.read_bytes()).hexdigest() == before


def test_too_small_is_refused(bindir, tmp_path):
    img = image(tmp_path, 7 * MB)
    p = run(bindir, "newfs_lfs", img, expect=1)
    assert "too small" in p.stderr and "8 segments" in p.stderr
    assert img.read_bytes() == bytes(7 * MB)
    assert "must be a multiple" in run(bindir, "newfs_lfs", "-s", 100000,
                                       img, expect=1).stderr
    assert "cannot hold the initial log" in run(
        bindir, "newfs_lfs", "-s", "32k", image(tmp_path, 32 * MB, "b.img"),
        expect=1).stderr


# --- damage ------------------------------------------------------------------

def poke(img: Path, off: int, data: bytes) -> None:
    with open(img, "r+b") as f:
        f.seek(off)
        f.write(data)


def test_damaged_data_block_fails_the_data_checksum(bindir, tmp_path):
    img = image(tmp_path, 32 * MB)
    run(bindir, "newfs_lfs", img)
    fs = lfsdisk.Image(img)
    lf = fs.inodes(fs.fs.idaddr)[3]["db"][0]    # lost+found's block
    poke(img, lf * 4096 + 1000, b"\x01")
    out = run(bindir, "dumplfs", img, expect=1).stdout
    assert "datasum\tBAD" in out
    assert "ifile\tconsistent" in out           # the ifile itself is fine


@pytest.mark.parametrize("damage", ["one byte", "whole block"])
def test_damaged_copy_0_falls_back_to_copy_1(bindir, tmp_path, damage):
    img = image(tmp_path, 32 * MB)
    run(bindir, "newfs_lfs", img)
    if damage == "one byte":
        poke(img, LABELPAD + 200, b"X")         # in dlfs_fsmnt
    else:
        poke(img, LABELPAD, bytes(4096))        # found by the scan
    out = run(bindir, "dumplfs", img, expect=1).stdout
    f = fields(out)
    assert f["sb[0]"] == ("block 2 ckpidx 0 serial 1 tstamp %s BAD: bad "
                          "checksum" % f["tstamp"] if damage == "one byte"
                          else "block 2 BAD: bad magic number")
    assert f["sb[1]"].endswith(" ok")
    assert f["checkpoint"] == "sb[1] serial 1"
    assert "datasum\tok" in out and "ifile\tconsistent" in out


def test_copy_in_use_beats_a_clean_copy_of_the_same_serial(bindir, tmp_path):
    """Mounting marks a copy in use (dlfs_clean 0) with the serial of the
    clean one: of equal serials, that copy is the checkpoint (lfs_findsb)."""
    img = image(tmp_path, 32 * MB)
    run(bindir, "newfs_lfs", img)
    fs = lfsdisk.Image(img)
    copy1 = fs.fs.sboffs[1]
    poke(img, copy1 * fs.fs.bsize, fs.superblock(copy1).pack(clean=0))
    f = fields(run(bindir, "dumplfs", "-s", img).stdout)
    assert f["checkpoint"] == "sb[1] serial 1"
    assert f["clean"] == "0"


def rewrite_ifile(img: Path, change) -> None:
    """Edit the ifile of a new file system in place (change(sb, blocks):
    the blocks after the summary, which begin with the ifile, so an
    offset in the ifile is one in blocks), then fix the summary's
    checksums so that only dumplfs's ifile check can see the damage."""
    fs = lfsdisk.Image(img)
    sb = fs.fs
    pseg = sb.lastpseg
    ss = fs.pseg(pseg).ss
    blocks = bytearray(fs.block(pseg + 1, ss.nblocks))
    change(sb, blocks)
    summ = bytearray(fs.block(pseg))
    fs.close()
    lfsdisk.seal_summary(summ, blocks)
    poke(img, pseg * sb.bsize, bytes(summ) + bytes(blocks))


@pytest.mark.parametrize("what,problem", [
    ("cycle", r"free list loops back to entry 4"),
    ("lost", r"1 free entries not on the free list \(first 340\)"),
    ("allocated", r"inode 9: not in block"),
    ("clean", r"CLEANERINFO clean 31 dirty 1, SEGUSE flags count 32 and 0"),
    ("clean", r"inode 2: inode block \d+ in clean segment 0"),
])
def test_ifile_check_finds_damage(bindir, tmp_path, what, problem):
    img = image(tmp_path, 32 * MB)
    run(bindir, "newfs_lfs", img)

    nextfree, daddr = IFILE_OFFSET["nextfree"], IFILE_OFFSET["daddr"]

    def change(sb: lfsdisk.Dlfs, b: bytearray) -> None:
        if what == "cycle":                     # 4 -> 5 -> ... -> 9 -> 4
            struct.pack_into("<I", b, sb.ifile_offset(9) + nextfree, 4)
        elif what == "lost":                    # the list ends at 339
            struct.pack_into("<I", b, sb.ifile_offset(339) + nextfree, 0)
        elif what == "allocated":               # 9 in the inode block?
            struct.pack_into("<I", b, sb.ifile_offset(9) + daddr,
                             sb.idaddr)
        else:                                   # segment 0 marked clean
            struct.pack_into("<I", b, sb.seguse_offset(0) +
                             SEGUSE_OFFSET["flags"], 0x04)

    rewrite_ifile(img, change)
    out = run(bindir, "dumplfs", img, expect=1).stdout
    assert "datasum\tok" in out
    assert re.search(r"ifile\tPROBLEM: " + problem, out), out[-1500:]
    assert "ifile\tconsistent" not in out


def test_garbage_never_crashes_or_hangs(bindir, tmp_path):
    """Random words written into the superblock copies, the summary (with
    its checksum fixed up, to get past it) and the ifile and inode blocks:
    dumplfs answers 0 or 1 every time, in bounded time."""
    rng = random.Random(1992)
    pristine = image(tmp_path, 8 * MB, "pristine.img")
    run(bindir, "newfs_lfs", pristine)
    fs = lfsdisk.Image(pristine)
    sb = fs.fs
    fs.close()
    pseg, bs = sb.lastpseg, sb.bsize
    original = pristine.read_bytes()
    img = tmp_path / "garbage.img"
    for _ in range(40):
        data = bytearray(original)
        for _ in range(rng.randint(1, 4)):
            where = rng.choice(["sb", "sum", "blocks"])
            word = rng.choice([0, 1, 0xFFFFFFFF, rng.getrandbits(32),
                               rng.randrange(64), rng.randrange(20000)])
            if where == "sb":
                off = rng.choice([LABELPAD, sb.sboffs[1] * bs])
                struct.pack_into("<I", data, off + rng.randrange(111) * 4,
                                 word)
                end = off + lfsdisk.DLFS_SIZE       # the checksum, fixed up
                data[off:end] = lfsdisk.Dlfs(data[off:end]).pack()
            elif where == "sum":
                off = pseg * bs
                struct.pack_into("<I", data, off + 4 + rng.randrange(40) * 4,
                                 word)
                struct.pack_into("<I", data, off,
                                 lfsdisk.sumsum(data[off:off + bs]))
            else:
                off = (pseg + 1) * bs + rng.randrange(6 * bs // 4) * 4
                struct.pack_into("<I", data, off, word)
        img.write_bytes(bytes(data))
        for args in ((), ("-a",), ("-i", rng.randrange(400))):
            p = run(bindir, "dumplfs", *args, img, expect=None)
            assert p.returncode in (0, 1), p.stderr


def test_the_flag_names_have_one_source():
    """sys/ufs/lfs.h defines the summary and segment-usage flags; the
    Python reader takes them from it, and dumplfs names every one."""
    assert [n for _, n in lfsdisk.SS_FLAGS] == ["DIROP", "CONT", "CLEAN", "CKP", "TXN",
                                                "DATAONLY"]
    assert [n for _, n in lfsdisk.SEGUSE_FLAGS] == ["ACTIVE", "DIRTY", "SUPERBLOCK",
                                                    "CLEANING"]
    log = (Path(__file__).resolve().parents[2] / "usr.sbin/dumplfs/log.c").read_text()
    for _, name in lfsdisk.SS_FLAGS:
        assert f'{{ SS_{name}, "{name}" }}' in log, f"dumplfs does not name SS_{name}"
