"""The in-guest stress programs in the style of xv6's usertests, each run
in a fresh guest: /usr/tests/proctests, pipetests, sigtests, badptrs and
fstests (tests/prog/NAME).  A program prints one line per check,
"(NAME) what: ok" or "(NAME) what: FAILED: why", and last "N passed, M
failed"; a failed check is reported with a hint of what usually causes it.

Kernel bugs these programs found (and that their checks now guard):
truncation zeroing memory before an indirect block's buffer, copyin and
copyout not growing the stack, a failed write growing the file, and a
stop signal aborting a sleep.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from tests.guest import Guest

RUN_TIMEOUT = 180

# Arguments each program runs with.
ARGS = {
    "proctests": "",
    "pipetests": "",
    "sigtests": "",
    "badptrs": "-d /tmp",
    "fstests": "-d /tmp",
    "clustertest": "write /tmp/clustertest.f",
}

# Per program: a keyword of a check line -> what usually breaks it.  The
# first keyword found in the line wins.
HINTS = {
    "clustertest": {
        "from disk": "cluster_wbuild writes each run of dirty buffers at "
                     "its members' own disk addresses (kern/vfs_cluster.c); "
                     "fsync and sync push through cluster_push",
        "operation": "cluster_read: a cluster must stop at a block that "
                     "is already in the cache (it may be dirty)",
        "size": "ufs_write/ffs_truncate: i_size",
    },
    "proctests": {
        "EAGAIN": "kern_fork.c: fork must fail cleanly when proc_alloc "
                  "finds no free slot",
        "reaped": "kern_exit.c: wait4 must proc_free every zombie it "
                  "reports",
        "drains": "kern_exit.c: a reaped zombie's slot must go back to "
                  "SFREE",
        "orphan": "exit1 gives the children to initproc and wakes init "
                  "for the zombies among them",
        "chain": "fork: the child's trap frame, p_pptr and getppid",
        "WNOHANG": "sys_wait4: with WNOHANG return 0 while children run",
        "group": "kill_matches()/gsignal() in kern_sig.c, and setpgid",
        "exec": "kern_execve: copyvec/addarg, ARG_MAX and the #! header",
    },
    "pipetests": {
        "atomic": "pipe_write: a write of PIPE_BUF bytes or less waits "
                  "for room for all of it",
        "EPIPE": "pipe_write returns EPIPE with no reader; rw() posts "
                 "SIGPIPE",
        "SIGPIPE": "pipe_write returns EPIPE with no reader; rw() posts "
                   "SIGPIPE",
        "O_NONBLOCK": "pipe_read/pipe_write return EAGAIN for O_NONBLOCK "
                      "instead of sleeping",
        "sleeps": "sys_pipe.c: readers sleep on &pp->count, writers on "
                  "&pp->head; pipe_close wakes both",
        "end of file": "pipe_read returns 0 only when no writer is left",
        "drain": "pipe_read wakes the writers (&pp->head) after it reads",
        "through": "the ring buffer arithmetic in pipe_read/pipe_write",
    },
    "sigtests": {
        "stop and continue": "psignal(): a stop signal to a process "
                             "asleep with PCATCH should stop it where it "
                             "sleeps (as 4.4BSD does), not end the sleep, "
                             "or the call fails with EINTR after SIGCONT",
        "SA_RESTART": "tsleep returns ERESTART for SA_RESTART handlers; "
                      "syscall() backs %eip up over int $0x80",
        "exec": "execsigs(): caught signals go back to default; ignored "
                "ones and the mask stay",
        "sigsuspend": "sys_sigsuspend and P_SIGSUSPEND in postsig()",
        "SIGCHLD": "exit1 posts SIGCHLD; tsleep ignores default-ignored "
                   "signals",
        "nanosleep": "sys_nanosleep: tsleep with PCATCH, and the time left "
                     "in rmtp",
        "EINTR": "tsleep with PCATCH returns EINTR when a caught signal "
                 "is pending (kern_synch.c)",
        "SA_RESETHAND": "postsig(): SA_RESETHAND puts SIG_DFL back",
        "mask": "postsig(): block sa_mask and the signal itself while the "
                "handler runs; sigreturn restores the mask",
        "SIGSEGV": "trap(): a user fault becomes trapsignal(); sendsig "
                   "builds the handler's frame",
        "fault": "trap(): a user fault becomes trapsignal()",
        "stop": "issignal(): a default stop signal sets SSTOP and tells "
                "the parent; wait4 with WUNTRACED reports it",
    },
    "badptrs": {
        "stack": "trap(): a kernel-mode fault on a user stack address "
                 "must grow the stack (grow_stack) before falling back to "
                 "onfault",
        "size alone": "ufs_write grows i_size before uiomove; vn_write "
                      "should pass IO_UNIT (as 4.4BSD does) so a failed "
                      "write is undone",
        "EFAULT": "a kernel path used a user pointer without copyin/"
                  "copyout/copyinstr, or ignored their error",
        "EBADF": "getfile() in kern_descrip.c checks the descriptor",
        "text": "copyout must honour read-only pages (CR0_WP)",
    },
    "fstests": {
        "writes nowhere else": "ffs_truncate must set a negative "
                               "lastiblock[level] to -1 (4.4BSD does); "
                               "otherwise ffs_indirtrunc's memset("
                               "&bap[last + 1], ...) writes before the "
                               "buffer",
        "bad block": "ffs_truncate: a negative lastiblock[] must become "
                     "-1, or ffs_indirtrunc corrupts memory before the "
                     "indirect block's buffer",
        "freeing free": "ffs_truncate: a negative lastiblock[] must become "
                        "-1, or ffs_indirtrunc corrupts memory before the "
                        "indirect block's buffer",
        "truncat": "ffs_truncate/ffs_indirtrunc: free past the end, zero "
                   "the kept tail of the last block",
        "hole": "ffs_balloc with B_CLRBUF; ufs_bmaparray returns -1 for a "
                "hole",
        "indirect": "ufs_getlbns/ffs_balloc: the negative lbns of indirect "
                    "blocks (thesis 6.3.1.2)",
        "rename": "ufs_rename: see its three steps",
        "link": "ufs_link/ufs_remove/ufs_mkdir adjust i_nlink",
        "O_APPEND": "ufs_write sets the offset to i_size under the vnode "
                    "lock",
        "writer": "ufs_write/ffs_balloc under concurrent writers: the "
                  "vnode lock",
        "ENOSPC": "ffs_alloc must return ENOSPC, and ufs_write stop cleanly",
        "every block": "ffs_blkfree, and ffs_truncate's accounting",
        "inode": "ffs_vfree when the last link and reference go",
        "getdirentries": "ufs_readdir: whole directory blocks, d_reclen "
                         "chaining every entry",
        "director": "ufs_direnter/ufs_dirremove and ufs_readdir",
    },
}

# Console lines a program's run may show besides its own: the kernel's
# ordinary notices.
ORDINARY = re.compile(r"file system full")

@dataclass
class Run:
    """One program's output, sorted."""
    checks: dict[str, str] = field(default_factory=dict)  # check -> line
    failed: dict[str, str] = field(default_factory=dict)
    summary: tuple[int, int] | None = None
    stray: list[str] = field(default_factory=list)        # anything else


def parse(prog: str, out: str) -> Run:
    run = Run()
    check_re = re.compile(rf"^\({prog}\) (.*?): (ok|FAILED: .*)$")
    for line in out.splitlines():
        if not line.strip():
            continue
        m = check_re.match(line)
        s = re.match(r"^(\d+) passed, (\d+) failed$", line)
        if m:
            run.checks[m.group(1)] = line
            if m.group(2) != "ok":
                run.failed[m.group(1)] = line
        elif s:
            run.summary = (int(s.group(1)), int(s.group(2)))
        else:
            run.stray.append(line)
    return run


def hint_for(prog: str, line: str) -> str:
    for key, hint in HINTS.get(prog, {}).items():
        if key in line:
            return f"\n    hint: {hint}"
    return ""


def run_program(g: Guest, prog: str,
                args: str | None = None) -> tuple[Run, str, int]:
    cmd = f"/usr/tests/{prog} {ARGS[prog] if args is None else args}"
    out, status = g.run(cmd.strip(), RUN_TIMEOUT)
    return parse(prog, out), out, status


def check_program(g: Guest, prog: str, args: str | None = None) -> None:
    """Every check passes and the program finishes."""
    run, out, status = run_program(g, prog, args)
    failures = [line + hint_for(prog, line) for line in run.failed.values()]
    assert not failures, (f"{prog}: {len(failures)} checks failed:\n" +
                          "\n".join(failures))
    stray = [line + hint_for(prog, line) for line in run.stray
             if not ORDINARY.search(line)]
    assert not stray, (f"{prog}: unexpected console output (a kernel "
                       "message, or a check line gone wrong):\n" +
                       "\n".join(stray))
    assert run.summary is not None, (
        f"{prog} did not finish (no 'N passed, M failed' line), exit status "
        f"{status}; its output ended with:\n" +
        "\n".join(out.splitlines()[-15:]))
    npassed, nfailed = run.summary
    assert (npassed, nfailed) == (len(run.checks) - len(run.failed),
                                  len(run.failed)), \
        f"{prog}: the summary {run.summary} does not match the check lines"
    assert npassed > 0
    assert status == (1 if nfailed else 0), f"{prog} exited {status}"


def test_proctests(guest):
    check_program(guest, "proctests")


def test_pipetests(guest):
    check_program(guest, "pipetests")


def test_sigtests(guest):
    check_program(guest, "sigtests")


def test_badptrs(guest):
    check_program(guest, "badptrs")


def test_fstests(guest):
    check_program(guest, "fstests")


def small_scratch_guest(tmp_path: Path) -> Guest:
    """A guest whose sd1 is a 4 MB file system mounted on /mnt."""
    g = Guest(tmp_path, sd1_sectors=8192)
    g.boot()
    g.ok("newfs /dev/rsd1c")
    g.ok("mount /dev/sd1c /mnt")
    return g


def test_fstests_out_of_space(tmp_path):
    g = small_scratch_guest(tmp_path)
    try:
        check_program(g, "fstests", "-d /mnt -n")
        g.ok("umount /mnt")
        out, status = g.run("fsck_ffs /dev/rsd1c")
        assert status == 0 and "UNEXPECTED" not in out, out
    finally:
        g.close()
