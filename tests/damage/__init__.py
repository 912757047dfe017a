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

The package: base.py (the base images), edit.py (the image editors),
cases.py (the targeted damages); here the random damage, the images made
from them, a scratch disk holding several, and the host checkers.
"""
from __future__ import annotations

import random
import shutil
import struct
import subprocess
from pathlib import Path

from qemu import lfsdisk
from tests.damage.base import HOST, LAYOUTS, SECTOR, copy_base
from tests.damage.cases import CASES
from tests.damage.edit import Ffs, Lfs

__all__ = ["LAYOUTS", "CASES", "cases_for", "make_case", "make_random",
           "damage_random", "clean_segments", "make_full", "PARTS",
           "assemble", "run_fsck", "repair_verdict"]


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


# --- a full log ------------------------------------------------------------------

def clean_segments(img: Path) -> list[int]:
    """The segments of the newest checkpoint's SEGUSE marked clean."""
    fs = Lfs(img)
    return [sn for sn in range(fs.sb.nseg)
            if not fs.disk.seguse(sn)[4] & lfsdisk.SEGUSE_DIRTY]


def make_full(out: Path, nbroken: int, room: bool = True) -> list[int]:
    """The full LFS base (only dlfs_minfreeseg clean segments) with the
    first summary of nbroken full segments broken (a byte of a FINFO,
    not resealed: a bad summary checksum); returns those segments.
    Without room, every clean segment is marked dirty first, as if
    written and then all overwritten, with the counts to match and the
    log going on in its current segment (lfs_pickseg's "none left"): no
    segment can take a segment's live blocks."""
    copy_base("lfs-full", out)
    d = Lfs(out)
    sb = d.sb
    full = [sn for sn in range(sb.nseg) if sn != sb.curseg and
            d.disk.seguse(sn)[0] >= (sb.ssize - 8) * sb.bsize]
    if not room:
        taken = clean_segments(out)
        for sn in taken:
            o = d.seguse_off(sn) + lfsdisk.SEGUSE_OFFSET["flags"]
            flags = struct.unpack_from("<I", d.data, o)[0]
            d.set_field(o - lfsdisk.SEGUSE_OFFSET["flags"],
                        lfsdisk.SEGUSE_FIELDS,
                        flags=flags | lfsdisk.SEGUSE_DIRTY)
        avail = sb.avail - sum(sb.sntod(sn + 1) - sb.sbfirstblock(sn)
                               for sn in taken)
        ci = d.off(d.ifile_block(0))
        clean, dirty = struct.unpack_from("<II", d.data, ci)
        d.set_field(ci, lfsdisk.CLEANERINFO_FIELDS, clean=clean - len(taken),
                    dirty=dirty + len(taken), avail=avail)
        d.set_superblocks(avail=avail, nextseg=sb.curseg)
    broken = full[:nbroken]
    for sn in broken:
        first = d.disk.segment(sn)[0][0].daddr
        d.data[d.off(first) + 100] ^= 0x55
    d.save()
    return broken


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


def repair_verdict(layout: str, img: Path, strict: bool = False
                   ) -> str | None:
    """fsck -y then fsck -n: None if the file system is repaired and found
    clean, or (unless strict) if -y said it could not repair it; else
    what went wrong."""
    y = run_fsck(layout, img, "-y")
    if y.returncode < 0:
        return f"fsck -y died with signal {-y.returncode}\n{y.stdout[-2000:]}"
    if y.returncode != 0:
        if not (y.stdout + y.stderr).strip():
            return f"fsck -y exited {y.returncode} without a word"
        if strict:
            return (f"fsck -y could not repair it (exit {y.returncode}):\n"
                    f"{y.stdout[-3000:]}{y.stderr[-500:]}")
        return None
    n = run_fsck(layout, img, "-n")
    if n.returncode != 0:
        return (f"fsck -y exited 0, then fsck -n exited {n.returncode}:\n"
                f"--- fsck -y:\n{y.stdout[-3000:]}\n"
                f"--- fsck -n:\n{n.stdout[-3000:]}{n.stderr[-500:]}")
    if layout == "lfs" and not n.stdout.rstrip().endswith("0 problems"):
        return f"fsck_lfs -n after -y:\n{n.stdout[-3000:]}"
    return None
