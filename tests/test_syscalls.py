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
