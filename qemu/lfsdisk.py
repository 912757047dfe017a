"""The BSD-LFS on-disk format (sys/ufs/lfs.h), read from a disk image in
Python: for the GDB helpers (qemu/gdb_lfs.py), the crashed-image maker
(qemu/crashimage.py) and the tests.  It is the only Python that knows the
format: a test that damages an image on purpose finds where with the
offsets here and seals what it changed with the checksums here.  Nothing
here imports gdb.

The structures are decoded from bytes with the layouts the header fixes
(struct dlfs 448 bytes, struct segsum 48, SEGUSE 16, IFILE 12,
CLEANERINFO 32, struct dinode 128, struct direct), so the same decoder
reads a copy on the disk and a copy in kernel memory.  Every checksum is
zlib's CRC-32: a superblock copy's over its first 444 bytes, a summary's
(ss_sumsum) over the summary block after its first word, a partial
segment's data (ss_datasum) over all the blocks after the summary.  The
checks mirror lfs/lfs_subr.c (lfs_sscheck) and the way dumplfs and the
kernel choose the checkpoint: the valid superblock copy with the highest
serial.  The image may carry a disk label
(sys/disklabel.h); partition 'a' is then the file system, else the whole
image is, as the kernel's default label says.
"""
from __future__ import annotations

import os
import re
import struct
import zlib
from dataclasses import dataclass, field
from typing import Optional

LFS_MAGIC = 0x19920401
SS_MAGIC = 0x53534C46
LFS_VERSION = 1
LFS_LABELPAD = 8192
LFS_NSB = 10
LFS_IFILE_INUM = 1
NDADDR = 12
DISKMAGIC = 0x82564557
SECTOR = 512

HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sys", "ufs",
                      "lfs.h")


def header_flags(prefix: str) -> tuple[tuple[int, str], ...]:
    """The one-bit flags sys/ufs/lfs.h defines as PREFIX_NAME 0x..., as
    (value, NAME) in value order: the header is their one source (dumplfs
    names the same, tests/host/test_lfs_tools.py checks)."""
    with open(HEADER) as f:
        found = re.findall(rf"^#define\s+{prefix}_(\w+)\s+(0x[0-9a-fA-F]+)", f.read(), re.M)
    return tuple(sorted((v, name) for name, v in ((n, int(x, 16)) for n, x in found)
                        if v & (v - 1) == 0))


SS_FLAGS = header_flags("SS")
SEGUSE_FLAGS = header_flags("SEGUSE")
_SS, _SEGUSE = ({n: v for v, n in fl} for fl in (SS_FLAGS, SEGUSE_FLAGS))
SS_DIROP, SS_CONT, SS_CKP = _SS["DIROP"], _SS["CONT"], _SS["CKP"]
SEGUSE_DIRTY = _SEGUSE["DIRTY"]

DLFS_SIZE = 448
DLFS_FIELDS = (                 # (name, struct format), in header order
    ("magic", "I"), ("version", "I"), ("size", "I"), ("ssize", "I"),
    ("dsize", "I"), ("bsize", "I"), ("bshift", "I"), ("fsbtodb", "I"),
    ("sumsize", "I"), ("nseg", "I"), ("nindir", "I"), ("inopb", "I"),
    ("ifpb", "I"), ("sepb", "I"), ("cleansz", "I"), ("segtabsz", "I"),
    ("minfree", "I"), ("minfreeseg", "I"), ("maxfilesize", "Q"),
    ("maxsymlinklen", "i"), ("spare0", "I"), ("sboffs", "10I"),
    ("serial", "Q"), ("tstamp", "q"), ("idaddr", "I"), ("free", "I"),
    ("bfree", "i"), ("avail", "i"), ("nfiles", "I"), ("curseg", "I"),
    ("offset", "I"), ("nextseg", "I"), ("lastpseg", "I"), ("clean", "I"),
    ("ckpidx", "I"), ("fsmnt", "128s"), ("ccurseg", "I"), ("coffset", "I"),
    ("cnextseg", "I"), ("spare", "29I"), ("cksum", "I"))
DLFS = struct.Struct("<" + "".join(f for _, f in DLFS_FIELDS))
SEGSUM_FIELDS = (               # struct segsum, then 4 spare bytes
    ("sumsum", "I"), ("datasum", "I"), ("magic", "I"), ("next", "I"),
    ("serial", "Q"), ("create", "q"), ("nfinfo", "H"), ("ninos", "H"),
    ("flags", "H"), ("nblocks", "H"), ("ndelta", "I"))
SEGSUM = struct.Struct("<" + "".join(f for _, f in SEGSUM_FIELDS) + "4x")
FINFO_FIELDS = (("nblocks", "I"), ("version", "I"), ("ino", "I"),
                ("lastlength", "I"))   # then fi_nblocks logical block numbers
FINFO = struct.Struct("<" + "".join(f for _, f in FINFO_FIELDS))
DELTA_FIELDS = (("ino", "I"), ("version", "I"), ("lbn", "i"), ("off", "H"),
                ("len", "H"), ("size", "Q"))   # then dr_len bytes, padded to 4
DELTA = struct.Struct("<" + "".join(f for _, f in DELTA_FIELDS))
SEGUSE_FIELDS = (("nbytes", "I"), ("lastmod", "I"), ("nsums", "H"),
                 ("ninos", "H"), ("flags", "I"))
SEGUSE = struct.Struct("<IIHHI")
IFILE_FIELDS = (("version", "I"), ("daddr", "I"), ("nextfree", "I"))
IFILE = struct.Struct("<III")
CLEANERINFO_FIELDS = (("clean", "I"), ("dirty", "I"), ("bfree", "i"),
                      ("avail", "i"), ("free_head", "I"), ("spare", "3I"))
DINODE = struct.Struct("<HhIQ6i12i3iIiiII2i")
# Positions in DINODE's tuple (struct dinode, sys/ufs/dinode.h).
DI_MODE, DI_NLINK, DI_INUMBER, DI_SIZE, DI_DB, DI_IB = 0, 1, 2, 3, 10, 22
DI_FLAGS, DI_BLOCKS, DI_GEN = 25, 26, 27
DIRECT_FIELDS = (("ino", "I"), ("reclen", "H"), ("type", "B"),
                 ("namlen", "B"))  # struct direct (sys/ufs/dir.h), then the name
DIRECT = struct.Struct("<IHBB")
DIRBLKSIZ = 512
assert DLFS.size == DLFS_SIZE and SEGSUM.size == 48 and DINODE.size == 128


def _offsets(fields) -> dict[str, int]:
    """Where each field of a struct starts (the header's layouts have no
    padding between fields)."""
    out, off = {}, 0
    for name, fmt in fields:
        out[name] = off
        off += struct.calcsize("<" + fmt)
    return out


DLFS_OFFSET = _offsets(DLFS_FIELDS)
SEGSUM_OFFSET = _offsets(SEGSUM_FIELDS)
FINFO_OFFSET = _offsets(FINFO_FIELDS)
SEGUSE_OFFSET = _offsets(SEGUSE_FIELDS)
IFILE_OFFSET = _offsets(IFILE_FIELDS)
CLEANERINFO_OFFSET = _offsets(CLEANERINFO_FIELDS)
DIRECT_OFFSET = _offsets(DIRECT_FIELDS)
DLFS_CKSUM_BYTES = DLFS_OFFSET["cksum"]      # 444: the checksum covers these


def set_fields(buf: bytearray, off: int, fields, **values: int) -> None:
    """Change named fields of the structure at byte off of buf, in place;
    fields is its table (SEGSUM_FIELDS, FINFO_FIELDS, SEGUSE_FIELDS,
    IFILE_FIELDS, DIRECT_FIELDS...).  Nothing else changes: a checksum
    over them is the caller's to reseal (seal_summary, Dlfs.pack)."""
    offsets, formats = _offsets(fields), dict(fields)
    for name, v in values.items():
        struct.pack_into("<" + formats[name], buf, off + offsets[name], v)


class LfsError(Exception):
    """A bad image, address or argument: the message says which."""


def flagnames(value: int, names, none: str = "none", sep: str = ",") -> str:
    words = [name for bit, name in names if value & bit]
    return sep.join(words) if words else none


def seguse_words(flags: int) -> str:
    """SEGUSE flags as dumplfs prints them: dirty,active,..."""
    words = ["dirty" if flags & SEGUSE_DIRTY else "clean"]
    words += [w for bit, w in ((0x01, "active"), (0x04, "superblock"),
                               (0x08, "cleaning")) if flags & bit]
    return ",".join(words)


class Dlfs:
    """A struct dlfs: its fields as attributes (fs.serial, fs.sboffs)."""

    def __init__(self, raw: bytes):
        if len(raw) < DLFS_SIZE:
            raise LfsError("short superblock")
        values = list(DLFS.unpack_from(raw))
        for name, fmt in DLFS_FIELDS:
            n = int(fmt[:-1]) if fmt[:-1] and fmt[-1] != "s" else 1
            v = values[:n] if n > 1 else values[0]
            del values[:n]
            setattr(self, name, v)
        self.raw = bytes(raw[:DLFS_SIZE])

    def cksum_ok(self) -> bool:
        return zlib.crc32(self.raw[:DLFS_CKSUM_BYTES]) == self.cksum

    def pack(self, **changes) -> bytes:
        """The 448 bytes of this copy with some fields changed (fs.pack(
        clean=0)) and the checksum made to match, as a writer would."""
        values = []
        for name, fmt in DLFS_FIELDS:
            v = changes.get(name, getattr(self, name))
            values += list(v) if isinstance(v, list) else [v]
        raw = bytearray(DLFS.pack(*values))
        struct.pack_into("<I", raw, DLFS_CKSUM_BYTES,
                         zlib.crc32(raw[:DLFS_CKSUM_BYTES]))
        return bytes(raw)

    def check(self) -> Optional[str]:
        """What is wrong with it as a superblock copy (a short form of
        lfs_sbcheck: enough that no later arithmetic runs off), or None."""
        if self.magic != LFS_MAGIC:
            return "bad magic number"
        if self.version != LFS_VERSION:
            return "unknown version"
        if not self.cksum_ok():
            return "bad checksum"
        if not 4096 <= self.bsize <= 65536 or self.sumsize != self.bsize \
                or 1 << self.bshift != self.bsize:
            return "bad block size"
        if self.ssize < 8 or self.nseg * self.ssize > self.size:
            return "bad segment size or count"
        return None

    def sntod(self, sn: int) -> int:
        return sn * self.ssize

    def dtosn(self, daddr: int) -> int:
        return daddr // self.ssize

    def sbfirstblock(self, sn: int) -> int:
        """The first block of segment sn the log may use (lfs_subr.c)."""
        first = self.sntod(sn)
        if sn == 0:
            first = LFS_LABELPAD // self.bsize
        first = max(first, 1)
        return first + 1 if first in [a for a in self.sboffs if a] else first

    def seguse_lbn(self, sn: int) -> int:
        return self.cleansz + sn // self.sepb

    def ifile_lbn(self, ino: int) -> int:
        return self.cleansz + self.segtabsz + ino // self.ifpb

    def ifile_offset(self, ino: int) -> int:
        """Where inode ino's IFILE entry is in the ifile, in bytes."""
        return self.ifile_lbn(ino) * self.bsize + (ino % self.ifpb) * IFILE.size

    def seguse_offset(self, sn: int) -> int:
        """Where segment sn's SEGUSE entry is in the ifile, in bytes."""
        return self.seguse_lbn(sn) * self.bsize + (sn % self.sepb) * SEGUSE.size

    def fsmnt_str(self) -> str:
        return self.fsmnt.split(b"\0", 1)[0].decode("latin-1")


@dataclass
class Finfo:
    ino: int
    version: int
    lastlength: int
    lbns: list[int]


@dataclass
class Delta:
    """A DELTA: bytes of a block a commit changed (lfs_txndelta.c)."""
    ino: int
    version: int
    lbn: int
    off: int
    len: int
    size: int
    data: bytes = b""


@dataclass
class Summary:
    """A struct segsum with its FINFOs and inode-block addresses."""
    sumsum: int
    datasum: int
    magic: int
    next: int
    serial: int
    create: int
    nfinfo: int
    ninos: int
    flags: int
    nblocks: int
    ndelta: int
    finfos: list[Finfo] = field(default_factory=list)
    deltas: list[Delta] = field(default_factory=list)
    inoaddrs: list[int] = field(default_factory=list)
    problem: Optional[str] = None       # lfs_sscheck's verdict
    sumsum_ok: bool = False

    @property
    def flagstr(self) -> str:
        return flagnames(self.flags, SS_FLAGS)


def sumsum(summary: bytes) -> int:
    """ss_sumsum of a summary block: over everything after that word."""
    return zlib.crc32(summary[4:])


def datasum(blocks: bytes) -> int:
    """ss_datasum: over the blocks that follow the summary, in order."""
    return zlib.crc32(blocks)


def seal_summary(summary: bytearray, blocks: bytes) -> None:
    """Set a summary block's two checksums for the blocks after it, as the
    segment writer does: ss_datasum first, since ss_sumsum covers it."""
    struct.pack_into("<I", summary, 4, datasum(blocks))
    struct.pack_into("<I", summary, 0, sumsum(summary))


def dirents(blk: bytes) -> list[tuple[str, int]]:
    """The (name, inode) entries of a directory chunk (DIRBLKSIZ bytes),
    free space left out; LfsError if the entries do not tile it."""
    out, off = [], 0
    while off < DIRBLKSIZ:
        ino, reclen, _type, namlen = DIRECT.unpack_from(blk, off)
        if reclen < DIRECT.size:
            raise LfsError(f"directory entry at {off}: d_reclen {reclen}")
        if ino:
            out.append((blk[off + DIRECT.size:off + DIRECT.size + namlen]
                        .decode(), ino))
        off += reclen
    if off != DIRBLKSIZ:
        raise LfsError(f"directory entries end at {off}, not {DIRBLKSIZ}")
    return out


def direntries(blk: bytes) -> list[tuple[int, int, str]]:
    """(byte offset, inode, name) of every entry of a directory block,
    free ones (inode 0) too, following d_reclen to the block's end or to
    a d_reclen of 0: where an entry is, to change it (set_fields with
    DIRECT_FIELDS)."""
    out, off = [], 0
    while off < len(blk):
        ino, reclen, _type, namlen = DIRECT.unpack_from(blk, off)
        if reclen == 0:
            break
        name = blk[off + DIRECT.size:off + DIRECT.size + namlen]
        out.append((off, ino, name.decode("latin-1")))
        off += reclen
    return out


def parse_summary(fs: Dlfs, raw: bytes) -> Summary:
    """Decode a summary block; .problem says what lfs_sscheck would."""
    raw = bytes(raw[:fs.sumsize])
    s = Summary(*SEGSUM.unpack_from(raw))
    s.sumsum_ok = sumsum(raw) == s.sumsum
    if s.magic != SS_MAGIC:
        s.problem = "bad magic number"
        return s
    if not s.sumsum_ok:
        s.problem = "bad summary checksum"
    if s.ninos > (fs.sumsize - SEGSUM.size) // 4:
        s.problem = "inode addresses overflow the summary"
        return s
    inos = fs.sumsize - 4 * s.ninos
    s.inoaddrs = [struct.unpack_from("<I", raw, fs.sumsize - 4 * (i + 1))[0]
                  for i in range(s.ninos)]
    off, nblocks = SEGSUM.size, 0
    for _ in range(s.nfinfo):
        if off + FINFO.size > inos:
            s.problem = s.problem or "FINFOs overflow the summary"
            return s
        n, version, ino, last = FINFO.unpack_from(raw, off)
        if n > fs.ssize or off + FINFO.size + 4 * n > inos:
            s.problem = s.problem or "FINFOs overflow the summary"
            return s
        lbns = list(struct.unpack_from(f"<{n}i", raw, off + FINFO.size))
        s.finfos.append(Finfo(ino, version, last, lbns))
        if n == 0 or last == 0 or last > fs.bsize:
            s.problem = s.problem or "bad FINFO"
        nblocks += n
        off += FINFO.size + 4 * n
    for _ in range(s.ndelta):
        if off + DELTA.size > inos:
            s.problem = s.problem or "DELTAs overflow the summary"
            return s
        d = Delta(*DELTA.unpack_from(raw, off))
        d.data = raw[off + DELTA.size:off + DELTA.size + d.len]
        if off + DELTA.size + ((d.len + 3) & ~3) > inos:
            s.problem = s.problem or "DELTAs overflow the summary"
            return s
        if d.len == 0 or d.off + d.len > fs.bsize:
            s.problem = s.problem or "bad DELTA"
        s.deltas.append(d)
        off += DELTA.size + ((d.len + 3) & ~3)
    if s.problem is None and nblocks + s.ninos != s.nblocks:
        s.problem = "block count disagrees with the FINFOs"
    if s.problem is None and (1 + s.nblocks > fs.ssize or s.next >= fs.size):
        s.problem = "bad size or next segment"
    return s


@dataclass
class Pseg:
    """A partial segment on the disk: where, its summary, data checksum."""
    daddr: int
    ss: Summary
    datasum_ok: Optional[bool] = None


def parse_dinode(raw: bytes) -> dict:
    v = DINODE.unpack_from(raw)
    return {"mode": v[DI_MODE], "nlink": v[DI_NLINK],
            "inumber": v[DI_INUMBER], "size": v[DI_SIZE],
            "db": list(v[DI_DB:DI_DB + NDADDR]), "ib": list(v[DI_IB:DI_IB + 3]),
            "blocks": v[DI_BLOCKS], "gen": v[DI_GEN]}


class Image:
    """An LFS in an image, through its newest valid checkpoint.  The image
    is a file (a path), or a bytearray in memory that the caller may
    change: every read sees it as it is then (self.fs, the checkpoint,
    is read once, at the start).  Offsets are from the start of the file
    system (self.base bytes into the image)."""

    def __init__(self, source: str | os.PathLike | bytearray):
        if isinstance(source, (bytes, bytearray)):
            self.path, self.f, self.mem = "(memory)", None, source
        else:
            self.path, self.mem = str(source), None
            try:
                self.f = open(source, "rb")
            except OSError as e:
                raise LfsError(f"cannot open {source}: {e.strerror}") from None
        self.base = self._partition_offset()
        self.fs, self.copies = self._checkpoint()

    def close(self) -> None:
        if self.f is not None:
            self.f.close()

    def _pread(self, off: int, n: int) -> bytes:
        """n bytes from byte off of the image (short at its end)."""
        if self.mem is not None:
            return bytes(self.mem[off:off + n])
        self.f.seek(off)
        return self.f.read(n)

    def read(self, off: int, n: int) -> bytes:
        data = self._pread(self.base + off, n)
        if len(data) != n:
            raise LfsError(f"{self.path}: cannot read {n} bytes at {off}")
        return data

    def _partition_offset(self) -> int:
        """Byte offset of partition 'a' if the image has a label, else 0."""
        label = self._pread(SECTOR, 204)
        if len(label) < 204:
            return 0
        magic, magic2, npart = (struct.unpack_from("<I", label, 0)[0],
                                struct.unpack_from("<I", label, 68)[0],
                                struct.unpack_from("<H", label, 74)[0])
        if magic != DISKMAGIC or magic2 != DISKMAGIC or not 1 <= npart <= 8:
            return 0
        words = struct.unpack_from(f"<{(76 + 16 * npart) // 2}H", label)
        x = 0
        for w in words:
            x ^= w
        if x != 0:
            return 0
        return struct.unpack_from("<I", label, 76 + 4)[0] * SECTOR

    def _checkpoint(self) -> tuple[Dlfs, list]:
        first = None
        for off in (LFS_LABELPAD, 16384, 32768, 65536):
            sb = Dlfs(self.read(off, DLFS_SIZE))
            if sb.check() is None:
                first = sb
                break
        if first is None:
            raise LfsError(f"{self.path}: no valid LFS superblock at 8, 16, "
                           "32 or 64 KB (not an LFS, or lfs-disk names the "
                           "wrong image)")
        copies, best = [], None
        for i, daddr in enumerate(first.sboffs):
            if daddr == 0:
                continue
            sb = Dlfs(self.read(daddr * first.bsize, DLFS_SIZE))
            why = sb.check()
            copies.append((i, daddr, sb, why))
            if why is None and (best is None or sb.serial > best.serial):
                best = sb
        return best or first, copies

    # -- blocks and the ifile ---------------------------------------------
    def block(self, daddr: int, n: int = 1) -> bytes:
        """Block daddr (and the n - 1 after it)."""
        if daddr <= 0 or daddr + n > self.fs.size:
            raise LfsError(f"block {daddr + n - 1 if daddr > 0 else daddr} "
                           f"is outside the file system (1..{self.fs.size - 1})")
        return self.read(daddr * self.fs.bsize, n * self.fs.bsize)

    def superblock(self, daddr: int) -> Dlfs:
        """The superblock copy in block daddr, whatever its state."""
        return Dlfs(self.read(daddr * self.fs.bsize, DLFS_SIZE))

    def inodes(self, daddr: int) -> dict[int, dict]:
        """The inodes in block daddr, by number (empty slots left out)."""
        blk, out = self.block(daddr), {}
        for i in range(self.fs.inopb):
            d = parse_dinode(blk[i * DINODE.size:(i + 1) * DINODE.size])
            if d["inumber"]:
                out[d["inumber"]] = d
        return out

    def dinode_offset(self, daddr: int, ino: int) -> int:
        """Where inode ino is in block daddr, in bytes."""
        blk = self.block(daddr)
        for i in range(self.fs.inopb):
            d = parse_dinode(blk[i * DINODE.size:(i + 1) * DINODE.size])
            if d["inumber"] == ino and (d["mode"] or ino == LFS_IFILE_INUM):
                return daddr * self.fs.bsize + i * DINODE.size
        raise LfsError(f"inode {ino} is not in block {daddr}")

    def dinode(self, daddr: int, ino: int) -> dict:
        return parse_dinode(self.read(self.dinode_offset(daddr, ino),
                                      DINODE.size))

    def ifile_block(self, lbn: int) -> tuple[bytes, int]:
        """Block lbn of the checkpoint's ifile and its address (direct and
        single indirect blocks: an ifile of 1036 4 KB blocks)."""
        ino = self.dinode(self.fs.idaddr, LFS_IFILE_INUM)
        if lbn < NDADDR:
            daddr = ino["db"][lbn]
        elif lbn < NDADDR + self.fs.nindir and ino["ib"][0] > 0:
            ind = self.block(ino["ib"][0])
            daddr = struct.unpack_from("<i", ind, 4 * (lbn - NDADDR))[0]
        else:
            daddr = 0
        if daddr <= 0:
            raise LfsError(f"the checkpoint's ifile has no block {lbn}")
        return self.block(daddr), daddr

    def ifile_entry(self, ino: int) -> tuple[int, int, int]:
        blk, _ = self.ifile_block(self.fs.ifile_lbn(ino))
        return IFILE.unpack_from(blk, (ino % self.fs.ifpb) * IFILE.size)

    def seguse(self, sn: int) -> tuple[int, int, int, int, int]:
        blk, _ = self.ifile_block(self.fs.seguse_lbn(sn))
        return SEGUSE.unpack_from(blk, (sn % self.fs.sepb) * SEGUSE.size)

    def ifile_entry_offset(self, ino: int) -> int:
        """Where inode ino's IFILE entry is on the disk, in bytes."""
        _, daddr = self.ifile_block(self.fs.ifile_lbn(ino))
        return daddr * self.fs.bsize + (ino % self.fs.ifpb) * IFILE.size

    def seguse_offset(self, sn: int) -> int:
        """Where segment sn's SEGUSE entry is on the disk, in bytes."""
        _, daddr = self.ifile_block(self.fs.seguse_lbn(sn))
        return daddr * self.fs.bsize + (sn % self.fs.sepb) * SEGUSE.size

    # -- the log ----------------------------------------------------------
    def pseg(self, daddr: int) -> Pseg:
        ss = parse_summary(self.fs, self.block(daddr))
        p = Pseg(daddr, ss)
        if ss.problem is None and daddr + 1 + ss.nblocks <= self.fs.size:
            crc = 0
            for b in range(daddr + 1, daddr + 1 + ss.nblocks):
                crc = zlib.crc32(self.block(b), crc)     # = datasum(blocks)
            p.datasum_ok = crc == ss.datasum
        return p

    def pseg_of(self, daddr: int) -> int:
        """The summary block of the partial segment that holds block daddr,
        found by walking its segment by the summaries' block counts."""
        fs = self.fs
        sn = fs.dtosn(daddr)
        a = fs.sbfirstblock(sn)
        while a < fs.sntod(sn + 1):
            nblocks = SEGSUM.unpack_from(self.block(a))[9]
            if a < daddr <= a + nblocks:
                return a
            a += 1 + nblocks
        raise LfsError(f"block {daddr} is in no partial segment")

    def segment(self, sn: int) -> tuple[list[Pseg], str]:
        """The partial segments of segment sn, as dumplfs walks them, and
        why the walk ended."""
        if sn >= self.fs.nseg:
            raise LfsError(f"segment {sn} does not exist (0..{self.fs.nseg - 1})")
        end, prev, out = self.fs.sntod(sn + 1), 0, []
        daddr = self.fs.sbfirstblock(sn)
        while daddr < end:
            p = self.pseg(daddr)
            if p.ss.problem is not None:
                zero = not any(self.block(daddr))
                return out, f"end\t{daddr}" + ("" if zero else
                                               f": {p.ss.problem}")
            if p.ss.serial <= prev:
                return out, (f"end\t{daddr}: serial {p.ss.serial}, "
                             f"not after {prev}")
            out.append(p)
            prev = p.ss.serial
            daddr += 1 + p.ss.nblocks
        return out, f"end\t{daddr}: end of segment"

    def after_checkpoint(self) -> list[Pseg]:
        """The partial segments written after the checkpoint, in serial
        order, as roll-forward finds them: each where one of the two log
        heads (hot, and the cleaner's cold one) left off or, when it left
        that segment, at the start of the segment it had chosen next."""
        fs, out = self.fs, []
        heads = [[fs.offset, fs.nextseg], [fs.coffset, fs.cnextseg]]
        serial = fs.serial + 1
        while True:
            found = None
            for h in heads:
                for a in (h[0], fs.sbfirstblock(h[1])):
                    if 0 < a < fs.size:
                        p = self.pseg(a)
                        if p.ss.problem is None and p.ss.serial == serial \
                                and p.datasum_ok:
                            found = h, a, p
                            break
                if found:
                    break
            if found is None:
                return out
            h, a, p = found
            out.append(p)
            h[0], h[1] = a + 1 + p.ss.nblocks, fs.dtosn(p.ss.next)
            serial += 1
