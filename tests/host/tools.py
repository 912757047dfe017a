"""The file-system tools (usr.sbin/) on the host, for the host tests:
compiled the way the Makefile does, run, and given images to work on.

Each tool is its own sources plus the Makefile's TOOLSHARED list, read
from the Makefile so the two never disagree.  Extra compiler flags (say
-fsanitize=address,undefined) come from the environment variable the
caller names.  The checks several test files share are here too: an FFS
image fsck_ffs leaves alone, an LFS image dumplfs finds consistent, and
LfsImage, an LFS image in memory to damage on purpose (its format is
qemu/lfsdisk.py's).
"""
from __future__ import annotations

import hashlib
import os
import re
import struct
import subprocess
from pathlib import Path

from qemu import lfsdisk

MB = 1024 * 1024

ROOT = Path(__file__).resolve().parents[2]
HOSTBIN = ROOT / "build" / "host"     # the tools make built for the host


def shared_sources() -> list[str]:
    text = (ROOT / "Makefile").read_text()
    m = re.search(r"^TOOLSHARED\s*:=\s*(.*)$", text, re.M)
    assert m, "the Makefile lost its TOOLSHARED line"
    return m.group(1).split()


def build_tools(out: Path, tools: list[str] | tuple[str, ...],
                flags_env: str) -> Path:
    extra = os.environ.get(flags_env, "").split()
    for tool in tools:
        srcs = sorted(str(p.relative_to(ROOT))
                      for p in (ROOT / "usr.sbin" / tool).glob("*.c"))
        cmd = ["gcc", "-O2", "-g", "-Wall", "-Werror", "-iquote", ".",
               "-DHOSTBUILD", *extra, "-o", str(out / tool), *srcs,
               *shared_sources()]
        subprocess.run(cmd, cwd=ROOT, check=True)
    return out


def run(bindir: Path, tool: str, *args: object,
        expect: int | None = 0) -> subprocess.CompletedProcess[str]:
    """Run a built tool; with expect, its exit status must be that."""
    p = subprocess.run([str(bindir / tool), *map(str, args)],
                       capture_output=True, text=True, timeout=120,
                       stdin=subprocess.DEVNULL)
    if expect is not None:
        assert p.returncode == expect, (
            f"{tool} {args}: exit {p.returncode}, wanted {expect}\n"
            f"stdout:\n{p.stdout[-4000:]}\nstderr:\n{p.stderr}")
    return p


def image(tmp_path: Path, size: int = 32 * MB, name: str = "disk.img") -> Path:
    """A file of size zero bytes (sparse) for a tool to format."""
    path = tmp_path / name
    with open(path, "wb") as f:
        f.truncate(size)
    return path


def fields(text: str) -> dict[str, str]:
    """A tool's `name<TAB>value' lines (the first occurrence of each)."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        if "\t" in line:
            k, v = line.split("\t", 1)
            out.setdefault(k, v)
    return out


# --- FFS ---------------------------------------------------------------------

def fsck_clean(bindir: Path, img: Path) -> str:
    """fsck_ffs finds nothing to do: exit 0 and nothing written."""
    before = hashlib.sha1(img.read_bytes()).hexdigest()
    p = run(bindir, "fsck_ffs", "-n", img)
    assert "MODIFIED" not in p.stdout
    assert "?" not in p.stdout, p.stdout          # no question was asked
    assert hashlib.sha1(img.read_bytes()).hexdigest() == before
    return p.stdout


# --- LFS ---------------------------------------------------------------------

def newfs_lfs(bindir: Path, img: Path, size: int, *opts: object) -> Path:
    """An LFS of size bytes made by newfs_lfs (with opts) in file img."""
    with open(img, "wb") as f:
        f.truncate(size)
    run(bindir, "newfs_lfs", *opts, img)
    return img


def dumplfs_ok(bindir: Path, img: Path, *args: object) -> str:
    """dumplfs finds valid data checksums and a consistent ifile."""
    out = run(bindir, "dumplfs", *args, img).stdout
    assert "datasum\tok" in out
    assert "datasum\tBAD" not in out
    assert out.rstrip().endswith("ifile\tconsistent"), out[-2000:]
    return out


class LfsImage:
    """An LFS image in memory, through its newest checkpoint (self.sb, a
    lfsdisk.Dlfs), to change on purpose and save().  Offsets are bytes
    into self.data; the file system starts at its beginning."""

    def __init__(self, path: Path):
        self.path = path
        self.data = bytearray(path.read_bytes())
        self.disk = lfsdisk.Image(self.data)
        assert self.disk.base == 0, "a labelled image"
        self.sb = self.disk.fs
        self.bs = self.sb.bsize
        self.sboffs = self.sb.sboffs

    def save(self) -> None:
        self.path.write_bytes(bytes(self.data))

    def off(self, daddr: int) -> int:
        return daddr * self.bs

    def inode_off(self, daddr: int, ino: int) -> int:
        return self.disk.dinode_offset(daddr, ino)

    def dinode(self, ino: int) -> list:
        """Inode ino's fields, in DINODE's order (lfsdisk.DI_NLINK, ...)."""
        return list(lfsdisk.DINODE.unpack_from(self.data, self.inode_off(
            self.daddr(ino), ino)))

    def set_dinode(self, ino: int, d: list) -> None:
        """Write inode ino back and reseal its partial segment."""
        lfsdisk.DINODE.pack_into(self.data,
                                 self.inode_off(self.daddr(ino), ino), *d)
        self.resum(self.daddr(ino))

    def ifile_block(self, lbn: int) -> int:
        return self.disk.ifile_block(lbn)[1]

    def entry_off(self, ino: int) -> int:
        return self.disk.ifile_entry_offset(ino)

    def daddr(self, ino: int) -> int:
        if ino == lfsdisk.LFS_IFILE_INUM:
            return self.sb.idaddr
        return self.disk.ifile_entry(ino)[1]

    def seguse_off(self, sn: int) -> int:
        return self.disk.seguse_offset(sn)

    def pseg_of(self, daddr: int) -> int:
        """The summary of the partial segment holding block daddr."""
        return self.disk.pseg_of(daddr)

    def resum(self, daddr: int) -> None:
        """Checksums of daddr's partial segment, as if written so."""
        a = self.pseg_of(daddr)
        nblocks = lfsdisk.parse_summary(self.sb, self.disk.block(a)).nblocks
        summary = self.data[self.off(a):self.off(a + 1)]
        lfsdisk.seal_summary(summary, self.disk.block(a + 1, nblocks))
        self.data[self.off(a):self.off(a + 1)] = summary

    def set_superblocks(self, only: int | None = None, **fields: int) -> None:
        """Change fields in every superblock copy (or copy only)."""
        for i, b in enumerate(self.sboffs):
            if not b or only not in (None, i):
                continue
            raw = self.disk.superblock(b).pack(**fields)
            self.data[self.off(b):self.off(b) + len(raw)] = raw


def damage_all(img: Path) -> None:
    """Several repairable problems at once (a link count, a segment's
    live bytes, the free list cut short), each partial segment resealed."""
    d = LfsImage(img)
    di = d.dinode(2)
    di[lfsdisk.DI_NLINK] = 9
    d.set_dinode(2, di)
    o = d.seguse_off(0)
    struct.pack_into("<I", d.data, o + lfsdisk.SEGUSE_OFFSET["nbytes"], 12345)
    struct.pack_into("<I", d.data, d.entry_off(9) +
                     lfsdisk.IFILE_OFFSET["nextfree"], 0)   # list cut
    d.resum(d.ifile_block(0))
    d.save()
