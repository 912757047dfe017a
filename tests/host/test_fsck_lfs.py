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
from pathlib import Path

import pytest

from qemu import lfsdisk
from qemu.lfsdisk import (CLEANERINFO_OFFSET, DI_BLOCKS, DI_DB, DI_GEN,
                          DI_INUMBER, DI_MODE, DI_NLINK, DI_SIZE, DINODE,
                          DIRECT_OFFSET, IFILE, IFILE_OFFSET, SEGUSE_OFFSET)
from tests.host.tools import (MB, LfsImage, build_tools, damage_all,
                              dumplfs_ok, newfs_lfs, run)

TOOLS = ("newfs_lfs", "dumplfs", "fsck_lfs")


@pytest.fixture(scope="session")
def bindir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tools(tmp_path_factory.mktemp("bin"), TOOLS,
                       "LFS_TOOLS_CFLAGS")


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
    return newfs_lfs(bindir, tmp_path / "lfs.img", 32 * MB)


# --- clean file systems -----------------------------------------------------

@pytest.mark.parametrize("opts", [(), ("-b", 8192, "-s", "512k"),
                                  ("-s", "64k")])
def test_new_file_system_has_no_problems(bindir, tmp_path, opts):
    img = newfs_lfs(bindir, tmp_path / "n.img", 48 * MB, *opts)
    out = fsck(bindir, img)
    assert out == (f"fsck_lfs: {img}: 3 files, "
                   f"{out.split(', ')[1].split()[0]} blocks, "
                   f"{out.split(', ')[2].split()[0]} free; 0 problems\n")
    blocks = int(out.split(", ")[1].split()[0])
    assert blocks == 2 + 1 + LfsImage(img).sb.segtabsz + 1  # dirs + ifile
    assert fsck(bindir, img, "-y").endswith("0 problems, 0 repaired\n")


def test_quiet_prints_only_the_summary(bindir, img):
    d = LfsImage(img)
    d.set_dinode(2, [*d.dinode(2)[:DI_NLINK], 7, *d.dinode(2)[DI_NLINK + 1:]])
    d.save()
    out = fsck(bindir, img, "-q", expect=1)
    assert out.count("\n") == 1 and out.endswith("; 1 problems\n")


# --- damage each pass must find ---------------------------------------------

def test_link_count(bindir, img):
    d = LfsImage(img)
    di = d.dinode(2)
    di[DI_NLINK] = 5
    d.set_dinode(2, di)
    d.save()
    out = fsck(bindir, img, expect=1)
    assert "fsck_lfs: inode 2: link count 5, 3 directory entries\n" in out
    assert summary(out).endswith("; 1 problems")
    repaired_and_clean(bindir, img)
    assert LfsImage(img).dinode(2)[DI_NLINK] == 3


def test_di_blocks(bindir, img):
    d = LfsImage(img)
    di = d.dinode(3)
    di[DI_BLOCKS] = 64
    d.set_dinode(3, di)
    d.save()
    out = fsck(bindir, img, expect=1)
    assert "fsck_lfs: inode 3: di_blocks 64, 1 blocks (8 sectors)\n" in out
    repaired_and_clean(bindir, img)


def test_flipped_byte_is_a_checksum_problem(bindir, img):
    d = LfsImage(img)
    root = d.dinode(2)[DI_DB]
    d.data[d.off(root) + 100] ^= 0x40
    d.save()
    pseg = d.pseg_of(root)
    out = fsck(bindir, img, expect=1)
    assert (f"fsck_lfs: partial segment at {pseg} (segment 0, serial 1): "
            "bad data checksum: a block changed since written (inodes 1, 2, "
            "3)\n") in out
    # Which block changed cannot be told: -y names the files and gives
    # the summary the checksum of what is there now.
    repaired_and_clean(bindir, img)


def test_inode_map_entry_pointing_elsewhere(bindir, img):
    """lost+found's map entry names the root's directory block: its inode
    is gone, so -y frees it and removes the root's entry."""
    d = LfsImage(img)
    root = d.dinode(2)[DI_DB]
    o = d.entry_off(3)
    struct.pack_into("<I", d.data, o + IFILE_OFFSET["daddr"], root)
    d.resum(d.ifile_block(0))
    d.save()
    out = fsck(bindir, img, expect=1)
    assert f"fsck_lfs: inode 3: not in inode block {root}\n" in out
    repaired_and_clean(bindir, img)
    assert LfsImage(img).daddr(3) == 0


def test_free_list_loop(bindir, img):
    d = LfsImage(img)
    o = d.entry_off(6)
    struct.pack_into("<I", d.data, o + IFILE_OFFSET["nextfree"],
                     5)                             # 5 -> 6 -> 5
    d.resum(d.ifile_block(0))
    d.save()
    out = fsck(bindir, img, expect=1)
    assert "fsck_lfs: free list: loops back to entry 5\n" in out
    assert "fsck_lfs: free list: " in out and "free inodes not on it" in out
    repaired_and_clean(bindir, img)


def test_segment_usage_bytes(bindir, img):
    d = LfsImage(img)
    o = d.seguse_off(0) + SEGUSE_OFFSET["nbytes"]
    nbytes = struct.unpack_from("<I", d.data, o)[0]
    struct.pack_into("<I", d.data, o, nbytes + 4096)
    d.resum(d.ifile_block(0))
    d.save()
    out = fsck(bindir, img, expect=1)
    assert (f"fsck_lfs: segment 0: su_nbytes {nbytes + 4096}, {nbytes} "
            "live bytes\n") in out
    repaired_and_clean(bindir, img)


def test_superblock_counts(bindir, img):
    d = LfsImage(img)
    bfree, nfiles = d.sb.bfree, d.sb.nfiles
    d.set_superblocks(bfree=bfree - 10, nfiles=nfiles + 1)
    d.save()
    out = fsck(bindir, img, expect=1)
    assert (f"fsck_lfs: superblock bfree {bfree - 10}, {bfree} by the "
            "count\n") in out
    assert f"fsck_lfs: superblock nfiles {nfiles + 1}, {nfiles} inodes " \
        "allocated\n" in out
    repaired_and_clean(bindir, img)


def test_many_problems_at_once(bindir, img):
    damage_all(img)             # (tests/host/tools.py: the guest test's too)
    out = fsck(bindir, img, expect=1)
    assert "fsck_lfs: inode 2: link count 9, 3 directory entries\n" in out
    repaired_and_clean(bindir, img)


def test_repeated_repairs_move_to_the_next_segment(bindir, tmp_path):
    """64 KB segments: the second repair no longer fits in segment 0 and
    goes to dlfs_nextseg, which becomes dirty and current."""
    img = newfs_lfs(bindir, tmp_path / "s.img", 8 * MB, "-s", "64k")
    for n in range(4):
        d = LfsImage(img)
        di = d.dinode(2)
        di[DI_NLINK] = 10 + n
        d.set_dinode(2, di)
        d.save()
        repaired_and_clean(bindir, img)
    assert LfsImage(img).sb.curseg > 0


def test_next_segment_in_use(bindir, tmp_path):
    """dlfs_nextseg naming a dirty segment, which the kernel refuses to
    mount ("run fsck_lfs"): -y chooses a clean one, as lfs_pickseg."""
    img = newfs_lfs(bindir, tmp_path / "s.img", 8 * MB, "-s", "64k")
    for n in range(2):              # the log moves on: segment 0 is used
        d = LfsImage(img)
        di = d.dinode(2)
        di[DI_NLINK] = 10 + n
        d.set_dinode(2, di)
        d.save()
        repaired_and_clean(bindir, img)
    d = LfsImage(img)
    assert d.sb.curseg != 0
    d.set_superblocks(nextseg=0)
    d.save()
    out = fsck(bindir, img, expect=1)
    assert out.splitlines()[:-1] == [
        "fsck_lfs: superblock nextseg 0: the segment is in use"], out
    repaired_and_clean(bindir, img)
    d = LfsImage(img)
    flags = d.disk.seguse(d.sb.nextseg)[4]
    assert d.sb.nextseg != d.sb.curseg and not flags & lfsdisk.SEGUSE_DIRTY


def test_mounted_file_system_is_not_repaired_without_f(bindir, img):
    d = LfsImage(img)
    d.set_superblocks(clean=0)
    di = d.dinode(2)
    di[DI_NLINK] = 4
    d.set_dinode(2, di)
    d.save()
    p = run(bindir, "fsck_lfs", "-y", img, expect=2)
    assert "mounted" in p.stderr
    out = fsck(bindir, img, "-y", "-f")
    assert summary(out).endswith("1 problems, 1 repaired")


def test_copy_in_use_of_the_same_serial_means_mounted(bindir, img):
    """Mounting marks one copy in use with the clean copy's serial: that
    copy is the checkpoint, so the file system counts as mounted."""
    d = LfsImage(img)
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
    d = LfsImage(img)
    idaddr = d.sb.idaddr
    for k in range(0, d.bs, 61):      # scramble the inode block
        d.data[d.off(idaddr) + k] ^= 0xa5
    d.save()
    p = run(bindir, "fsck_lfs", img, expect=None)
    assert p.returncode in (1, 2), p.stdout + p.stderr


def test_unreachable_file_goes_to_lost_found(bindir, img):
    """An allocated inode no directory names (a regular file, one link,
    in the inode block with the others): -y links it into lost+found."""
    d = LfsImage(img)
    iblk = d.sb.idaddr
    slot = d.off(iblk) + 3 * DINODE.size          # after inodes 1, 2, 3
    di = list(DINODE.unpack_from(d.data, d.inode_off(iblk, 3)))
    di[DI_MODE], di[DI_NLINK], di[DI_INUMBER], di[DI_SIZE] = 0o100644, 1, 4, 0
    di[DI_DB:DI_DB + 15] = [0] * 15               # di_db and di_ib
    di[DI_BLOCKS], di[DI_GEN] = 0, 1
    DINODE.pack_into(d.data, slot, *di)
    IFILE.pack_into(d.data, d.entry_off(4), 1, iblk, 0)
    o = d.seguse_off(0) + SEGUSE_OFFSET["nbytes"]
    struct.pack_into("<I", d.data, o, struct.unpack_from("<I", d.data, o)[0]
                     + DINODE.size)
    d.resum(iblk)
    d.resum(d.ifile_block(0))
    d.set_superblocks(free=5, nfiles=4)
    cinfo = d.off(d.ifile_block(0))
    struct.pack_into("<I", d.data, cinfo + CLEANERINFO_OFFSET["free_head"], 5)
    d.resum(d.ifile_block(0))
    d.save()
    out = fsck(bindir, img, expect=1)
    assert out.splitlines()[:-1] == [
        "fsck_lfs: inode 4: file not reachable from the root"], out
    repaired_and_clean(bindir, img)
    d = LfsImage(img)
    lf = d.data[d.off(d.dinode(3)[DI_DB]):d.off(d.dinode(3)[DI_DB]) + 512]
    assert b"#4" in lf


def test_repair_rewrites_an_ifile_with_an_indirect_block(bindir, tmp_path):
    """3200 segments need a 13-block segment table: the ifile has a
    single indirect block, which the repair's partial segment carries."""
    img = newfs_lfs(bindir, tmp_path / "big.img", 400 * MB, "-s", "128k")
    fs = lfsdisk.Image(img)         # 400 MB: edited in place, not in memory
    sb = fs.fs
    assert sb.cleansz + sb.segtabsz + 1 > 12
    copies = [(b, fs.superblock(b)) for b in sb.sboffs if b]
    fs.close()
    with open(img, "r+b") as f:
        for b, copy in copies:
            f.seek(b * sb.bsize)
            f.write(copy.pack(bfree=sb.bfree + 3))
    out = fsck(bindir, img, expect=1)
    assert (f"fsck_lfs: superblock bfree {sb.bfree + 3}, {sb.bfree} "
            "by the count\n") in out
    repaired_and_clean(bindir, img)


def root_entries(img: Path) -> dict[str, int]:
    """The names in the root's first block, and their inode numbers."""
    d = LfsImage(img)
    blk = d.off(d.dinode(2)[DI_DB])
    names, off = {}, 0
    while off < 512:
        ino, reclen, _, namlen = struct.unpack_from("<IHBB", d.data,
                                                    blk + off)
        if ino:
            name = bytes(d.data[blk + off + 8:blk + off + 8 + namlen])
            names[name.decode()] = ino
        off += reclen
    return names


def test_unreachable_directory_without_lost_found_is_reconnected(bindir,
                                                                  img):
    """The root's entry for lost+found merged away: lost+found is an
    unreachable directory and there is no lost+found to put it in, so
    -y makes a new lost+found in the root and reconnects the old one
    there as "#3" (fsck_ffs does the same)."""
    d = LfsImage(img)
    root = d.off(d.dinode(2)[DI_DB])
    reclen = DIRECT_OFFSET["reclen"]
    # entries: "." (12) ".." (12) "lost+found" (20) "ifile" (rest)
    dotdot = struct.unpack_from("<H", d.data, root + 12 + reclen)[0]
    lf = struct.unpack_from("<H", d.data, root + 24 + reclen)[0]
    struct.pack_into("<H", d.data, root + 12 + reclen, dotdot + lf)
    struct.pack_into("<Hh", d.data, root + 24 + reclen, 0, 0)
    d.resum(d.dinode(2)[DI_DB])
    d.save()
    out = fsck(bindir, img, expect=1)
    assert "fsck_lfs: inode 3: directory not reachable from the root\n" \
        in out, out
    repaired_and_clean(bindir, img)
    names = root_entries(img)
    assert names.get("lost+found", 3) != 3, names
    assert LfsImage(img).daddr(3) != 0
