"""The real nbdkit drive server (qemu/drive.py) driven from the host over NBD.

Fault injection (power cut, torn write, write log + replay) on known write sequences,
and the launch support of qemu/disk.py. Functional checks only: nothing here times
real sleeps (the profile "none" has none; the one timed test asserts data, not time).
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from qemu import disk, writelog
from qemu.disk import DiskServer, FaultSpec, NbdError

TOP = Path(__file__).resolve().parents[2]

SECTOR = 512
NSECT = 256  # test image: 128 KB


def pattern(tag: int, nsect: int) -> bytes:
    """Recognisable data: every byte of a write says which write it came from."""
    return bytes([tag]) * (nsect * SECTOR)


@pytest.fixture
def base(tmp_path: Path) -> Path:
    """A small image whose sector i is filled with (i % 251) + 1, never 0."""
    img = tmp_path / "disk.img"
    img.write_bytes(b"".join(bytes([(i % 251) + 1]) * SECTOR for i in range(NSECT)))
    return img


def apply(image: bytearray, offset: int, data: bytes) -> None:
    image[offset:offset + len(data)] = data


# A write sequence with overlaps; (sector, nsect) per write, write k carries tag k.
WRITES = [(0, 8), (4, 8), (100, 16), (200, 1), (6, 4), (96, 8), (0, 1)]


def expected_after(base_bytes: bytes, n: int, torn: tuple[int, int] | None = None) -> bytes:
    img = bytearray(base_bytes)
    for k, (sector, nsect) in enumerate(WRITES[:n], start=1):
        apply(img, sector * SECTOR, pattern(k, nsect))
    if torn is not None:  # (write number, sectors that landed)
        k, landed = torn
        sector, _ = WRITES[k - 1]
        apply(img, sector * SECTOR, pattern(k, landed))
    return bytes(img)


def do_writes(client: disk.NbdClient, upto: int | None = None) -> list[int | None]:
    """Issue WRITES; returns the errno of each (None = success)."""
    results: list[int | None] = []
    for k, (sector, nsect) in enumerate(WRITES[:upto], start=1):
        try:
            client.write(sector * SECTOR, pattern(k, nsect), fua=True)
            results.append(None)
        except NbdError as e:
            results.append(e.errno)
    return results


# ----- power cut ---------------------------------------------------------------------------


def test_cut_after_loses_that_write_and_all_later(base: Path) -> None:
    original = base.read_bytes()
    with DiskServer(base, "none", faults=FaultSpec(cut_after=3)) as srv:
        with srv.connect() as c:
            assert not srv.cut_happened()
            results = do_writes(c)
            assert results == [None, None] + [errno.EIO] * (len(WRITES) - 2)
            info = srv.wait_for_cut(timeout=5)
            assert info is not None
            assert (info["write"], info["landed_bytes"], info["mode"]) == (3, 0, "cut")
            assert info["offset"] == WRITES[2][0] * SECTOR
            with pytest.raises(NbdError) as e:  # the disk is dead: reads fail too
                c.read(0, SECTOR)
            assert e.value.errno == errno.EIO
            with pytest.raises(NbdError):
                c.flush()
    assert base.read_bytes() == expected_after(original, 2)


def test_marker_absent_without_cut(base: Path) -> None:
    with DiskServer(base, "none", faults=FaultSpec(cut_after=100)) as srv:
        with srv.connect() as c:
            assert do_writes(c) == [None] * len(WRITES)
        assert not srv.cut_happened()
        assert srv.wait_for_cut(timeout=0.05) is None


def test_stale_marker_is_removed_at_start(base: Path) -> None:
    Path(str(base) + ".cut").write_text("{}")
    with DiskServer(base, "none") as srv:
        assert not srv.cut_happened()


def test_torn_write_lands_only_its_first_sectors(base: Path) -> None:
    original = base.read_bytes()
    with DiskServer(base, "none", faults=FaultSpec(tear=(2, 3))) as srv:
        with srv.connect() as c:
            results = do_writes(c)
        assert results == [None] + [errno.EIO] * (len(WRITES) - 1)
        info = srv.wait_for_cut(timeout=5)
        assert (info["write"], info["landed_bytes"], info["mode"]) == (2, 3 * SECTOR, "tear")
    assert base.read_bytes() == expected_after(original, 1, torn=(2, 3))


def test_tear_beyond_write_length_lands_it_all_then_cuts(base: Path) -> None:
    original = base.read_bytes()
    with DiskServer(base, "none", faults=FaultSpec(tear=(4, 5))) as srv:  # write 4: 1 sector
        with srv.connect() as c:
            results = do_writes(c)
        # the whole write landed, but the power failed before its status was sent
        assert results == [None] * 3 + [errno.EIO] * (len(WRITES) - 3)
        assert srv.wait_for_cut(timeout=5)["landed_bytes"] == SECTOR
    assert base.read_bytes() == expected_after(original, 4)


# ----- write log and replay ----------------------------------------------------------------


def test_write_log_replays_every_prefix(base: Path, tmp_path: Path) -> None:
    original = base.read_bytes()
    pristine = tmp_path / "pristine.img"
    pristine.write_bytes(original)
    log = tmp_path / "writes.log"
    with DiskServer(base, "none", faults=FaultSpec(writelog=str(log))) as srv:
        with srv.connect() as c:
            assert do_writes(c) == [None] * len(WRITES)
    records = list(writelog.read_log(str(log)))
    assert [r.seq for r in records] == list(range(1, len(WRITES) + 1))
    assert [(r.offset // SECTOR, r.length // SECTOR) for r in records] == WRITES
    assert all(r.flags & writelog.FLAG_FUA for r in records)
    for n in range(len(WRITES) + 1):
        out = tmp_path / f"replay{n}.img"
        writelog.replay(str(pristine), str(log), n, str(out))
        assert out.read_bytes() == expected_after(original, n), f"prefix {n}"
    assert (tmp_path / f"replay{len(WRITES)}.img").read_bytes() == base.read_bytes()


def test_write_log_with_torn_write_and_cli(base: Path, tmp_path: Path) -> None:
    original = base.read_bytes()
    pristine = tmp_path / "pristine.img"
    pristine.write_bytes(original)
    log = tmp_path / "writes.log"
    with DiskServer(base, "none", faults=FaultSpec(tear=(3, 7), writelog=str(log))) as srv:
        with srv.connect() as c:
            do_writes(c)
    records = list(writelog.read_log(str(log)))
    assert [r.seq for r in records] == [1, 2, 3]
    assert records[-1].flags & writelog.FLAG_TORN
    assert (records[-1].length, records[-1].requested) == (7 * SECTOR, 16 * SECTOR)
    out = tmp_path / "out.img"
    cli = subprocess.run([sys.executable, "-m", "qemu.writelog", "replay",
                          str(pristine), str(log), "3", str(out)],
                         capture_output=True, text=True, check=True, cwd=TOP)
    assert "3 writes" in cli.stdout
    assert out.read_bytes() == base.read_bytes() == expected_after(original, 2, torn=(3, 7))


def test_replay_ignores_a_record_cut_short(base: Path, tmp_path: Path) -> None:
    log = tmp_path / "w.log"
    w = writelog.LogWriter(str(log))
    w.append(1, 0, pattern(1, 1), SECTOR)
    w.append(2, SECTOR, pattern(2, 2), 2 * SECTOR)
    w.close()
    log.write_bytes(log.read_bytes()[:-10])  # as if the server were killed mid-record
    assert [r.seq for r in writelog.read_log(str(log))] == [1]


def test_sparse_copy_keeps_holes(tmp_path: Path) -> None:
    src = tmp_path / "sparse.img"
    with open(src, "wb") as f:
        f.truncate(64 << 20)
        f.seek(32 << 20)
        f.write(b"data")
    dst = tmp_path / "copy.img"
    writelog.sparse_copy(str(src), str(dst))
    assert dst.stat().st_size == 64 << 20
    assert dst.stat().st_blocks * 512 < 1 << 20
    with open(dst, "rb") as f:
        f.seek(32 << 20)
        assert f.read(4) == b"data"


def test_fault_spec_semantics() -> None:
    f = FaultSpec(cut_after=3)
    assert [f.landing_bytes(k, 4096) for k in (1, 2, 3, 4)] == [4096, 4096, 0, 0]
    t = FaultSpec(tear=(2, 3))
    assert [t.landing_bytes(k, 4096) for k in (1, 2, 3)] == [4096, 1536, 0]
    with pytest.raises(ValueError):
        FaultSpec(cut_after=1, tear=(1, 1))
    with pytest.raises(ValueError):
        FaultSpec(cut_after=0)


# ----- launch support ----------------------------------------------------------------------


def test_none_profile_roundtrip_and_cleanup(base: Path) -> None:
    srv = DiskServer(base, "none", scsi_id=3)
    with srv:
        sock = srv.sock
        assert os.path.exists(sock)
        with srv.connect() as c:
            assert c.size == NSECT * SECTOR
            c.write(5 * SECTOR, pattern(9, 2))
            c.flush()
            assert c.read(4 * SECTOR, 4 * SECTOR) == (
                bytes([5]) * SECTOR + pattern(9, 2) + bytes([8]) * SECTOR)
    assert not os.path.exists(sock)
    assert srv.proc is None


def test_qemu_args(tmp_path: Path) -> None:
    img = tmp_path / "hp.img"
    assert disk.make_image(img, "hp97560") == 2_647_080
    srv = DiskServer(img, "hp97560", sock="/tmp/x,y.sock", scsi_id=1, name="sd1")
    assert srv.qemu_args() == [
        "-blockdev",
        "driver=nbd,node-name=sd1,server.type=unix,server.path=/tmp/x,,y.sock",
        "-device",
        "scsi-hd,bus=scsi0.0,channel=0,scsi-id=1,lun=0,drive=sd1,vendor=HP,"
        "product=97560,cyls=1935,heads=19,secs=72,rotation_rate=4002,"
        "write-cache=off,scsi_version=2",
    ]
    rz = tmp_path / "rz.img"
    disk.make_image(rz, "rz55")
    args = DiskServer(rz, "rz55", scsi_id=2, faults=FaultSpec(cut_after=5)).qemu_args()
    assert "vendor=DEC,product=RZ55,ver=0900,cyls=1224,heads=15,secs=36" in args[3]
    assert "scsi_version=1" in args[3] and args[3].endswith("werror=stop,rerror=stop")


def test_none_geometry_in_qemu_args(base: Path) -> None:
    args = DiskServer(base, "none", scsi_id=0).qemu_args()[3]
    assert "vendor=BSDTEACH,product=RAMDISK" in args
    fields = dict(kv.split("=") for kv in args.split(",")[1:])
    assert int(fields["cyls"]) * int(fields["heads"]) * int(fields["secs"]) <= NSECT


def test_make_image(tmp_path: Path) -> None:
    img = tmp_path / "m.img"
    img.write_bytes(b"keep" * 128)
    disk.make_image(img, "m2361a")
    assert img.stat().st_size == 842 * 20 * 64 * SECTOR
    assert img.read_bytes()[:8] == b"keepkeep"
    assert img.stat().st_blocks * 512 < 1 << 20  # sparse
    with pytest.raises(ValueError):
        disk.make_image(img, "rz55")  # larger than an RZ55: never truncated
    with pytest.raises(ValueError):
        disk.make_image(tmp_path / "n.img", "none")  # needs sectors=
    assert disk.make_image(tmp_path / "n.img", "none", sectors=10) == 10
    assert set(disk.profile_names()) == {"hp97560", "rz55", "m2361a", "none"}


def test_timed_profile_rejects_wrong_size(base: Path) -> None:
    with pytest.raises(RuntimeError, match="2647080 sectors"):
        DiskServer(base, "hp97560").start()


def test_timed_profile_serves_data(tmp_path: Path) -> None:
    img = tmp_path / "hp.img"
    disk.make_image(img, "hp97560")
    stats = tmp_path / "stats.txt"
    with DiskServer(img, "hp97560", stats=str(stats)) as srv:
        with srv.connect() as c:
            c.write(1000 * SECTOR, pattern(7, 16), fua=True)
            assert c.read(1000 * SECTOR, 16 * SECTOR) == pattern(7, 16)
            c.flush()
    lines = [ln.split() for ln in stats.read_text().splitlines() if not ln.startswith("#")]
    assert [ln[:3] for ln in lines] == [["w", "1000", "16"], ["r", "1000", "16"], ["f", "0", "0"]]
    for op, lba, n, pick, start, done, wake, t_io in lines:
        assert int(start) <= int(done) <= int(wake)


@pytest.mark.parametrize("host_us", [0, 700])
def test_the_host_share_is_forgiven_on_an_idle_drive(tmp_path: Path, host_us: int) -> None:
    """host_us (DRIVE.md P8): a request that finds the drive idle starts
    host_us (and the server's lateness) before it was picked up, never
    before the previous request's end.  Bookkeeping from the stats, not time."""
    img = tmp_path / "hp.img"
    disk.make_image(img, "hp97560")
    stats = tmp_path / "stats.txt"
    with DiskServer(img, "hp97560", stats=str(stats), host_us=host_us) as srv:
        with srv.connect() as c:
            for lba in (1000, 500000, 2000, 2600000):
                c.read(lba * SECTOR, SECTOR)
                time.sleep(0.002)     # the drive goes idle: the next is not queued
    rows = [[int(x) for x in ln.split()[1:]] for ln in stats.read_text().splitlines()
            if not ln.startswith("#")]
    assert len(rows) == 4
    for (_, _, _, _, done, wake, _), (_, _, pick, start, _, _, _) in zip(rows, rows[1:]):
        assert start == max(done, pick - host_us * 1000 - max(0, wake - done))
        if host_us:
            assert start <= pick - host_us * 1000    # 2 ms idle: more than host_us
