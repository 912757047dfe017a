"""The Linux layer's edges, from inside: /usr/tests/linuxraw
(tests/linux/linuxraw/, built with glibc on the host) makes raw
"int $0x80" calls with the arguments a careless or hostile Linux program
passes, and prints one line per check.  Each test runs one section and
wants every check to pass with nothing else on the console; a kernel panic
fails it at once.

Issue 21, item 9: openat with a bad directory descriptor said EOPNOTSUPP;
set_thread_area took segments that reach the kernel, and a cleared or
not-present slot that %gs held panicked the kernel on the way back to user
mode; mprotect said 0 to any address; glibc's fork() failed because clone
was missing.  And writev, on item 8's error paths: it wrote before it had
read the whole iovec array, and lost the count it had written.
"""
from __future__ import annotations

import re

from tests import fslib
from tests.guest import Guest


def linuxraw(g: Guest, section: str) -> None:
    fslib.check_program(g, "linuxraw", f"-d /tmp {section}")


def test_openat_answers_ebadf_and_enotdir_for_bad_descriptors(guest: Guest):
    linuxraw(guest, "openat")


def test_set_thread_area_keeps_segments_in_user_space(guest: Guest):
    linuxraw(guest, "tls")


def test_mprotect_answers_for_the_range(guest: Guest):
    linuxraw(guest, "mprotect")


def test_clone_in_forks_form_and_glibc_fork(guest: Guest):
    linuxraw(guest, "clone")


def test_writev_reads_its_iovecs_before_writing(guest: Guest):
    linuxraw(guest, "writev")


def test_dup3_and_glibc_freopen(guest: Guest):
    """glibc's freopen ends in dup3, which was missing: cc -E -o said
    "Function not implemented"."""
    linuxraw(guest, "dup3")


def test_signals_on_linux_frames(guest: Guest):
    """Issue 26, item 2: rt_sigaction and rt_sigprocmask were missing
    (ENOSYS), so no Linux program could catch a signal; kill and wait's
    status passed our signal numbers through as Linux's."""
    linuxraw(guest, "signals")


def test_terminal_ioctls_poll_getcwd_prctl(guest: Guest):
    """Every ioctl said ENOTTY, so a Linux program could not set its
    terminal raw (vi); poll, getcwd, prctl and uname were ENOSYS."""
    linuxraw(guest, "term")


def test_unknown_calls_say_enosys_and_the_console_says_which(guest: Guest):
    """A call the layer does not know is ENOSYS, never a panic; the
    console names the program and the number once, not per call."""
    run, out, status = fslib.run_program(guest, "linuxraw", "-d /tmp nosys")
    assert not run.failed and run.summary == (4, 0), out
    assert len(run.stray) == 1 and re.fullmatch(
        r"linux: pid \d+ \(linuxraw\): system call 449 is not supported: "
        r"ENOSYS", run.stray[0]), out
