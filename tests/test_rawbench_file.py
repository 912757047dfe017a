"""rawbench fwrite and fread, the file passes of bench/fs_bandwidth.py (thesis 7.3).

fwrite writes a fresh file in write(2) calls of -b bytes and fsyncs it; fread reads
it back to the end; each prints one line of name=value fields: what it moved, how
long it took, and sd1's counters for the pass.  Profile "none": nothing here is
timed, so only the bytes and the counters are checked, never a rate.
"""
from __future__ import annotations

import re

SECTOR = 512
FILE_BYTES = 100_000  # not a multiple of either size: the last call is short
METADATA = 32 * 1024  # the inode and indirect blocks a pass may add, generously
BEFORE = "dd if=/dev/rsd1c of=/dev/null bs=65536 count=4"  # 256 KB the pass must not count


def fields(line: str) -> dict[str, str]:
    return dict(re.findall(r"(\w+)=([\d.]+)", line))


def rawbench(guest, args: str, name: str) -> dict[str, str]:
    """Run rawbench on sd1; its last line must be the name line."""
    line = guest.ok(f"rawbench -u 1 {args}").strip().splitlines()[-1]
    assert line.startswith(f"{name} unit=1 "), line
    f = fields(line)
    for key in ("size", "bytes", "usecs", "n", "reads", "writes", "rsectors", "wsectors"):
        assert re.fullmatch(r"\d+", f.get(key, "")), f"no integer {key}= in {line!r}"
    assert re.fullmatch(r"\d+\.\d{3}", f.get("mbps", "")), f"no mbps=N.NNN in {line!r}"
    return f


def test_fwrite_then_fread_move_the_bytes_asked_for(guest):
    guest.ok("newfs -s 8192 /dev/rsd1c > /dev/null && mount /dev/sd1c /mnt")

    guest.ok(BEFORE)
    w = rawbench(guest, f"-b 8192 -t {FILE_BYTES} fwrite /mnt/f", "fwrite")
    assert (w["size"], w["bytes"]) == ("8192", str(FILE_BYTES)), w
    assert int(w["wsectors"]) * SECTOR >= FILE_BYTES, \
        f"fsync returned before the file's data reached sd1: {w}"
    assert int(w["wsectors"]) * SECTOR <= FILE_BYTES + METADATA, \
        f"the counters were not zeroed for the pass (newfs's writes count too): {w}"
    assert int(w["rsectors"]) * SECTOR <= METADATA, \
        f"the counters were not zeroed for the pass (dd's reads count too): {w}"
    assert guest.ok("wc -c < /mnt/f").strip() == str(FILE_BYTES)
    # the writes' part of the pass, before the fsync (thesis figure 7-2)
    assert 0 < int(w.get("write_usecs", "0")) <= int(w["usecs"]), w

    guest.ok("umount /mnt && mount /dev/sd1c /mnt")     # a cold cache
    guest.ok(BEFORE)
    r = rawbench(guest, "-b 4096 fread /mnt/f", "fread")
    assert (r["size"], r["bytes"]) == ("4096", str(FILE_BYTES)), r
    assert int(r["rsectors"]) * SECTOR >= FILE_BYTES, \
        f"the counters missed reads of a file just mounted: {r}"
    assert int(r["rsectors"]) * SECTOR <= FILE_BYTES + METADATA, \
        f"the counters were not zeroed for the pass (dd's reads count too): {r}"
    guest.ok("umount /mnt")


def test_fread_of_a_missing_file_fails_with_its_name(guest):
    out, status = guest.run("rawbench -u 1 fread /nonexistent")
    assert status != 0 and "/nonexistent" in out, (status, out)
