"""Where the time goes between one disk command and the next (issue 23).

The drive model times a command from the moment it reaches the server
(DRIVE.md, E8).  Between the end of command n at the drive (its deadline D)
and the arrival of command n+1 at the model (P), the 1992 host had its
controller overhead and its driver; ours also has QEMU, a socket and a Python
server, and a guest whose CPU is TCG's.  The parts, in the order they follow
each other, with what marks each boundary:

    late     D -> W  the server wakes after the deadline and answers (drive.py)
    reply    W -> I  the answer crosses the socket; QEMU completes the SCSI
                     command and raises the interrupt (trace:
                     virtio_scsi_cmd_resp; the interrupt follows in the same
                     call, as virtio_notify or, with QEMU 7.2's virtio-scsi,
                     virtio_notify_irqfd, which not every completion logs)
    intr     I -> E  the guest takes the interrupt: sd's completion stamp
                     (disk_unbusy).  Longer while a system call runs: the
                     kernel runs them with interrupts off
    guest    E -> K  the guest's own work: its interrupt handler, and whatever
                     it does before it starts the next command (a process
                     woken, a system call, dd's loop)
    kick     K -> S  QEMU turns the guest's notify (trace: virtio_queue_notify)
                     into an NBD request (trace: nbd_send_request)
    request  S -> P  the request crosses the socket; nbdkit and drive.py pick
                     it up (the server's stats: t_pick)

"outside" is late + reply + kick + request: what neither the guest nor the
drive does.  "model" is what the drive model saw of the turnaround: from
the deadline to the start it gave the next command, which is total less
what the server forgave (host_us, DRIVE.md P8).

The three clocks are tied together so: the server's stamps are
CLOCK_MONOTONIC, QEMU's trace lines CLOCK_REALTIME (their difference is
taken at both ends of a run), and the guest's I/O log (iostat -l) counts
microseconds of its TSC since boot, which TCG runs at the host's rate: a
line fitted through (the guest's stamp when it starts command n, QEMU's
notify for it) maps guest time to host time; its residual is reported.
The guest stamps a command before it notifies, so the boundary between
intr and guest is known to the time a command takes to build (tens of us).

    python3 -m qemu.turnaround [--profile hp97560] [--calibrate]

boots a guest with tracing on (tests/guest.py: Guest(trace=True)), runs the
passes of PASSES and prints their split.  bench/raw_disk.py runs the same
passes and puts the split in its report.  --calibrate (make bench does it
first) measures with host_us=0 and writes the host's share, the median over
the passes of reply + kick + request, to build/host-turnaround.json; from
then on every timed drive server forgives it (qemu/disk.py, drive.py
host_us).  "intr" stays out of it: part of it is the guest's own handler.
"""
from __future__ import annotations

import argparse
import bisect
import json
import re
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

# QEMU's trace events that mark the boundaries (its "log" backend writes
# them to the -D file, as PID@SEC.USEC:NAME ARGS with -msg timestamp=on).
TOP = Path(__file__).resolve().parent.parent
CALIBRATION = TOP / "build" / "host-turnaround.json"
HOST_PARTS = ("reply", "kick", "request")   # what --calibrate forgives
QEMU_EVENTS = ("virtio_queue_notify", "virtio_scsi_cmd_resp", "nbd_send_request",
               "nbd_receive_simple_reply", "nbd_receive_structured_reply_chunk")
PARTS = ("late", "reply", "intr", "guest", "kick", "request")
OUTSIDE = ("late", "reply", "kick", "request")

TRACE_LINE = re.compile(r"^\d+@(\d+)\.(\d{6}):(\w+) (.*)$")
SEND = re.compile(r"\.from = (\d+), \.len = (\d+), \.handle = (\d+), .*\.type = (\d+)")
REPLY = re.compile(r"handle = (\d+)")
IOLOG = re.compile(r"^\s*(\d+)\s+(\d+)\s+\d+\s+(\d+)\s+(\d+)\s+([rw])\b")
NBD_READ, NBD_WRITE = 0, 1
SECTOR = 512


@dataclass
class ServerIO:
    op: str
    lba: int
    nsect: int
    pick: int      # ns, CLOCK_MONOTONIC: the model sees the request
    start: int     # the model starts it (the arrival it counts, or the previous end)
    done: int      # the deadline: the drive has finished
    wake: int      # the server wakes and answers


@dataclass
class GuestIO:
    begin_us: int  # guest microseconds since boot: the command starts
    end_us: int    # its completion is taken (disk_unbusy)
    sector: int
    nbytes: int
    op: str


@dataclass
class Trace:
    """QEMU's events, times in ns on the server's clock (CLOCK_MONOTONIC)."""
    notify: list[int] = field(default_factory=list)     # virtio_queue_notify
    irq: list[int] = field(default_factory=list)        # virtio_scsi_cmd_resp
    sends: list[tuple[int, int, int, int, int]] = field(default_factory=list)
    # handle -> its replies' times (QEMU reuses handles): a request's reply
    # is the first with its handle after it was sent
    replies: dict[int, list[int]] = field(default_factory=dict)

    def reply_to(self, handle: int, sent: int) -> Optional[int]:
        times = self.replies.get(handle, [])
        i = bisect.bisect_left(times, sent)
        return times[i] if i < len(times) else None


def read_stats(path: Path) -> list[ServerIO]:
    """drive.py's stats file: op lba nsect t_pick t_start t_done t_wake t_io."""
    out = []
    for line in Path(path).read_text().splitlines():
        f = line.split()
        if not f or f[0].startswith("#") or f[0] not in ("r", "w"):
            continue
        out.append(ServerIO(f[0], int(f[1]), int(f[2]), int(f[3]), int(f[4]), int(f[5]),
                            int(f[6])))
    return out


def read_trace(path: Path, rt_minus_mono_ns: int) -> Trace:
    """QEMU's trace file; rt_minus_mono_ns: CLOCK_REALTIME - CLOCK_MONOTONIC."""
    tr = Trace()
    for line in Path(path).read_text(errors="replace").splitlines():
        m = TRACE_LINE.match(line)
        if m is None:
            continue
        t = (int(m.group(1)) * 1_000_000 + int(m.group(2))) * 1000 - rt_minus_mono_ns
        name, args = m.group(3), m.group(4)
        if name == "virtio_queue_notify":
            tr.notify.append(t)
        elif name == "virtio_scsi_cmd_resp":
            tr.irq.append(t)
        elif name == "nbd_send_request":
            s = SEND.search(args)
            if s:
                tr.sends.append((t, int(s.group(1)), int(s.group(2)), int(s.group(3)),
                                 int(s.group(4))))
        elif (r := REPLY.search(args)) is not None:
            tr.replies.setdefault(int(r.group(1)), []).append(t)
    for times in tr.replies.values():
        times.sort()
    return tr


def read_iolog(text: str) -> list[GuestIO]:
    """iostat -l's log lines: begin_us end_us svc_us sector bytes op."""
    out = []
    for line in text.splitlines():
        m = IOLOG.match(line)
        if m:
            out.append(GuestIO(int(m.group(1)), int(m.group(2)), int(m.group(3)),
                               int(m.group(4)), m.group(5)))
    return out


@dataclass
class Command:
    """One command with every boundary, all in ns on CLOCK_MONOTONIC."""
    g: GuestIO
    s: ServerIO
    kick: int      # K
    send: int      # S
    reply: int     # R: QEMU has the answer
    irq: int       # I


def match(log: list[GuestIO], server: list[ServerIO], tr: Trace,
          before: Optional[int] = None) -> tuple[list[Command], int]:
    """The guest's commands, in order, each with its server request and
    QEMU events; a command whose events are not all found is left out.
    The log is the guest's last commands, so it is matched backwards from
    the server's request before index `before` (the latest, by default:
    the same sectors may have been written by earlier passes).  Returns
    the commands and the server index of the first one matched."""
    out = []
    si = len(server) if before is None else before
    first = si
    sends = sorted(tr.sends)
    send_t = [s[0] for s in sends]
    for g in reversed(log):
        nsect = (g.nbytes + SECTOR - 1) // SECTOR
        at = si - 1
        while at >= 0 and (server[at].op, server[at].lba, server[at].nsect) != \
                (g.op, g.sector, nsect):
            at -= 1
        if at < 0:
            continue            # the server never saw it
        s = server[si := at]
        first = si
        # QEMU's request for it: the last send of these sectors before the pick.
        j = bisect.bisect_right(send_t, s.pick) - 1
        want = (s.lba * SECTOR, s.nsect * SECTOR, NBD_READ if s.op == "r" else NBD_WRITE)
        while j >= 0 and sends[j][1:3] + (sends[j][4],) != want:
            j -= 1
        if j < 0 or (reply := tr.reply_to(sends[j][3], sends[j][0])) is None:
            continue
        send = sends[j][0]
        k = bisect.bisect_right(tr.notify, send) - 1
        i = bisect.bisect_left(tr.irq, reply)
        if k < 0 or i == len(tr.irq):
            continue
        out.append(Command(g, s, tr.notify[k], send, reply, tr.irq[i]))
    out.reverse()
    return out, first


def guest_clock(cmds: list[Command]) -> tuple[float, float, float]:
    """(slope, intercept, residual ns): host ns = slope * guest us + intercept,
    fitted through each command's start stamp and QEMU's notify for it,
    once more without the points more than 3 median deviations off."""
    pts = [(c.g.begin_us, c.kick) for c in cmds]
    for _ in range(2):
        n = len(pts)
        mx = sum(x for x, _ in pts) / n
        my = sum(y for _, y in pts) / n
        sxx = sum((x - mx) ** 2 for x, _ in pts)
        a = sum((x - mx) * (y - my) for x, y in pts) / sxx if sxx else 1000.0
        b = my - a * mx
        res = [abs(y - (a * x + b)) for x, y in pts]
        med = statistics.median(res)
        keep = [p for p, r in zip(pts, res) if r <= 3 * med + 1000]
        if len(keep) < 2 or len(keep) == n:
            break
        pts = keep
    return a, b, statistics.median(res)


@dataclass
class Split:
    """The parts of the turnaround over a pass, in us."""
    name: str
    n: int = 0
    mean: dict[str, float] = field(default_factory=dict)
    median: dict[str, float] = field(default_factory=dict)
    total: float = 0.0     # median D -> P
    outside: float = 0.0   # the sum of the OUTSIDE parts' medians
    model: float = 0.0     # median D -> the model's start of the next command
    residual_us: float = 0.0

    def line(self) -> str:
        parts = "  ".join(f"{p} {self.median.get(p, 0):6.0f}" for p in PARTS)
        return (f"{self.name:<22s} n={self.n:<4d} {parts}   total {self.total:6.0f}  "
                f"outside {self.outside:5.0f}  model {self.model:6.0f}")


def split(name: str, cmds: list[Command]) -> Split:
    """The turnaround after each command that the next one followed alone
    (the disk idle in between, as sd keeps one command at the disk)."""
    sp = Split(name)
    if len(cmds) < 3:
        return sp
    a, b, res = guest_clock(cmds)
    sp.residual_us = res / 1000

    def host(us: int) -> float:
        return a * us + b

    rows = {p: [] for p in PARTS}
    totals, model = [], []
    for c, nxt in zip(cmds, cmds[1:]):
        if nxt.s.pick < c.s.wake or nxt.kick < c.irq:
            continue        # it was waiting already: no turnaround to split
        e = host(c.g.end_us)
        part = {"late": c.s.wake - c.s.done, "reply": c.irq - c.s.wake,
                "intr": e - c.irq, "guest": nxt.kick - e, "kick": nxt.send - nxt.kick,
                "request": nxt.s.pick - nxt.send}
        for p in PARTS:
            rows[p].append(part[p] / 1000)
        totals.append((nxt.s.pick - c.s.done) / 1000)
        model.append((nxt.s.start - c.s.done) / 1000)
    sp.n = len(totals)
    if sp.n:
        # Medians: a pass's first pair spans the setup before it.
        sp.mean = {p: statistics.fmean(v) for p, v in rows.items()}
        sp.median = {p: statistics.median(v) for p, v in rows.items()}
        sp.total = statistics.median(totals)
        sp.outside = sum(sp.median[p] for p in OUTSIDE)
        sp.model = statistics.median(model)
    return sp


# ----- the passes, in a guest ---------------------------------------------------------

# (name, setup, command): each pass runs after "iostat -z 1" and is followed
# by "iostat -l 1".  The file passes make a small file system at the disk's
# start; nothing else is on sd1.
FS_SECTORS = 65536
PASSES = (
    ("raw write 64 KB", None,
     "dd if=/dev/zero of=/dev/rsd1c bs=64k count=64 conv=notrunc"),
    ("raw read 64 KB", None, "dd if=/dev/rsd1c of=/dev/null bs=64k count=64"),
    ("random 1-sector read", None, "rawbench -n 200 random > /dev/null"),
    ("EFS write 4 MB", f"newfs -E -s {FS_SECTORS} /dev/rsd1a > /dev/null && "
     "mount /dev/sd1a /mnt",
     "dd if=/dev/zero of=/mnt/f bs=8k count=512 && fsync /mnt/f"),
    ("LFS write 4 MB", f"umount /mnt && newfs_lfs -S {FS_SECTORS} /dev/rsd1a > /dev/null"
     " && mount -n -t lfs /dev/sd1a /mnt",
     "dd if=/dev/zero of=/mnt/f bs=8k count=512 && fsync /mnt/f"),
)


def clock_offset() -> int:
    """CLOCK_REALTIME - CLOCK_MONOTONIC, in ns, read as close together as can be."""
    best = None
    for _ in range(5):
        m0 = time.monotonic_ns()
        r = time.time_ns()
        m1 = time.monotonic_ns()
        if best is None or m1 - m0 < best[0]:
            best = (m1 - m0, r - (m0 + m1) // 2)
    return best[1]


def run_passes(g, passes=PASSES, log=print) -> list[tuple[str, list[GuestIO]]]:
    """Run each pass in the guest g (booted with trace=True); its I/O log."""
    logs = []
    for name, setup, cmd in passes:
        if setup:
            g.ok(setup, timeout=600)
        g.ok("sync; iostat -z 1 > /dev/null")
        g.ok(cmd, timeout=600)
        logs.append((name, read_iolog(g.ok("iostat -l 1", timeout=120))))
        log(f"  {name}: {len(logs[-1][1])} commands")
    return logs


def analyse(workdir: Path, logs: list[tuple[str, list[GuestIO]]],
            rt_minus_mono_ns: int) -> list[Split]:
    """The split of each pass, once the guest is gone (its files complete)."""
    server = read_stats(workdir / "sd1.stats")
    tr = read_trace(workdir / "qemu.trace", rt_minus_mono_ns)
    splits, before = [], None
    for name, log in reversed(logs):        # each pass before the next one
        cmds, before = match(log, server, tr, before)
        splits.append(split(name, cmds))
    return splits[::-1]


def measure(profile: str, log=print, host_us: Optional[float] = None
            ) -> tuple[list[Split], int]:
    """Boot a traced guest, run PASSES, return their splits and how far the
    two host clocks moved apart during the run (ns).  host_us: what sd1's
    server forgives (None: the calibrated share)."""
    from tests.guest import Guest
    with tempfile.TemporaryDirectory(prefix="turnaround-") as tmp:
        work = Path(tmp)
        off0 = clock_offset()
        with Guest(work, profile=profile, trace=True, host_us=host_us) as g:
            logs = run_passes(g, log=log)
        off1 = clock_offset()
        return analyse(work, logs, (off0 + off1) // 2), off1 - off0


def host_share(splits: list[Split]) -> float:
    """The host's share per command: the median over the passes of the sum
    of HOST_PARTS' medians."""
    return statistics.median(sum(s.median[p] for p in HOST_PARTS)
                             for s in splits if s.n)


def calibrated_host_us() -> float:
    """The share --calibrate measured on this machine, or 0 if none."""
    try:
        return float(json.loads(CALIBRATION.read_text())["host_us"])
    except (OSError, ValueError, KeyError, TypeError):
        return 0.0


def calibrate(profile: str, log=print) -> float:
    """Measure with nothing forgiven and write CALIBRATION; the share."""
    splits, drift = measure(profile, log=log, host_us=0)
    share = host_share(splits)
    CALIBRATION.parent.mkdir(parents=True, exist_ok=True)
    CALIBRATION.write_text(json.dumps({
        "host_us": round(share), "profile": profile,
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "passes": {s.name: {p: round(s.median[p]) for p in PARTS} for s in splits if s.n},
    }, indent=1) + "\n")
    for line in report(splits, drift):
        log(line)
    log(f"host share {share:.0f} us per command (median of {' + '.join(HOST_PARTS)}) "
        f"written to {CALIBRATION}")
    return share


def report(splits: list[Split], drift_ns: int) -> list[str]:
    lines = ["Turnaround between commands, us per command (medians), by part "
             "(qemu/turnaround.py):",
             "  late: server after the deadline; reply: socket and QEMU to the "
             "interrupt; intr: the guest takes it;",
             "  guest: its own work to the next command; kick: QEMU to the NBD "
             "request; request: socket and server.",
             "  outside = late + reply + kick + request.  total = drive done -> "
             "next command at the server;",
             "  model = drive done -> the start the model gave it (total less what "
             "the server forgave, host_us)."]
    lines += ["  " + s.line() + f"  (clock fit +-{s.residual_us:.0f} us)" for s in splits]
    lines.append(f"  the host's realtime and monotonic clocks moved {drift_ns / 1000:.0f} us "
                 "apart during the run")
    return lines


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--profile", default="hp97560")
    ap.add_argument("--calibrate", action="store_true",
                    help=f"measure the host's share and write {CALIBRATION.name}")
    args = ap.parse_args(argv)
    if args.calibrate:
        calibrate(args.profile)
        return 0
    splits, drift = measure(args.profile)
    print("\n".join(report(splits, drift)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
