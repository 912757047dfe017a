"""The system-call fuzzer (tests/prog/fuzz): random calls with hostile
arguments from a fixed seed, batches alternating between root and the
ordinary user, in a scratch file system on sd1.  No panic, no child the
kernel cannot kill, and afterwards the guest still answers, and both
file systems are clean.

FUZZ_CALLS (default 3000) sets how many calls each run makes; make
stress runs more.
"""
from __future__ import annotations

import os
import re
import subprocess

from tests import fslib
from tests.guest import BUILD, Guest

CALLS = int(os.environ.get("FUZZ_CALLS", "3000"))
SUMMARY = re.compile(r"fuzz: (\d+) calls in (\d+) batches .* "
                     r"(\d+) unkillable")


def fuzz(g: Guest, cmd: str) -> str:
    out, status = g.run(cmd, timeout=120 + CALLS // 10)
    last = [l for l in out.splitlines() if l.startswith("fuzz: ")]
    m = SUMMARY.match(last[-1]) if last else None
    assert m, f"the fuzzer did not finish:\n{out[-3000:]}"
    assert int(m.group(3)) == 0 and status == 0, out[-3000:]
    assert re.search(r"panic|trap \d+", out) is None, out[-3000:]
    return last[-1]


def test_fuzzer_as_root_and_as_a_user(guest: Guest):
    fslib.ffs(guest)
    guest.ok("mkdir /mnt/u && chmod 777 /mnt/u")
    print(fuzz(guest, f"/usr/tests/fuzz -s 14 -n {CALLS} /mnt/fz"))
    print(fuzz(guest, f"su student -c '/usr/tests/fuzz -s 15 "
                      f"-n {CALLS // 2} /mnt/u/fz'"))
    assert guest.ok("echo still here").strip() == "still here"
    guest.ok("umount /mnt")
    fslib.fsck_ffs_clean(guest)
    assert guest.halt() == 0
    guest.close()
    r = subprocess.run([str(BUILD / "host" / "fsck_ffs"), "-n",
                        str(guest.sd0)], capture_output=True, text=True)
    assert r.returncode == 0, "the root file system:\n" + r.stdout
