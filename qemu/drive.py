"""nbdkit Python plugin: a raw disk image served with 1992 disk timing and fault injection.

    PYTHONPATH=. nbdkit -f -U SOCK python qemu/drive.py image=IMG profile=hp97560 [key=value ...]

Parameters (all key=value):
    image=PATH        raw image (required). Timed profiles need exactly the profile's
                      size (disk.make_image creates it); profile none takes any size.
    profile=NAME      hp97560 | rz55 | m2361a | none (default none)
    ctrl_ms=F         override the controller overhead (hp97560: 2.2 default, 1.0 [T92],
                      the thesis' table 7-1)
    phase_ns=N        spindle index position at CLOCK_MONOTONIC 0 (default 0)
    stats=PATH        one line per request: op lba nsect t_pick t_start t_done t_wake t_io
                      (ns, CLOCK_MONOTONIC; t_io = image I/O finished, before sleeping)
    spin_us=N|auto    spin (instead of sleeping) for the last N us before a deadline;
                      auto (default): 150 us, raised to the recent p99 sleep overshoot
                      + 50 us (at most 2 ms) on hosts whose timers wake late
    queued_us=N       fallback when the connection socket cannot be found: a request
                      picked up within N us of the previous reply counts as queued (200)
    host_us=N         the host's share of each command's way in and out (QEMU, the
                      socket, nbdkit: qemu/turnaround.py measures it), which the 1992
                      host did not have: a request on an idle drive counts as having
                      arrived that much earlier, and as much earlier again as the
                      server answered the previous one late, never before the previous
                      one's end (DRIVE.md, P8); default 0
    cut_after=N       power fails during write N: writes 1..N-1 land, N and later do not
    tear=N:K          as cut_after=N, but the first K sectors of write N land
    writelog=PATH     log every landed write (format: writelog.py)
    marker=PATH       file written when the power is cut (default IMAGE.cut)

One request at a time, in arrival order (THREAD_MODEL_SERIALIZE_ALL_REQUESTS; no
worker threads, so FIFO: qemu/DRIVE.md, "What nbdkit does"). For each request the
model (drivemodel.py) computes the completion time; the image I/O is done first and
the reply waits until that absolute deadline (DRIVE.md's pitfalls P1, P2). Arrival
times are not observable (P3): when
a deadline passes, the plugin asks the connection socket (FIONREAD) whether the next
request is already waiting; if so, that request started at this deadline, otherwise
at the moment nbdkit hands it over. After a power cut every request fails with
EIO; the marker file (JSON) is written before the first failing reply.
"""

from __future__ import annotations

import builtins
import collections
import ctypes
import errno
import fcntl
import json
import os
import socket
import struct
import termios
import threading
import time
from typing import Optional

import nbdkit  # provided by nbdkit's embedded interpreter

# nbdkit runs this file as a script, in an interpreter whose sys.path does
# not hold the tree: the launcher (disk.DiskServer) starts nbdkit with the
# top of the tree on PYTHONPATH, so the package imports as it does
# everywhere else.  By hand, from the top: PYTHONPATH=. nbdkit ... python
# qemu/drive.py ...
from qemu import drivemodel, writelog

API_VERSION = 2
SECTOR = drivemodel.SECTOR
SPIN_MIN_NS = 150_000  # P1: spin the last ~150 us ...
SPIN_MAX_NS = 2_000_000  # ... but never burn more than 2 ms of CPU per request

# ----- configuration ------------------------------------------------------------------

cfg: dict[str, str] = {}
KNOWN = {"image", "profile", "ctrl_ms", "phase_ns", "stats", "spin_us", "queued_us",
         "host_us", "cut_after", "tear", "writelog", "marker"}


def config(key: str, value: str) -> None:
    if key not in KNOWN:
        raise ValueError(f"drive.py: unknown parameter {key}=; known: {', '.join(sorted(KNOWN))}")
    cfg[key] = value


class Server:
    """Everything the callbacks share; one instance, one arm."""

    def __init__(self) -> None:
        if "image" not in cfg:
            raise ValueError("drive.py: image=PATH is required")
        self.image = cfg["image"]
        ctrl = float(cfg["ctrl_ms"]) if "ctrl_ms" in cfg else None
        self.profile = drivemodel.get_profile(cfg.get("profile", "none"), ctrl_ms=ctrl)
        self.size = os.path.getsize(self.image)
        want = self.profile.sectors
        if want is not None and self.size != want * SECTOR:
            raise ValueError(
                f"drive.py: {self.image} is {self.size} bytes but profile "
                f"{self.profile.name} needs exactly {want * SECTOR} ({want} sectors); "
                f"create it with disk.make_image()")
        if self.size % SECTOR:
            raise ValueError(f"drive.py: {self.image} is not a whole number of sectors")
        self.timed = self.profile.timed
        self.drive = drivemodel.make_drive(self.profile, phase_ns=int(cfg.get("phase_ns", "0")))
        spin = cfg.get("spin_us", "auto")
        self.spin_auto = spin == "auto"
        self.spin_ns = SPIN_MIN_NS if self.spin_auto else int(spin) * 1000
        self.overshoots: collections.deque[int] = collections.deque(maxlen=256)
        self.sleeps = 0
        self.queued_ns = int(cfg.get("queued_us", "200")) * 1000
        self.host_ns = int(float(cfg.get("host_us", "0")) * 1000)
        if self.host_ns < 0:
            raise ValueError("drive.py: host_us must not be negative")
        tear = writelog.parse_tear(cfg["tear"]) if "tear" in cfg else None
        cut = int(cfg["cut_after"]) if "cut_after" in cfg else None
        self.faults = writelog.FaultSpec(cut_after=cut, tear=tear, writelog=cfg.get("writelog"))
        self.marker = cfg.get("marker", self.image + ".cut")
        self.stats_path = cfg.get("stats")
        # runtime state, set up in get_ready()
        self.fd = -1
        self.log: Optional[writelog.LogWriter] = None
        self.stats = None
        self.writes = 0  # write requests seen so far (the fault counter)
        self.cut = False
        self.prev_deadline = 0
        self.prev_return = -(1 << 62)
        self.next_queued = False  # the next request was waiting when the last one ended
        self.conn_fd = -1  # our dup of the connection socket, for FIONREAD
        self.slack_thread = -1

    def get_ready(self) -> None:
        if os.path.exists(self.marker):  # a stale marker would fake a cut
            os.unlink(self.marker)
        self.fd = os.open(self.image, os.O_RDWR)
        if self.faults.writelog:
            self.log = writelog.LogWriter(self.faults.writelog)
        if self.stats_path:
            self.stats = builtins.open(self.stats_path, "w", buffering=1 << 16)
            self.stats.write("# op lba nsect t_pick t_start t_done t_wake t_io "
                             "(ns, CLOCK_MONOTONIC)\n")

    def attach_connection(self) -> None:
        """Find the client's socket (the newest non-listening one) for FIONREAD."""
        self.detach_connection()
        fd = _newest_connection_socket()
        if fd is None:
            nbdkit.debug("drive.py: connection socket not found; queued_us fallback")
        else:
            self.conn_fd = fd

    def detach_connection(self) -> None:
        if self.conn_fd >= 0:
            os.close(self.conn_fd)
            self.conn_fd = -1

    def close(self) -> None:
        self.detach_connection()
        if self.log is not None:
            self.log.close()
        if self.stats is not None and not self.stats.closed:
            self.stats.close()
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    # ----- timing (DRIVE.md pitfalls P1, P2, P3) --------------------------------------

    def set_timer_slack(self) -> None:
        """Timer slack 1 ns for the calling thread (the one that sleeps), once per thread."""
        ident = threading.get_ident()
        if ident != self.slack_thread:
            self.slack_thread = ident
            _prctl(29, 1)  # PR_SET_TIMERSLACK

    def begin(self, op: str, offset: int, length: int) -> tuple[int, int, drivemodel.Result]:
        """Run the model for one request; returns (t_pick, lba, result)."""
        self.set_timer_slack()
        now = time.monotonic_ns()
        # A request that was waiting in the socket when the previous one completed
        # started at that deadline, not now (P3).
        if self.conn_fd >= 0:
            queued = self.next_queued
        else:
            queued = now - self.prev_return < self.queued_ns
        if queued:
            arrival = self.prev_deadline
        else:
            # The host's share, and the server's own lateness, are not the
            # drive's (P8): the request left the guest that much earlier.
            late = max(0, self.prev_return - self.prev_deadline)
            arrival = max(self.prev_deadline, now - self.host_ns - late)
        lba = offset // SECTOR
        nsect = (offset + length + SECTOR - 1) // SECTOR - lba
        if op == "f":
            res = self.drive.flush(arrival)
        else:
            res = self.drive.submit(op, lba, nsect, arrival)
        return now, lba, res

    def finish(self, op: str, lba: int, length: int, t_pick: int,
               res: drivemodel.Result) -> None:
        """Sleep to the absolute deadline, spinning the last spin_ns; record lateness."""
        deadline = res.t_done
        t_io = time.monotonic_ns()
        if deadline - t_io > self.spin_ns:
            target = deadline - self.spin_ns
            _sleep_until(target)
            if self.spin_auto:
                self.calibrate_spin(time.monotonic_ns() - target)
        while time.monotonic_ns() < deadline:
            pass
        wake = time.monotonic_ns()
        self.prev_deadline = deadline
        self.prev_return = wake
        self.next_queued = self.conn_fd >= 0 and _pending_bytes(self.conn_fd) > 0
        if self.stats is not None:
            nsect = (length + SECTOR - 1) // SECTOR
            self.stats.write(f"{op} {lba} {nsect} {t_pick} {res.t_start} {deadline} {wake} {t_io}\n")

    def calibrate_spin(self, overshoot: int) -> None:
        """Spin long enough to cover 99% of the timer's recent wake-up overshoots."""
        self.overshoots.append(overshoot)
        self.sleeps += 1
        if self.sleeps % 32 == 0:
            recent = sorted(self.overshoots)
            p99 = recent[int(0.99 * (len(recent) - 1))]
            self.spin_ns = min(SPIN_MAX_NS, max(SPIN_MIN_NS, p99 + 50_000))

    # ----- faults ----------------------------------------------------------------------

    def check_power(self) -> None:
        if self.cut:
            nbdkit.set_error(errno.EIO)
            raise OSError(errno.EIO, "drive.py: the power is off")

    def power_cut(self, seq: int, offset: int, length: int, landed: int) -> None:
        """Write the marker (atomically), then fail this and every later request."""
        self.cut = True
        if self.log is not None:
            self.log.sync()
        info = {"write": seq, "offset": offset, "length": length,
                "landed_bytes": landed, "mode": "tear" if self.faults.tear else "cut",
                "time_ns": time.monotonic_ns()}
        tmp = self.marker + ".tmp"
        with builtins.open(tmp, "w") as f:
            json.dump(info, f)
            f.flush()
            os.fsync(f.fileno())
        os.rename(tmp, self.marker)
        self.check_power()

    def write(self, buf: memoryview | bytes, offset: int, fua: bool) -> None:
        """One write request: count it, let the fault spec decide what lands, log it."""
        self.writes += 1
        seq = self.writes
        length = len(buf)
        landed = self.faults.landing_bytes(seq, length)
        if landed:
            view = memoryview(buf)[:landed]
            _pwrite_all(self.fd, view, offset)
            if self.log is not None:
                flags = (writelog.FLAG_TORN if landed < length else 0) | \
                        (writelog.FLAG_FUA if fua else 0)
                self.log.append(seq, offset, view, length, flags)
        if seq == self.faults.cut_write:  # the power fails before the status is sent
            self.power_cut(seq, offset, length, landed)


srv: Optional[Server] = None


def _libc() -> Optional[ctypes.CDLL]:
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


_LIBC = _libc()


class _Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


def _prctl(option: int, value: int) -> None:
    if _LIBC is not None:
        _LIBC.prctl(option, ctypes.c_ulong(value), 0, 0, 0)


def _sleep_until(deadline_ns: int) -> None:
    """clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME): no drift from relative sleeps."""
    if _LIBC is None:
        time.sleep(max(0, deadline_ns - time.monotonic_ns()) / 1e9)
        return
    ts = _Timespec(deadline_ns // 1_000_000_000, deadline_ns % 1_000_000_000)
    while _LIBC.clock_nanosleep(1, 1, ctypes.byref(ts), None) == errno.EINTR:
        pass  # CLOCK_MONOTONIC = 1, TIMER_ABSTIME = 1; ctypes releases the GIL


def _pending_bytes(fd: int) -> int:
    """Bytes waiting to be read on a socket (FIONREAD)."""
    try:
        buf = fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0")
    except OSError:
        return 0
    return struct.unpack("i", buf)[0]


def _newest_connection_socket() -> Optional[int]:
    """A dup of the most recently created connected (non-listening) socket.

    nbdkit does not tell plugins their client's fd; socket inode numbers grow, so in
    open() the newest connected socket is the connection being opened.
    """
    best: Optional[tuple[int, int]] = None
    for name in os.listdir("/proc/self/fd"):
        try:
            link = os.readlink(f"/proc/self/fd/{name}")
        except OSError:
            continue
        if not link.startswith("socket:["):
            continue
        inode = int(link[8:-1])
        try:
            sock = socket.socket(fileno=os.dup(int(name)))
        except OSError:
            continue
        try:
            listening = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN)
        except OSError:
            listening = 1
        if listening or (best is not None and best[0] > inode):
            sock.close()
            continue
        if best is not None:
            os.close(best[1])
        best = (inode, sock.detach())
    return None if best is None else best[1]


def _pwrite_all(fd: int, data: memoryview, offset: int) -> None:
    while len(data):
        done = os.pwrite(fd, data, offset)
        data = data[done:]
        offset += done


# ----- nbdkit callbacks ---------------------------------------------------------------

def config_complete() -> None:
    global srv
    srv = Server()


def thread_model() -> int:
    return nbdkit.THREAD_MODEL_SERIALIZE_ALL_REQUESTS


def get_ready() -> None:
    assert srv is not None
    srv.get_ready()


def cleanup() -> None:
    if srv is not None:
        srv.close()


def open(readonly: bool) -> int:  # noqa: A001  (nbdkit's name; shadows builtins.open here)
    assert srv is not None
    srv.set_timer_slack()  # no worker threads: this is the thread that will sleep
    if srv.timed:
        srv.attach_connection()
    return 1


def close(h: int) -> None:
    if srv is not None:
        srv.detach_connection()
        if srv.stats is not None:
            srv.stats.flush()


def get_size(h: int) -> int:
    return srv.size


def block_size(h: int) -> tuple[int, int, int]:
    # 512-byte alignment for QEMU; no small maximum, so QEMU never splits a request
    return (SECTOR, SECTOR, 32 * 1024 * 1024)


def is_rotational(h: int) -> bool:
    return srv.timed


def can_write(h: int) -> bool:
    return True


def can_flush(h: int) -> bool:
    return True


def can_fua(h: int) -> int:
    # every write is already on the platter when it completes (no write cache): P5
    return nbdkit.FUA_NATIVE


def can_trim(h: int) -> bool:
    return False


def can_zero(h: int) -> bool:
    # without it QEMU sends zeroes as ordinary writes: timed, counted and logged (P6)
    return False


def can_multi_conn(h: int) -> bool:
    return False


def can_cache(h: int) -> int:
    return nbdkit.CACHE_NONE


def pread(h: int, buf: bytearray, offset: int, flags: int) -> None:
    s = srv
    s.check_power()
    if not s.timed:
        _pread_into(s.fd, buf, offset)
        return
    t_pick, lba, res = s.begin("r", offset, len(buf))
    _pread_into(s.fd, buf, offset)  # inside the modelled time (P2)
    s.finish("r", lba, len(buf), t_pick, res)


def pwrite(h: int, buf: bytes, offset: int, flags: int) -> None:
    s = srv
    s.check_power()
    fua = bool(flags & nbdkit.FLAG_FUA)
    if not s.timed:
        s.write(buf, offset, fua)
        return
    t_pick, lba, res = s.begin("w", offset, len(buf))
    s.write(buf, offset, fua)  # raises, without waiting, if the power fails now
    s.finish("w", lba, len(buf), t_pick, res)


def flush(h: int, flags: int) -> None:
    s = srv
    s.check_power()
    if s.timed:
        t_pick, lba, res = s.begin("f", 0, 0)
        s.finish("f", 0, 0, t_pick, res)


def _pread_into(fd: int, buf: bytearray, offset: int) -> None:
    view = memoryview(buf)
    while len(view):
        got = os.preadv(fd, [view], offset)
        if got == 0:
            raise OSError(errno.EIO, "drive.py: read past the end of the image")
        view = view[got:]
        offset += got
