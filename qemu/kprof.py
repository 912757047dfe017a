"""A sampling profiler for the guest, through QEMU's GDB stub.

    python3 -m qemu boot --gdb            (make qemu-gdb), then elsewhere:
    python3 -m qemu kprof [--seconds S] [--hz H] [--user build/root/bin/tpcb]

Every 1/H seconds it stops the machine, reads the registers and walks the
frame-pointer chain (the kernel and userland are built with
-fno-omit-frame-pointer), then lets the machine run on.  It prints where the
CPU was (self) and which functions were on the stack (inclusive), for the
kernel (CPL 0) and for user programs (CPL 3, named from --user's symbols).

A sample costs the guest nothing it can see: under TCG a stopped machine's
clock stops too.  It is the way to find where a benchmark's CPU goes before
tuning it (thesis-scale runs are disk-bound on the timed profiles; use
--profile none, the untimed disk, to see the CPU alone).
"""
from __future__ import annotations

import argparse
import bisect
import collections
import socket
import struct
import subprocess
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
        self.send("?")              # QEMU stops the machine on a connection
        self._reply()
        if self.command("QStartNoAckMode") == "OK":
            self.acks = False

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
        """cmd's reply, past any stop reply still on its way (QEMU can send
        one for an interrupt and another for the stop it caused)."""
        self.send(cmd)
        while (reply := self._reply())[:1] in ("T", "S"):
            pass
        return reply

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
        if ret == 0 or next_ebp <= ebp:
            pcs.append(ret) if ret else None
            break
        pcs.append(ret)
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


def main(args: argparse.Namespace) -> int:
    prof = sample(args.port, args.seconds, args.hz, args.depth)
    user = Symbols(args.user) if args.user else None
    print(report(prof, Symbols(args.kernel), user, args.top, args.focus))
    return 0
