"""python3 -m qemu kprof: the sampling profiler, from the host, on a guest
that is busy in a known place."""
import re
import subprocess
import sys

from tests.guest import BUILD, TOP, free_port


def test_kprof_names_where_a_busy_guest_spends_its_cpu(guests):
    port = free_port()
    g = guests.boot(gdb_port=port)
    # dd between /dev/zero and /dev/null lives in read(2) and write(2);
    # with 64 KB blocks the copy, not TCG's int/iret at the gate, is most
    # of each call.
    g.child.sendline("dd if=/dev/zero of=/dev/null bs=64k count=100000000 "
                     "> /dev/null 2>&1 &")
    g.expect(r"# ")
    out = subprocess.run(
        [sys.executable, "-m", "qemu", "kprof", "--port", str(port),
         "--seconds", "3", "--hz", "100", "--user", str(BUILD / "root/bin/dd")],
        cwd=TOP, capture_output=True, text=True, timeout=120, check=True).stdout
    head, _, rest = out.partition("\n")
    assert " samples in " in head, out
    selfpart, _, incl = rest.partition("(on the stack)")
    shares = {}
    for line in incl.splitlines():
        parts = line.split()
        if len(parts) == 2:
            shares[parts[1]] = float(parts[0])
    # read(2) and write(2) are most of it, and every busy sample is in the
    # system call path (its gate, Xtrap128, or below alltraps) or in dd.
    assert shares.get("rw", 0) > 40, out
    assert shares.get("Xtrap128", 0) + shares.get("alltraps", 0) + \
        shares.get("user:_start", 0) > 80, out
    # The machine runs on after the profiler detaches.
    g.ok("kill %1; echo alive")


def test_kprof_runs_a_command_in_a_guest_of_its_own():
    out = subprocess.run(
        [sys.executable, "-m", "qemu", "kprof", "--hz", "100", "--top", "60",
         "--setup", "echo set up > /tmp/kp",
         "--run", "cat /tmp/kp && dd if=/dev/zero of=/dev/null bs=64k count=30000",
         "--focus", "sys_read"],
        cwd=TOP, capture_output=True, text=True, timeout=300, check=True).stdout
    assert out.startswith("set up\n"), out           # --setup ran first
    assert "30000+0 records in" in out, out
    # The focus: every sample kept has sys_read on the stack, and they are
    # a good part of dd's.
    m = re.search(r"those with sys_read on the stack: ([0-9.]+)%", out)
    assert m and float(m.group(1)) > 20, out
    incl = out.partition("(on the stack)")[2]
    assert re.search(r"^\s+[0-9.]+\s+sys_read$", incl, re.M), out
    assert not re.search(r"^\s+[0-9.]+\s+sys_write$", incl, re.M), out
