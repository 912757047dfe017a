"""Host tests of fsck_lfs (usr.sbin/fsck_lfs) on images made by newfs_lfs.

A new file system passes with 0 problems.  Then an image is damaged from
Python in one targeted way: where the damage is meant to look like a
kernel bug rather than a torn write (a link count, di_blocks), the
changed block's partial segment gets its checksums recomputed, so only
the check that owns the invariant can catch it.  Each test asserts the
exact problem line and exit 1; -y repairs (exit 0), and the re-check,
fsck_lfs -n and dumplfs, find nothing.  Garbage gives exit 2 and a
message, never a crash.
"""
from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest

from tests.host.test_lfs_tools import (DINODE, DLFS, DLFS_NAMES, SEGSUM,
                                       dumplfs_ok)
from tests.host.toolbuild import build_tools, run

TOOLS = ("newfs_lfs", "dumplfs", "fsck_lfs")
MB = 1024 * 1024
LABELPAD, NSB = 8192, 10
IFILE, SEGUSE = struct.Struct("<3I"), struct.Struct("<2I 2H I")
NLINK, GEN, BLOCKS, DB = 1, 27, 26, 10      # DINODE field indexes


@pytest.fixture(scope="session")
def bindir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tools(tmp_path_factory.mktemp("bin"), TOOLS,
                       "LFS_TOOLS_CFLAGS")


def newfs(bindir: Path, img: Path, size: int, *opts: object) -> Path:
    with open(img, "wb") as f:
        f.truncate(size)
    run(bindir, "newfs_lfs", *opts, img)
    return img


# --- reading and editing an image ------------------------------------------

class Img:
    """An LFS image in memory: its checkpoint, ifile and inodes."""

    def __init__(self, path: Path):
        self.path = path
        self.data = bytearray(path.read_bytes())
        self.sb = dict(zip(DLFS_NAMES, DLFS.unpack_from(self.data, LABELPAD)))
        self.bs = self.sb["bsize"]
        self.sboffs = [self.sb[f"sboff{i}"] for i in range(NSB)]
        # the newest checkpoint copy
        for off in self.sboffs[:2]:
            sb = dict(zip(DLFS_NAMES, DLFS.unpack_from(self.data,
                                                      off * self.bs)))
            if sb["serial"] > self.sb["serial"]:
                self.sb = sb

    def save(self) -> None:
        self.path.write_bytes(bytes(self.data))

    def off(self, daddr: int) -> int:
        return daddr * self.bs

    def inode_off(self, daddr: int, ino: int) -> int:
        for o in range(self.off(daddr), self.off(daddr + 1), DINODE.size):
            if DINODE.unpack_from(self.data, o)[2] == ino:
                return o
        raise AssertionError(f"inode {ino} not in block {daddr}")

    def dinode(self, ino: int) -> list:
        return list(DINODE.unpack_from(self.data, self.inode_off(
            self.daddr(ino), ino)))

    def set_dinode(self, ino: int, d: list) -> None:
        DINODE.pack_into(self.data, self.inode_off(self.daddr(ino), ino), *d)
        self.resum(self.daddr(ino))

    def ifile_block(self, lbn: int) -> int:
        d = DINODE.unpack_from(self.data, self.inode_off(self.sb["idaddr"],
                                                          1))
        return d[DB + lbn]

    def entry_off(self, ino: int) -> int:
        sb = self.sb
        lbn = sb["cleansz"] + sb["segtabsz"] + ino // (self.bs // 12)
        return self.off(self.ifile_block(lbn)) + ino % (self.bs // 12) * 12

    def daddr(self, ino: int) -> int:
        if ino == 1:
            return self.sb["idaddr"]
        return IFILE.unpack_from(self.data, self.entry_off(ino))[1]

    def seguse_off(self, sn: int) -> int:
        lbn = self.sb["cleansz"] + sn // (self.bs // 16)
        return self.off(self.ifile_block(lbn)) + sn % (self.bs // 16) * 16

    def pseg_of(self, daddr: int) -> int:
        """The summary of the partial segment holding block daddr."""
        ssize = self.sb["ssize"]
        sn = daddr // ssize
        a = sn * ssize if sn else max(LABELPAD // self.bs, 1)
        if a in self.sboffs:
            a += 1
        while a < (sn + 1) * ssize:
            nblocks = SEGSUM.unpack_from(self.data, self.off(a))[9]
            if a < daddr <= a + nblocks:
                return a
            a += 1 + nblocks
        raise AssertionError(f"block {daddr} in no partial segment")

    def resum(self, daddr: int) -> None:
        """Checksums of daddr's partial segment, as if written so."""
        a = self.pseg_of(daddr)
        o = self.off(a)
        nblocks = SEGSUM.unpack_from(self.data, o)[9]
        datasum = zlib.crc32(self.data[o + self.bs:o + (1 + nblocks) *
                                       self.bs])
        struct.pack_into("<I", self.data, o + 4, datasum)
        struct.pack_into("<I", self.data, o,
                         zlib.crc32(self.data[o + 4:o + self.bs]))

    def set_superblocks(self, only: int | None = None, **fields: int) -> None:
        """Change fields in every superblock copy (or copy only)."""
        for i, b in enumerate(self.sboffs):
            if not b or only not in (None, i):
                continue
            o = self.off(b)
            sb = dict(zip(DLFS_NAMES, DLFS.unpack_from(self.data, o)))
            sb.update(fields)
            vals = [sb[n] for n in DLFS_NAMES]
            DLFS.pack_into(self.data, o, *vals)
            struct.pack_into("<I", self.data, o + 444,
                             zlib.crc32(self.data[o:o + 444]))


def fsck(bindir: Path, img: Path, *opts: str, expect: int = 0) -> str:
    return run(bindir, "fsck_lfs", *opts, img, expect=expect).stdout


def summary(out: str) -> str:
    return out.splitlines()[-1]


def repaired_and_clean(bindir: Path, img: Path) -> None:
    """-y repairs everything it found; after it all checks pass."""
    out = fsck(bindir, img, "-y")
    last = summary(out)
    n = int(last.split("; ")[1].split()[0])
    assert n > 0 and last.endswith(f"; {n} problems, {n} repaired"), out
    assert summary(fsck(bindir, img)).endswith("; 0 problems")
    dumplfs_ok(bindir, img)


@pytest.fixture
def img(bindir: Path, tmp_path: Path) -> Path:
    return newfs(bindir, tmp_path / "lfs.img", 32 * MB)


# --- clean file systems -----------------------------------------------------

@pytest.mark.parametrize("opts", [(), ("-b", 8192, "-s", "512k"),
                                  ("-s", "64k")])
def test_new_file_system_has_no_problems(bindir, tmp_path, opts):
    img = newfs(bindir, tmp_path / "n.img", 48 * MB, *opts)
    out = fsck(bindir, img)
    assert out == (f"fsck_lfs: {img}: 3 files, "
                   f"{out.split(', ')[1].split()[0]} blocks, "
                   f"{out.split(', ')[2].split()[0]} free; 0 problems\n")
    blocks = int(out.split(", ")[1].split()[0])
    assert blocks == 2 + 1 + Img(img).sb["segtabsz"] + 1  # dirs + ifile
    assert fsck(bindir, img, "-y").endswith("0 problems, 0 repaired\n")


def test_quiet_prints_only_the_summary(bindir, img):
    d = Img(img)
    d.set_dinode(2, [*d.dinode(2)[:NLINK], 7, *d.dinode(2)[NLINK + 1:]])
    d.save()
    out = fsck(bindir, img, "-q", expect=1)
    assert out.count("\n") == 1 and out.endswith("; 1 problems\n")


# --- damage each pass must find ---------------------------------------------

def test_link_count(bindir, img):
    d = Img(img)
    di = d.dinode(2)
    di[NLINK] = 5
    d.set_dinode(2, di)
    d.save()
    out = fsck(bindir, img, expect=1)
    assert "fsck_lfs: inode 2: link count 5, 3 directory entries\n" in out
    assert summary(out).endswith("; 1 problems")
    repaired_and_clean(bindir, img)
    assert Img(img).dinode(2)[NLINK] == 3


def test_di_blocks(bindir, img):
    d = Img(img)
    di = d.dinode(3)
    di[BLOCKS] = 64
    d.set_dinode(3, di)
    d.save()
    out = fsck(bindir, img, expect=1)
    assert "fsck_lfs: inode 3: di_blocks 64, 1 blocks (8 sectors)\n" in out
    repaired_and_clean(bindir, img)


def test_flipped_byte_is_a_checksum_problem(bindir, img):
    d = Img(img)
    root = d.dinode(2)[DB]
    d.data[d.off(root) + 100] ^= 0x40
    d.save()
    pseg = d.pseg_of(root)
    out = fsck(bindir, img, expect=1)
    assert (f"fsck_lfs: partial segment at {pseg} (segment 0, serial 1): "
            "bad data checksum\n") in out
    out = fsck(bindir, img, "-y", expect=1)      # not repairable
    assert summary(out).endswith("problems, 0 repaired")


def test_inode_map_entry_pointing_elsewhere(bindir, img):
    """lost+found's map entry names the root's directory block: its inode
    is gone, so -y frees it and removes the root's entry."""
    d = Img(img)
    root = d.dinode(2)[DB]
    o = d.entry_off(3)
    struct.pack_into("<I", d.data, o + 4, root)
    d.resum(d.ifile_block(0))
    d.save()
    out = fsck(bindir, img, expect=1)
    assert f"fsck_lfs: inode 3: not in inode block {root}\n" in out
    repaired_and_clean(bindir, img)
    assert Img(img).daddr(3) == 0


def test_free_list_loop(bindir, img):
    d = Img(img)
    o = d.entry_off(6)
    struct.pack_into("<I", d.data, o + 8, 5)       # 5 -> 6 -> 5
    d.resum(d.ifile_block(0))
    d.save()
    out = fsck(bindir, img, expect=1)
    assert "fsck_lfs: free list: loops back to entry 5\n" in out
    assert "fsck_lfs: free list: " in out and "free inodes not on it" in out
    repaired_and_clean(bindir, img)


def test_segment_usage_bytes(bindir, img):
    d = Img(img)
    o = d.seguse_off(0)
    nbytes = struct.unpack_from("<I", d.data, o)[0]
    struct.pack_into("<I", d.data, o, nbytes + 4096)
    d.resum(d.ifile_block(0))
    d.save()
    out = fsck(bindir, img, expect=1)
    assert (f"fsck_lfs: segment 0: su_nbytes {nbytes + 4096}, {nbytes} "
            "live bytes\n") in out
    repaired_and_clean(bindir, img)


def test_superblock_counts(bindir, img):
    d = Img(img)
    bfree, nfiles = d.sb["bfree"], d.sb["nfiles"]
    d.set_superblocks(bfree=bfree - 10, nfiles=nfiles + 1)
    d.save()
    out = fsck(bindir, img, expect=1)
    assert (f"fsck_lfs: superblock bfree {bfree - 10}, {bfree} by the "
            "count\n") in out
    assert f"fsck_lfs: superblock nfiles {nfiles + 1}, {nfiles} inodes " \
        "allocated\n" in out
    repaired_and_clean(bindir, img)


def damage_all(img: Path) -> None:
    """Several repairable problems at once (used by the guest test too)."""
    d = Img(img)
    di = d.dinode(2)
    di[NLINK] = 9
    d.set_dinode(2, di)
    o = d.seguse_off(0)
    struct.pack_into("<I", d.data, o, 12345)
    struct.pack_into("<I", d.data, d.entry_off(9) + 8, 0)   # list cut
    d.resum(d.ifile_block(0))
    d.save()


def test_many_problems_at_once(bindir, img):
    damage_all(img)
    out = fsck(bindir, img, expect=1)
    assert "fsck_lfs: inode 2: link count 9, 3 directory entries\n" in out
    repaired_and_clean(bindir, img)


def test_repeated_repairs_move_to_the_next_segment(bindir, tmp_path):
    """64 KB segments: the second repair no longer fits in segment 0 and
    goes to dlfs_nextseg, which becomes dirty and current."""
    img = newfs(bindir, tmp_path / "s.img", 8 * MB, "-s", "64k")
    for n in range(4):
        d = Img(img)
        di = d.dinode(2)
        di[NLINK] = 10 + n
        d.set_dinode(2, di)
        d.save()
        repaired_and_clean(bindir, img)
    assert Img(img).sb["curseg"] > 0


def test_mounted_file_system_is_not_repaired_without_f(bindir, img):
    d = Img(img)
    d.set_superblocks(clean=0)
    di = d.dinode(2)
    di[NLINK] = 4
    d.set_dinode(2, di)
    d.save()
    p = run(bindir, "fsck_lfs", "-y", img, expect=2)
    assert "mounted" in p.stderr
    out = fsck(bindir, img, "-y", "-f")
    assert summary(out).endswith("1 problems, 1 repaired")


def test_copy_in_use_of_the_same_serial_means_mounted(bindir, img):
    """Mounting marks one copy in use with the clean copy's serial: that
    copy is the checkpoint, so the file system counts as mounted."""
    d = Img(img)
    d.set_superblocks(only=1, clean=0)
    d.save()
    p = run(bindir, "fsck_lfs", "-y", img, expect=2)
    assert "mounted" in p.stderr
    assert summary(fsck(bindir, img)).endswith("0 problems")


# --- what it cannot read ------------------------------------------------------

def test_garbage_and_zeros_exit_2(bindir, tmp_path):
    zero = tmp_path / "zero.img"
    zero.write_bytes(bytes(4 * MB))
    p = run(bindir, "fsck_lfs", zero, expect=2)
    assert "no valid superblock" in p.stderr
    junk = tmp_path / "junk.img"
    junk.write_bytes(bytes((i * 7919 + 13) % 251 for i in range(2 * MB)))
    p = run(bindir, "fsck_lfs", junk, expect=2)
    assert "no valid superblock" in p.stderr
    p = run(bindir, "fsck_lfs", tmp_path / "missing.img", expect=2)
    assert "cannot open" in p.stderr
    p = run(bindir, "fsck_lfs", "-x", junk, expect=2)
    assert "usage" in p.stderr


def test_truncated_or_scrambled_image_never_crashes(bindir, img, tmp_path):
    data = img.read_bytes()
    short = tmp_path / "short.img"
    short.write_bytes(data[:MB])
    assert run(bindir, "fsck_lfs", short, expect=None).returncode in (1, 2)
    d = Img(img)
    idaddr = d.sb["idaddr"]
    for k in range(0, d.bs, 61):      # scramble the inode block
        d.data[d.off(idaddr) + k] ^= 0xa5
    d.save()
    p = run(bindir, "fsck_lfs", img, expect=None)
    assert p.returncode in (1, 2), p.stdout + p.stderr


def test_unreachable_file_goes_to_lost_found(bindir, img):
    """An allocated inode no directory names (a regular file, one link,
    in the inode block with the others): -y links it into lost+found."""
    d = Img(img)
    iblk = d.sb["idaddr"]
    slot = d.off(iblk) + 3 * DINODE.size          # after inodes 1, 2, 3
    di = list(DINODE.unpack_from(d.data, d.inode_off(iblk, 3)))
    di[0], di[NLINK], di[2], di[3] = 0o100644, 1, 4, 0   # mode nlink ino size
    di[DB:DB + 15] = [0] * 15
    di[BLOCKS], di[GEN] = 0, 1
    DINODE.pack_into(d.data, slot, *di)
    struct.pack_into("<3I", d.data, d.entry_off(4), 1, iblk, 0)
    o = d.seguse_off(0)
    struct.pack_into("<I", d.data, o, struct.unpack_from("<I", d.data, o)[0]
                     + DINODE.size)
    d.resum(iblk)
    d.resum(d.ifile_block(0))
    d.set_superblocks(free=5, nfiles=4)
    cinfo = d.off(d.ifile_block(0))
    struct.pack_into("<I", d.data, cinfo + 16, 5)  # CLEANERINFO free_head
    d.resum(d.ifile_block(0))
    d.save()
    out = fsck(bindir, img, expect=1)
    assert out.splitlines()[:-1] == [
        "fsck_lfs: inode 4: file not reachable from the root"], out
    repaired_and_clean(bindir, img)
    d = Img(img)
    lf = d.data[d.off(d.dinode(3)[DB]):d.off(d.dinode(3)[DB]) + 512]
    assert b"#4" in lf


def test_repair_rewrites_an_ifile_with_an_indirect_block(bindir, tmp_path):
    """3200 segments need a 13-block segment table: the ifile has a
    single indirect block, which the repair's partial segment carries."""
    img = newfs(bindir, tmp_path / "big.img", 400 * MB, "-s", "128k")
    with open(img, "r+b") as f:
        f.seek(LABELPAD)
        sb = dict(zip(DLFS_NAMES, DLFS.unpack(f.read(DLFS.size))))
        assert sb["cleansz"] + sb["segtabsz"] + 1 > 12
        for i in range(NSB):
            b = sb[f"sboff{i}"]
            if not b:
                continue
            f.seek(b * sb["bsize"])
            raw = bytearray(f.read(DLFS.size))
            struct.pack_into("<i", raw, 152, sb["bfree"] + 3)   # dlfs_bfree
            struct.pack_into("<I", raw, 444, zlib.crc32(raw[:444]))
            f.seek(b * sb["bsize"])
            f.write(raw)
    out = fsck(bindir, img, expect=1)
    assert (f"fsck_lfs: superblock bfree {sb['bfree'] + 3}, {sb['bfree']} "
            "by the count\n") in out
    repaired_and_clean(bindir, img)


def test_unreachable_directory_without_lost_found_is_freed(bindir, img):
    """The root's entry for lost+found merged away: lost+found is an
    unreachable directory and there is no lost+found to put it in, so
    -y frees it (and fixes the root's link count)."""
    d = Img(img)
    root = d.off(d.dinode(2)[DB])
    # entries: "." (12) ".." (12) "lost+found" (20) "ifile" (rest)
    dotdot = struct.unpack_from("<H", d.data, root + 12 + 4)[0]
    lf = struct.unpack_from("<H", d.data, root + 24 + 4)[0]
    struct.pack_into("<H", d.data, root + 12 + 4, dotdot + lf)
    struct.pack_into("<Hh", d.data, root + 24 + 4, 0, 0)
    d.resum(d.dinode(2)[DB])
    d.save()
    out = fsck(bindir, img, expect=1)
    assert "fsck_lfs: inode 3: directory not reachable from the root\n" \
        in out, out
    repaired_and_clean(bindir, img)
    assert Img(img).daddr(3) == 0
