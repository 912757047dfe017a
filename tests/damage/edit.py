"""The image editors the damage cases use: Ffs (tests/ffsimage.py's
FFSImage, writable) and Lfs (tests/host/tools.py's LfsImage, whose format
is qemu/lfsdisk.py's; an edit reseals its partial segment), and
inode_edit for either."""
from __future__ import annotations

import struct
from pathlib import Path

from qemu import lfsdisk
from qemu.lfsdisk import DI_BLOCKS, DI_DB, DI_IB, DI_MODE, DI_NLINK, DI_SIZE
from tests.ffsimage import (CG_FIELDS, DINODE_SIZE, DIRECT, FS_FIELDS, IFDIR,
                            IFMT, NIADDR, ROOTINO, SBOFF, FFSImage)
from tests.host.tools import LfsImage


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

    def rename_dirent(self, dirpath: str, name: str, new: bytes) -> None:
        """Overwrite the first bytes of an entry's name (its length kept)."""
        e = self.dirent(dirpath, name)
        self.pwrite(e.offset - self.offset + DIRECT.size, new)

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

    def rename_dirent(self, dirpath: str, name: str, new: bytes) -> None:
        """Overwrite the first bytes of an entry's name (its length kept)."""
        for n, _, o in self.entries(self.lookup(dirpath)):
            if n == name:
                o += 8          # d_ino, d_reclen, d_type, d_namlen
                self.data[o:o + len(new)] = new
                self.resum(o // self.bs)
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
