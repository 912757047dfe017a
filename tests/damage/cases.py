"""The targeted damages (CASES), each a function of (image, layout)
registered with @case(name, layouts, why): superblock fields,
cylinder-group headers, inode sizes, block pointers negative and out of
range, link counts, directory entries, LFS summaries and ifile entries."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from qemu import lfsdisk
from qemu.lfsdisk import DI_DB
from tests.damage.base import LAYOUTS
from tests.damage.edit import Ffs, Lfs, fs_blocks, inode_edit
from tests.ffsimage import IFDIR, IFREG, ROOTINO, FFSImage


@dataclass
class Case:
    name: str
    layouts: tuple[str, ...]
    apply: Callable[[Path, str], None]
    why: str
    refused: str = ""   # why fsck -y may only say it cannot repair it


CASES: dict[str, Case] = {}


def case(name: str, layouts: tuple[str, ...], why: str, refused: str = ""):
    def register(fn: Callable[[Path, str], None]):
        CASES[name] = Case(name, layouts, fn, why, refused)
        return fn
    return register


FFSES = ("ffs", "efs")
SB_REFUSED = "the superblock: fsck_ffs names the copy to use (-b 32)"
ALL = LAYOUTS


def sb_case(name: str, why: str, field: str, value: int) -> None:
    """A case on FFS and EFS that sets one superblock field."""
    def apply(img: Path, layout: str) -> None:
        with Ffs(img) as f:
            f.set_sb(field, value)
    case(name, FFSES, why, refused=SB_REFUSED)(apply)


def lfs_sb_case(name: str, why: str, **fields: int) -> None:
    """A case on LFS that sets fields of both superblocks."""
    def apply(img: Path, layout: str) -> None:
        d = Lfs(img)
        d.set_superblocks(**fields)
        d.save()
    case(name, ("lfs",), why, refused="every superblock copy")(apply)


def inode_case(name: str, why: str, path: str, **fields: int) -> None:
    """A case on every layout that sets fields of path's inode."""
    case(name, ALL, why)(lambda img, layout: inode_edit(img, layout, path, **fields))


def dirent_case(name: str, why: str, dirpath: str, entry: str, **fields: int) -> None:
    """A case on every layout that sets fields of dirpath's entry."""
    case(name, ALL, why)(lambda img, layout: dirent_edit(img, layout, dirpath, entry, **fields))


# superblock
sb_case("sb-ncg-zero", "fs_ncg 0: no cylinder group to index", "ncg", 0)
sb_case("sb-ncg-huge", "fs_ncg far beyond the disk", "ncg", 0x7fffffff)
sb_case("sb-bsize-odd", "fs_bsize not a power of two", "bsize", 3000)
sb_case("sb-frag-zero", "fs_frag 0 (a divisor)", "frag", 0)
sb_case("sb-ipg-huge", "more inodes per group than the group holds",
        "ipg", 1 << 24)
sb_case("sb-cssize-huge", "a summary area of a gigabyte", "cssize", 1 << 30)


@case("sb-csaddr-out", FFSES, "the summary area outside the disk",
      refused=SB_REFUSED)
def _(img, layout):
    with Ffs(img) as f:
        f.set_sb("csaddr", f.sb.size + 1000)


@case("sb-size-huge", FFSES, "fs_size beyond the partition",
      refused=SB_REFUSED)
def _(img, layout):
    with Ffs(img) as f:
        f.set_sb("size", f.sb.size * 64)


sb_case("sb-nindir-wrong", "fs_nindir that is not bsize / 4", "nindir", 7)


lfs_sb_case("lfs-sb-nseg-huge", "more segments than the disk holds",
            nseg=0x7fffffff)


@case("lfs-sb-idaddr-out", ("lfs",), "the ifile's inode beyond the disk",
      refused="every superblock copy")
def _(img, layout):
    d = Lfs(img)
    d.set_superblocks(idaddr=d.sb.size + 50)
    d.save()


lfs_sb_case("lfs-sb-free-huge", "the free inode list starts at inode 2^31",
            free=0x7fffffff)


@case("lfs-sb-curseg-out", ("lfs",), "the current segment beyond the last",
      refused="every superblock copy")
def _(img, layout):
    d = Lfs(img)
    d.set_superblocks(curseg=d.sb.nseg + 3, nextseg=d.sb.nseg + 4)
    d.save()


lfs_sb_case("lfs-sb-cleansz-huge", "ifile tables of absurd size",
            cleansz=100000, segtabsz=100000)


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


inode_case("dir-size-odd", "a directory's size not a multiple of 512",
           "/many", size=700)
inode_case("dir-size-zero", "a directory's size 0 (no '.' or '..')",
           "/a/b", size=0)
inode_case("symlink-size-huge", "a short symlink's size 2^31 - 1",
           "/link", size=2**31 - 1)


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


inode_case("root-db0-minus5", "the root directory's first block pointer -5",
           "/", db0=-5)


@case("root-db0-out", ALL, "the root directory's first block beyond the end")
def _(img, layout):
    inode_edit(img, layout, "/", db0=fs_blocks(img, layout) + 1000)


inode_case("file-db-negative", "a file's direct pointers -1 and -100000",
           "/single", db0=-1, db5=-100000)


@case("file-db-out", ALL, "a file's direct pointers beyond the end")
def _(img, layout):
    n = fs_blocks(img, layout)
    inode_edit(img, layout, "/a/frag", db0=n + 8, db1=0x7fffff00)


inode_case("file-ib-negative", "a file's single indirect pointer negative",
           "/single", ib0=-12345)


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
inode_case("nlink-zero", "a named file with link count 0", "/a/small", nlink=0)
inode_case("nlink-dir-one", "a directory with link count 1", "/a", nlink=1)
inode_case("nlink-huge", "a file with link count 32767",
           "/a/frag", nlink=32767)
inode_case("mode-dir-as-file", "a directory whose mode says regular file",
           "/a/b", mode=IFREG | 0o644)
inode_case("mode-file-as-dir", "a file whose mode says directory",
           "/a/frag", mode=IFDIR | 0o755)


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


def dirent_rename(img: Path, layout: str, dirpath: str, name: str,
                  new: bytes) -> None:
    if layout == "lfs":
        d = Lfs(img)
        d.rename_dirent(dirpath, name, new)
        d.save()
        return
    with Ffs(img) as f:
        f.rename_dirent(dirpath, name, new)


dirent_case("dirent-reclen-zero", "a directory entry of length 0",
            "/a", "small", reclen=0)
dirent_case("dirent-reclen-long", "an entry running past its 512-byte chunk",
            "/a", "frag", reclen=4000)
dirent_case("dirent-reclen-odd", "an entry length not a multiple of 4",
            "/", "link", reclen=13)
dirent_case("dirent-namlen-long", "a name longer than its entry",
            "/a", "b", namlen=200)
dirent_case("dirent-ino-huge", "an entry naming inode 2^31",
            "/a", "small", ino=0x80000000)
dirent_case("dirent-ino-free", "an entry naming an unused inode",
            "/a", "small", ino=200)
dirent_case("dirent-dot-zero", "'.' naming inode 0", "/a/b", ".", ino=0)


@case("dirent-dotdot-file", ALL, "'..' naming a regular file")
def _(img, layout):
    target = (Lfs(img).lookup("/a/small") if layout == "lfs" else
              FFSImage(str(img)).lookup("/a/small"))
    dirent_edit(img, layout, "/a/b", "..", ino=target)


@case("dirent-dot-name", ALL, "the first entry not '.' (its name damaged)")
def _(img, layout):
    dirent_rename(img, layout, "/a/b", ".", b"#")


@case("dirent-dotdot-name", ALL,
      "the second entry not '..' (its name damaged)")
def _(img, layout):
    dirent_rename(img, layout, "/a/b", "..", b">")


dirent_case("dirent-loop", "a subdirectory entry naming the root (a loop)",
            "/a/b", "c", ino=2)


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


@case("lfs-summary-next", ("lfs",),
      "every summary's next segment beyond the end: every segment emptied")
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
