"""Damaged disks (issue 14): images made by tests/damage/ with one
targeted damage each (superblock, cylinder groups, inode sizes, block
pointers, link counts, directory entries, LFS summaries and ifile), and
with random damage from seeds.

On the host, fsck -y either repairs an image so that fsck -n then finds
nothing, or says it could not (a nonzero exit with a message); exit 0
leaving problems behind is the bug this guards.  In the guest, each image
is mounted read-only and read-write as a partition of sd1, walked and
read by /usr/tests/fswalk, written to, and unmounted: refusals (EIO and
the like) are fine, a panic or a hang is not.

DAMAGE_SEEDS (default 40) is how many random images per layout each
part takes; make stress sets more.  FOUND_SEEDS are seeds past those that
a wide run found fsck failing on: the host test always takes them too.

A full LFS (the kernel wrote until it refused: only the cleaner's
dlfs_minfreeseg clean segments left) with broken summaries in full
segments: fsck_lfs -y empties them all, a few at a time in rounds when
the clean segments cannot take them at once, and never leaves fewer
clean segments than it found; with no segment to take them it says so,
changes nothing, and the kernel still mounts it.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests import damage
from tests.guest import Guest, GuestError

SEEDS = int(os.environ.get("DAMAGE_SEEDS", "40"))
# make stress (400 seeds): an emptied segment's live blocks with the ifile
# were more than one partial segment, all fsck_lfs -y could write (issue 21)
FOUND_SEEDS = {"lfs": (322, 330)}
BATCH = len(damage.PARTS)       # images per guest: one disk's partitions
STEP_TIMEOUT = 90

# The kernel must never say these about a damaged disk.
FATAL = re.compile(r"panic|trap \d+|assertion|system halted")


def all_cases() -> list[tuple[str, str]]:
    return [(layout, name) for layout in damage.LAYOUTS
            for name in damage.cases_for(layout)]


# --- fsck on the host --------------------------------------------------------

@pytest.mark.parametrize("layout,name", all_cases(),
                         ids=[f"{l}-{n}" for l, n in all_cases()])
def test_fsck_repairs_or_says_it_cannot(tmp_path: Path, layout: str,
                                        name: str):
    """Repaired, unless the case says why -y may only refuse."""
    img = tmp_path / "d.img"
    damage.make_case(layout, name, img)
    c = damage.CASES[name]
    verdict = damage.repair_verdict(layout, img, strict=not c.refused)
    assert verdict is None, f"{name} ({c.why}):\n{verdict}"


@pytest.mark.parametrize("layout", damage.LAYOUTS)
def test_fsck_repairs_random_damage(tmp_path: Path, layout: str):
    """fsck_lfs repairs every image; fsck_ffs may refuse a damaged
    superblock (it names the copy to use)."""
    failures = []
    seeds = sorted(set(range(SEEDS)) | set(FOUND_SEEDS.get(layout, ())))
    for seed in seeds:
        img = tmp_path / "r.img"
        what = damage.make_random(layout, seed, img)
        verdict = damage.repair_verdict(layout, img, strict=layout == "lfs")
        if verdict is not None:
            failures.append(f"seed {seed} ({'; '.join(what)}):\n{verdict}")
    assert not failures, (f"{len(failures)} of {len(seeds)} images:\n" +
                          "\n".join(failures[:3]))


def fsck_lfs_summary(out: str) -> tuple[int, int]:
    """(problems, repaired) of fsck_lfs's last line."""
    m = re.search(r"; (\d+) problems(?:, (\d+) repaired)?$", out.rstrip())
    assert m, out
    return int(m.group(1)), int(m.group(2) or 0)


def test_fsck_lfs_empties_broken_segments_of_a_full_log(tmp_path: Path):
    """Three full segments with broken summaries, two segments' room (one
    the cold log head's choice, which the hot head takes when it is the
    last, as lfs_pickseg does): a round empties what fits, the next
    round empties the rest into the segments the last one freed."""
    img = tmp_path / "full.img"
    broken = damage.make_full(img, 3)
    before = damage.clean_segments(img)
    assert len(before) == damage.Lfs(img).sb.minfreeseg
    y = damage.run_fsck("lfs", img, "-y")
    assert y.returncode == 0, y.stdout + y.stderr
    assert "left for want of room: checking again" in y.stdout, y.stdout
    for sn in broken:
        assert f"segment {sn}: block " in y.stdout
    n = damage.run_fsck("lfs", img, "-n")
    assert n.returncode == 0 and fsck_lfs_summary(n.stdout) == (0, 0), \
        n.stdout
    after = damage.clean_segments(img)
    assert len(after) >= len(before), (before, after)
    assert set(broken) & set(after), (broken, after)


def test_fsck_lfs_says_when_no_segment_can_take_them(tmp_path: Path):
    """No clean segment: -y says it cannot empty the segment, exits 1,
    and writes nothing (the image is as it was)."""
    img = tmp_path / "nofree.img"
    damage.make_full(img, 0, room=False)
    n = damage.run_fsck("lfs", img, "-n")
    assert n.returncode == 0, n.stdout       # consistent before the damage
    [sn] = damage.make_full(img, 1, room=False)
    was = img.read_bytes()
    y = damage.run_fsck("lfs", img, "-y")
    assert y.returncode == 1, y.stdout + y.stderr
    assert (f"{img}: 1 segments with broken summaries not emptied: no room "
            "in the log for their live blocks") in y.stdout
    assert f"note: segment {sn}: no room in the log to empty it" in y.stdout
    assert fsck_lfs_summary(y.stdout) == (1, 0)
    assert img.read_bytes() == was


# --- the kernel on damaged disks ---------------------------------------------

def walk_partition(g: Guest, layout: str, part: str,
                   clean: bool = False) -> list[str]:
    """Mount, walk, write, unmount one partition; what went wrong.  A
    clean one (repaired by fsck) must walk without an error and check
    clean after the kernel wrote to it."""
    t = "-t lfs " if layout == "lfs" else ""
    log = []
    for mode, opts, walk in (("ro", "-r ", "fswalk"),
                             ("rw", "", "fswalk -w")):
        mnt = f"/tmp/{part}{mode}"
        out, status = g.run(f"mkdir {mnt}; mount {opts}{t}/dev/sd1{part} "
                            f"{mnt}", STEP_TIMEOUT)
        log.append(f"mount {mode}: {status} {out.strip()[-300:]}")
        if status != 0:
            continue
        out, status = g.run(f"/usr/tests/{walk} {mnt}", STEP_TIMEOUT)
        log.append(f"{walk}: {out.strip()[-600:]}")
        if "fswalk: walked" not in out:
            log.append("FAILED: fswalk did not finish")
        elif clean and "; 0 errors" not in out:
            log.append("FAILED: errors walking a repaired file system")
        out, status = g.run(f"umount {mnt} || umount {mnt}", STEP_TIMEOUT)
        log.append(f"umount: {status} {out.strip()[-300:]}")
        if status != 0:
            log.append("FAILED: umount")
    if clean:
        out, status = g.run(f"{damage.fsck_tool(layout)} -n /dev/rsd1{part}",
                            STEP_TIMEOUT)
        log.append(f"fsck -n: {status} {out.strip()[-600:]}")
        if status != 0:
            log.append("FAILED: fsck -n after the kernel wrote to it")
    return log


def run_batch(guests, workdir: Path, layout: str,
              images: list[tuple[str, Path]], clean: bool = False) -> None:
    """One guest whose sd1 holds the images as partitions: each walked."""
    disk = workdir / "sd1.img"
    parts = damage.assemble([p for _, p in images], disk)
    g = guests.boot(workdir, sd1=disk)
    failures = []
    current = "boot"
    try:
        for (label, _), part in zip(images, parts):
            current = f"{label} (sd1{part})"
            log = walk_partition(g, layout, part, clean)
            if any(l.startswith("FAILED") or FATAL.search(l) for l in log):
                failures.append(f"{current}:\n  " + "\n  ".join(log))
    except GuestError as e:
        failures.append(f"{current}: the guest stopped answering "
                        f"(panic or hang):\n{e}")
    g.close()           # before the next batch's guest starts
    assert not failures, "\n".join(failures)


def batches(items: list, n: int) -> list[list]:
    return [items[i:i + n] for i in range(0, len(items), n)]


def targeted_batches() -> list[tuple[str, list[str]]]:
    out = []
    for layout in damage.LAYOUTS:
        for b in batches(damage.cases_for(layout), BATCH):
            out.append((layout, b))
    return out


@pytest.mark.parametrize("layout,names", targeted_batches(),
                         ids=[f"{l}-{n[0]}..{n[-1]}"
                              for l, n in targeted_batches()])
def test_kernel_survives_targeted_damage(guests, tmp_path: Path, layout: str,
                                         names: list[str]):
    images = []
    for name in names:
        img = tmp_path / f"{name}.img"
        damage.make_case(layout, name, img)
        images.append((name, img))
    run_batch(guests, tmp_path, layout, images)


@pytest.mark.parametrize("layout", damage.LAYOUTS)
def test_kernel_survives_random_damage(guests, tmp_path: Path, layout: str):
    nseeds = max(BATCH, SEEDS // 8)
    for batch in batches(list(range(nseeds)), BATCH):
        d = tmp_path / f"b{batch[0]}"
        d.mkdir()
        images = []
        for seed in batch:
            img = d / f"seed{seed}.img"
            what = damage.make_random(layout, seed, img)
            images.append((f"seed {seed} ({'; '.join(what)})", img))
        run_batch(guests, d, layout, images)


@pytest.mark.parametrize("layout", damage.LAYOUTS)
def test_the_kernel_reads_what_fsck_repaired(guests, tmp_path: Path,
                                             layout: str):
    """Randomly damaged images repaired by fsck -y on the host: the kernel
    walks each without an error, writes to it, and fsck -n then finds
    it clean (an image -y refused is left out)."""
    images = []
    for seed in range(SEEDS):
        img = tmp_path / f"seed{seed}.img"
        what = damage.make_random(layout, seed, img)
        if damage.run_fsck(layout, img, "-y").returncode == 0:
            images.append((f"seed {seed} ({'; '.join(what)})", img))
        if len(images) == BATCH:
            break
    assert len(images) == BATCH
    run_batch(guests, tmp_path, layout, images, clean=True)


def test_the_kernel_on_full_logs_fsck_repaired_or_left(guests,
                                                       tmp_path: Path):
    """The full log -y emptied three segments of, in rounds: the kernel
    walks it without an error, writes to it, and fsck -n finds it clean.
    The one -y could not empty a segment of for want of room: the kernel
    mounts it read-only and walks it."""
    repaired = tmp_path / "repaired.img"
    damage.make_full(repaired, 3)
    assert damage.run_fsck("lfs", repaired, "-y").returncode == 0
    left = tmp_path / "left.img"
    damage.make_full(left, 1, room=False)
    assert damage.run_fsck("lfs", left, "-y").returncode == 1
    disk = tmp_path / "sd1.img"
    parts = damage.assemble([repaired, left], disk)
    g = guests.boot(tmp_path, sd1=disk)
    try:
        logs = {"repaired": walk_partition(g, "lfs", parts[0], clean=True),
                "left": walk_partition(g, "lfs", parts[1])}
    finally:
        g.close()
    failures = [f"{name}:\n  " + "\n  ".join(log)
                for name, log in logs.items()
                if any(l.startswith("FAILED") or FATAL.search(l)
                       for l in log)]
    assert not failures, "\n".join(failures)
    assert logs["left"][0].startswith("mount ro: 0"), logs["left"]
    walk = logs["left"][1]
    assert "fswalk: walked" in walk and "; 0 errors" in walk, logs["left"]
