"""Host tests of the FFS image tools: newfs, fsck_ffs, dumpfs, disklabel.

Each test builds small images in a temporary directory, so the whole file
runs in seconds.  The tools are compiled for the host with the command the
Makefile uses; tests/ffsimage.py reads the images back independently of
the C code, and damages them on purpose for fsck_ffs to repair.
"""
from __future__ import annotations

import os
import random
import re
import subprocess
from pathlib import Path

import pytest

from tests import ffsimage
from tests.ffsimage import FFSImage
from tests.host.tools import MB, build_tools, fields, fsck_clean, image, run

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("newfs", "fsck_ffs", "dumpfs", "disklabel")


# --- building and running the tools ---------------------------------------

@pytest.fixture(scope="session")
def bindir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Compile the four tools for the host, as the Makefile does (extra
    flags, e.g. -fsanitize=address,undefined, from $FFS_TOOLS_CFLAGS)."""
    return build_tools(tmp_path_factory.mktemp("bin"), TOOLS,
                       "FFS_TOOLS_CFLAGS")


def fsck_repair(bindir: Path, img: Path, *patterns: str,
                dry: tuple[str, ...] | None = None) -> str:
    """-n sees the damage (the `dry' patterns, by default all) and changes
    nothing; -y repairs it (each pattern shows in the transcript); a second
    check finds the image clean."""
    before = img.read_bytes()
    dryrun = run(bindir, "fsck_ffs", "-n", img, expect=8)
    assert img.read_bytes() == before, "fsck_ffs -n wrote to the image"
    p = run(bindir, "fsck_ffs", "-y", img)
    for pat in patterns:
        assert re.search(pat, p.stdout), (
            f"no /{pat}/ in fsck output:\n{p.stdout}")
    for pat in patterns if dry is None else dry:
        assert re.search(pat, dryrun.stdout), (
            f"-n did not report /{pat}/:\n{dryrun.stdout}")
    assert "***** FILE SYSTEM WAS MODIFIED *****" in p.stdout
    fsck_clean(bindir, img)
    return p.stdout


# --- a tree to copy in with -D ----------------------------------------------

BIG = 5 * MB + 123          # past NDADDR and NINDIR blocks: double indirect
SPARSE_TAIL = 4_400_000_000  # past the double indirect range: triple


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    t = tmp_path / "tree"
    (t / "a" / "b" / "c").mkdir(parents=True)
    (t / "etc").mkdir()
    (t / "etc" / "motd").write_text("hello, world\n")
    (t / "a" / "b" / "c" / "deep").write_text("deep\n")
    (t / "big").write_bytes(os.urandom(BIG))
    (t / "empty").write_bytes(b"")
    (t / "small").write_bytes(b"x" * 2500)     # a 3-fragment tail
    (t / "bin").mkdir()
    (t / "bin" / "tool").write_bytes(b"#!/bin/sh\n")
    os.chmod(t / "bin" / "tool", 0o755)
    os.symlink("../etc/motd", t / "a" / "short")
    os.symlink("L" * 100, t / "a" / "long")
    for i in range(60):                         # a directory of 2+ chunks
        (t / "etc" / f"file{i:03d}").write_text(f"{i}\n")
    os.link(t / "bin" / "tool", t / "bin" / "[")  # one inode, two names
    os.link(t / "bin" / "tool", t / "a" / "tool")
    return t


@pytest.fixture
def proto(tmp_path: Path) -> Path:
    p = tmp_path / "proto"
    p.write_text("# path type mode uid gid [major minor]\n"
                 "/dev d 0755 0 0\n"
                 "/dev/console c 0600 0 0 0 0\n"
                 "/dev/sd0a b 0640 0 5 4 1\n"
                 "/etc/motd f 0444 7 8\n")
    return p


def check_tree(img: Path, tree: Path) -> None:
    with FFSImage(str(img)) as fs:
        assert fs.listdir("/") == sorted(
            ["a", "big", "bin", "dev", "empty", "etc", "lost+found",
             "small"])
        assert fs.read_file("/etc/motd") == b"hello, world\n"
        assert fs.read_file("/a/b/c/deep") == b"deep\n"
        assert fs.read_file("/big") == (tree / "big").read_bytes()
        assert fs.read_file("/small") == b"x" * 2500
        assert fs.read_file("/empty") == b""
        assert len(fs.listdir("/etc")) == 61
        assert fs.read_file("/etc/file042") == b"42\n"
        assert fs.readlink("/a/short") == "../etc/motd"
        assert fs.readlink("/a/long") == "L" * 100
        tool = fs.inode(fs.lookup("/bin/tool"))
        assert tool.mode == ffsimage.IFREG | 0o755 and tool.uid == 0
        assert tool.nlink == 3
        assert fs.lookup("/bin/tool") == fs.lookup("/bin/[") == \
            fs.lookup("/a/tool")
        big = fs.inode(fs.lookup("/big"))
        nblks = -(-BIG // fs.sb.bsize)
        assert big.size == BIG and big.ib[0] != 0
        assert (big.ib[1] != 0) == (nblks > 12 + fs.sb.nindir)
        small = fs.inode(fs.lookup("/small"))
        tail = -(-2500 // fs.sb.fsize) * fs.sb.fsize     # fragments only
        assert small.blocks == tail // 512
        cons = fs.inode(fs.lookup("/dev/console"))
        assert cons.mode == ffsimage.IFCHR | 0o600 and cons.rdev == 0
        sd = fs.inode(fs.lookup("/dev/sd0a"))
        assert sd.mode == ffsimage.IFBLK | 0o640
        assert sd.rdev == (4 << 8 | 1) and sd.gid == 5
        motd = fs.inode(fs.lookup("/etc/motd"))
        assert (motd.mode & 0o7777, motd.uid, motd.gid) == (0o444, 7, 8)
        root = fs.inode(ffsimage.ROOTINO)
        assert root.nlink == 2 + 5      # ., .. and a bin dev etc lost+found
        assert fs.lookup("/lost+found") == ffsimage.LOSTFOUNDINO


# --- layout ----------------------------------------------------------------

LAYOUT_C = r"""
#include <stdio.h>
#include <stddef.h>
#include <sys/types.h>
#include "sys/ufs/dinode.h"
#include "sys/ufs/dir.h"
#include "sys/ufs/fs.h"
#include "sys/disklabel.h"
#define F(s, f) printf(#s "." #f " %d\n", (int)offsetof(struct s, f))
int main(void) {
    printf("dinode %d fs %d cg %d direct %d disklabel %d\n",
        (int)sizeof(struct dinode), (int)sizeof(struct fs),
        (int)sizeof(struct cg), (int)sizeof(struct direct),
        (int)sizeof(struct disklabel));
    F(fs, fs_sblkno); F(fs, fs_optim); F(fs, fs_id); F(fs, fs_csaddr);
    F(fs, fs_fpg); F(fs, fs_cstotal); F(fs, fs_fmod); F(fs, fs_flags);
    F(fs, fs_fsmnt); F(fs, fs_cgrotor); F(fs, fs_maxsymlinklen);
    F(fs, fs_maxfilesize); F(fs, fs_magic);
    F(cg, cg_cs); F(cg, cg_frsum); F(cg, cg_iusedoff);
    F(cg, cg_nclusterblks);
    F(dinode, di_size); F(dinode, di_db); F(dinode, di_ib);
    F(dinode, di_blocks); F(dinode, di_uid);
    F(disklabel, d_secperunit); F(disklabel, d_checksum);
    F(disklabel, d_partitions);
    return 0;
}
"""


@pytest.mark.parametrize("bits", ["64", "32"])
def test_headers_match_the_python_reader(tmp_path: Path, bits: str) -> None:
    src = tmp_path / "layout.c"
    src.write_text(LAYOUT_C)
    exe = tmp_path / "layout"
    cc = subprocess.run(["gcc", f"-m{bits}", "-Wall", "-iquote", str(ROOT),
                         "-o", str(exe), str(src)],
                        capture_output=True, text=True)
    if cc.returncode != 0 and bits == "32":
        pytest.skip("no 32-bit host libc: " + cc.stderr[:200])
    assert cc.returncode == 0, cc.stderr
    out = subprocess.run([str(exe)], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    assert out[0] == "dinode 128 fs 1024 cg 128 direct 264 disklabel 204"
    got = dict(line.split() for line in out[1:] if line)
    want = {
        "fs.fs_sblkno": 0, "fs.fs_optim": ffsimage.FS_FIELDS["optim"][0],
        "fs.fs_id": ffsimage.FS_FIELDS["id0"][0],
        "fs.fs_csaddr": ffsimage.FS_FIELDS["csaddr"][0],
        "fs.fs_fpg": ffsimage.FS_FIELDS["fpg"][0],
        "fs.fs_cstotal": ffsimage.FS_FIELDS["cs_ndir"][0],
        "fs.fs_fmod": ffsimage.FS_FIELDS["fmod"][0],
        "fs.fs_flags": ffsimage.FS_FIELDS["flags"][0],
        "fs.fs_fsmnt": ffsimage.FSMNT_OFFSET,
        "fs.fs_cgrotor": ffsimage.FS_FIELDS["cgrotor"][0],
        "fs.fs_maxsymlinklen": ffsimage.FS_FIELDS["maxsymlinklen"][0],
        "fs.fs_maxfilesize": ffsimage.FS_FIELDS["maxfilesize"][0],
        "fs.fs_magic": ffsimage.FS_FIELDS["magic"][0],
        "cg.cg_cs": ffsimage.CG_FIELDS["cs_ndir"],
        "cg.cg_frsum": ffsimage.CG_FRSUM_OFFSET,
        "cg.cg_iusedoff": ffsimage.CG_FIELDS["iusedoff"],
        "cg.cg_nclusterblks": ffsimage.CG_FIELDS["nclusterblks"],
        "dinode.di_size": 8, "dinode.di_db": 40, "dinode.di_ib": 88,
        "dinode.di_blocks": 104, "dinode.di_uid": 112,
        "disklabel.d_secperunit": 60, "disklabel.d_checksum": 72,
        "disklabel.d_partitions": 76,
    }
    assert {k: int(v) for k, v in got.items()} == want


# --- newfs -----------------------------------------------------------------

def test_newfs_then_fsck_is_clean(bindir: Path, tmp_path: Path) -> None:
    img = image(tmp_path)
    p = run(bindir, "newfs", img)
    assert re.search(r"disk.img:\t65536 sectors in 128 cylinders of 16 "
                     r"tracks, 32 sectors", p.stdout), p.stdout
    assert re.search(r"\t32\.0MB in 8 cyl groups \(16 c/g, 4\.00MB/g, "
                     r"1024 i/g\)", p.stdout), p.stdout
    assert "super-block backups (for fsck -b #) at:\n 32, 8224," in p.stdout
    assert img.read_bytes()[:8192] == bytes(8192), "boot area written"
    out = fsck_clean(bindir, img)
    for n, name in [(1, "Check Blocks and Sizes"), (2, "Check Pathnames"),
                    (3, "Check Connectivity"),
                    (4, "Check Reference Counts"), (5, "Check Cyl groups")]:
        assert f"** Phase {n} - {name}" in out
    assert re.search(r"2 files, \d+ used, \d+ free", out)
    run(bindir, "fsck_ffs", "-y", img)     # -y too: nothing to fix
    with FFSImage(str(img)) as fs:
        assert fs.listdir("/") == ["lost+found"]
        assert fs.sb.clean == 1 and fs.sb.ncg == 8
        assert fs.backup_sectors()[:2] == [32, 8224]
        lf = fs.entries(ffsimage.LOSTFOUNDINO, include_empty=True)
        assert fs.inode(ffsimage.LOSTFOUNDINO).size >= 2 * fs.sb.bsize
        assert len(lf) > 8                  # preallocated empty chunks


def test_newfs_N_writes_nothing(bindir: Path, tmp_path: Path) -> None:
    img = image(tmp_path, size=8 * MB)
    p = run(bindir, "newfs", "-N", img)
    assert "super-block backups" in p.stdout
    assert img.read_bytes() == bytes(8 * MB)


def test_newfs_copies_a_tree(bindir: Path, tmp_path: Path, tree: Path,
                             proto: Path) -> None:
    img = image(tmp_path)
    run(bindir, "newfs", "-D", tree, "-P", proto, img)
    check_tree(img, tree)
    fsck_clean(bindir, img)


def test_newfs_triple_indirect_sparse_file(bindir: Path,
                                           tmp_path: Path) -> None:
    t = tmp_path / "sparse"
    t.mkdir()
    with open(t / "huge", "wb") as f:
        f.seek(1 * MB)
        f.write(b"single")
        f.seek(100 * MB)
        f.write(b"middle")
        f.seek(SPARSE_TAIL)
        f.write(b"the end\n")
    img = image(tmp_path, size=16 * MB)
    run(bindir, "newfs", "-D", t, img)
    with FFSImage(str(img)) as fs:
        di = fs.inode(fs.lookup("/huge"))
        assert di.size == SPARSE_TAIL + 8
        assert all(di.ib), "single, double and triple indirect all used"
        assert fs.read_file("/huge", SPARSE_TAIL, 100) == b"the end\n"
        assert fs.read_file("/huge", 100 * MB - 2, 10) == \
            b"\0\0middle\0\0"
        assert fs.read_file("/huge", 1 * MB, 6) == b"single"
        assert fs.read_file("/huge", 0, 4096) == bytes(4096)
    fsck_clean(bindir, img)


@pytest.mark.parametrize("bsize,fsize", [(4096, 4096), (4096, 512),
                                         (8192, 1024), (16384, 2048),
                                         (65536, 8192)])
def test_newfs_block_sizes(bindir: Path, tmp_path: Path, tree: Path,
                           proto: Path, bsize: int, fsize: int) -> None:
    img = image(tmp_path, size=48 * MB)
    run(bindir, "newfs", "-b", bsize, "-f", fsize, "-D", tree, "-P", proto,
        img)
    with FFSImage(str(img)) as fs:
        assert (fs.sb.bsize, fs.sb.fsize) == (bsize, fsize)
    check_tree(img, tree)
    assert "\nbad\t" not in run(bindir, "dumpfs", img).stdout
    fsck_clean(bindir, img)


def test_newfs_rejects_bad_options(bindir: Path, tmp_path: Path) -> None:
    img = image(tmp_path, size=8 * MB)
    p = run(bindir, "newfs", "-q", img, expect=1)
    assert "usage: newfs" in p.stderr
    p = run(bindir, "newfs", "-b", "5000", img, expect=1)
    assert "power of 2" in p.stderr
    p = run(bindir, "newfs", "-b", "4096", "-f", "256", img, expect=1)
    assert "fragment size" in p.stderr
    p = run(bindir, "newfs", "-b", "65536", "-f", "4096", img, expect=1)
    assert "too small" in p.stderr
    assert img.read_bytes() == bytes(8 * MB)


def test_newfs_last_group_too_small_is_dropped(bindir: Path,
                                               tmp_path: Path) -> None:
    img = image(tmp_path, size=8 * MB + 64 * 1024)
    p = run(bindir, "newfs", img)
    assert "Warning: 128 sector(s) in last cylinder group unallocated" \
        in p.stdout
    fsck_clean(bindir, img)


# --- the allocator helpers of ffs_subr.c, as the kernel will use them --------

ALLOC_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include "sys/ufs/dinode.h"
#include "sys/ufs/fs.h"

/*
 * Allocate and free blocks and fragments in one group the way 4.4BSD's
 * ffs_alloccg / ffs_blkfree do, updating the counts with ffs_fragacct
 * and ffs_clusteracct; after each step the group must equal what
 * ffs_cgrecount computes from its maps alone.
 */
static union { struct fs fs; char buf[SBSIZE]; } u;

int
main(int argc, char **argv)
{
	struct fs *fs = &u.fs;
	struct cg *cg, *chk;
	u_int8_t *map;
	const char *why;
	FILE *f;
	int c, i, j, k, b, d, nblks, run, ops[3] = {0, 0, 0};

	f = fopen(argv[1], "rb");
	fseek(f, SBOFF, SEEK_SET);
	fread(u.buf, 1, SBSIZE, f);
	if ((why = ffs_sbcheck(fs)) != NULL) {
		printf("superblock: %s\n", why);
		return 1;
	}
	cg = malloc(fs->fs_cgsize);
	chk = malloc(fs->fs_cgsize);
	for (c = 0; c < fs->fs_ncg; c++) {
		fseek(f, (long)cgtod(fs, c) * fs->fs_fsize, SEEK_SET);
		fread(cg, 1, fs->fs_cgsize, f);
		if ((why = ffs_cgcheck(fs, cg, c)) != NULL) {
			printf("cg %d: %s\n", c, why);
			return 1;
		}
	}
	srand(1);
	map = cg_blksfree(cg);
	nblks = cg->cg_ndblk / fs->fs_frag;
	for (i = 0; i < 20000; i++) {
		b = rand() % nblks;
		d = b * fs->fs_frag;
		switch (rand() % 3) {
		case 0:		/* allocate a whole block */
			if (!ffs_isblock(fs, map, b))
				continue;
			ffs_clrblock(fs, map, b);
			ffs_clusteracct(fs, cg, b, -1);
			cg->cg_cs.cs_nbfree--;
			break;
		case 1:		/* free what is allocated in block b */
			if (ffs_isblock(fs, map, b))
				continue;
			for (j = 0; j < fs->fs_frag && isset(map, d + j); j++)
				;
			if (j == fs->fs_frag)
				continue;
			ffs_fragacct(fs, blkmap(fs, map, d), cg->cg_frsum, -1);
			for (j = 0; j < fs->fs_frag; j++)
				if (isclr(map, d + j) && rand() % 2) {
					setbit(map, d + j);
					cg->cg_cs.cs_nffree++;
				}
			ffs_fragacct(fs, blkmap(fs, map, d), cg->cg_frsum, 1);
			if (ffs_isblock(fs, map, b)) {
				cg->cg_cs.cs_nffree -= fs->fs_frag;
				cg->cg_cs.cs_nbfree++;
				ffs_clusteracct(fs, cg, b, 1);
			}
			break;
		case 2:		/* allocate k fragments */
			if (fs->fs_frag == 1)
				continue;
			k = 1 + rand() % (fs->fs_frag - 1);
			if (ffs_isblock(fs, map, b)) {
				ffs_clrblock(fs, map, b);
				ffs_clusteracct(fs, cg, b, -1);
				cg->cg_cs.cs_nbfree--;
				for (j = k; j < fs->fs_frag; j++)
					setbit(map, d + j);
				cg->cg_cs.cs_nffree += fs->fs_frag - k;
				cg->cg_frsum[fs->fs_frag - k]++;
				break;
			}
			for (j = 0, run = 0; j < fs->fs_frag && run < k; j++)
				run = isset(map, d + j) ? run + 1 : 0;
			if (run < k)
				continue;
			ffs_fragacct(fs, blkmap(fs, map, d), cg->cg_frsum, -1);
			for (j -= k; k > 0; j++, k--)
				clrbit(map, d + j);
			cg->cg_cs.cs_nffree -= run;
			ffs_fragacct(fs, blkmap(fs, map, d), cg->cg_frsum, 1);
			break;
		}
		ops[0]++;
		memcpy(chk, cg, fs->fs_cgsize);
		ffs_cgrecount(fs, chk);
		if (memcmp(chk, cg, fs->fs_cgsize) != 0) {
			printf("step %d: counts differ from the maps\n", i);
			return 1;
		}
		if ((why = ffs_cgcheck(fs, cg, c - 1)) != NULL) {
			printf("step %d: %s\n", i, why);
			return 1;
		}
	}
	printf("ok %d steps, nbfree %d nffree %d\n", ops[0],
	    cg->cg_cs.cs_nbfree, cg->cg_cs.cs_nffree);
	return 0;
}
"""


@pytest.mark.parametrize("opts", [["-E"], ["-E", "-b", "8192"],
                                  ["-E", "-f", "4096"], []])
def test_subr_incremental_counts_match_recount(bindir: Path, tmp_path: Path,
                                               opts: list[str]) -> None:
    img = image(tmp_path, size=16 * MB)
    run(bindir, "newfs", *opts, img)
    src = tmp_path / "alloc.c"
    src.write_text(ALLOC_C)
    exe = tmp_path / "alloc"
    subprocess.run(["gcc", "-O2", "-Wall", "-iquote", str(ROOT), "-o",
                    str(exe), str(src), str(ROOT / "ffs" / "ffs_subr.c")],
                   check=True)
    p = subprocess.run([str(exe), str(img)], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout
    assert p.stdout.startswith("ok ")


# --- dumpfs: FFS and EFS -----------------------------------------------------

def test_dumpfs_ffs_versus_efs(bindir: Path, tmp_path: Path,
                               tree: Path) -> None:
    ffs, efs = image(tmp_path, name="ffs.img"), image(tmp_path, name="efs.img")
    run(bindir, "newfs", ffs)
    run(bindir, "newfs", "-E", "-D", tree, efs)
    f = fields(run(bindir, "dumpfs", "-s", ffs).stdout)
    e = fields(run(bindir, "dumpfs", "-s", efs).stdout)
    assert (f["rotdelay"], f["maxcontig"], f["flags"]) == ("4ms", "1", "none")
    assert (e["rotdelay"], e["maxcontig"], e["flags"]) == ("0ms", "16", "EFS")
    assert (f["contigsumsize"], e["contigsumsize"]) == ("0", "16")
    assert f["magic"] == "11954" and f["bsize"] == "4096"
    full = run(bindir, "dumpfs", efs).stdout
    assert "clustersum\t" in full and "\ncg 7:\n" in full
    assert re.search(r"\niused\t0-\d+", full)
    # The cluster maps newfs wrote are the ones fsck_ffs computes.
    fsck_clean(bindir, efs)
    with FFSImage(str(efs)) as fs:
        assert fs.sb.efs and fs.cg(0)["clusteroff"] > 0


def test_dumpfs_prints_one_inode(bindir: Path, tmp_path: Path,
                                 tree: Path, proto: Path) -> None:
    img = image(tmp_path)
    run(bindir, "newfs", "-D", tree, "-P", proto, img)
    with FFSImage(str(img)) as fs:
        ino = fs.lookup("/big")
        di = fs.inode(ino)
        cons = fs.lookup("/dev/sd0a")
    f = fields(run(bindir, "dumpfs", "-i", ino, img).stdout)
    assert f["mode"] == "100644" and f["size"] == str(BIG)
    assert f["db"].split() == [str(b) for b in di.db]
    assert f["ib"].split() == [str(b) for b in di.ib]
    assert f["blocks"] == str(di.blocks)
    assert fields(run(bindir, "dumpfs", "-i", cons, img).stdout)["rdev"] \
        == "4,1"


# --- fsck_ffs repairs -------------------------------------------------------

@pytest.fixture
def fsimg(bindir: Path, tmp_path: Path, tree: Path, proto: Path) -> Path:
    img = image(tmp_path)
    run(bindir, "newfs", "-D", tree, "-P", proto, img)
    return img


def entry(fs: FFSImage, dirpath: str, name: str) -> ffsimage.DirEntry:
    for e in fs.entries(fs.lookup(dirpath)):
        if e.name == name:
            return e
    raise KeyError(name)


def set_entry_ino(img: Path, dirpath: str, name: str, ino: int) -> int:
    """Point a directory entry at another inode; returns the old one."""
    with FFSImage(str(img), writable=True) as fs:
        e = entry(fs, dirpath, name)
        fs.pwrite(e.offset, ino.to_bytes(4, "little"))
        return e.ino


def test_fsck_fixes_a_used_block_marked_free(bindir: Path,
                                             fsimg: Path) -> None:
    with FFSImage(str(fsimg), writable=True) as fs:
        blk = fs.inode(fs.lookup("/etc/motd")).db[0]
        assert not fs.frag_is_free(blk)
        fs.set_frag_free(blk, True)
    fsck_repair(bindir, fsimg, r"BLK\(S\) MISSING IN BIT MAPS\s+SALVAGE\? ")
    with FFSImage(str(fsimg)) as fs:
        assert not fs.frag_is_free(blk)


def test_fsck_fixes_a_free_block_marked_used(bindir: Path,
                                             fsimg: Path) -> None:
    with FFSImage(str(fsimg), writable=True) as fs:
        last = fs.sb.size - 1
        assert fs.frag_is_free(last)
        fs.set_frag_free(last, False)
    fsck_repair(bindir, fsimg, r"BLK\(S\) MISSING IN BIT MAPS")


def test_fsck_fixes_a_wrong_link_count(bindir: Path, fsimg: Path) -> None:
    with FFSImage(str(fsimg), writable=True) as fs:
        ino = fs.lookup("/etc/motd")
        di = fs.inode(ino)
        di.nlink = 5
        fs.write_inode(ino, di)
    fsck_repair(bindir, fsimg,
                rf"LINK COUNT FILE I={ino} .*\n.*COUNT 5 SHOULD BE 1"
                r"\s+ADJUST\? ")
    with FFSImage(str(fsimg)) as fs:
        assert fs.inode(ino).nlink == 1


def test_fsck_reconnects_an_orphan_file(bindir: Path, fsimg: Path) -> None:
    ino = set_entry_ino(fsimg, "/etc", "motd", 0)
    out = fsck_repair(bindir, fsimg, rf"UNREF FILE I={ino} ",
                      r"RECONNECT\? ")
    with FFSImage(str(fsimg)) as fs:
        assert f"#{ino}" in fs.listdir("/lost+found")
        assert fs.read_file(f"/lost+found/#{ino}") == b"hello, world\n"
        assert "motd" not in fs.listdir("/etc")
    assert "LINK COUNT" not in out


def test_fsck_clears_an_empty_orphan(bindir: Path, fsimg: Path) -> None:
    ino = set_entry_ino(fsimg, "/", "empty", 0)
    fsck_repair(bindir, fsimg, rf"UNREF FILE I={ino} ", r"CLEAR\? ")
    with FFSImage(str(fsimg)) as fs:
        assert fs.inode(ino).mode == 0
        assert fs.listdir("/lost+found") == []


def test_fsck_reconnects_an_orphan_directory(bindir: Path,
                                             fsimg: Path) -> None:
    with FFSImage(str(fsimg)) as fs:
        a = fs.lookup("/a")
        links = fs.inode(a).nlink
    ino = set_entry_ino(fsimg, "/a", "b", 0)
    out = fsck_repair(bindir, fsimg, rf"UNREF DIR I={ino} ",
                      r"RECONNECT\? ", rf"LINK COUNT DIR I={a} ",
                      dry=(rf"UNREF DIR I={ino} ", r"CLEAR\? "))
    assert out.count("UNREF DIR") == 1
    with FFSImage(str(fsimg)) as fs:
        assert fs.read_file(f"/lost+found/#{ino}/c/deep") == b"deep\n"
        assert entry(fs, f"/lost+found/#{ino}", "..").ino == \
            ffsimage.LOSTFOUNDINO
        assert fs.inode(a).nlink == links - 1
        assert fs.inode(ffsimage.LOSTFOUNDINO).nlink == 3


def test_fsck_removes_an_entry_to_an_unallocated_inode(
        bindir: Path, fsimg: Path) -> None:
    with FFSImage(str(fsimg)) as fs:
        free_ino = fs.sb.ipg * fs.sb.ncg - 1
        assert fs.inode(free_ino).mode == 0
    old = set_entry_ino(fsimg, "/etc", "motd", free_ino)
    fsck_repair(bindir, fsimg, rf"UNALLOCATED I={free_ino} ",
                r"REMOVE\? ", rf"UNREF FILE I={old} ")
    with FFSImage(str(fsimg)) as fs:
        assert "motd" not in fs.listdir("/etc")
        assert fs.read_file(f"/lost+found/#{old}") == b"hello, world\n"


def test_fsck_removes_an_entry_out_of_range(bindir: Path,
                                            fsimg: Path) -> None:
    old = set_entry_ino(fsimg, "/a/b/c", "deep", 0x7fffffff)
    fsck_repair(bindir, fsimg, r"I OUT OF RANGE", rf"UNREF FILE I={old} ")


def test_fsck_salvages_a_corrupted_directory_chunk(bindir: Path,
                                                   fsimg: Path) -> None:
    with FFSImage(str(fsimg), writable=True) as fs:
        e = entry(fs, "/etc", "file010")
        fs.pwrite(e.offset + 4, (3).to_bytes(2, "little"))  # bad d_reclen
    fsck_repair(bindir, fsimg, r"DIRECTORY CORRUPTED I=\d+ ",
                r"SALVAGE\? ", r"UNREF FILE I=\d+ ")
    with FFSImage(str(fsimg)) as fs:
        assert "file009" in fs.listdir("/etc")
        assert "file010" not in fs.listdir("/etc")


def test_fsck_clears_files_sharing_a_block(bindir: Path,
                                           fsimg: Path) -> None:
    with FFSImage(str(fsimg), writable=True) as fs:
        a, b = fs.lookup("/etc/file001"), fs.lookup("/etc/file002")
        da, db = fs.inode(a), fs.inode(b)
        db.db[0] = da.db[0]
        fs.write_inode(b, db)
    out = fsck_repair(bindir, fsimg, r"\*\* Phase 1b", rf"DUP I={b}",
                      rf"DUP I={a}", r"DUP/BAD", r"REMOVE\? ")
    assert "BAD/DUP FILE" in out
    with FFSImage(str(fsimg)) as fs:
        names = fs.listdir("/etc")
        assert "file001" not in names and "file002" not in names


def test_fsck_clears_a_file_with_a_bad_block(bindir: Path,
                                             fsimg: Path) -> None:
    with FFSImage(str(fsimg), writable=True) as fs:
        ino = fs.lookup("/small")
        di = fs.inode(ino)
        di.db[0] = fs.sb.size + 100
        fs.write_inode(ino, di)
    fsck_repair(bindir, fsimg, rf"\d+ BAD I={ino}", r"DUP/BAD")


def test_fsck_fixes_block_count_and_summaries(bindir: Path,
                                              fsimg: Path) -> None:
    with FFSImage(str(fsimg), writable=True) as fs:
        ino = fs.lookup("/big")
        di = fs.inode(ino)
        good = di.blocks
        di.blocks += 8
        fs.write_inode(ino, di)
        off = ffsimage.SBOFF + ffsimage.FS_FIELDS["cs_nbfree"][0]
        fs.pwrite(off, (fs.sb.cs_nbfree + 7).to_bytes(4, "little"))
    fsck_repair(bindir, fsimg,
                rf"INCORRECT BLOCK COUNT I={ino} \({good + 8} should be "
                rf"{good}\)", r"FREE BLK COUNT\(S\) WRONG IN SUPERBLK")


def test_fsck_fixes_a_directory_missing_dotdot(bindir: Path,
                                               fsimg: Path) -> None:
    with FFSImage(str(fsimg), writable=True) as fs:
        c = fs.lookup("/a/b/c")
        e = entry(fs, "/a/b/c", "..")
        fs.pwrite(e.offset, (fs.lookup("/etc")).to_bytes(4, "little"))
    fsck_repair(bindir, fsimg, rf"BAD INODE NUMBER FOR '\.\.' I={c} ")
    with FFSImage(str(fsimg)) as fs:
        assert entry(fs, "/a/b/c", "..").ino == fs.lookup("/a/b")


def test_fsck_recreates_lost_and_found(bindir: Path, fsimg: Path) -> None:
    """Without a lost+found, fsck_ffs makes one (the old one, now an
    orphan itself, is the first thing reconnected into it)."""
    set_entry_ino(fsimg, "/", "lost+found", 0)
    ino = set_entry_ino(fsimg, "/etc", "motd", 0)
    fsck_repair(bindir, fsimg, r"UNREF DIR I=3 ",
                r"NO lost\+found DIRECTORY\s+CREATE\? ",
                rf"UNREF FILE I={ino} ", dry=(r"UNREF DIR I=3 ",))
    with FFSImage(str(fsimg)) as fs:
        assert fs.listdir("/lost+found") == sorted(["#3", f"#{ino}"])
        assert fs.read_file(f"/lost+found/#{ino}") == b"hello, world\n"
        assert fs.inode(fs.lookup("/lost+found")).nlink == 3


def test_fsck_preen(bindir: Path, fsimg: Path) -> None:
    with FFSImage(str(fsimg), writable=True) as fs:
        ino = fs.lookup("/etc/motd")
        di = fs.inode(ino)
        di.nlink = 3
        fs.write_inode(ino, di)
    p = run(bindir, "fsck_ffs", "-p", fsimg)
    assert "(ADJUSTED)" in p.stdout and "Phase" not in p.stdout
    fsck_clean(bindir, fsimg)
    # Something preen may not fix: it stops and says so.
    set_entry_ino(fsimg, "/etc", "motd", 0x7fffffff)
    p = run(bindir, "fsck_ffs", "-p", fsimg, expect=8)
    assert "UNEXPECTED INCONSISTENCY; RUN fsck_ffs MANUALLY." in p.stdout


def test_fsck_refuses_a_bad_superblock_and_uses_the_backup(
        bindir: Path, fsimg: Path, tree: Path) -> None:
    with FFSImage(str(fsimg), writable=True) as fs:
        fs.pwrite(ffsimage.SBOFF + ffsimage.FS_FIELDS["magic"][0],
                  b"\0\0\0\0")
    p = run(bindir, "fsck_ffs", "-y", fsimg, expect=8)
    assert "BAD SUPER BLOCK: bad magic number" in p.stdout
    assert "fsck_ffs -b 32 " in p.stdout
    p = run(bindir, "fsck_ffs", "-y", "-b", 32, fsimg)
    assert "Alternate super block location: 32" in p.stdout
    assert "UPDATE STANDARD SUPERBLOCK? yes" in p.stdout
    fsck_clean(bindir, fsimg)
    check_tree(fsimg, tree)


def test_fsck_rejects_an_inconsistent_superblock(bindir: Path,
                                                 fsimg: Path) -> None:
    with FFSImage(str(fsimg), writable=True) as fs:
        fs.pwrite(ffsimage.SBOFF + ffsimage.FS_FIELDS["bsize"][0],
                  (12288).to_bytes(4, "little"))
    p = run(bindir, "fsck_ffs", "-n", fsimg, expect=8)
    assert "BAD SUPER BLOCK: bad block size" in p.stdout


def test_fsck_marks_an_unclean_fs_clean(bindir: Path, fsimg: Path) -> None:
    with FFSImage(str(fsimg), writable=True) as fs:
        fs.pwrite(ffsimage.SBOFF + ffsimage.FS_FIELDS["clean"][0], b"\0")
    p = run(bindir, "fsck_ffs", "-n", fsimg)
    assert "MARKED CLEAN" not in p.stdout
    p = run(bindir, "fsck_ffs", "-y", fsimg)
    assert "FILE SYSTEM MARKED CLEAN" in p.stdout
    assert "WAS MODIFIED" not in p.stdout
    with FFSImage(str(fsimg)) as fs:
        assert fs.sb.clean == 1


def test_fsck_repairs_random_damage_in_one_pass(bindir: Path, fsimg: Path,
                                               tmp_path: Path) -> None:
    """Random bytes in inode tables, group blocks and directories: one
    fsck_ffs -y run leaves a file system a second run finds clean (or it
    says that it cannot fix something, and exits 8)."""
    rng = random.Random(4321)
    with FFSImage(str(fsimg)) as fs:
        regions = [(fs.frag_offset(fs.cgimin(c)), 4 * fs.sb.bsize)
                   for c in range(fs.sb.ncg)]
        regions += [(fs.cg_offset(c), fs.sb.cgsize)
                    for c in range(fs.sb.ncg)]
        for d in ("/", "/a", "/a/b", "/etc", "/lost+found"):
            regions.append((fs.frag_offset(fs.inode(fs.lookup(d)).db[0]),
                            fs.sb.fsize))
    pristine = fsimg.read_bytes()
    for _ in range(25):
        data = bytearray(pristine)
        for _ in range(rng.randint(1, 6)):
            off, n = rng.choice(regions)
            pos = off + rng.randrange(n)
            junk = rng.choice([bytes([rng.randrange(256)]), rng.randbytes(4),
                               bytes(rng.randint(1, 64)), rng.randbytes(128)])
            data[pos:pos + len(junk)] = junk
        fsimg.write_bytes(data)
        first = subprocess.run([str(bindir / "fsck_ffs"), "-y", str(fsimg)],
                               capture_output=True, stdin=subprocess.DEVNULL)
        assert first.returncode in (0, 8), first
        if first.returncode == 8:
            assert b"CANNOT FIX" in first.stdout, first.stdout.decode(
                errors="replace")
            continue
        again = subprocess.run([str(bindir / "fsck_ffs"), "-n", str(fsimg)],
                               capture_output=True, stdin=subprocess.DEVNULL)
        assert again.returncode == 0 and b"?" not in again.stdout, (
            first.stdout.decode(errors="replace") + "\n---\n" +
            again.stdout.decode(errors="replace"))


# --- disklabel ----------------------------------------------------------------

def test_disklabel_takes_a_drive_from_disktab(bindir: Path,
                                              tmp_path: Path) -> None:
    """disklabel -w special TYPE: geometry, rpm and size from disktab(5),
    the one qemu/disktab.py makes from the drive profiles; flags win over
    it; a type it does not know is refused, not guessed."""
    from qemu import disktab
    tab = tmp_path / "disktab"
    tab.write_text(disktab.disktab())
    img = image(tmp_path, size=40 * MB)
    run(bindir, "disklabel", "-w", "-f", tab, img, "hp97560")
    label = run(bindir, "disklabel", img).stdout
    for line in ("disk: hp97560", "sectors/track: 72", "tracks/cylinder: 19",
                 "cylinders: 1935", "rpm: 4002"):
        assert line in label, label
    run(bindir, "disklabel", "-w", "-f", tab, "-r", 5400, img, "rz55")
    label = run(bindir, "disklabel", img).stdout
    assert "sectors/track: 36" in label and "rpm: 5400" in label, label
    p = run(bindir, "disklabel", "-w", "-f", tab, img, "hp9756", expect=1)
    assert "hp9756: unknown disk type" in p.stderr, p.stderr


def test_disklabel_geometry_reaches_newfs(bindir: Path,
                                          tmp_path: Path) -> None:
    img = image(tmp_path, size=40 * MB)
    p = run(bindir, "disklabel", img, expect=1)
    assert "no disk label" in p.stdout
    run(bindir, "disklabel", "-w", "-n", 72, "-t", 19, "-r", 4002, img,
        "HP97560")
    label = run(bindir, "disklabel", img).stdout
    assert "disk: HP97560" in label and "sectors/track: 72" in label
    assert "tracks/cylinder: 19" in label and "rpm: 4002" in label
    assert re.search(r"  a:\s+81920\s+0\s+4.2BSD", label)
    assert re.search(r"  c:\s+81920\s+0\s+unused", label)
    p = run(bindir, "newfs", img)
    assert "81920 sectors in 60 cylinders of 19 tracks, 72 sectors" \
        in p.stdout
    f = fields(run(bindir, "dumpfs", "-s", img).stdout)
    assert (f["nsect"], f["ntrak"], f["rps"]) == ("72", "19", "66")
    assert run(bindir, "disklabel", img).stdout == label  # newfs kept it
    fsck_clean(bindir, img)
