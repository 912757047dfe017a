"""The launcher's refusals (qemu/launch.py): a bad accelerator is refused
by name, and ACCEL=kvm on a host where KVM cannot run the kernel says why
instead of leaving a silent console."""
from __future__ import annotations

import subprocess
import sys

from qemu import launch
from tests.guest import TOP


def test_an_unknown_accelerator_is_refused():
    r = subprocess.run([sys.executable, "-m", "qemu", "boot", "--accel", "hvf"], cwd=TOP,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "invalid choice: 'hvf'" in r.stderr, r.stderr


def test_kvm_that_cannot_run_the_kernel_says_why(tmp_path):
    """Not a kernel: whatever this host's KVM is, the probe does not see
    the banner and returns a reason (no /dev/kvm, no access, QEMU's error,
    or the time it waited)."""
    junk = tmp_path / "kernel"
    junk.write_bytes(b"\0" * 4096)
    why = launch.kvm_unusable(junk, seconds=2)
    assert why is not None and why.strip(), why
