"""iostat(1) and the per-disk counters behind it (thesis 7.2, sys/diskstats.h).

Raw I/O on /dev/rsd1c goes to the disk one read(2) or write(2) at a time
(64 KB or less: one command each), synchronously, so after "iostat -z" a dd
of N blocks must show exactly N commands and N blocks' worth of sectors, and
the I/O log must list them in order.  A longer read goes in 64 KB pieces,
four queued at once (kern/kern_physio.c).  Profile "none": no timing, seconds.
"""
from __future__ import annotations

import re

from tests.fslib import IOSTAT_COLUMNS, iostat_counters

SECTOR = 512


def log_entries(out: str) -> list[dict[str, object]]:
    """iostat -l's I/O log lines: begin, end, service, sector, bytes, op."""
    rows = []
    for line in out.splitlines():
        m = re.fullmatch(r"\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([rw])((?: \w+)*)",
                         line)
        if m:
            begin, end, svc, sector, nbytes = map(int, m.groups()[:5])
            rows.append({"begin": begin, "end": end, "svc": svc, "sector": sector,
                         "bytes": nbytes, "op": m.group(6), "flags": m.group(7).split()})
    return rows


def test_iostat_lists_every_disk(guest):
    table = iostat_counters(guest.ok("iostat"))
    assert set(table) == {"sd0", "sd1"}, table
    assert table["sd0"]["reads"] > 0, "booting read the root disk"


def test_raw_reads_count_exactly_what_dd_read(guest):
    blocks, bsize, skip = 7, 8192, 3
    guest.ok("iostat -z 1")
    assert iostat_counters(guest.ok("iostat 1"))["sd1"] == dict.fromkeys(IOSTAT_COLUMNS, 0), \
        "iostat -z did not zero the counters"
    guest.ok(f"dd if=/dev/rsd1c of=/dev/null bs={bsize} count={blocks} skip={skip}")
    out = guest.ok("iostat -l 1")
    sd1 = iostat_counters(out)["sd1"]
    assert sd1 == {"reads": blocks, "writes": 0, "sreads": blocks, "swrites": 0,
                   "rsectors": blocks * bsize // SECTOR, "wsectors": 0}, out

    log = log_entries(out)
    per = bsize // SECTOR
    assert [e["sector"] for e in log] == [(skip + i) * per for i in range(blocks)], out
    for e in log:
        assert e["op"] == "r" and "sync" in e["flags"] and e["bytes"] == bsize, e
        assert e["end"] >= e["begin"] and e["svc"] == e["end"] - e["begin"], e
    assert all(a["end"] <= b["begin"] for a, b in zip(log, log[1:])), \
        "one command at a time: each I/O begins after the previous one ends"


def test_a_long_raw_read_comes_back_in_order_and_stops_at_the_end(guest):
    """A 1.5 MB read(2) is 24 pieces, four queued at once: the data must come
    back as 64 KB reads give it, in 24 commands; one that runs past the end
    of the disk (64 MB) returns what is there, and nothing after."""
    piece, big = 65536, 24 * 65536
    guest.ok(f"dd if=/dev/rsd0c of=/dev/rsd1c bs={piece} count=24 seek=96 conv=notrunc "
             f"2>/dev/null && dd if=/dev/rsd0c of=/dev/rsd1c bs={piece} count=16 "
             f"seek=1008 skip=40 conv=notrunc 2>/dev/null")
    guest.ok(f"dd if=/dev/rsd1c of=/tmp/pieces bs={piece} skip=96 count=24 2>/dev/null")
    guest.ok("iostat -z 1")
    guest.ok(f"dd if=/dev/rsd1c of=/tmp/whole bs={big} skip=4 count=1 2>/dev/null")
    sd1 = iostat_counters(guest.ok("iostat 1"))["sd1"]
    assert (sd1["reads"], sd1["rsectors"]) == (24, big // SECTOR), sd1
    assert guest.ok("wc -c < /tmp/whole").strip() == str(big)
    out, status = guest.run("diff /tmp/pieces /tmp/whole")
    assert status == 0, f"the pieces came back out of order or wrong: {out}"

    guest.ok(f"dd if=/dev/rsd1c of=/tmp/pieces bs={piece} skip=1008 count=16 2>/dev/null")
    out = guest.ok(f"dd if=/dev/rsd1c of=/tmp/whole bs={big} skip=42 count=2")
    assert "0+1 records in" in out, out
    assert guest.ok("wc -c < /tmp/whole").strip() == str(16 * piece)
    out, status = guest.run("diff /tmp/pieces /tmp/whole")
    assert status == 0, f"the last megabyte came back wrong: {out}"
    guest.ok("rm /tmp/pieces /tmp/whole")


def test_raw_writes_count_exactly_what_dd_wrote(guest):
    blocks, bsize = 5, 4096
    guest.ok("iostat -z 1")
    guest.ok(f"dd if=/dev/zero of=/dev/rsd1c bs={bsize} count={blocks} seek=100 "
             "conv=notrunc")
    out = guest.ok("iostat -n 3 sd1")
    assert iostat_counters(out)["sd1"] == {"reads": 0, "writes": blocks, "sreads": 0,
                                    "swrites": blocks, "rsectors": 0,
                                    "wsectors": blocks * bsize // SECTOR}, out
    log = log_entries(out)
    assert [e["sector"] for e in log] == [(100 + i) * 8 for i in (2, 3, 4)], \
        "-n 3 lists the last three I/Os, oldest first"
    assert all(e["op"] == "w" for e in log), out


def test_bad_unit_is_an_error(guest):
    out, status = guest.run("iostat 7")
    assert status != 0 and "sd7" in out and "not configured" in out, out
    out, status = guest.run("iostat nonsense")
    assert status == 64 and "usage: iostat" in out, out


def test_bad_option_prints_usage(guest):
    out, status = guest.run("iostat -q")
    assert status == 64 and "usage: iostat [-lz] [-n count] [unit ...]" in out, out
