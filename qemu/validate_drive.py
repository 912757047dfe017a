"""Validate the drive server against its own model, and print the model's raw figures.

    python3 -m qemu.validate_drive [--profile hp97560] [--requests 10000] [--interarrival-ms 22]
    python3 -m qemu.validate_drive --raw [--profile hp97560] [--gap-ms 0]

Default mode (qemu/DRIVE.md, "Validation": the model against the live server, and
the server's lateness): replay a DiskSim-style synthetic workload (DiskSim 4.0's
validation mix: 50% reads, 30% sequential, 30% local, exponential sizes with an 8 KB
mean, uniform 0-22 ms inter-arrival times) through a live nbdkit server with
open-loop arrivals (a request is sent at its arrival time whether or not earlier ones
have finished; response time = reply - issue), and through the virtual-clock model
with the same issue times. If the disk cannot keep up (the default 0-22 ms mix is
twice what an HP 97560 can serve), sends block once the socket is full and arrivals
slow to the disk's pace; issue times are taken at the actual send for both sides. Prints the demerit figure (RMS horizontal distance between
the two response-time CDFs, in ms and as % of the model's mean) and the server's sleep
lateness (wake - deadline) p50/p99/max. Targets: demerit < 1% of the mean, lateness
p99 < 200 us. These are reported, never asserted (make bench, not make test).

The server and the model share CLOCK_MONOTONIC and the spindle phase (phase_ns=0), so
the model sees the platter where the server did: the demerit measures delivery error
(sleep lateness, socket and interpreter overhead), not rotational luck.

--raw prints what the model expects for back-to-back sequential reads and writes by
transfer size (4 KB .. 1 MB), and the mean random 4 KB / 8 KB access time; the guest
benchmarks print their measurements next to these.
"""

from __future__ import annotations

import argparse
import ctypes
import math
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from qemu import disk, drivemodel

SECTOR = drivemodel.SECTOR


@dataclass
class Request:
    at_ns: int  # arrival, relative to the start of the run
    op: str  # "r" or "w"
    lba: int
    nsect: int


def disksim_workload(n: int, sectors: int, seed: int, max_gap_ms: float = 22.0,
                     mean_kb: float = 8.0, p_read: float = 0.5, p_seq: float = 0.3,
                     p_local: float = 0.3, local_sd: float = 100.0,
                     max_sectors: int = 128) -> list[Request]:
    """DiskSim's validation mix (DRIVE.md, "Validation"); sizes capped at 64 KB like
    the guest."""
    rng = random.Random(seed)
    out = []
    t = 0
    prev_end = 0
    mean_sectors = mean_kb * 1024 / SECTOR
    for _ in range(n):
        t += int(rng.uniform(0.0, max_gap_ms) * 1e6)
        nsect = max(1, min(max_sectors, round(rng.expovariate(1.0 / mean_sectors))))
        u = rng.random()
        if u < p_seq:
            lba = prev_end
        elif u < p_seq + p_local:
            lba = prev_end + round(rng.gauss(0.0, local_sd))  # "variance 10,000 sectors"
        else:
            lba = rng.randrange(sectors)
        lba = max(0, min(sectors - nsect, lba))
        op = "r" if rng.random() < p_read else "w"
        out.append(Request(t, op, lba, nsect))
        prev_end = lba + nsect
    return out


# ----- CDF comparison (Ruemmler and Wilkes' demerit, as DiskSim's src/rms.c computes it) -

def quantile(sorted_xs: list[float], q: float) -> float:
    """Response time at quantile q, linearly interpolated."""
    pos = q * (len(sorted_xs) - 1)
    i = int(pos)
    if i + 1 >= len(sorted_xs):
        return sorted_xs[-1]
    return sorted_xs[i] + (sorted_xs[i + 1] - sorted_xs[i]) * (pos - i)


def demerit(model: list[float], live: list[float], k: int = 10_000) -> float:
    """RMS horizontal distance between the two response-time CDFs."""
    a, b = sorted(model), sorted(live)
    total = 0.0
    for j in range(1, k + 1):
        q = j / k
        total += (quantile(a, q) - quantile(b, q)) ** 2
    return math.sqrt(total / k)


def percentile(xs: list[float], p: float) -> float:
    return quantile(sorted(xs), p / 100.0)


# ----- live run ---------------------------------------------------------------------------

_LIBC = ctypes.CDLL(None, use_errno=True)


class _Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


def sleep_until(t_ns: int) -> None:
    """Absolute CLOCK_MONOTONIC sleep; releases the GIL so the receiver runs freely."""
    ts = _Timespec(t_ns // 1_000_000_000, t_ns % 1_000_000_000)
    while _LIBC.clock_nanosleep(1, 1, ctypes.byref(ts), None) == 4:  # EINTR
        pass


def run_live(server: disk.DiskServer, reqs: list[Request]) -> tuple[list[int], list[int]]:
    """Open-loop replay; returns (issue times, reply times) in ns, per request."""
    client = server.connect()
    issue = [0] * len(reqs)
    reply = [0] * len(reqs)
    payload = bytes(range(256)) * (128 * SECTOR // 256)
    failures: list[BaseException] = []

    def receiver() -> None:
        try:
            for _ in reqs:
                handle, err, _data = client.recv()
                t = time.monotonic_ns()
                if err:
                    raise OSError(err, "request failed")
                reply[handle] = t
        except BaseException as e:  # report in the main thread
            failures.append(e)

    rx = threading.Thread(target=receiver, daemon=True)
    rx.start()
    base = time.monotonic_ns() + 50_000_000
    for i, r in enumerate(reqs):
        sleep_until(base + r.at_ns)
        cmd = disk.CMD_READ if r.op == "r" else disk.CMD_WRITE
        data = b"" if r.op == "r" else payload[: r.nsect * SECTOR]
        issue[i] = time.monotonic_ns()
        client.send(cmd, r.lba * SECTOR, r.nsect * SECTOR, data, handle=i)
    rx.join()
    client.close()
    if failures:
        raise failures[0]
    return issue, reply


def read_lateness(stats_path: str) -> list[int]:
    out = []
    for line in Path(stats_path).read_text().splitlines():
        if line.startswith("#"):
            continue
        f = line.split()
        out.append(int(f[6]) - int(f[5]))  # t_wake - t_done
    return out


def validate(args: argparse.Namespace) -> int:
    profile = drivemodel.get_profile(args.profile, ctrl_ms=args.ctrl_ms)
    if not profile.timed:
        print("validate_drive: pick a timed profile", file=sys.stderr)
        return 2
    reqs = disksim_workload(args.requests, profile.sectors, args.seed, args.interarrival_ms)
    with tempfile.TemporaryDirectory(prefix="validate-") as tmp:
        image = args.image or os.path.join(tmp, f"{profile.name}.img")
        disk.make_image(image, profile.name)
        stats = os.path.join(tmp, "stats.txt")
        print(f"profile {profile.name}: {len(reqs)} requests, inter-arrival "
              f"U(0, {args.interarrival_ms}) ms, live run takes ~"
              f"{reqs[-1].at_ns / 1e9:.0f} s or more ...", flush=True)
        with disk.DiskServer(image, profile.name, stats=stats, ctrl_ms=args.ctrl_ms) as srv:
            issue, reply = run_live(srv, reqs)
        lateness = read_lateness(stats)

    drive = drivemodel.make_drive(profile)  # same phase (0) and clock as the server
    model_resp, live_resp, busy = [], [], 0
    for r, t_issue, t_reply in zip(reqs, issue, reply):
        res = drive.submit(r.op, r.lba, r.nsect, t_issue)
        busy += res.t_done - res.t_start
        model_resp.append((res.t_done - t_issue) / 1e6)
        live_resp.append((t_reply - t_issue) / 1e6)
    span = max(reply) - min(issue)
    mean_model = statistics.fmean(model_resp)
    d = demerit(model_resp, live_resp)
    lat_us = [x / 1e3 for x in lateness]
    print(f"utilization (model)        {busy / span:.2f}"
          + ("   (saturated: queueing dominates the response times; "
             "--interarrival-ms 60 gives about 0.7)" if busy / span > 0.95 else ""))
    print(f"mean response  model {mean_model:9.3f} ms   live {statistics.fmean(live_resp):9.3f} ms")
    print(f"median         model {percentile(model_resp, 50):9.3f} ms   "
          f"live {percentile(live_resp, 50):9.3f} ms")
    print(f"demerit        {d:.4f} ms = {100 * d / mean_model:.3f}% of the mean   "
          f"(target < 1%: {'ok' if d < 0.01 * mean_model else 'MISSED'})")
    print(f"lateness       p50 {percentile(lat_us, 50):.1f} us   p99 {percentile(lat_us, 99):.1f} us"
          f"   max {max(lat_us):.1f} us   over {len(lat_us)} requests   (target p99 < 200 us: "
          f"{'ok' if percentile(lat_us, 99) < 200 else 'NOT REPRESENTATIVE'})")
    return 0


# ----- raw figures (model only) -----------------------------------------------------------

def sequential_rate(profile: drivemodel.Profile, op: str, size: int, gap_ns: int) -> float:
    """MB/s (10^6 bytes/s) for back-to-back sequential transfers of `size` bytes."""
    drive = drivemodel.make_drive(profile)
    nsect = size // SECTOR
    count = max(16, (8 << 20) // size)
    t = 0
    first_start = None
    lba = 0
    for _ in range(count):
        res = drive.submit(op, lba, nsect, t)
        first_start = res.t_start if first_start is None else first_start
        lba += nsect
        t = res.t_done + gap_ns
    return count * size / ((t - gap_ns - first_start) / 1e9) / 1e6


def random_mean_ms(profile: drivemodel.Profile, op: str, size: int, n: int = 4000,
                   seed: int = 1) -> float:
    """Mean service time of isolated random accesses (idle disk, random think times)."""
    rng = random.Random(seed)
    drive = drivemodel.make_drive(profile)
    nsect = size // SECTOR
    t = 0
    total = 0
    for _ in range(n):
        t += rng.randrange(1, 50_000_000)
        res = drive.submit(op, rng.randrange(profile.sectors - nsect), nsect, t)
        total += res.t_done - res.t_start
        t = res.t_done
    return total / n / 1e6


def raw(args: argparse.Namespace) -> int:
    profile = drivemodel.get_profile(args.profile, ctrl_ms=args.ctrl_ms)
    if not profile.timed:
        print("validate_drive: profile none has no timing", file=sys.stderr)
        return 2
    gap = int(args.gap_ms * 1e6)
    print(f"model {profile.name}: sequential transfers back to back (host gap {args.gap_ms} ms), MB/s")
    print(f"{'size':>8} {'read':>8} {'write':>8}")
    for kb in (4, 8, 16, 32, 64, 128, 256, 512, 1024):
        size = kb * 1024
        print(f"{kb:>6}KB {sequential_rate(profile, 'r', size, gap):8.3f} "
              f"{sequential_rate(profile, 'w', size, gap):8.3f}")
    for kb in (4, 8):
        print(f"random {kb} KB access, mean: read {random_mean_ms(profile, 'r', kb * 1024):.2f} ms"
              f"   write {random_mean_ms(profile, 'w', kb * 1024):.2f} ms")
    return 0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--profile", default="hp97560", choices=drivemodel.profile_names())
    ap.add_argument("--ctrl-ms", type=float, default=None,
                    help="controller overhead override (hp97560: 2.2 default, 1.0 [T92])")
    ap.add_argument("--requests", type=int, default=10_000)
    ap.add_argument("--interarrival-ms", type=float, default=22.0,
                    help="inter-arrival times are uniform in [0, this] ms")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--image", help="image to use (default: a temporary sparse file)")
    ap.add_argument("--raw", action="store_true", help="print the model's raw figures")
    ap.add_argument("--gap-ms", type=float, default=0.0,
                    help="--raw: host time between a completion and the next request")
    args = ap.parse_args(argv)
    return raw(args) if args.raw else validate(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
