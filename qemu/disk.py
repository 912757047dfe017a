"""Launch support for timed disks: one nbdkit drive server per disk, and its QEMU args.

API (from qemu import disk):

    profile_names() -> list[str]                      # "hp97560", "rz55", "m2361a", "none"
    profile_sectors(profile: str) -> int | None       # exact image size; None for "none"
    make_image(path, profile, sectors=None) -> int    # create/extend a sparse image; sectors
    FaultSpec(cut_after=None, tear=None, writelog=None)        # from writelog.py

    class DiskServer:                                 # a context manager
        DiskServer(image, profile="none", sock=None, scsi_id=0, name=None,
                   faults=None, log=None, stats=None, ctrl_ms=None, bus="scsi0.0",
                   start_timeout=30.0, plugin_params=None, host_us=None)
          # host_us: the host's share per command that the model forgives
          # (drive.py); None: the calibrated one (qemu/turnaround.py), if any
          # plugin_params: further drive.py key=value settings, e.g. {"spin_us": "150"}
        .start() -> DiskServer        # (also done by `with`) returns once the socket answers
        .stop()                       # SIGTERM nbdkit, wait, remove socket and temp files
        .qemu_args() -> list[str]     # see below
        .identity                     # drivemodel.Identity the guest will see
        .sock, .marker, .log, .stats  # paths (log = nbdkit's stderr; the default one
                                      # lives in a temp dir that stop() removes)
        .cut_happened() -> bool       # the marker file exists (power was cut)
        .wait_for_cut(timeout) -> dict | None   # the marker's JSON, or None on timeout
        .connect() -> NbdClient       # a host-side client, for tests and benchmarks

    qemu_args() returns exactly two options, for example (hp97560, scsi_id=1, name sd1):
        ["-blockdev", "driver=nbd,node-name=sd1,server.type=unix,server.path=/tmp/.../sd1.sock",
         "-device", "scsi-hd,bus=scsi0.0,channel=0,scsi-id=1,lun=0,drive=sd1,vendor=HP,"
                    "product=97560,cyls=1935,heads=19,secs=72,rotation_rate=4002,"
                    "write-cache=off,scsi_version=2"]
    (rz55 adds ver=0900; with a power-cut fault it adds werror=stop,rerror=stop so the
    VM pauses at the first failed request.) The launcher must also pass
    "-device virtio-scsi-pci,id=scsi0" once.

Profile "none" disks also go through nbdkit (so faults and the write log work); their
geometry is derived from the image size (drivemodel.geometry_for_sectors) and they
announce vendor BSDTEACH, product RAMDISK, rotation_rate 1 (non-rotating).

Cleanup: stop() on exit from `with`, at interpreter exit (atexit), and on SIGTERM/SIGHUP
when nobody else handles those; nbdkit also runs with --exit-with-parent, so it dies
with the launcher even on SIGKILL (the socket dir that a SIGKILL leaves behind is
swept by the next launcher's first start()).
"""

from __future__ import annotations

import atexit
import itertools
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Optional

from qemu import drivemodel, turnaround
from qemu.writelog import FaultSpec

_HERE = Path(__file__).resolve().parent
TOP = _HERE.parent
DRIVE_PLUGIN = str(_HERE / "drive.py")
SECTOR = drivemodel.SECTOR

__all__ = ["DiskServer", "FaultSpec", "NbdClient", "NbdError", "make_image",
           "profile_names", "profile_sectors", "DRIVE_PLUGIN"]


def profile_names() -> list[str]:
    return drivemodel.profile_names()


def profile_sectors(profile: str) -> Optional[int]:
    return drivemodel.get_profile(profile).sectors


def make_image(path: str | os.PathLike, profile: str, sectors: Optional[int] = None) -> int:
    """Create or extend `path` as a sparse file of the profile's exact size.

    Existing data is kept. A file larger than the profile's size is an error (we never
    cut data off). For profile "none" pass `sectors`. Returns the size in sectors.
    """
    want = drivemodel.get_profile(profile).sectors
    if want is None:
        if sectors is None:
            raise ValueError("profile none has no fixed size: pass sectors=")
        want = sectors
    elif sectors is not None and sectors != want:
        raise ValueError(f"profile {profile} disks are exactly {want} sectors")
    size = want * SECTOR
    p = Path(path)
    have = p.stat().st_size if p.exists() else 0
    if have > size:
        raise ValueError(f"{p} is {have} bytes, larger than {profile}'s {size}")
    with open(p, "ab") as f:
        f.truncate(size)  # extends with a hole
    return want


# ----- process registry: stop every server on exit -------------------------------------

_live: "set[DiskServer]" = set()
_serial = itertools.count(1)
_live_lock = threading.Lock()
_handlers_installed = False


def _stop_all() -> None:
    with _live_lock:
        servers = list(_live)
    for s in servers:
        s.stop()


def _on_signal(signum: int, frame: object) -> None:
    _stop_all()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)  # die the way the signal meant


def _sweep_stale_dirs() -> None:
    """Remove socket dirs of launchers that died by SIGKILL (nothing else can)."""
    for d in Path(tempfile.gettempdir()).glob("bsddisk-*-*"):
        try:
            pid = int(d.name.split("-")[1])
        except ValueError:
            continue
        if not _alive(pid):
            shutil.rmtree(d, ignore_errors=True)


def _alive(pid: int) -> bool:
    """True if pid runs (a zombie, killed but not yet reaped, counts as dead)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _install_handlers() -> None:
    global _handlers_installed
    if _handlers_installed:
        return
    _handlers_installed = True
    _sweep_stale_dirs()
    atexit.register(_stop_all)
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) == signal.SIG_DFL:  # never override the caller's own
            signal.signal(sig, _on_signal)


def _qemu_escape(value: str) -> str:
    """QEMU option values double their commas."""
    return str(value).replace(",", ",,")


class DiskServer:
    """One nbdkit process serving one image with one drive profile on a Unix socket."""

    def __init__(self, image: str | os.PathLike, profile: str = "none",
                 sock: Optional[str] = None, scsi_id: int = 0, name: Optional[str] = None,
                 faults: Optional[FaultSpec] = None, log: Optional[str] = None,
                 stats: Optional[str] = None, ctrl_ms: Optional[float] = None,
                 bus: str = "scsi0.0", start_timeout: float = 30.0,
                 plugin_params: Optional[dict[str, str]] = None,
                 nbdkit: str = "nbdkit", host_us: Optional[float] = None) -> None:
        self.image = str(Path(image).resolve())
        self.profile = drivemodel.get_profile(profile, ctrl_ms=ctrl_ms)
        self.ctrl_ms = ctrl_ms
        if host_us is None:
            host_us = turnaround.calibrated_host_us() if self.profile.timed else 0.0
        self.host_us = host_us
        self.scsi_id = scsi_id
        self.name = name or f"sd{scsi_id}"
        self.faults = faults
        self.bus = bus
        self.start_timeout = start_timeout
        self.plugin_params = dict(plugin_params or {})
        self.nbdkit = nbdkit
        self._tmpdir: Optional[str] = None
        if sock is None:
            # Unix socket paths must stay under 108 bytes: a short private dir in /tmp,
            # created by start() and removed by stop()
            self._tmpdir = os.path.join(tempfile.gettempdir(),
                                        f"bsddisk-{os.getpid()}-{next(_serial)}")
            sock = os.path.join(self._tmpdir, f"{self.name}.sock")
        self.sock = str(sock)
        self.log = log or (os.path.join(self._tmpdir, f"{self.name}.log") if self._tmpdir
                           else self.sock + ".log")
        self.stats = stats
        self.marker = self.image + ".cut"
        self.pidfile = self.sock + ".pid"
        sectors = os.path.getsize(self.image) // SECTOR
        self.identity = drivemodel.scsi_identity(self.profile, sectors)
        self.proc: Optional[subprocess.Popen] = None

    # ----- lifecycle ---------------------------------------------------------------------

    def command(self) -> list[str]:
        params = [f"image={self.image}", f"profile={self.profile.name}",
                  f"marker={self.marker}"]
        if self.ctrl_ms is not None:
            params.append(f"ctrl_ms={self.ctrl_ms}")
        if self.stats:
            params.append(f"stats={self.stats}")
        if self.host_us:
            params.append(f"host_us={self.host_us:.0f}")
        if self.faults is not None:
            params += self.faults.plugin_params()
        params += [f"{k}={v}" for k, v in self.plugin_params.items()]
        return [self.nbdkit, "-f", "-U", self.sock, "-P", self.pidfile,
                "--exit-with-parent", "python", DRIVE_PLUGIN, *params]

    def environment(self) -> dict[str, str]:
        """nbdkit's environment: ours, with the top of the tree first on
        PYTHONPATH, so that the plugin, which nbdkit runs as a script,
        imports the package qemu as everything else does."""
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(TOP)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
        return env

    def start(self) -> "DiskServer":
        if self.proc is not None:
            return self
        _install_handlers()
        if self._tmpdir is not None:
            os.makedirs(self._tmpdir, mode=0o700, exist_ok=True)
        for stale in (self.sock, self.pidfile, self.marker):
            if os.path.exists(stale):
                os.unlink(stale)
        with open(self.log, "ab") as logf:
            # own session: a terminal's Ctrl-C reaches us, and we stop nbdkit in order
            self.proc = subprocess.Popen(self.command(), stdin=subprocess.DEVNULL,
                                         stdout=logf, stderr=logf, env=self.environment(),
                                         start_new_session=True)
        with _live_lock:
            _live.add(self)
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_ready(self) -> None:
        """Poll until nbdkit has written its pid file and completes a handshake."""
        deadline = time.monotonic() + self.start_timeout
        pause = 0.001
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nbdkit exited with {self.proc.returncode}:\n"
                                   f"{self._log_tail()}")
            if os.path.exists(self.pidfile) and _probe(self.sock):
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"nbdkit did not answer on {self.sock}:\n{self._log_tail()}")
            time.sleep(pause)
            pause = min(pause * 2, 0.05)

    def _log_tail(self) -> str:
        try:
            return Path(self.log).read_text(errors="replace")[-2000:]
        except OSError:
            return "(no log)"

    def stop(self) -> None:
        """Stop nbdkit (it flushes the stats and the write log) and remove its files."""
        proc, self.proc = self.proc, None
        if proc is not None:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        with _live_lock:
            _live.discard(self)
        for path in (self.sock, self.pidfile):
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
        if self._tmpdir is not None:  # our socket dir, with the default log
            shutil.rmtree(self._tmpdir, ignore_errors=True)

    def __enter__(self) -> "DiskServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ----- what the launcher and tests use -----------------------------------------------

    def qemu_args(self) -> list[str]:
        ident = self.identity
        blockdev = (f"driver=nbd,node-name={self.name},server.type=unix,"
                    f"server.path={_qemu_escape(self.sock)}")
        dev = [f"scsi-hd,bus={self.bus},channel=0,scsi-id={self.scsi_id},lun=0",
               f"drive={self.name}", f"vendor={_qemu_escape(ident.vendor)}",
               f"product={_qemu_escape(ident.product)}"]
        if ident.ver:
            dev.append(f"ver={_qemu_escape(ident.ver)}")
        dev += [f"cyls={ident.cyls}", f"heads={ident.heads}", f"secs={ident.secs}",
                f"rotation_rate={ident.rotation_rate}", "write-cache=off",
                f"scsi_version={ident.scsi_version}"]
        if self.faults is not None and self.faults.stops_power:
            dev.append("werror=stop,rerror=stop")  # freeze the guest at the power cut
        return ["-blockdev", blockdev, "-device", ",".join(dev)]

    def cut_happened(self) -> bool:
        return os.path.exists(self.marker)

    def wait_for_cut(self, timeout: float) -> Optional[dict]:
        """The marker's contents once the power has been cut, or None after timeout."""
        deadline = time.monotonic() + timeout
        while not self.cut_happened():
            if time.monotonic() > deadline:
                return None
            time.sleep(0.01)
        return json.loads(Path(self.marker).read_text())

    def connect(self) -> "NbdClient":
        return NbdClient(self.sock)


# ----- a small NBD client (fixed newstyle handshake, NBD_OPT_GO, simple replies) -------

NBD_MAGIC = 0x4E42444D41474943  # "NBDMAGIC"
IHAVEOPT = 0x49484156454F5054  # "IHAVEOPT"
OPT_REPLY_MAGIC = 0x3E889045565A9
REQUEST_MAGIC = 0x25609513
SIMPLE_REPLY_MAGIC = 0x67446698
OPT_ABORT, OPT_GO = 2, 7
REP_ACK, REP_INFO = 1, 3
INFO_EXPORT = 0
CMD_READ, CMD_WRITE, CMD_DISC, CMD_FLUSH = 0, 1, 2, 3
CMD_FLAG_FUA = 1
FLAG_C_FIXED_NEWSTYLE, FLAG_C_NO_ZEROES = 1, 2


class NbdError(OSError):
    """The server answered a request with an error (errno in .errno)."""


def _recv_exact(s: socket.socket, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("NBD server closed the connection")
        buf += chunk
    return bytes(buf)


def _handshake(s: socket.socket) -> None:
    magic, opt_magic, _flags = struct.unpack(">QQH", _recv_exact(s, 18))
    if magic != NBD_MAGIC or opt_magic != IHAVEOPT:
        raise ConnectionError("not a newstyle NBD server")
    s.sendall(struct.pack(">I", FLAG_C_FIXED_NEWSTYLE | FLAG_C_NO_ZEROES))


def _probe(path: str) -> bool:
    """True if an NBD server answers on `path` (handshake, then NBD_OPT_ABORT)."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(2.0)
            s.connect(path)
            _handshake(s)
            s.sendall(struct.pack(">QII", IHAVEOPT, OPT_ABORT, 0))
            return True
    except OSError:
        return False


class NbdClient:
    """Blocking NBD client. send()/recv() allow pipelining (one sender, one receiver)."""

    def __init__(self, path: str, timeout: Optional[float] = 60.0) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        _handshake(self.sock)
        self.size, self.flags = self._go()
        self._next_handle = 1
        self._pending: dict[int, tuple[int, int]] = {}  # handle -> (cmd, length)
        self._lock = threading.Lock()

    def _go(self) -> tuple[int, int]:
        name = b""
        data = struct.pack(">I", len(name)) + name + struct.pack(">H", 0)
        self.sock.sendall(struct.pack(">QII", IHAVEOPT, OPT_GO, len(data)) + data)
        size = flags = None
        while True:
            magic, _opt, rtype, length = struct.unpack(">QIII", _recv_exact(self.sock, 20))
            if magic != OPT_REPLY_MAGIC:
                raise ConnectionError("bad option reply")
            payload = _recv_exact(self.sock, length) if length else b""
            if rtype == REP_INFO and struct.unpack(">H", payload[:2])[0] == INFO_EXPORT:
                size, flags = struct.unpack(">QH", payload[2:12])
            elif rtype == REP_ACK:
                if size is None:
                    raise ConnectionError("server sent no export size")
                return size, flags
            elif rtype & 0x80000000:
                raise ConnectionError(f"NBD_OPT_GO failed: {rtype:#x} {payload!r}")

    def send(self, cmd: int, offset: int, length: int, data: bytes = b"",
             flags: int = 0, handle: Optional[int] = None) -> int:
        """Send one request without waiting for its reply; returns its handle.

        Pass `handle` to choose it (unique among requests in flight), e.g. an index.
        """
        with self._lock:
            if handle is None:
                handle = self._next_handle
                self._next_handle += 1
            self._pending[handle] = (cmd, length)
        head = struct.pack(">IHHQQI", REQUEST_MAGIC, flags, cmd, handle, offset, length)
        self.sock.sendall(head + data if data else head)
        return handle

    def recv(self) -> tuple[int, int, bytes]:
        """Receive the next reply: (handle, errno, data read)."""
        magic, err, handle = struct.unpack(">IIQ", _recv_exact(self.sock, 16))
        if magic != SIMPLE_REPLY_MAGIC:
            raise ConnectionError("bad reply magic")
        with self._lock:
            cmd, length = self._pending.pop(handle)
        data = _recv_exact(self.sock, length) if cmd == CMD_READ and not err else b""
        return handle, err, data

    def _call(self, cmd: int, offset: int, length: int, data: bytes = b"",
              flags: int = 0) -> bytes:
        self.send(cmd, offset, length, data, flags)
        _handle, err, out = self.recv()
        if err:
            raise NbdError(err, f"NBD command {cmd} at {offset}+{length}: {os.strerror(err)}")
        return out

    def read(self, offset: int, length: int) -> bytes:
        return self._call(CMD_READ, offset, length)

    def write(self, offset: int, data: bytes, fua: bool = False) -> None:
        self._call(CMD_WRITE, offset, len(data), data, CMD_FLAG_FUA if fua else 0)

    def flush(self) -> None:
        self._call(CMD_FLUSH, 0, 0)

    def close(self) -> None:
        try:
            self.sock.sendall(struct.pack(">IHHQQI", REQUEST_MAGIC, 0, CMD_DISC, 0, 0, 0))
        except OSError:
            pass
        self.sock.close()

    def __enter__(self) -> "NbdClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
