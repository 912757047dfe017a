"""Damaged FFS, EFS and BSD-LFS images, for the tests that a damaged disk
can make the kernel refuse (EIO) but never panic or hang, and that
fsck -y either repairs it so that fsck -n then finds nothing, or says it
could not (issue 14).

    python3 -m tests.damage list            (from the top of the tree)
    python3 -m tests.damage make LAYOUT CASE OUT.img
    python3 -m tests.damage random LAYOUT SEED OUT.img

A case starts from a base image with something in it: directories, one
of them over several blocks, small files and ones reaching the single
and double indirect blocks, symbolic links short and long.  FFS and EFS
bases are made on the host (build/host/newfs -D); the LFS base needs the
kernel to write it, so a guest makes it once (make_lfs_base) and it is
cached under build/damage.  Then one targeted damage (CASES: superblock
fields, cylinder-group headers, inode sizes, block pointers negative and
out of range, link counts, directory entries, LFS summaries and ifile
entries) or a few random ones from a seed (damage_random: bytes, bits
and words changed in the metadata that is in use).  On LFS the changed
block's partial segment gets its checksums recomputed unless the damage
is to a checksum, so the damage looks like a kernel bug that wrote it,
not a torn write the log would reject.  Offsets and checksums come from
the format's one reader in Python, qemu/lfsdisk.py (through
tests/host/tools.py's LfsImage), and FFS's from tests/ffsimage.py.

The guest test (tests/test_damage.py) puts up to seven images in the
partitions of one scratch disk (assemble) and walks each.
"""
from __future__ import annotations

import random
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from qemu import lfsdisk
from qemu.lfsdisk import DI_BLOCKS, DI_DB, DI_IB, DI_MODE, DI_NLINK, DI_SIZE
from tests import fslib
from tests.ffsimage import (CG_FIELDS, DINODE_SIZE, FS_FIELDS, IFDIR, IFMT,
                            IFREG, NIADDR, ROOTINO, SBOFF, FFSImage)
from tests.guest import BUILD, Guest
from tests.host.tools import LfsImage

HOST = BUILD / "host"

FFS_SECTORS = 32768             # 16 MB
LFS_SECTORS = 65536             # 32 MB: room for the cleaner's segments
SECTOR = 512
LAYOUTS = ("ffs", "efs", "lfs")

# The files of a base image: path -> size (a directory if None, a
# symbolic link if a str).
TREE: dict[str, object] = {
    "a": None, "a/b": None, "a/b/c": None, "empty": None, "many": None,
    "a/small": 100, "a/frag": 3000, "a/b/c/deep": 10,
    "single": 200 * 1024,               # through the single indirect block
    "double": 4 * 1024 * 1024 + 300 * 1024,     # and the double
    "link": "a/small", "longlink": "a/b/" + "x" * 100,
}
NMANY = 150                     # entries in "many": two directory blocks


def fill_byte(path: str) -> int:
    return (zlib.crc32(path.encode()) & 0x7f) | 1


# --- base images -------------------------------------------------------------

def populate(root: Path) -> None:
    """The tree on the host, for newfs -D."""
    for rel, what in TREE.items():
        p = root / rel
        if what is None:
            p.mkdir(parents=True, exist_ok=True)
        elif isinstance(what, str):
            p.symlink_to(what)
        else:
            p.write_bytes(bytes([fill_byte(rel)]) * int(what))
    for i in range(NMANY):
        (root / "many" / f"entry-number-{i:04d}").write_bytes(b"m" * i)


def make_ffs_base(out: Path, efs: bool = False) -> None:
    with tempfile.TemporaryDirectory() as t:
        tree = Path(t) / "tree"
        tree.mkdir()
        populate(tree)
        with open(out, "wb") as f:
            f.truncate(FFS_SECTORS * SECTOR)
        cmd = [str(HOST / "newfs"), *(["-E"] if efs else []), "-D",
               str(tree), str(out)]
        subprocess.run(cmd, check=True, capture_output=True)


def lfs_guest_commands() -> list[str]:
    """Shell commands that build TREE under /mnt in the guest."""
    cmds = []
    for rel, what in TREE.items():
        p = f"/mnt/{rel}"
        if what is None:
            cmds.append(f"mkdir {p}")
        elif isinstance(what, str):
            cmds.append(f"ln -s {what} {p}")
        else:
            n = int(what)
            if n % 1024 == 0:
                cmds.append(f"dd if=/dev/zero of={p} bs=1k count={n // 1024}"
                            " 2>/dev/null")
            else:
                cmds.append(f"dd if=/dev/zero of={p} bs={n} count=1"
                            " 2>/dev/null")
    loop = " ".join(f"{i:04d}" for i in range(NMANY))
    cmds.append(f"for i in {loop}; do echo $i > /mnt/many/entry-number-$i;"
                " done")
    return cmds


def make_lfs_base(out: Path) -> None:
    """newfs_lfs and the tree, written by the kernel in a guest (no
    cleaner, so nothing moves)."""
    with tempfile.TemporaryDirectory() as t:
        with Guest(Path(t), sd1_sectors=LFS_SECTORS) as g:
            fslib.lfs(g, segsize=None, cleaner=False)
            for c in lfs_guest_commands():
                g.ok(c, timeout=120)
            g.ok("umount /mnt")
            fslib.fsck_lfs_clean(g, "-n")
        shutil.copyfile(g.sd1, out)


def base_image(layout: str) -> Path:
    """The cached base image of a layout (made if missing or stale)."""
    d = BUILD / "damage"
    d.mkdir(parents=True, exist_ok=True)
    out = d / f"{layout}-base.img"
    deps = [HOST / "newfs", HOST / "newfs_lfs", BUILD / "kernel",
            Path(__file__)]
    newest = max(p.stat().st_mtime for p in deps if p.exists())
    if out.exists() and out.stat().st_mtime >= newest:
        return out
    tmp = d / f"{layout}-base.tmp"
    if layout == "lfs":
        make_lfs_base(tmp)
    else:
        make_ffs_base(tmp, efs=layout == "efs")
    tmp.replace(out)
    return out


def copy_base(layout: str, out: Path) -> None:
    subprocess.run(["cp", "--sparse=always", str(base_image(layout)),
                    str(out)], check=True)


# --- FFS editing ---------------------------------------------------------------

class Ffs(FFSImage):
    """An FFS image open for writing, with the edits the cases need."""

    def __init__(self, path: Path):
        super().__init__(str(path), writable=True)

    def set_sb(self, name: str, value: int) -> None:
        off, fmt = FS_FIELDS[name]
        self.pwrite(SBOFF + off, struct.pack(fmt, value))

    def set_cg(self, c: int, name: str, value: int) -> None:
        self.pwrite(self.cg_offset(c) + CG_FIELDS[name],
                    struct.pack("<i", value))

    def edit_inode(self, path: str, **fields: object) -> int:
        ino = self.lookup(path)
        di = self.inode(ino)
        for k, v in fields.items():
            setattr(di, k, v)
        self.write_inode(ino, di)
        return ino

    def set_db(self, path: str, i: int, value: int) -> None:
        ino = self.lookup(path)
        di = self.inode(ino)
        di.db[i] = value
        self.write_inode(ino, di)

    def set_ib(self, path: str, i: int, value: int) -> None:
        ino = self.lookup(path)
        di = self.inode(ino)
        di.ib[i] = value
        self.write_inode(ino, di)

    def set_indirect(self, path: str, level: int, index: int,
                     value: int) -> None:
        """Pointer index of the file's top indirect block of that level."""
        di = self.inode(self.lookup(path))
        self.pwrite(self.frag_offset(di.ib[level]) + 4 * index,
                    struct.pack("<i", value))

    def dirent(self, dirpath: str, name: str):
        for e in self.entries(self.lookup(dirpath), include_empty=True):
            if e.name == name:
                return e
        raise FileNotFoundError(f"{dirpath}/{name}")

    def set_dirent(self, dirpath: str, name: str, **fields: int) -> None:
        """Change fields of an entry (ino, reclen, type, namlen)."""
        self.set_entry(self.dirent(dirpath, name), **fields)

    # -- what is in use, for random damage --
    def metadata_extents(self) -> list[tuple[int, int, str]]:
        """(byte offset, length, what) of the metadata in use."""
        sb = self.sb
        out = [(SBOFF, 1024, "superblock")]
        for c in range(sb.ncg):
            out.append((self.cg_offset(c), min(sb.cgsize, sb.bsize), "cg"))
            # the whole inode table, the free inodes in it too
            out.append((self.frag_offset(self.cgimin(c)),
                        sb.ipg * DINODE_SIZE, "inode table"))
        seen: set[int] = set()

        def visit(ino: int) -> None:
            if ino in seen or len(seen) > 400:
                return
            seen.add(ino)
            di = self.inode(ino)
            out.append((self.inode_offset(ino), DINODE_SIZE, "inode"))
            for level, addr in enumerate(di.ib):
                if addr > 0:
                    out.append((self.frag_offset(addr), sb.bsize, "indirect"))
                    if level == 1:
                        first = self._indirect(addr)[0]
                        if first > 0:
                            out.append((self.frag_offset(first), sb.bsize,
                                        "indirect"))
            if di.ftype == IFDIR:
                for lbn in range((di.size + sb.bsize - 1) // sb.bsize):
                    a = self.bmap(di, lbn)
                    if a > 0:
                        out.append((self.frag_offset(a),
                                    self.sblksize(di.size, lbn), "directory"))
                for e in self.entries(ino):
                    if e.name not in (".", ".."):
                        visit(e.ino)
        visit(2)
        return out


# --- LFS editing ---------------------------------------------------------------

class Lfs(LfsImage):
    """An LFS image in memory (tests/host/tools.py's LfsImage: the format
    is qemu/lfsdisk.py's) with the edits the cases need.  The partial
    segments are found once, before any damage, so that resum can reseal
    one whose own summary was damaged; a block outside them (a superblock)
    is left unsealed."""

    def __init__(self, path: Path):
        super().__init__(path)
        self.psegs: list[tuple[int, int]] = []     # (summary, nblocks)
        for sn in range(self.sb.nseg):
            try:
                segs, _ = self.disk.segment(sn)
            except lfsdisk.LfsError:
                continue
            self.psegs += [(p.daddr, p.ss.nblocks) for p in segs]

    # -- checksums --
    def summary_of(self, daddr: int) -> int | None:
        """The summary of the partial segment holding block daddr (the
        summary block itself too), or None."""
        for a, n in self.psegs:
            if a <= daddr <= a + n:
                return a
        return None

    def resum(self, daddr: int) -> None:
        """Reseal the partial segment holding block daddr, over as many
        blocks as its summary says now."""
        a = self.summary_of(daddr)
        if a is None:
            return
        o = self.off(a)
        summary = self.data[o:o + self.bs]
        nblocks = lfsdisk.parse_summary(self.sb, summary).nblocks
        lfsdisk.seal_summary(summary,
                             self.data[o + self.bs:o + (1 + nblocks) * self.bs])
        self.data[o:o + self.bs] = summary

    def set_field(self, o: int, fields, **values: int) -> None:
        """Change fields of the structure at byte o (lfsdisk.set_fields)
        and reseal its partial segment."""
        lfsdisk.set_fields(self.data, o, fields, **values)
        self.resum(o // self.bs)

    # -- inodes --
    def set_dinode_field(self, ino: int, index: int, value: int) -> None:
        """One field of inode ino (index into lfsdisk.DINODE's tuple)."""
        d = self.dinode(ino)
        d[index] = value
        self.set_dinode(ino, d)

    def ifile_inode_off(self) -> int:
        return self.inode_off(self.sb.idaddr, lfsdisk.LFS_IFILE_INUM)

    # -- directories --
    def dir_blocks(self, ino: int) -> list[int]:
        d = self.dinode(ino)
        nblk = (d[DI_SIZE] + self.bs - 1) // self.bs
        return [a for a in d[DI_DB:DI_DB + min(nblk, lfsdisk.NDADDR)]
                if a > 0]

    def entries(self, ino: int) -> list[tuple[str, int, int]]:
        """(name, inode, byte offset in the image) of each entry."""
        out = []
        for b in self.dir_blocks(ino):
            blk = self.data[self.off(b):self.off(b + 1)]
            out += [(name, i, self.off(b) + o)
                    for o, i, name in lfsdisk.direntries(blk)]
        return out

    def lookup(self, path: str) -> int:
        ino = ROOTINO
        for comp in [c for c in path.split("/") if c]:
            for name, i, _ in self.entries(ino):
                if name == comp:
                    ino = i
                    break
            else:
                raise FileNotFoundError(path)
        return ino

    def set_dirent(self, dirpath: str, name: str, **fields: int) -> None:
        """Change fields of an entry (ino, reclen, namlen: DIRECT_FIELDS)."""
        for n, _, o in self.entries(self.lookup(dirpath)):
            if n == name:
                self.set_field(o, lfsdisk.DIRECT_FIELDS, **fields)
                return
        raise FileNotFoundError(f"{dirpath}/{name}")

    # -- what is in use, for random damage --
    def metadata_extents(self) -> list[tuple[int, int, str]]:
        out = []
        for b in [a for a in self.sboffs if a][:2]:
            out.append((self.off(b), lfsdisk.DLFS_SIZE, "superblock"))
        for a, n in self.psegs:
            out.append((self.off(a), self.bs, "summary"))
            out.append((self.off(a), (1 + n) * self.bs, "log"))
        seen: set[int] = set()

        def visit(ino: int) -> None:
            if ino in seen or len(seen) > 400:
                return
            seen.add(ino)
            try:
                o = self.inode_off(self.daddr(ino), ino)
            except (lfsdisk.LfsError, struct.error):
                return
            out.append((o, lfsdisk.DINODE.size, "inode"))
            d = self.dinode(ino)
            for a in d[DI_IB:DI_IB + NIADDR]:
                if 0 < a < self.sb.size:
                    out.append((self.off(a), self.bs, "indirect"))
            if d[DI_MODE] & IFMT == IFDIR:
                for b in self.dir_blocks(ino):
                    if 0 < b < self.sb.size:
                        out.append((self.off(b), self.bs, "directory"))
                for name, i, _ in self.entries(ino):
                    if name not in (".", ".."):
                        visit(i)
        visit(ROOTINO)
        d = self.dinode(lfsdisk.LFS_IFILE_INUM)
        out.append((self.ifile_inode_off(), lfsdisk.DINODE.size, "inode"))
        for a in d[DI_DB:DI_DB + lfsdisk.NDADDR]:
            if 0 < a < self.sb.size:
                out.append((self.off(a), self.bs, "ifile"))
        return out


# --- the cases --------------------------------------------------------------------


@dataclass
class Case:
    name: str
    layouts: tuple[str, ...]
    apply: Callable[[Path, str], None]
    why: str


CASES: dict[str, Case] = {}


def case(name: str, layouts: tuple[str, ...], why: str):
    def register(fn: Callable[[Path, str], None]):
        CASES[name] = Case(name, layouts, fn, why)
        return fn
    return register


FFSES = ("ffs", "efs")
ALL = LAYOUTS


def inode_edit(img: Path, layout: str, path: str, **fields: int) -> None:
    """Set dinode fields (size, nlink, blocks, mode, db0, ib0...)."""
    if layout == "lfs":
        d = Lfs(img)
        ino = d.lookup(path)
        for k, v in fields.items():
            index = {"size": DI_SIZE, "nlink": DI_NLINK, "blocks": DI_BLOCKS,
                     "mode": DI_MODE}.get(k)
            if index is None:
                kind, i = k[:2], int(k[2:])
                index = (DI_DB if kind == "db" else DI_IB) + i
            d.set_dinode_field(ino, index, v)
        d.save()
        return
    with Ffs(img) as f:
        for k, v in fields.items():
            if k in ("size", "nlink", "blocks", "mode"):
                f.edit_inode(path, **{k: v})
            elif k.startswith("db"):
                f.set_db(path, int(k[2:]), v)
            else:
                f.set_ib(path, int(k[2:]), v)


def fs_blocks(img: Path, layout: str) -> int:
    if layout == "lfs":
        return Lfs(img).sb.size
    with Ffs(img) as f:
        return f.sb.size


# superblock
@case("sb-ncg-zero", FFSES, "fs_ncg 0: no cylinder group to index")
def _(img, layout):
    with Ffs(img) as f:
        f.set_sb("ncg", 0)


@case("sb-ncg-huge", FFSES, "fs_ncg far beyond the disk")
def _(img, layout):
    with Ffs(img) as f:
        f.set_sb("ncg", 0x7fffffff)


@case("sb-bsize-odd", FFSES, "fs_bsize not a power of two")
def _(img, layout):
    with Ffs(img) as f:
        f.set_sb("bsize", 3000)


@case("sb-frag-zero", FFSES, "fs_frag 0 (a divisor)")
def _(img, layout):
    with Ffs(img) as f:
        f.set_sb("frag", 0)


@case("sb-ipg-huge", FFSES, "more inodes per group than the group holds")
def _(img, layout):
    with Ffs(img) as f:
        f.set_sb("ipg", 1 << 24)


@case("sb-cssize-huge", FFSES, "a summary area of a gigabyte")
def _(img, layout):
    with Ffs(img) as f:
        f.set_sb("cssize", 1 << 30)


@case("sb-csaddr-out", FFSES, "the summary area outside the disk")
def _(img, layout):
    with Ffs(img) as f:
        f.set_sb("csaddr", f.sb.size + 1000)


@case("sb-size-huge", FFSES, "fs_size beyond the partition")
def _(img, layout):
    with Ffs(img) as f:
        f.set_sb("size", f.sb.size * 64)


@case("sb-nindir-wrong", FFSES, "fs_nindir that is not bsize / 4")
def _(img, layout):
    with Ffs(img) as f:
        f.set_sb("nindir", 7)


@case("lfs-sb-nseg-huge", ("lfs",), "more segments than the disk holds")
def _(img, layout):
    d = Lfs(img)
    d.set_superblocks(nseg=0x7fffffff)
    d.save()


@case("lfs-sb-idaddr-out", ("lfs",), "the ifile's inode beyond the disk")
def _(img, layout):
    d = Lfs(img)
    d.set_superblocks(idaddr=d.sb.size + 50)
    d.save()


@case("lfs-sb-free-huge", ("lfs",), "the free inode list starts at inode 2^31")
def _(img, layout):
    d = Lfs(img)
    d.set_superblocks(free=0x7fffffff)
    d.save()


@case("lfs-sb-curseg-out", ("lfs",), "the current segment beyond the last")
def _(img, layout):
    d = Lfs(img)
    d.set_superblocks(curseg=d.sb.nseg + 3, nextseg=d.sb.nseg + 4)
    d.save()


@case("lfs-sb-cleansz-huge", ("lfs",), "ifile tables of absurd size")
def _(img, layout):
    d = Lfs(img)
    d.set_superblocks(cleansz=100000, segtabsz=100000)
    d.save()


# cylinder groups
@case("cg-magic", FFSES, "cylinder group 0's magic number wrong")
def _(img, layout):
    with Ffs(img) as f:
        f.set_cg(0, "magic", 0x12345)


@case("cg-offsets-out", FFSES, "the maps of group 0 outside its block")
def _(img, layout):
    with Ffs(img) as f:
        f.set_cg(0, "freeoff", 0x7ffffff0)
        f.set_cg(0, "iusedoff", -4096)


@case("cg-counts-negative", FFSES, "negative free counts and rotors")
def _(img, layout):
    with Ffs(img) as f:
        for c in range(f.sb.ncg):
            f.set_cg(c, "cs_nbfree", -5)
            f.set_cg(c, "rotor", 0x7fffffff)
            f.set_cg(c, "irotor", -77)
            f.set_cg(c, "frotor", 1 << 28)


@case("cg-cgx-wrong", FFSES, "group 1 says it is group 0")
def _(img, layout):
    with Ffs(img) as f:
        f.set_cg(1, "cgx", 0)


# inode sizes
for _size, _label in ((2**31 - 1, "2g"), (2**63 - 1, "huge")):
    def _dirsize(img, layout, size=_size):
        inode_edit(img, layout, "/a", size=size)
    case(f"dir-size-{_label}", ALL,
         f"a directory's size {_size}: its lookup must not walk it")(_dirsize)

    def _rootsize(img, layout, size=_size):
        inode_edit(img, layout, "/", size=size)
    case(f"root-size-{_label}", ALL,
         f"the root directory's size {_size}")(_rootsize)

    def _filesize(img, layout, size=_size):
        inode_edit(img, layout, "/a/small", size=size)
    case(f"file-size-{_label}", ALL,
         f"a 100-byte file's size {_size}")(_filesize)


@case("dir-size-odd", ALL, "a directory's size not a multiple of 512")
def _(img, layout):
    inode_edit(img, layout, "/many", size=700)


@case("dir-size-zero", ALL, "a directory's size 0 (no '.' or '..')")
def _(img, layout):
    inode_edit(img, layout, "/a/b", size=0)


@case("symlink-size-huge", ALL, "a short symlink's size 2^31 - 1")
def _(img, layout):
    inode_edit(img, layout, "/link", size=2**31 - 1)


# block pointers
@case("root-db0-negative", ALL,
      "the root directory's first block pointer with its top byte "
      "corrupted (negative)")
def _(img, layout):
    if layout == "lfs":
        db0 = Lfs(img).dinode(ROOTINO)[DI_DB]
    else:
        with Ffs(img) as f:
            db0 = f.inode(2).db[0]
    inode_edit(img, layout, "/", db0=db0 - (1 << 31))


@case("root-db0-minus5", ALL, "the root directory's first block pointer -5")
def _(img, layout):
    inode_edit(img, layout, "/", db0=-5)


@case("root-db0-out", ALL, "the root directory's first block beyond the end")
def _(img, layout):
    inode_edit(img, layout, "/", db0=fs_blocks(img, layout) + 1000)


@case("file-db-negative", ALL, "a file's direct pointers -1 and -100000")
def _(img, layout):
    inode_edit(img, layout, "/single", db0=-1, db5=-100000)


@case("file-db-out", ALL, "a file's direct pointers beyond the end")
def _(img, layout):
    n = fs_blocks(img, layout)
    inode_edit(img, layout, "/a/frag", db0=n + 8, db1=0x7fffff00)


@case("file-ib-negative", ALL, "a file's single indirect pointer negative")
def _(img, layout):
    inode_edit(img, layout, "/single", ib0=-12345)


@case("file-ib-out", ALL, "a file's double indirect pointer beyond the end")
def _(img, layout):
    inode_edit(img, layout, "/double", ib1=fs_blocks(img, layout) + 77)


@case("indirect-entries-bad", FFSES,
      "pointers in an indirect block negative and out of range")
def _(img, layout):
    with Ffs(img) as f:
        f.set_indirect("/single", 0, 0, -7)
        f.set_indirect("/single", 0, 3, f.sb.size + 5)
        f.set_indirect("/double", 1, 0, -1)


@case("file-db-metadata", FFSES,
      "a file's block pointer at the superblock and a cylinder group")
def _(img, layout):
    with Ffs(img) as f:
        f.set_db("/a/frag", 0, f.sb.sblkno)
        f.set_db("/single", 2, f.cgtod(0))


# link counts and modes
@case("nlink-zero", ALL, "a named file with link count 0")
def _(img, layout):
    inode_edit(img, layout, "/a/small", nlink=0)


@case("nlink-dir-one", ALL, "a directory with link count 1")
def _(img, layout):
    inode_edit(img, layout, "/a", nlink=1)


@case("nlink-huge", ALL, "a file with link count 32767")
def _(img, layout):
    inode_edit(img, layout, "/a/frag", nlink=32767)


@case("mode-dir-as-file", ALL, "a directory whose mode says regular file")
def _(img, layout):
    inode_edit(img, layout, "/a/b", mode=IFREG | 0o644)


@case("mode-file-as-dir", ALL, "a file whose mode says directory")
def _(img, layout):
    inode_edit(img, layout, "/a/frag", mode=IFDIR | 0o755)


@case("mode-device-garbage", ALL,
      "a file turned into a character device with major 200")
def _(img, layout):
    inode_edit(img, layout, "/a/small", mode=0o020644, db0=(200 << 8) | 7)


@case("blocks-wrong", ALL, "a file's di_blocks far too large and negative")
def _(img, layout):
    inode_edit(img, layout, "/single", blocks=0x7ffffff0)
    inode_edit(img, layout, "/a/small", blocks=-8)


# directory entries
def dirent_edit(img: Path, layout: str, dirpath: str, name: str,
                **fields: int) -> None:
    if layout == "lfs":
        d = Lfs(img)
        d.set_dirent(dirpath, name, **fields)
        d.save()
        return
    with Ffs(img) as f:
        f.set_dirent(dirpath, name, **fields)


@case("dirent-reclen-zero", ALL, "a directory entry of length 0")
def _(img, layout):
    dirent_edit(img, layout, "/a", "small", reclen=0)


@case("dirent-reclen-long", ALL, "an entry running past its 512-byte chunk")
def _(img, layout):
    dirent_edit(img, layout, "/a", "frag", reclen=4000)


@case("dirent-reclen-odd", ALL, "an entry length not a multiple of 4")
def _(img, layout):
    dirent_edit(img, layout, "/", "link", reclen=13)


@case("dirent-namlen-long", ALL, "a name longer than its entry")
def _(img, layout):
    dirent_edit(img, layout, "/a", "b", namlen=200)


@case("dirent-ino-huge", ALL, "an entry naming inode 2^31")
def _(img, layout):
    dirent_edit(img, layout, "/a", "small", ino=0x80000000)


@case("dirent-ino-free", ALL, "an entry naming an unused inode")
def _(img, layout):
    dirent_edit(img, layout, "/a", "small", ino=200)


@case("dirent-dot-zero", ALL, "'.' naming inode 0")
def _(img, layout):
    dirent_edit(img, layout, "/a/b", ".", ino=0)


@case("dirent-dotdot-file", ALL, "'..' naming a regular file")
def _(img, layout):
    target = (Lfs(img).lookup("/a/small") if layout == "lfs" else
              FFSImage(str(img)).lookup("/a/small"))
    dirent_edit(img, layout, "/a/b", "..", ino=target)


@case("dirent-loop", ALL, "a subdirectory entry naming the root (a loop)")
def _(img, layout):
    dirent_edit(img, layout, "/a/b", "c", ino=2)


# LFS: summaries and the ifile
def lfs_last_summary(d: Lfs) -> int:
    return max(d.psegs)[0]


@case("lfs-summary-counts", ("lfs",),
      "the last partial segment's FINFO and inode counts huge")
def _(img, layout):
    d = Lfs(img)
    d.set_field(d.off(lfs_last_summary(d)), lfsdisk.SEGSUM_FIELDS,
                nfinfo=0xffff, ninos=0xffff)
    d.save()


@case("lfs-summary-finfo", ("lfs",),
      "a FINFO naming inode 2^31 with 30000 blocks")
def _(img, layout):
    d = Lfs(img)
    for a, _ in d.psegs:
        if lfsdisk.parse_summary(d.sb, d.disk.block(a)).nfinfo > 0:
            d.set_field(d.off(a) + lfsdisk.SEGSUM.size, lfsdisk.FINFO_FIELDS,
                        nblocks=30000, version=1, ino=0x80000000)
            break
    d.save()


@case("lfs-summary-next", ("lfs",), "every summary's next segment beyond the end")
def _(img, layout):
    d = Lfs(img)
    for a, _ in d.psegs:
        d.set_field(d.off(a), lfsdisk.SEGSUM_FIELDS, next=0xfffffff0)
    d.save()


@case("lfs-ifile-daddr-out", ("lfs",),
      "an inode's ifile entry pointing beyond the disk")
def _(img, layout):
    d = Lfs(img)
    d.set_field(d.entry_off(d.lookup("/a/small")), lfsdisk.IFILE_FIELDS,
                daddr=d.sb.size + 99)
    d.save()


@case("lfs-ifile-daddr-wrong", ("lfs",),
      "an inode's ifile entry pointing at a data block")
def _(img, layout):
    d = Lfs(img)
    data = d.dinode(d.lookup("/single"))[DI_DB]
    d.set_field(d.entry_off(d.lookup("/a/frag")), lfsdisk.IFILE_FIELDS,
                daddr=data)
    d.save()


@case("lfs-ifile-freelist-loop", ("lfs",),
      "the free inode list looping back to an inode in use")
def _(img, layout):
    d = Lfs(img)
    head = d.sb.free
    used = d.lookup("/a/small")
    d.set_field(d.entry_off(head), lfsdisk.IFILE_FIELDS, nextfree=used)
    d.set_field(d.entry_off(used), lfsdisk.IFILE_FIELDS, nextfree=head)
    d.save()


@case("lfs-seguse-garbage", ("lfs",),
      "segment usage entries with huge byte counts and every flag")
def _(img, layout):
    d = Lfs(img)
    for sn in range(d.sb.nseg):
        d.set_field(d.seguse_off(sn), lfsdisk.SEGUSE_FIELDS,
                    nbytes=0xfffffff0, lastmod=0, nsums=0xffff, ninos=0xffff,
                    flags=0xff)
    d.save()


# --- random damage -------------------------------------------------------------

INTERESTING = (0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 0xfffffffe,
               0x1000, 0x10000)


def damage_random(img: Path, layout: str, seed: int) -> list[str]:
    """A few changes in the metadata in use, chosen by seed; returns what
    was done, one line each."""
    rng = random.Random(seed)
    if layout == "lfs":
        d = Lfs(img)
        extents = d.metadata_extents()
        data = d.data
    else:
        f = Ffs(img)
        extents = f.metadata_extents()
        f.close()
        data = bytearray(img.read_bytes())
    kinds: dict[str, list[tuple[int, int, str]]] = {}
    for e in extents:
        kinds.setdefault(e[2], []).append(e)
    done = []
    for _ in range(rng.randint(1, 6)):
        # A kind first, so 150 inodes do not drown one superblock.
        off, length, what = rng.choice(kinds[rng.choice(sorted(kinds))])
        if what == "inode" and rng.random() < 0.7:
            # mode, nlink, size, block pointers, di_blocks (not times)
            pos = off + rng.choice((0, 2, 8, 12, 15)) if rng.random() < 0.3 \
                else off + 40 + rng.randrange(68)
        else:
            pos = off + rng.randrange(length)
        kind = rng.choice(("byte", "bit", "word"))
        if kind == "byte":
            data[pos] = rng.randrange(256)
        elif kind == "bit":
            data[pos] ^= 1 << rng.randrange(8)
        else:
            pos -= pos % 4
            v = rng.choice(INTERESTING) if rng.random() < 0.7 else \
                rng.randrange(1 << 32)
            struct.pack_into("<I", data, pos, v)
        done.append(f"{kind} at {pos} ({what})")
        if layout == "lfs" and rng.random() < 0.8:
            d.resum(pos // d.bs)
    if layout == "lfs":
        d.save()
    else:
        img.write_bytes(bytes(data))
    return done


def make_case(layout: str, name: str, out: Path) -> None:
    c = CASES[name]
    if layout not in c.layouts:
        raise ValueError(f"case {name} is not for {layout}")
    copy_base(layout, out)
    c.apply(out, layout)


def make_random(layout: str, seed: int, out: Path) -> list[str]:
    copy_base(layout, out)
    return damage_random(out, layout, seed)


def cases_for(layout: str) -> list[str]:
    return [n for n, c in CASES.items() if layout in c.layouts]


# --- a scratch disk of several images --------------------------------------------

LABEL = struct.Struct("<IHH16s16sIIIIIIHHIHH")
PART = struct.Struct("<IIIBBH")
PARTS = "abdefgh"               # 'c' is the whole disk


def assemble(images: list[Path], out: Path) -> list[str]:
    """One disk holding the images in partitions a, b, d..h, with a label;
    returns the partition letter of each."""
    assert len(images) <= len(PARTS)
    start = 64
    parts: dict[str, tuple[int, int]] = {}
    with open(out, "wb") as f:
        for img, letter in zip(images, PARTS):
            size = img.stat().st_size // SECTOR
            parts[letter] = (start, size)
            with open(img, "rb") as src:
                f.seek(start * SECTOR)
                shutil.copyfileobj(src, f, 1 << 20)
            start += size
        total = start + 64
        f.truncate(total * SECTOR)
        npart = 8
        table = []
        for i in range(npart):
            letter = "abcdefgh"[i]
            if letter == "c":
                table.append((total, 0, 0, 0, 0, 0))
            elif letter in parts:
                off, size = parts[letter]
                table.append((size, off, 1024, 7, 4, 16))
            else:
                table.append((0, 0, 0, 0, 0, 0))
        label = bytearray(LABEL.pack(
            0x82564557, 4, 0, b"damaged", b"damage.py", SECTOR, 32, 16,
            total // 512, 512, total, 3600, 1, 0x82564557, 0, npart))
        for t in table:
            label += PART.pack(*t)
        s = 0
        for (w,) in struct.iter_unpack("<H", bytes(label)):
            s ^= w
        struct.pack_into("<H", label, 72, s)
        f.seek(SECTOR)
        f.write(bytes(label))
    return [PARTS[i] for i in range(len(images))]


# --- the checkers on the host ------------------------------------------------

def fsck_tool(layout: str) -> str:
    return "fsck_lfs" if layout == "lfs" else "fsck_ffs"


def run_fsck(layout: str, img: Path, *opts: str,
             timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(HOST / fsck_tool(layout)), *opts, str(img)],
                          capture_output=True, text=True, errors="replace",
                          timeout=timeout,
                          stdin=subprocess.DEVNULL)


def repair_verdict(layout: str, img: Path) -> str | None:
    """fsck -y then fsck -n: None if the file system is repaired and found
    clean, or if -y said it could not repair it; else what went wrong."""
    y = run_fsck(layout, img, "-y")
    if y.returncode < 0:
        return f"fsck -y died with signal {-y.returncode}\n{y.stdout[-2000:]}"
    if y.returncode != 0:
        if not (y.stdout + y.stderr).strip():
            return f"fsck -y exited {y.returncode} without a word"
        return None
    n = run_fsck(layout, img, "-n")
    if n.returncode != 0:
        return (f"fsck -y exited 0, then fsck -n exited {n.returncode}:\n"
                f"--- fsck -y:\n{y.stdout[-3000:]}\n"
                f"--- fsck -n:\n{n.stdout[-3000:]}{n.stderr[-500:]}")
    if layout == "lfs" and not n.stdout.rstrip().endswith("0 problems"):
        return f"fsck_lfs -n after -y:\n{n.stdout[-3000:]}"
    return None


def main(argv: list[str]) -> int:
    if len(argv) >= 1 and argv[0] == "list":
        for n, c in CASES.items():
            print(f"{n:28} {','.join(c.layouts):12} {c.why}")
        return 0
    if len(argv) == 4 and argv[0] == "make":
        make_case(argv[1], argv[2], Path(argv[3]))
        return 0
    if len(argv) == 4 and argv[0] == "random":
        for line in make_random(argv[1], int(argv[2], 0), Path(argv[3])):
            print(line)
        return 0
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
