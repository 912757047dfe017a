"""Read, and patch, an FFS/EFS disk image from the host.

The layouts below mirror sys/ufs/fs.h, sys/ufs/dinode.h and sys/ufs/dir.h
(test_ffs_tools.py checks them against the C headers).  Tests use this to
look at what the guest or newfs wrote without booting anything, and to
damage an image on purpose before running fsck_ffs.

    img = FFSImage("disk.img")
    img.listdir("/")                 -> ['bin', 'etc', 'lost+found']
    img.read_file("/etc/motd")      -> b'...'
    ino = img.lookup("/etc/motd"); di = img.inode(ino); di.nlink
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import BinaryIO

SBOFF = 8192
SBSIZE = 8192
FS_MAGIC = 0x011954
CG_MAGIC = 0x090255
FS_EFS = 0x01
NDADDR = 12
NIADDR = 3
MAXSYMLINKLEN = (NDADDR + NIADDR) * 4
DINODE_SIZE = 128
DIRBLKSIZ = 512
ROOTINO = 2
LOSTFOUNDINO = 3

IFMT = 0o170000
IFIFO = 0o010000
IFCHR = 0o020000
IFDIR = 0o040000
IFBLK = 0o060000
IFREG = 0o100000
IFLNK = 0o120000
IFSOCK = 0o140000

DT_DIR = 4
DT_REG = 8
DT_LNK = 10
DT_CHR = 2
DT_BLK = 6

# struct fs: name -> (byte offset, struct format)
FS_FIELDS: dict[str, tuple[int, str]] = {}
for _i, _name in enumerate(
        "sblkno cblkno iblkno dblkno time size dsize ncg bsize fsize frag "
        "minfree rotdelay rps bmask fmask bshift fshift maxcontig maxbpg "
        "fragshift fsbtodb sbsize nindir inopb optim".split()):
    FS_FIELDS[_name] = (4 * _i, "<i")
FS_FIELDS.update({
    "id0": (104, "<i"), "id1": (108, "<i"),
    "csaddr": (112, "<i"), "cssize": (116, "<i"), "cgsize": (120, "<i"),
    "ntrak": (124, "<i"), "nsect": (128, "<i"), "spc": (132, "<i"),
    "ncyl": (136, "<i"), "cpg": (140, "<i"), "ipg": (144, "<i"),
    "fpg": (148, "<i"),
    "cs_ndir": (152, "<i"), "cs_nbfree": (156, "<i"),
    "cs_nifree": (160, "<i"), "cs_nffree": (164, "<i"),
    "fmod": (168, "<b"), "clean": (169, "<b"), "ronly": (170, "<b"),
    "flags": (171, "<B"),
    "cgrotor": (300, "<i"), "contigsumsize": (304, "<i"),
    "maxsymlinklen": (308, "<i"), "maxfilesize": (312, "<q"),
    "magic": (1020, "<i"),
})
FS_SIZE = 1024
FSMNT_OFFSET = 172

# struct cg: name -> byte offset (all int32)
CG_FIELDS: dict[str, int] = {
    "magic": 0, "time": 4, "cgx": 8, "ncyl": 12, "niblk": 16, "ndblk": 20,
    "cs_ndir": 24, "cs_nbfree": 28, "cs_nifree": 32, "cs_nffree": 36,
    "rotor": 40, "frotor": 44, "irotor": 48, "iusedoff": 84,
    "freeoff": 88, "nextfreeoff": 92, "clustersumoff": 96,
    "clusteroff": 100, "nclusterblks": 104,
}
CG_FRSUM_OFFSET = 52
CG_SIZE = 128

DINODE_FMT = "<HhIQiiiiii12i3iIiiII2i"
# struct direct's header (d_ino, d_reclen, d_type, d_namlen); the name follows
DIRECT = struct.Struct("<IHBB")


@dataclass
class Dinode:
    """struct dinode, 128 bytes."""
    mode: int = 0
    nlink: int = 0
    inumber: int = 0
    size: int = 0
    atime: int = 0
    atimensec: int = 0
    mtime: int = 0
    mtimensec: int = 0
    ctime: int = 0
    ctimensec: int = 0
    db: list[int] = field(default_factory=lambda: [0] * NDADDR)
    ib: list[int] = field(default_factory=lambda: [0] * NIADDR)
    flags: int = 0
    blocks: int = 0
    gen: int = 0
    uid: int = 0
    gid: int = 0
    spare: list[int] = field(default_factory=lambda: [0, 0])

    @classmethod
    def unpack(cls, raw: bytes) -> "Dinode":
        v = struct.unpack(DINODE_FMT, raw)
        return cls(mode=v[0], nlink=v[1], inumber=v[2], size=v[3],
                   atime=v[4], atimensec=v[5], mtime=v[6], mtimensec=v[7],
                   ctime=v[8], ctimensec=v[9], db=list(v[10:22]),
                   ib=list(v[22:25]), flags=v[25], blocks=v[26], gen=v[27],
                   uid=v[28], gid=v[29], spare=list(v[30:32]))

    def pack(self) -> bytes:
        return struct.pack(DINODE_FMT, self.mode, self.nlink, self.inumber,
                           self.size, self.atime, self.atimensec, self.mtime,
                           self.mtimensec, self.ctime, self.ctimensec,
                           *self.db, *self.ib, self.flags, self.blocks,
                           self.gen, self.uid, self.gid, *self.spare)

    @property
    def ftype(self) -> int:
        return self.mode & IFMT

    @property
    def rdev(self) -> int:
        return self.db[0] & 0xffffffff

    @property
    def shortlink(self) -> bytes:
        raw = struct.pack("<15i", *self.db, *self.ib)
        return raw[:self.size]


@dataclass
class DirEntry:
    name: str
    ino: int
    type: int
    reclen: int
    offset: int          # byte offset of the entry in the image file


class Superblock:
    """struct fs, fields named without the fs_ prefix."""

    def __init__(self, raw: bytes):
        self.raw = raw
        for name, (off, fmt) in FS_FIELDS.items():
            setattr(self, name, struct.unpack_from(fmt, raw, off)[0])
        self.fsmnt = raw[FSMNT_OFFSET:FSMNT_OFFSET + 128].split(b"\0")[0]

    @property
    def efs(self) -> bool:
        return bool(self.flags & FS_EFS)


class FFSImage:
    def __init__(self, path: str, offset: int = 0, sbsector: int = 16,
                 writable: bool = False):
        self.path = path
        self.offset = offset
        self.f: BinaryIO = open(path, "r+b" if writable else "rb")
        self.sb = Superblock(self.pread(sbsector * 512, SBSIZE))
        if self.sb.magic != FS_MAGIC:
            raise ValueError(f"{path}: no FFS superblock at sector "
                             f"{sbsector} (magic {self.sb.magic:#x})")

    def close(self) -> None:
        self.f.close()

    def __enter__(self) -> "FFSImage":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- raw access ---------------------------------------------------
    def pread(self, off: int, n: int) -> bytes:
        self.f.seek(self.offset + off)
        data = self.f.read(n)
        return data + b"\0" * (n - len(data))

    def pwrite(self, off: int, data: bytes) -> None:
        self.f.seek(self.offset + off)
        self.f.write(data)
        self.f.flush()

    def frag_offset(self, frag: int) -> int:
        return frag * self.sb.fsize

    # --- geometry, as the macros of fs.h ------------------------------
    def cgbase(self, c: int) -> int:
        return self.sb.fpg * c

    def cgsblock(self, c: int) -> int:
        return self.cgbase(c) + self.sb.sblkno

    def cgtod(self, c: int) -> int:
        return self.cgbase(c) + self.sb.cblkno

    def cgimin(self, c: int) -> int:
        return self.cgbase(c) + self.sb.iblkno

    def cgdmin(self, c: int) -> int:
        return self.cgbase(c) + self.sb.dblkno

    def backup_sectors(self) -> list[int]:
        return [self.cgsblock(c) << self.sb.fsbtodb
                for c in range(self.sb.ncg)]

    def sblksize(self, size: int, lbn: int) -> int:
        sb = self.sb
        if lbn >= NDADDR or size >= (lbn + 1) * sb.bsize:
            return sb.bsize
        off = size % sb.bsize
        return (off + sb.fsize - 1) // sb.fsize * sb.fsize

    # --- inodes -------------------------------------------------------
    def inode_offset(self, ino: int) -> int:
        sb = self.sb
        c, i = divmod(ino, sb.ipg)
        fsba = self.cgimin(c) + (i // sb.inopb) * sb.frag
        return self.frag_offset(fsba) + (ino % sb.inopb) * DINODE_SIZE

    def inode(self, ino: int) -> Dinode:
        return Dinode.unpack(self.pread(self.inode_offset(ino), DINODE_SIZE))

    def write_inode(self, ino: int, di: Dinode) -> None:
        self.pwrite(self.inode_offset(ino), di.pack())

    def _indirect(self, frag: int) -> list[int]:
        n = self.sb.nindir
        return list(struct.unpack(f"<{n}i",
                                  self.pread(self.frag_offset(frag),
                                             self.sb.bsize)))

    def bmap(self, di: Dinode, lbn: int) -> int:
        """Fragment address of logical block lbn, 0 for a hole."""
        if lbn < NDADDR:
            return di.db[lbn]
        lbn -= NDADDR
        nindir = self.sb.nindir
        span = 1
        for level in range(NIADDR):
            if lbn < span * nindir:
                break
            lbn -= span * nindir
            span *= nindir
        else:
            raise ValueError("block beyond triple indirect")
        addr = di.ib[level]
        while True:
            if addr == 0:
                return 0
            idx, lbn = divmod(lbn, span)
            addr = self._indirect(addr)[idx]
            if span == 1:
                return addr
            span //= nindir

    def read(self, di: Dinode, offset: int = 0,
             length: int | None = None) -> bytes:
        """File contents; holes read as zeros."""
        end = di.size if length is None else min(di.size, offset + length)
        out = bytearray()
        bsize = self.sb.bsize
        pos = offset
        while pos < end:
            lbn, boff = divmod(pos, bsize)
            n = min(bsize - boff, end - pos)
            addr = self.bmap(di, lbn)
            if addr == 0:
                out += b"\0" * n
            else:
                out += self.pread(self.frag_offset(addr) + boff, n)
            pos += n
        return bytes(out)

    # --- directories ----------------------------------------------------
    def entries(self, ino: int, include_empty: bool = False
                ) -> list[DirEntry]:
        di = self.inode(ino)
        if di.ftype != IFDIR:
            raise NotADirectoryError(f"inode {ino}")
        out = []
        bsize = self.sb.bsize
        for lbn in range((di.size + bsize - 1) // bsize):
            addr = self.bmap(di, lbn)
            size = min(bsize, di.size - lbn * bsize)
            base = self.frag_offset(addr)
            data = self.pread(base, size)
            pos = 0
            while pos < size:
                d_ino, reclen, d_type, namlen = DIRECT.unpack_from(data, pos)
                if reclen == 0:
                    raise ValueError(f"directory {ino}: zero reclen")
                name = data[pos + DIRECT.size:pos + DIRECT.size + namlen
                            ].decode("utf-8", "replace")
                if d_ino != 0 or include_empty:
                    out.append(DirEntry(name, d_ino, d_type, reclen,
                                        self.offset + base + pos))
                pos += reclen
        return out

    def lookup(self, path: str) -> int:
        ino = ROOTINO
        for comp in [c for c in path.split("/") if c]:
            for e in self.entries(ino):
                if e.name == comp:
                    ino = e.ino
                    break
            else:
                raise FileNotFoundError(path)
        return ino

    def set_entry(self, e: DirEntry, **fields: int) -> None:
        """Change the header fields of entry e on the disk (ino, reclen,
        type, namlen), nothing else: to damage it on purpose."""
        off = e.offset - self.offset
        header = dict(zip(("ino", "reclen", "type", "namlen"),
                          DIRECT.unpack(self.pread(off, DIRECT.size))))
        header.update(fields)
        self.pwrite(off, DIRECT.pack(*header.values()))

    def listdir(self, path: str = "/") -> list[str]:
        return sorted(e.name for e in self.entries(self.lookup(path))
                      if e.name not in (".", ".."))

    def read_file(self, path: str, offset: int = 0,
                  length: int | None = None) -> bytes:
        return self.read(self.inode(self.lookup(path)), offset, length)

    def readlink(self, path: str) -> str:
        di = self.inode(self.lookup(path))
        if di.ftype != IFLNK:
            raise ValueError(f"{path}: not a symlink")
        if di.size < self.sb.maxsymlinklen:
            return di.shortlink.decode()
        return self.read(di).decode()

    # --- cylinder groups ----------------------------------------------
    def cg_offset(self, c: int) -> int:
        return self.frag_offset(self.cgtod(c))

    def cg(self, c: int) -> dict[str, object]:
        raw = self.pread(self.cg_offset(c), self.sb.cgsize)
        cg: dict[str, object] = {name: struct.unpack_from("<i", raw, off)[0]
                                 for name, off in CG_FIELDS.items()}
        cg["frsum"] = list(struct.unpack_from("<8i", raw, CG_FRSUM_OFFSET))
        cg["raw"] = raw
        return cg

    def frag_is_free(self, frag: int) -> bool:
        c, d = divmod(frag, self.sb.fpg)
        cg = self.cg(c)
        raw = cg["raw"]
        assert isinstance(raw, bytes)
        byte = raw[int(cg["freeoff"]) + d // 8]  # type: ignore[arg-type]
        return bool(byte & (1 << (d % 8)))

    def set_frag_free(self, frag: int, free: bool) -> None:
        """Flip one bit of a fragment map, nothing else (to damage it)."""
        c, d = divmod(frag, self.sb.fpg)
        cg = self.cg(c)
        off = self.cg_offset(c) + int(cg["freeoff"]) + d // 8  # type: ignore
        byte = self.pread(off, 1)[0]
        byte = byte | (1 << (d % 8)) if free else byte & ~(1 << (d % 8))
        self.pwrite(off, bytes([byte]))
