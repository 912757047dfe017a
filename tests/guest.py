"""Drive a guest from the host: boot it on private copies of the disks, type
shell commands on the serial console, read their output and exit status.

    with Guest(tmp_path) as g:
        out, status = g.run("ls /")

Nothing here sleeps to wait for the guest: every step waits for output (the
prompt, or a marker the command line prints), with a timeout that fails the
test with the console's last lines.
"""
from __future__ import annotations

import itertools
import os
import socket
import subprocess
from pathlib import Path
from typing import Optional

import pexpect

from qemu import disk, launch, turnaround

TOP = Path(__file__).resolve().parent.parent

BUILD = TOP / "build"
BOOT_TIMEOUT = 60
CMD_TIMEOUT = 120
MEM = 64                           # MB, unless a test asks for other
PANICKED = r"\nsystem halted"      # what panic() prints last


class GuestError(AssertionError):
    """The guest did not answer as expected; carries the console tail."""


class Guest:
    def __init__(self, workdir: Path, profile: str = "none", kargs: str = "",
                 mem: int = MEM, sd1_sectors: int = 131072,
                 faults: Optional[disk.FaultSpec] = None,
                 sd0: Optional[Path] = None, sd1: Optional[Path] = None,
                 allow_reboot: bool = False, gdb_port: Optional[int] = None,
                 gdb_wait: bool = False, kernel: Optional[Path] = None,
                 trace: bool = False, host_us: Optional[float] = None):
        self.workdir = Path(workdir)
        self.kernel = kernel or BUILD / "kernel"
        self.profile = profile
        self.kargs = kargs
        self.mem = mem
        self.faults = faults
        self.allow_reboot = allow_reboot
        self.gdb_port = gdb_port
        self.gdb_wait = gdb_wait
        # trace: sd1's server logs each request and QEMU its NBD and
        # virtio events, for qemu/turnaround.py (sd1.stats, qemu.trace).
        self.trace = trace
        self.host_us = host_us      # sd1's server: None, the calibrated share
        self.sd0 = self.workdir / "sd0.img"
        self.sd1 = self.workdir / "sd1.img"
        if not self.sd0.exists():
            copy_sparse(sd0 or BUILD / "sd0.img", self.sd0)
        if sd1 is not None and not self.sd1.exists():
            copy_sparse(sd1, self.sd1)
        elif not self.sd1.exists():
            disk.make_image(self.sd1, profile,
                            None if disk.profile_sectors(profile) else sd1_sectors)
        self.child: Optional[pexpect.spawn] = None
        self._servers = None
        self._markers = itertools.count()
        self.boot_log = ""

    # -- lifecycle ---------------------------------------------------------
    def boot(self, wait_prompt: bool = True) -> str:
        """Start the disk servers and QEMU; return the boot messages."""
        self._servers = launch.disk_servers(
            self.sd0, self.sd1, "none", self.profile, self.faults,
            sd1_stats=self.workdir / "sd1.stats" if self.trace else None,
            sd1_host_us=self.host_us)
        servers = self._servers.__enter__()
        dargs = [a for s in servers for a in s.qemu_args()]
        self.disk_servers = servers
        cmd = launch.qemu_command(self.kernel, dargs, self.mem,
                                    self.kargs,
                                    serial="chardev:con")
        cmd[1:1] = ["-chardev", "stdio,id=con,signal=off"]
        if self.trace:
            cmd += [a for e in turnaround.QEMU_EVENTS for a in ("-trace", e)]
            cmd += ["-D", str(self.workdir / "qemu.trace"), "-msg", "timestamp=on"]
        elif os.environ.get("QEMU_DEBUG"):  # e.g. "int,cpu_reset" to debug
            cmd += ["-d", os.environ["QEMU_DEBUG"], "-D",
                    str(self.workdir / "qemu.log")]
        if self.gdb_port:                   # a gdbstub for tests to attach
            cmd += ["-gdb", f"tcp:127.0.0.1:{self.gdb_port}"]
            if self.gdb_wait:               # as make qemu-gdb: wait for it
                cmd.append("-S")
        if os.environ.get("QEMU_GDB"):      # wait for a debugging GDB
            cmd += ["-S", "-gdb", f"tcp::{os.environ['QEMU_GDB']}"]
        if not self.allow_reboot:
            cmd.append("-no-reboot")    # a reset ends the test, not loops
        self.child = pexpect.spawn(cmd[0], cmd[1:], encoding="utf-8",
                                   codec_errors="replace", timeout=BOOT_TIMEOUT,
                                   dimensions=(24, 200))
        if wait_prompt:
            self.wait_ready()
        return self.boot_log

    def wait_ready(self) -> None:
        """Wait until the shell answers (the boot is over)."""
        self.expect(r"# ", BOOT_TIMEOUT)
        self.boot_log = self.child.before
        # The harness types like a program, ahead of the prompt: no line
        # editing (tests/test_shell_edit.py turns it back on).
        self.child.sendline("set +E; echo __READY__")
        self.expect(r"\n__READY__\r*\n# ", BOOT_TIMEOUT)

    def close(self) -> None:
        if self.child is not None and self.child.isalive():
            self.child.terminate(force=True)
        if self._servers is not None:
            self._servers.__exit__(None, None, None)
            self._servers = None

    def __enter__(self) -> "Guest":
        self.boot()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- console -----------------------------------------------------------
    def expect(self, pattern, timeout: float = CMD_TIMEOUT) -> int:
        try:
            return self.child.expect(pattern, timeout=timeout)
        except (pexpect.TIMEOUT, pexpect.EOF) as e:
            kind = "timed out" if isinstance(e, pexpect.TIMEOUT) else "EOF"
            tail = (self.child.before or "")[-3000:]
            raise GuestError(f"{kind} waiting for {pattern!r}; console:\n"
                             f"{tail}") from None

    def send(self, text: str) -> None:
        self.child.send(text)

    def run(self, cmd: str, timeout: float = CMD_TIMEOUT) -> tuple[str, int]:
        """Run one shell command line; return (output, exit status).  A
        kernel panic fails at once, not at the timeout."""
        n = next(self._markers)
        self.child.sendline(f"{cmd} ; echo __E{n}__$?")
        # A background program (mount's lfs_cleanerd) may print a line
        # between the status and the prompt.
        if self.expect([rf"__E{n}__(\d+)\r*\n(?:[^\n]*\n)*?# ", PANICKED], timeout):
            raise GuestError(f"the kernel panicked during {cmd!r}; "
                             f"console:\n{self.child.before[-4000:]}")
        status = int(self.child.match.group(1))
        # The console sends \r\n and the host pty adds a \r of its own.
        text = self.child.before.replace("\r", "")
        # The first line is the terminal's echo of what we typed.
        out = text.split("\n", 1)[1] if "\n" in text else ""
        return out, status

    def ok(self, cmd: str, timeout: float = CMD_TIMEOUT) -> str:
        """Run a command that must succeed; return its output."""
        out, status = self.run(cmd, timeout)
        if status != 0:
            raise GuestError(f"{cmd!r} exited {status}:\n{out}")
        return out

    def halt(self, timeout: float = BOOT_TIMEOUT) -> int:
        """halt from the shell; return QEMU's exit status."""
        self.child.sendline("halt")
        if self.expect([pexpect.EOF, PANICKED], timeout) == 1:
            raise GuestError(f"the kernel panicked during halt; "
                             f"console:\n{self.child.before[-4000:]}")
        self.child.close()
        return self.child.exitstatus


class SharedGuest:
    """One booted guest for the tests of a module (module-scoped fixture),
    replaced by a fresh one after a test that failed."""

    def __init__(self, factory: pytest.TempPathFactory, name: str, **kwargs) -> None:
        self.factory, self.name, self.kwargs = factory, name, kwargs
        self.guest = self._boot()

    def _boot(self) -> Guest:
        g = Guest(self.factory.mktemp(self.name), **self.kwargs)
        g.boot()
        return g

    def served(self, request: pytest.FixtureRequest) -> None:
        """After a test: if it failed, the guest may be inside a program
        (vi waiting for a key): close it and boot another."""
        rep = getattr(request.node, "rep_call", None)
        if rep is not None and rep.failed:
            self.guest.close()
            self.guest = self._boot()

    def close(self) -> None:
        self.guest.close()


def free_port() -> int:
    """A TCP port free now on this host, for a guest's gdbstub."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def gdb_batch(port: int, helpers: str | None, *commands: str) -> pexpect.spawn:
    """GDB in batch mode on the guest's gdbstub at port, with the kernel's
    symbols and qemu/HELPERS sourced (if named): runs commands, then deletes
    its breakpoints and lets the guest go.  Its output is all there at EOF."""
    args = ["-batch", "-nx", "-ex", f"file {BUILD / 'kernel'}",
            "-ex", f"target remote 127.0.0.1:{port}"]
    if helpers is not None:
        args += ["-ex", f"source {TOP / 'qemu' / helpers}"]
    for c in (*commands, "delete", "detach"):
        args += ["-ex", c]
    return pexpect.spawn("gdb", args, encoding="utf-8", timeout=120)


def copy_sparse(src: Path, dst: Path) -> None:
    subprocess.run(["cp", "--sparse=always", str(src), str(dst)], check=True)
