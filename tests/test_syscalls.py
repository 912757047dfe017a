"""Every foundation system call and its error paths, checked from inside
the guest by /usr/tests/syscalls (tests/prog/syscalls)."""
import re

HINTS = {
    "EFAULT": "a kernel path used a user pointer without copyin/copyout",
    "EACCES": "VOP_ACCESS or vaccess() did not check the non-root user",
    "link count": "ufs_link/ufs_remove/ufs_mkdir adjust i_nlink",
    "rename": "ufs_rename: see its three steps",
    "execve": "kern_execve's stack layout (argc, argv, envp) or copyvec",
    "SIGSEGV": "trap(): a user page fault must become trapsignal()",
}


def hint_for(line: str) -> str:
    for key, hint in HINTS.items():
        if key in line:
            return f"  hint: {hint}"
    return ""


def test_syscalls_program_passes(guest):
    out, status = guest.run("/usr/tests/syscalls -d /tmp", timeout=300)
    failures = [l + hint_for(l) for l in out.splitlines() if "FAILED" in l]
    assert not failures, "\n".join(failures)
    m = re.search(r"^(\d+) passed, (\d+) failed$", out, re.M)
    assert m, out
    assert int(m.group(2)) == 0 and int(m.group(1)) > 100
    assert status == 0


TIME = re.compile(r"(\d+\.\d+) real\s+(\d+\.\d+) user\s+(\d+\.\d+) sys")


def test_time_charges_the_kernel_s_work_to_system_time(guest):
    """The kernel runs with interrupts off, so no clock tick ever lands in
    it: CPU time is read at every crossing instead (kern/kern_resource.c).
    dd moving 320 MB through read and write is nearly all system time,
    and the two times together never exceed the elapsed time."""
    out = guest.ok("time dd if=/dev/zero of=/dev/null bs=64k count=5000 "
                   "2>&1")
    m = TIME.search(out)
    assert m, out
    real, user, sys = map(float, m.groups())
    assert sys > 0 and sys > user, out
    assert user + sys <= real + 0.02, out
