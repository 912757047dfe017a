"""Host tests of tunefs, and of the file layout dumpfs -i prints.

tunefs changes the allocator's parameters in the superblock of an
unmounted image: dumpfs must show the new values, every cylinder group's
copy must carry them too, fsck_ffs must find nothing wrong, and a bad
argument must leave the image byte for byte as it was.  dumpfs -i lists a
file's blocks as contiguous runs; tests/ffsimage.py reads the same
pointers independently to check them.
"""
from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import pytest

from tests.ffsimage import NDADDR, FFSImage
from tests.host.tools import MB, build_tools, fields, fsck_clean, image, run

TOOLS = ("newfs", "fsck_ffs", "dumpfs", "tunefs")
TUNABLES = ("minfree", "optim", "rotdelay", "maxcontig", "maxbpg", "flags")


@pytest.fixture(scope="session")
def bindir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tools compiled for the host as the Makefile does, warnings as
    errors (extra flags from $FFS_TOOLS_CFLAGS, as test_ffs_tools.py)."""
    return build_tools(tmp_path_factory.mktemp("bin"), TOOLS,
                       "FFS_TOOLS_CFLAGS")


def sha(path: Path) -> str:
    return hashlib.sha1(path.read_bytes()).hexdigest()


def superblocks(img: Path) -> list[bytes]:
    """The primary superblock and every group's copy, fs_sbsize bytes."""
    with FFSImage(str(img)) as fs:
        n = fs.sb.sbsize
        return [fs.pread(8192, n)] + [fs.pread(s * 512, n)
                                      for s in fs.backup_sectors()]


def copy_fields(img: Path) -> list[dict[str, int]]:
    """The tunable fields of each superblock copy, read by ffsimage."""
    out = []
    with FFSImage(str(img)) as fs:
        for s in fs.backup_sectors():
            with FFSImage(str(img), sbsector=s) as copy:
                sb = copy.sb
                out.append({"minfree": sb.minfree, "optim": sb.optim,
                            "rotdelay": sb.rotdelay,
                            "maxcontig": sb.maxcontig, "maxbpg": sb.maxbpg,
                            "flags": sb.flags,
                            "contigsumsize": sb.contigsumsize})
    return out


@pytest.fixture
def ffs(bindir: Path, tmp_path: Path) -> Path:
    img = image(tmp_path, size=16 * MB)
    run(bindir, "newfs", img)
    return img


# --- tunefs ----------------------------------------------------------------

def test_no_option_prints_the_values_and_writes_nothing(bindir: Path,
                                                        ffs: Path) -> None:
    before = sha(ffs)
    out = run(bindir, "tunefs", ffs).stdout
    assert [line.split("\t")[0] for line in out.splitlines()] == \
        list(TUNABLES)
    dump = fields(run(bindir, "dumpfs", "-s", ffs).stdout)
    assert fields(out) == {k: dump[k] for k in TUNABLES}
    assert fields(out)["maxcontig"] == "1" and fields(out)["flags"] == "none"
    assert sha(ffs) == before


def test_changes_reach_the_primary_and_every_copy(bindir: Path,
                                                   ffs: Path) -> None:
    out = run(bindir, "tunefs", "-a", 8, "-d", 0, "-e", 512, "-m", 8,
              "-o", "space", "-c", "on", ffs).stdout
    for line in ("tunefs: maxcontig changes from 1 to 8",
                 "tunefs: rotdelay changes from 4ms to 0ms",
                 "tunefs: maxbpg changes from 1024 to 512",
                 "tunefs: minfree changes from 5% to 8%",
                 "tunefs: optim changes from time to space",
                 "tunefs: flags changes from none to EFS"):
        assert line in out.splitlines(), out
    f = fields(run(bindir, "dumpfs", "-s", ffs).stdout)
    assert (f["maxcontig"], f["rotdelay"], f["maxbpg"], f["minfree"],
            f["optim"], f["flags"]) == ("8", "0ms", "512", "8%", "space",
                                        "EFS")
    assert f["contigsumsize"] == "0"          # fixed by newfs
    copies = copy_fields(ffs)
    assert len(copies) > 1
    for c in copies:
        assert c == {"minfree": 8, "optim": 1, "rotdelay": 0,
                     "maxcontig": 8, "maxbpg": 512, "flags": 1,
                     "contigsumsize": 0}
    sbs = superblocks(ffs)
    assert all(sb == sbs[0] for sb in sbs), "a copy differs from the primary"
    fsck_clean(bindir, ffs)


def test_A_is_accepted_and_changes_the_same(bindir: Path, ffs: Path,
                                            tmp_path: Path) -> None:
    other = tmp_path / "other.img"
    other.write_bytes(ffs.read_bytes())
    run(bindir, "tunefs", "-a", 4, ffs)
    run(bindir, "tunefs", "-A", "-a", 4, other)
    assert sha(ffs) == sha(other)


def test_efs_clustering_can_be_turned_off(bindir: Path,
                                          tmp_path: Path) -> None:
    img = image(tmp_path, size=16 * MB)
    run(bindir, "newfs", "-E", img)
    out = run(bindir, "tunefs", "-c", "off", "-d", 4, img).stdout
    assert "tunefs: flags changes from EFS to none" in out
    f = fields(run(bindir, "dumpfs", "-s", img).stdout)
    assert (f["flags"], f["rotdelay"], f["contigsumsize"]) == \
        ("none", "4ms", "16")
    assert all(c["flags"] == 0 for c in copy_fields(img))
    fsck_clean(bindir, img)


def test_an_unchanged_value_writes_nothing(bindir: Path, ffs: Path) -> None:
    before = sha(ffs)
    out = run(bindir, "tunefs", "-a", 1, "-o", "time", ffs).stdout
    assert "tunefs: maxcontig remains unchanged as 1" in out
    assert "tunefs: optim remains unchanged as time" in out
    assert sha(ffs) == before


@pytest.mark.parametrize("args,hint", [
    (["-a", "2000"], "maxcontig"), (["-a", "-1"], "maxcontig"),
    (["-a", "8x"], "maxcontig"), (["-d", "1001"], "rotdelay"),
    (["-e", "0"], "maxbpg"), (["-m", "100"], "minfree"),
    (["-m", ""], "minfree"), (["-m", "abc"], "minfree"),
    (["-o", "fast"], "space"), (["-c", "maybe"], "on"),
    (["-a", "8", "-m", "100"], "minfree"),    # nothing of a mixed bag
])
def test_bad_arguments_fail_and_leave_the_image_alone(
        bindir: Path, ffs: Path, args: list[str], hint: str) -> None:
    before = sha(ffs)
    p = run(bindir, "tunefs", *args, ffs, expect=1)
    assert p.stderr.startswith("tunefs: ") and hint in p.stderr, p.stderr
    assert sha(ffs) == before


def test_usage_errors(bindir: Path, ffs: Path) -> None:
    assert "usage: tunefs" in run(bindir, "tunefs", expect=1).stderr
    assert "usage: tunefs" in run(bindir, "tunefs", "-x", ffs,
                                  expect=1).stderr
    assert "usage: tunefs" in run(bindir, "tunefs", "-a", 2, ffs, ffs,
                                  expect=1).stderr


def test_a_bad_superblock_is_refused_untouched(bindir: Path,
                                               ffs: Path) -> None:
    with FFSImage(str(ffs), writable=True) as fs:
        fs.pwrite(8192 + 44, (200).to_bytes(4, "little"))   # fs_minfree
    before = sha(ffs)
    p = run(bindir, "tunefs", "-m", 5, ffs, expect=1)
    assert "bad superblock: bad minfree" in p.stderr
    assert sha(ffs) == before


def test_never_writes_what_ffs_sbcheck_rejects(bindir: Path,
                                               tmp_path: Path) -> None:
    """maxcontig below the cluster summary newfs -E chose: tunefs either
    refuses and writes nothing, or (if ffs_sbcheck allows it) writes a
    superblock that dumpfs and fsck_ffs accept."""
    img = image(tmp_path, size=16 * MB)
    run(bindir, "newfs", "-E", img)
    before = sha(img)
    p = run(bindir, "tunefs", "-a", 4, img, expect=None)
    if p.returncode != 0:
        assert p.returncode == 1
        assert "would fail its check" in p.stderr, p.stderr
        assert sha(img) == before
    else:
        f = fields(run(bindir, "dumpfs", "-s", img).stdout)
        assert (f["maxcontig"], f["contigsumsize"]) == ("4", "16")
        fsck_clean(bindir, img)


def test_a_missing_special_fails(bindir: Path, tmp_path: Path) -> None:
    p = run(bindir, "tunefs", "-a", 8, tmp_path / "none.img", expect=1)
    assert "none.img" in p.stderr


# --- dumpfs -i: the file as contiguous runs --------------------------------

RUN = re.compile(r"^run\tlbn (\d+)-(\d+)\tfrag (\d+)-(\d+)\t(\d+) blocks$")
INDIR = re.compile(r"^indir\tlevel (\d)\tfrag (\d+)$")
RUNS = re.compile(r"^runs\t(\d+)\tblocks (\d+)\tlongest (\d+)$")


def layout(bindir: Path, img: Path, ino: int
           ) -> tuple[list[tuple[int, ...]], list[tuple[int, int]],
                      tuple[int, ...]]:
    """dumpfs -i's run lines, indir lines and summary, as numbers."""
    runs, indirs, summary = [], [], None
    for line in run(bindir, "dumpfs", "-i", ino, img).stdout.splitlines():
        if (m := RUN.match(line)):
            runs.append(tuple(map(int, m.groups())))
        elif (m := INDIR.match(line)):
            indirs.append((int(m[1]), int(m[2])))
        elif (m := RUNS.match(line)):
            summary = tuple(map(int, m.groups()))
    assert summary is not None
    return runs, indirs, summary


def check_runs(fs: FFSImage, ino: int, runs: list[tuple[int, ...]],
               summary: tuple[int, ...]) -> None:
    """The runs cover the file's blocks in order, each block where
    ffsimage's bmap finds it, and the summary adds them up."""
    di = fs.inode(ino)
    frag = fs.sb.frag
    nblocks = -(-di.size // fs.sb.bsize)
    assert sum(r[4] for r in runs) == nblocks == summary[1]
    assert summary[0] == len(runs)
    assert summary[2] == max((r[4] for r in runs), default=0)
    lbn = 0
    for lo, hi, first, last, n in runs:
        assert (lo, n) == (lbn, hi - lo + 1)
        for i in range(n):
            assert fs.bmap(di, lo + i) == first + i * frag
        tail = fs.sblksize(di.size, hi) // fs.sb.fsize
        assert last == first + (n - 1) * frag + tail - 1
        lbn = hi + 1


def test_dumpfs_runs_add_up_to_the_file(bindir: Path,
                                        tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    sizes = {"big": 5 * MB + 123,             # double indirect
             "tail": 3 * 4096 + 2500,         # a 3-fragment last block
             "one": 100, "empty": 0}
    for name, size in sizes.items():
        (tree / name).write_bytes(os.urandom(size))
    img = image(tmp_path)
    run(bindir, "newfs", "-D", tree, img)
    with FFSImage(str(img)) as fs:
        for name, size in sizes.items():
            ino = fs.lookup("/" + name)
            runs, indirs, summary = layout(bindir, img, ino)
            check_runs(fs, ino, runs, summary)
            assert summary[1] == -(-size // 4096), name
        big = fs.inode(fs.lookup("/big"))
        bigruns, indirs, _ = layout(bindir, img, fs.lookup("/big"))
    nblocks = -(-sizes["big"] // 4096)
    nindir = 1024
    under_double = -(-(nblocks - NDADDR - nindir) // nindir)
    assert [lvl for lvl, _ in indirs] == [1, 2] + [1] * under_double
    assert indirs[0][1] == big.ib[0] and indirs[1][1] == big.ib[1]
    for _, f in indirs:                       # never counted as data
        assert not any(first <= f <= last for _, _, first, last, _ in
                       bigruns)


def test_dumpfs_runs_of_a_sparse_file(bindir: Path, tmp_path: Path) -> None:
    """Holes end runs; a block past the double indirect range is reached
    through the triple indirect tree, levels 3, 2, 1."""
    tree = tmp_path / "tree"
    tree.mkdir()
    with open(tree / "sparse", "wb") as f:
        f.write(b"a" * 10000)
        f.seek(4_400_000_000)
        f.write(b"tail")
    img = image(tmp_path)
    run(bindir, "newfs", "-D", tree, img)
    with FFSImage(str(img)) as fs:
        ino = fs.lookup("/sparse")
        runs, indirs, summary = layout(bindir, img, ino)
        di = fs.inode(ino)
        assert [(r[0], r[1]) for r in runs] == [(0, 2),
                                                (4_400_000_000 // 4096,) * 2]
        assert [lvl for lvl, _ in indirs] == [3, 2, 1]
        assert indirs[0][1] == di.ib[2]
        assert summary == (2, 4, 3)
        # check_runs wants every block mapped: only the runs' blocks here.
        for lo, hi, first, _, n in runs:
            assert [fs.bmap(di, lo + i) for i in range(n)] == \
                [first + i * fs.sb.frag for i in range(n)]
