"""The base images the damage starts from: TREE (directories, one over
several blocks, small files and ones through the single and double
indirect blocks, symbolic links short and long).  FFS and EFS bases are
made on the host (build/host/newfs -D); the LFS base needs the kernel to
write it, so a guest makes it once; both are cached under build/damage
until the tools, the kernel or this file change."""
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


def base_image(layout: str) -> Path:
    """The cached base image of a layout (made if missing or stale; one
    maker at a time, when the tests run in parallel)."""
    d = BUILD / "damage"
    d.mkdir(parents=True, exist_ok=True)
    out = d / f"{layout}-base.img"
    deps = [HOST / "newfs", HOST / "newfs_lfs", BUILD / "kernel",
            Path(__file__)]
    newest = max(p.stat().st_mtime for p in deps if p.exists())
    with open(d / f"{layout}-base.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
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
