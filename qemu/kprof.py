"""A sampling profiler for the guest, through QEMU's GDB stub.

    python3 -m qemu boot --gdb            (make qemu-gdb), then elsewhere:
    python3 -m qemu kprof [--seconds S] [--hz H] [--user build/root/bin/tpcb]

or on a guest of its own, for as long as one command runs in it:

    python3 -m qemu kprof --setup 'CMD; ...' --run CMD [--disk none] [--mem 16]

Every 1/H seconds it stops the machine, reads the registers and walks the
frame-pointer chain (the kernel and userland are built with
-fno-omit-frame-pointer), then lets the machine run on.  It prints where the
CPU was (self) and which functions were on the stack (inclusive), for the
kernel (CPL 0) and for user programs (CPL 3, named from --user's symbols).

The guest's clocks stop while it is stopped, but a timed disk's do not (the
drive model runs on the host's time), so profile on the untimed disk
(--disk none, --run's default): that shows the CPU alone, which is what a
profile is for.  It is the way to find where a benchmark's CPU goes before
tuning it.
"""
from __future__ import annotations

import argparse
import bisect
import collections
import socket
import struct
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from qemu import launch

KERNEL = launch.TOP / "build" / "kernel"
KERNBASE = 0xC0000000


class Stub:
    """Just enough of the GDB remote protocol to sample a running machine."""

    def __init__(self, port: int, host: str = "127.0.0.1", timeout: float = 30.0):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        # Small packets both ways: without these, Nagle and delayed ACKs
        # cost 40 ms a round trip.
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""
        self.acks = True
        self.timeout = timeout
        # QEMU stops the machine when a debugger connects, and says so
        # unasked; then '?' is answered too.  Both are read here, so that
        # each interrupt from now on has exactly one stop reply: one left
        # over would pass for the next, and a command sent while the
        # machine still runs is lost (its first byte only stops it).
        self.send("?")
        self._reply()
        self._drain()
        if self.command("QStartNoAckMode") == "OK":
            self.acks = False

    def _drain(self, seconds: float = 0.3) -> None:
        """Read and drop the packets that come within seconds."""
        self.sock.settimeout(seconds)
        try:
            while True:
                self._reply()
        except socket.timeout:
            pass
        finally:
            self.sock.settimeout(self.timeout)

    def close(self) -> None:
        self.sock.close()

    def _byte(self) -> int:
        if not self.buf:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("the GDB stub closed the connection")
            self.buf = data
        b, self.buf = self.buf[0], self.buf[1:]
        return b

    def _reply(self) -> str:
        """The next packet's payload (acknowledged), skipping acks."""
        while self._byte() != ord("$"):
            pass
        payload = bytearray()
        while (b := self._byte()) != ord("#"):
            payload.append(b)
        self._byte(), self._byte()  # the checksum: TCP does not lose bytes
        if self.acks:
            self.sock.sendall(b"+")
        return payload.decode("latin-1")

    def send(self, cmd: str) -> None:
        data = cmd.encode("latin-1")
        self.sock.sendall(b"$%s#%02x" % (data, sum(data) & 0xFF))

    def command(self, cmd: str) -> str:
        self.send(cmd)
        return self._reply()

    def stop(self) -> None:
        self.sock.sendall(b"\x03")
        self._reply()               # the stop reply (T02...)

    def resume(self) -> None:
        self.send("c")              # no reply until the next stop

    def registers(self) -> tuple[int, int, int, int]:
        """(eip, ebp, esp, cs): QEMU's i386 'g' order is eax ecx edx ebx esp
        ebp esi edi eip eflags cs ..., each little-endian."""
        g = bytes.fromhex(self.command("g")[:88])
        r = struct.unpack("<11I", g)
        return r[8], r[5], r[4], r[10]

    def read(self, addr: int, n: int) -> Optional[bytes]:
        reply = self.command(f"m{addr:x},{n:x}")
        if not reply or reply.startswith("E"):
            return None
        return bytes.fromhex(reply)


def stack(stub: Stub, depth: int) -> tuple[int, tuple[int, ...]]:
    """(CPL, PCs innermost first) of the stopped machine: the frame-pointer
    chain, as far as it goes in the same privilege level."""
    eip, ebp, _, cs = stub.registers()
    cpl = cs & 3
    pcs = [eip]
    kernel = cpl == 0
    while len(pcs) < depth and ebp and ((ebp >= KERNBASE) == kernel):
        frame = stub.read(ebp, 8)
        if frame is None:
            break
        next_ebp, ret = struct.unpack("<II", frame)
        if ret == 0:
            break
        pcs.append(ret)
        if next_ebp <= ebp:         # the chain must climb the stack
            break
        ebp = next_ebp
    return cpl, tuple(pcs)


class Symbols:
    """An ELF's function symbols (nm -n), for naming PCs."""

    def __init__(self, elf: Path):
        out = subprocess.run(["nm", "-n", str(elf)], capture_output=True,
                             text=True, check=True).stdout
        self.addrs: list[int] = []
        self.names: list[str] = []
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "tTwW":
                self.addrs.append(int(parts[0], 16))
                self.names.append(parts[2])

    def name(self, pc: int) -> str:
        i = bisect.bisect_right(self.addrs, pc) - 1
        return self.names[i] if i >= 0 else f"{pc:#x}"


@dataclass
class Profile:
    samples: list[tuple[int, tuple[int, ...]]]
    seconds: float


def sample(port: int, seconds: float, hz: float = 200.0, depth: int = 12,
           until=None) -> Profile:
    """Samples of the machine behind the GDB stub on port, for seconds (or
    until until() says so, checked at every sample)."""
    stub = Stub(port)
    got: list[tuple[int, tuple[int, ...]]] = []
    t0 = time.monotonic()
    try:
        stub.resume()
        while time.monotonic() - t0 < seconds and not (until and until()):
            time.sleep(1.0 / hz)
            stub.stop()
            got.append(stack(stub, depth))
            stub.resume()
        stub.stop()
        stub.command("D")           # detach: the machine runs on
    finally:
        stub.close()
    return Profile(got, time.monotonic() - t0)


def report(prof: Profile, kernel: Symbols, user: Optional[Symbols] = None,
           top: int = 25, focus: Optional[str] = None) -> str:
    """Self and inclusive shares by function, kernel and user apart; with
    focus, only the samples with that function on the stack, as shares of
    all samples."""
    n = len(prof.samples)
    if n == 0:
        return "no samples"
    own: collections.Counter = collections.Counter()
    incl: collections.Counter = collections.Counter()
    cpl3 = 0
    for cpl, pcs in prof.samples:
        syms = kernel if cpl == 0 else user
        tag = "" if cpl == 0 else "user:"
        cpl3 += cpl != 0
        names = [tag + (syms.name(pc) if syms else f"{pc:#x}") for pc in pcs]
        if focus is not None and focus not in names:
            continue
        own[names[0]] += 1
        for name in set(names):
            incl[name] += 1
    lines = [f"{n} samples in {prof.seconds:.1f} s: kernel {100 * (n - cpl3) / n:.1f}%, "
             f"user {100 * cpl3 / n:.1f}%"
             + (f"; those with {focus} on the stack: {100 * incl[focus] / n:.1f}%"
                if focus else ""), "",
             f"{'self %':>7}  function"]
    lines += [f"{100 * c / n:7.1f}  {name}" for name, c in own.most_common(top)]
    lines += ["", f"{'incl %':>7}  function (on the stack)"]
    lines += [f"{100 * c / n:7.1f}  {name}" for name, c in incl.most_common(top)]
    return "\n".join(lines)


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--port", type=int, default=launch.gdb_port(),
                    help="the GDB stub's port (default: make qemu-gdb's)")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--hz", type=float, default=200.0)
    ap.add_argument("--depth", type=int, default=12, help="frames per sample")
    ap.add_argument("--kernel", type=Path, default=KERNEL)
    ap.add_argument("--user", type=Path, help="the user program's ELF, to name its PCs")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--focus", metavar="FUNCTION",
                    help="only the samples with FUNCTION on the stack")
    # dest runcmd: the launcher's subcommands keep their function in args.run
    ap.add_argument("--run", metavar="CMD", dest="runcmd", help="boot a guest of its own and "
                    "sample it while CMD runs there (the whole of it)")
    ap.add_argument("--setup", metavar="CMD", default="",
                    help="with --run: a command line to run before, not sampled")
    ap.add_argument("--disk", default="none",
                    help="with --run: sd1's drive profile (none: untimed, the CPU alone)")
    ap.add_argument("--mem", type=int, default=16, help="with --run: guest MB")
    ap.add_argument("--sectors", type=int, default=600000,
                    help="with --run: sd1's size (untimed disk)")


def run_in_guest(args: argparse.Namespace) -> tuple[Profile, str]:
    """Boot a guest with a GDB stub, run --setup, then sample it while --run
    runs; the samples and --run's output."""
    from tests.guest import Guest, free_port
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="kprof-") as tmp:
        with Guest(Path(tmp), profile=args.disk, mem=args.mem, gdb_port=port,
                   sd1_sectors=args.sectors) as g:
            if args.setup:
                g.ok(args.setup, timeout=3600)
            done = threading.Event()
            got: list[Profile] = []
            sampler = threading.Thread(target=lambda: got.append(
                sample(port, float("inf"), args.hz, args.depth, until=done.is_set)))
            sampler.start()
            try:
                out = g.ok(args.runcmd, timeout=3600)
            finally:
                done.set()
                sampler.join()
    return got[0], out


def main(args: argparse.Namespace) -> int:
    if args.runcmd:
        prof, out = run_in_guest(args)
        print(out.rstrip() + "\n")
    else:
        prof = sample(args.port, args.seconds, args.hz, args.depth)
    user = Symbols(args.user) if args.user else None
    print(report(prof, Symbols(args.kernel), user, args.top, args.focus))
    return 0
