"""Write log, fault specifications, and image replay for crash tests.

The drive server (qemu/drive.py) numbers every write it receives 1, 2, 3, ... and can
  * record each write that lands on the image (writelog=PATH), and
  * cut the power at a chosen write (cut_after=N), or tear it (tear=N:K).
This module holds the pieces both the server and the test tools need.

Command line:
    python3 -m qemu.writelog replay BASE_IMAGE LOG N OUT_IMAGE  # OUT = BASE + writes 1..N
    python3 -m qemu.writelog replay --tear K BASE LOG N OUT     # writes 1..N-1, K sectors of N
    python3 -m qemu.writelog list LOG                           # one line per record

Log format (little-endian), designed to be appended record by record:
    file header  : b"BSDWLOG1"
    record header: b"WREC", seq u64, offset u64, length u32, requested u32, flags u32
    record data  : `length` bytes (absent when flags has ZERO)
`length` is what landed; `requested` is what the client asked for (they differ only
for a torn write, flag TORN). A write that was lost to a power cut is not logged.
A record cut short at the end of the file (the server was killed) is ignored.

Fault semantics (the write numbers are the server's, counting every write request):
    cut_after=N : writes 1..N-1 land; the power fails during write N, so write N and
                  everything after it are lost.
    tear=N:K    : like cut_after=N, except that the first K sectors of write N land
                  (all of it if it is K sectors or shorter; it still reports EIO).
After the cut the server answers every request with EIO and writes the marker file
(see drive.py and DRIVE.md).
"""

from __future__ import annotations

import os
import struct
import sys
from dataclasses import dataclass
from typing import BinaryIO, Iterator, Optional

SECTOR = 512
FILE_MAGIC = b"BSDWLOG1"
REC = struct.Struct("<4sQQIII")
REC_MAGIC = b"WREC"
FLAG_ZERO = 1  # no data follows: the range was written with zeros
FLAG_TORN = 2  # only the first `length` bytes of a `requested`-byte write landed
FLAG_FUA = 4  # the client asked for FUA (informational; every write is write-through)


@dataclass(frozen=True)
class FaultSpec:
    """Where to cut the power. At most one of cut_after / tear is set."""

    cut_after: Optional[int] = None  # write number at which the power fails (>= 1)
    tear: Optional[tuple[int, int]] = None  # (write number, sectors that land)
    writelog: Optional[str] = None  # record every landed write to this file

    def __post_init__(self) -> None:
        if self.cut_after is not None and self.tear is not None:
            raise ValueError("set cut_after or tear, not both")
        if self.cut_after is not None and self.cut_after < 1:
            raise ValueError("cut_after counts writes from 1")
        if self.tear is not None and (self.tear[0] < 1 or self.tear[1] < 0):
            raise ValueError("tear=N:K needs N >= 1 and K >= 0")

    @property
    def cut_write(self) -> Optional[int]:
        """Number of the write during which the power fails, if any."""
        if self.tear is not None:
            return self.tear[0]
        return self.cut_after

    @property
    def stops_power(self) -> bool:
        return self.cut_write is not None

    def landing_bytes(self, seq: int, length: int) -> int:
        """How many bytes of write number `seq` (of `length` bytes) reach the image."""
        cut = self.cut_write
        if cut is None or seq < cut:
            return length
        if seq == cut and self.tear is not None:
            return min(length, self.tear[1] * SECTOR)
        return 0

    def plugin_params(self) -> list[str]:
        """The nbdkit key=value parameters that ask drive.py for these faults."""
        out = []
        if self.cut_after is not None:
            out.append(f"cut_after={self.cut_after}")
        if self.tear is not None:
            out.append(f"tear={self.tear[0]}:{self.tear[1]}")
        if self.writelog is not None:
            out.append(f"writelog={self.writelog}")
        return out


def parse_tear(value: str) -> tuple[int, int]:
    n, _, k = value.partition(":")
    if not k:
        raise ValueError(f"tear wants N:K, got {value!r}")
    return int(n), int(k)


@dataclass(frozen=True)
class WriteRecord:
    seq: int
    offset: int
    length: int
    requested: int
    flags: int
    data: bytes  # empty for FLAG_ZERO


class LogWriter:
    """Appends records; every record reaches the OS before the write is acknowledged."""

    def __init__(self, path: str) -> None:
        self.f: BinaryIO = open(path, "wb")
        self.f.write(FILE_MAGIC)
        self.f.flush()

    def append(self, seq: int, offset: int, data: bytes | memoryview, requested: int,
               flags: int = 0) -> None:
        length = 0 if flags & FLAG_ZERO else len(data)
        self.f.write(REC.pack(REC_MAGIC, seq, offset, length, requested, flags))
        if length:
            self.f.write(data)
        # flush (not fsync): the host does not crash, only the guest's disk does
        self.f.flush()

    def sync(self) -> None:
        self.f.flush()
        os.fsync(self.f.fileno())

    def close(self) -> None:
        if not self.f.closed:
            self.f.flush()
            self.f.close()


def read_log(path: str) -> Iterator[WriteRecord]:
    with open(path, "rb") as f:
        if f.read(len(FILE_MAGIC)) != FILE_MAGIC:
            raise ValueError(f"{path}: not a write log")
        while True:
            head = f.read(REC.size)
            if len(head) < REC.size:
                return  # end, or a header cut short by a kill
            magic, seq, offset, length, requested, flags = REC.unpack(head)
            if magic != REC_MAGIC:
                raise ValueError(f"{path}: bad record magic after seq {seq}")
            data = f.read(length) if length else b""
            if len(data) < length:
                return  # data cut short
            yield WriteRecord(seq, offset, length, requested, flags, data)


def sparse_copy(src: str, dst: str) -> None:
    """Copy a (possibly 1.3 GB, mostly empty) image, keeping its holes."""
    size = os.path.getsize(src)
    with open(src, "rb") as fi, open(dst, "wb") as fo:
        fo.truncate(size)
        fd = fi.fileno()
        pos = 0
        while pos < size:
            try:
                data_at = os.lseek(fd, pos, os.SEEK_DATA)
            except OSError:  # ENXIO: only a hole remains
                break
            hole_at = os.lseek(fd, data_at, os.SEEK_HOLE)
            fi.seek(data_at)
            fo.seek(data_at)
            left = hole_at - data_at
            while left:
                chunk = fi.read(min(left, 1 << 20))
                fo.write(chunk)
                left -= len(chunk)
            pos = hole_at


def apply_record(f: BinaryIO, rec: WriteRecord) -> None:
    f.seek(rec.offset)
    if rec.flags & FLAG_ZERO:
        f.write(bytes(rec.requested))
    else:
        f.write(rec.data)


def replay(base: str, log: str, n: int, out: str, tear: Optional[int] = None) -> int:
    """OUT = BASE with writes 1..n of LOG applied; returns how many records were applied.
    With tear=K, write n is torn as tear=n:K would: only its first K sectors land."""
    sparse_copy(base, out)
    applied = 0
    with open(out, "r+b") as f:
        for rec in read_log(log):
            if rec.seq > n:
                break
            if rec.seq == n and tear is not None:
                data = rec.data if not rec.flags & FLAG_ZERO else bytes(rec.requested)
                rec = WriteRecord(rec.seq, rec.offset, min(rec.length, tear * SECTOR),
                                  rec.requested, rec.flags & ~FLAG_ZERO,
                                  data[:tear * SECTOR])
            apply_record(f, rec)
            applied += 1
    return applied


def _describe(rec: WriteRecord) -> str:
    flags = [name for bit, name in ((FLAG_ZERO, "zero"), (FLAG_TORN, "torn"), (FLAG_FUA, "fua"))
             if rec.flags & bit]
    return (f"{rec.seq:8d} offset={rec.offset} sector={rec.offset // SECTOR} "
            f"length={rec.length} requested={rec.requested} {','.join(flags)}").rstrip()


def main(argv: list[str]) -> int:
    tear = None
    if len(argv) == 7 and argv[0] == "replay" and argv[1] == "--tear":
        tear = int(argv[2])
        argv = argv[:1] + argv[3:]
    if len(argv) == 5 and argv[0] == "replay":
        base, log, n, out = argv[1], argv[2], int(argv[3]), argv[4]
        count = replay(base, log, n, out, tear)
        torn = f", write {n} torn after {tear} sectors" if tear is not None else ""
        print(f"{out}: {base} + {count} writes (up to write {n}{torn})")
        return 0
    if len(argv) == 2 and argv[0] == "list":
        for rec in read_log(argv[1]):
            print(_describe(rec))
        return 0
    print(__doc__.split("Log format")[0].strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
