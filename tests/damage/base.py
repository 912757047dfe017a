"""The base images the damage starts from: TREE (directories, one over
several blocks, small files and ones through the single and double
indirect blocks, symbolic links short and long).  FFS and EFS bases are
made on the host (build/host/newfs -D); the LFS base needs the kernel to
write it, so a guest makes it once; both are cached under build/damage
until the tools, the kernel or this file change.  A full LFS base
(make_lfs_full_base) is the LFS one filled by the kernel until it
refuses, for fsck_lfs's repairs with little room in the log."""
from __future__ import annotations

import fcntl
import shutil
import subprocess
import tempfile
import zlib
from pathlib import Path

from tests import fslib
from tests.guest import BUILD, Guest

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


# Written to the full LFS base until the kernel refuses (ENOSPC).
FULL_FILL = "dd if=/dev/zero of=/mnt/fill bs=64k count=1000"


def make_lfs_full_base(out: Path) -> None:
    """The LFS base with one more file, written by the kernel without a
    cleaner until it refuses: then only the cleaner's dlfs_minfreeseg
    clean segments are left, and nearly every other one is full of live
    blocks."""
    with tempfile.TemporaryDirectory() as t:
        disk = Path(t) / "sd1.img"
        shutil.copyfile(base_image("lfs"), disk)
        with Guest(Path(t), sd1=disk) as g:
            g.ok("mount -n -t lfs /dev/sd1a /mnt")
            said, status = g.run(FULL_FILL, 300)
            assert status != 0 and "No space left" in said, said
            g.ok("umount /mnt")
            fslib.fsck_lfs_clean(g, "-n")
        shutil.copyfile(disk, out)


def base_image(kind: str) -> Path:
    """The cached base image of a layout, or "lfs-full" (made if missing
    or stale; one maker at a time, when the tests run in parallel)."""
    d = BUILD / "damage"
    d.mkdir(parents=True, exist_ok=True)
    out = d / f"{kind}-base.img"
    deps = [HOST / "newfs", HOST / "newfs_lfs", BUILD / "kernel",
            Path(__file__)]
    if kind == "lfs-full":
        deps.append(base_image("lfs"))
    newest = max(p.stat().st_mtime for p in deps if p.exists())
    with open(d / f"{kind}-base.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if out.exists() and out.stat().st_mtime >= newest:
            return out
        tmp = d / f"{kind}-base.tmp"
        if kind == "lfs-full":
            make_lfs_full_base(tmp)
        elif kind == "lfs":
            make_lfs_base(tmp)
        else:
            make_ffs_base(tmp, efs=kind == "efs")
        tmp.replace(out)
    return out


def copy_base(kind: str, out: Path) -> None:
    """A copy of the base image of a layout, or of "lfs-full"."""
    subprocess.run(["cp", "--sparse=always", str(base_image(kind)),
                    str(out)], check=True)
