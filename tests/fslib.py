"""What the guest tests do with file systems, written once: make one on the
scratch disk sd1 and mount it, check it is clean, read the disk's
counters, and run an in-guest test program.

    fslib.ffs(g, efs=True)          newfs -E /dev/rsd1a, mount on /mnt
    fslib.lfs(g, cleaner=False)     newfs_lfs -s 256 KB, mount -n -t lfs
    fslib.make_fs(g, "efs")         one of LAYOUTS, as the reliability tests
                                    make it (LFS: 1 MB segments, cleaner)
    fslib.fsck_ffs_clean(g)         fsck_ffs -n: exit 0, nothing UNEXPECTED
    fslib.fsck_lfs_clean(g, "-n")   fsck_lfs: exit 0 and "0 problems"
    fslib.unmount_and_check(g, "lfs")   umount /mnt, then the layout's fsck -n
    fslib.dumplfs_ok(g)             dumplfs: valid log, consistent ifile
    fslib.check_program(g, "fstests", "-d /mnt")   every check passes
    fslib.KERNEL_COMPLAINTS         what the kernel says when it broke a
                                    file system (search the console for it)

Each takes the Guest (tests/guest.py) and fails the test, with the
output, when the guest disagrees.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from tests.guest import Guest

SMALL_SEGMENTS = 262144     # newfs_lfs -s: many segments, so cleaning starts soon
NEWFS_TIMEOUT = 120
FSCK_TIMEOUT = 300


# --- making and mounting ------------------------------------------------------

def newfs(g: Guest, efs: bool = False) -> None:
    """An FFS on sd1a (EFS: clustering, newfs -E)."""
    g.ok(f"newfs {'-E ' if efs else ''}/dev/rsd1a > /dev/null",
         timeout=NEWFS_TIMEOUT)


def ffs(g: Guest, efs: bool = False) -> None:
    """A fresh FFS (or EFS) on sd1a, mounted on /mnt."""
    newfs(g, efs)
    g.ok("mount /dev/sd1a /mnt")


def remount(g: Guest, layout: str = "ffs") -> None:
    """Unmount and mount again: the next reads come from the disk."""
    g.ok("umount /mnt && mount " + ("-t lfs " if layout == "lfs" else "")
         + "/dev/sd1a /mnt")


def newfs_lfs(g: Guest, segsize: int | None = None) -> None:
    """An LFS on sd1a; segsize in bytes (newfs_lfs's default: 1 MB)."""
    opt = f"-s {segsize} " if segsize else ""
    g.ok(f"newfs_lfs {opt}/dev/rsd1a > /dev/null", timeout=NEWFS_TIMEOUT)


def lfs(g: Guest, segsize: int = SMALL_SEGMENTS, cleaner: bool = True) -> None:
    """A fresh LFS on sd1a, mounted on /mnt; mount starts lfs_cleanerd
    unless cleaner is False (mount -n)."""
    newfs_lfs(g, segsize)
    g.ok(f"mount {'' if cleaner else '-n '}-t lfs /dev/sd1a /mnt")


# The layouts the reliability tests (stress, reltests, the fuzzer) run on:
# FFS, EFS (FFS with clustering) and BSD-LFS.
LAYOUTS = ("ffs", "efs", "lfs")


def make_fs(g: Guest, layout: str) -> None:
    """A fresh file system of the layout on sd1a, mounted on /mnt; LFS
    with newfs_lfs's default 1 MB segments and lfs_cleanerd running."""
    if layout == "lfs":
        newfs_lfs(g)
        g.ok("mount -t lfs /dev/sd1a /mnt")
    else:
        ffs(g, efs=layout == "efs")


# --- checking -------------------------------------------------------------------

FSCK_LFS_SUMMARY = re.compile(
    r"^fsck_lfs: /dev/rsd1a: (\d+) files, (\d+) blocks, (\d+) free; "
    r"(\d+) problems(, \d+ repaired)?$", re.M)


def fsck_ffs_clean(g: Guest, args: str = "-n /dev/rsd1a") -> str:
    """fsck_ffs exits 0 and finds nothing UNEXPECTED; its output."""
    out, status = g.run(f"fsck_ffs {args}", FSCK_TIMEOUT)
    assert status == 0 and "UNEXPECTED" not in out, out
    return out


def fsck_lfs_clean(g: Guest, *opts: str) -> str:
    """fsck_lfs on sd1a exits 0 and finds 0 problems; its output."""
    out = g.ok(f"fsck_lfs {' '.join(opts)} /dev/rsd1a", timeout=FSCK_TIMEOUT)
    m = FSCK_LFS_SUMMARY.search(out)
    assert m and m.group(4) == "0", out
    return out


def fsck_clean(g: Guest, layout: str) -> str:
    """The layout's checker (fsck_ffs or fsck_lfs -n; each exits 0 only
    when it found nothing) finds sd1a clean; its output."""
    return fsck_lfs_clean(g, "-n") if layout == "lfs" else fsck_ffs_clean(g)


def unmount_and_check(g: Guest, layout: str) -> None:
    """Unmount /mnt; the layout's checker finds nothing to fix."""
    g.ok("umount /mnt")
    fsck_clean(g, layout)


# What the kernel says when a truncation, a free, an allocation or a
# directory goes wrong (ffs_alloc.c, ufs_bmap.c, ufs_lookup.c,
# lfs_alloc.c), or when it dies: never on a healthy file system.
KERNEL_COMPLAINTS = re.compile(
    r"bad block|free inode .* had|freeing free|panic|trap \d+|"
    r"out of range|mangled|bad dir|on the free list|live bytes \d+ less|is lost")


def dumplfs_ok(g: Guest) -> str:
    """dumplfs of the unmounted sd1a: valid log, consistent ifile."""
    out = g.ok("dumplfs /dev/rsd1a", timeout=120)
    assert "ifile\tconsistent" in out and "BAD" not in out
    return out


IOSTAT_COLUMNS = ("reads", "writes", "sreads", "swrites", "rsectors", "wsectors")


def iostat_counters(out: str) -> dict[str, dict[str, int]]:
    """iostat's table (thesis 7.2): disk name -> the counts of
    IOSTAT_COLUMNS."""
    table = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 10 and re.fullmatch(r"sd\d", f[0]):
            table[f[0]] = dict(zip(IOSTAT_COLUMNS, map(int, f[1:7])))
    return table


# --- in-guest test programs (tests/prog/NAME, installed as /usr/tests/NAME) ----
#
# A program prints one line per check, "(NAME) what: ok" or "(NAME) what:
# FAILED: why", and last "N passed, M failed"; a failed check is reported
# with a hint of what usually causes it.

PROGRAM_TIMEOUT = 180

# Arguments each program runs with unless the test gives others.
ARGS = {
    "proctests": "",
    "cowtests": "",
    "pipetests": "",
    "sigtests": "",
    "badptrs": "-d /tmp",
    "fstests": "-d /tmp",
    "clustertest": "write /tmp/clustertest.f",
}

# Per program: a keyword of a check line -> what usually breaks it.  The
# first keyword found in the line wins.
HINTS = {
    "txntests": {
        "victim": "lfs/lfs_txnlock.c: txn_lock's cycle check (txn_incycle) "
                  "and upgrades going to the head of the queue",
        "before": "lfs/lfs_txnundo.c txn_undo: lfs_discard of the B_TXN pages, "
                  "txn_unassign of the blocks it made, lfs_restoresize",
        "after-image": "txn_commit: txn_release_pages under the segment "
                       "lock, lfs_segwrite_vnodes(SEGM_TXN)",
        "steals": "lfs_cantake must leave B_TXN pages; txn_taken counts",
        "ENOBUFS": "txn_write_page's NO-STEAL limit (txn_maxdirty)",
        "cleaner": "lfs_markblock says EBUSY for a B_TXN page, and "
                   "lfs_segclean refuses a segment with live bytes",
        "letter": "strict 2PL: txn_lockrange before ufs_read/ufs_write, "
                  "locks released only by txn_unlockall",
        "waits": "a read outside a transaction is one (txn_rdwr)",
    },
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
    "cowtests": {
        "stay in": "pmap_copy must clear PG_RW and set PG_COW in both page "
                   "tables and reload %cr3; pmap_cow copies a shared page",
        "read(2)": "a copyout to a PG_COW page faults (CR0.WP) and trap() "
                   "must call pmap_cow before the onfault recovery",
        "pipe": "pmap_cow on a kernel write fault (copyout in pipe_read)",
        "exec": "kern_execve's pmap_destroy of the old image drops its "
                "references (vm_page_unref), pmap_cow reuses a page left "
                "with one",
        "SIGSEGV": "pmap_cow must refuse a read-only page without PG_COW "
                   "(text, rodata): EFAULT, then SIGSEGV",
        "shares": "pmap_copy maps the pages (vm_page_ref), no copying",
        "given back": "pmap_remove must vm_page_unref every page, "
                      "pmap_unshare the shared one it copied",
        "every page back": "pmap_remove must vm_page_unref every page, "
                           "pmap_unshare the shared one it copied",
        "big": "pmap_unshare: ENOMEM when vm_page_alloc fails; trap() "
               "kills the process (SIGKILL), never panics",
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
    "linuxraw": {
        "openat": "compat/linux/linux_file.c at_check: getfile() and the "
                  "vnode's type for a relative path's dirfd",
        "statx": "compat/linux/linux_file.c at_check: getfile() and the "
                 "vnode's type for a relative path's dirfd",
        "clearing": "compat/linux/linux_misc.c tls_unselect: a segment "
                    "register that selects a cleared slot must be 0 before "
                    "trapret reloads it",
        "set_thread_area": "compat/linux/linux_xlate.c linux_tls_descriptor: "
                           "present, expand-up, below userend (but glibc's "
                           "4 GB one)",
        "mprotect": "compat/linux/linux_misc.c linux_sys_mprotect: "
                    "alignment, the bits, the range in user space and mapped",
        "clone": "compat/linux/linux_misc.c linux_sys_clone: fork's form; "
                 "CLONE_CHILD_SETTID through pmap_copyout",
        "fork": "compat/linux/linux_misc.c linux_sys_clone: fork's form",
        "writev": "compat/linux/linux_file.c linux_sys_writev: the iovec "
                  "array and its total checked before any write",
        "ENOSPC": "the error must travel from ufs_write through rw() and "
                  "linux_syscall as -28",
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
ORDINARY = re.compile(r"file system full|"
                      r"out of memory for a copy-on-write page, killed")


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
    out, status = g.run(cmd.strip(), PROGRAM_TIMEOUT)
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
