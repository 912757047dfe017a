"""Debian's busybox (i386, static) in the guest through compat/linux
(issue 26, item 2): its awk and its vi, as a student types them.

awk proves the Linux layer's files, pipes and stdio; vi proves the
terminal: TCGETS/TCSETS (raw mode and back), poll with a timeout (ESC
alone is ESC), and that the shell's next command finds the terminal as it
was (its echo of what the harness typed is the first line g.run drops).
Signals go through busybox's own sh: a trap handler runs on Linux's frame
and returns through sigreturn, and wait's status names Linux's signal.

The image has busybox only where make could download Debian's package
(make deps): without it these tests skip.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.guest import Guest, SharedGuest

TOP = Path(__file__).resolve().parent.parent
BUSYBOX = TOP / "dl/busybox-static/bin/busybox"

pytestmark = pytest.mark.skipif(
    not BUSYBOX.exists(),
    reason="Debian's busybox-static was not downloaded (make deps, "
    "offline?): the image has no vi or awk")


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    box = SharedGuest(tmp_path_factory, "busybox")
    yield box
    box.close()


@pytest.fixture
def g(shared: SharedGuest, request):
    """One guest for the file: each test leaves the shell as it found it,
    and one that fails leaves the next a fresh guest."""
    yield shared.guest
    shared.served(request)


def test_vi_and_awk_are_busybox(g: Guest):
    out = g.ok("ls -i /usr/bin/busybox /usr/bin/vi /usr/bin/awk")
    inodes = {line.split()[0] for line in out.splitlines()}
    assert len(inodes) == 1, out          # hard links: one file
    assert "BusyBox v1." in g.ok("busybox 2>&1 | head -1")


def test_awk_splits_fields(g: Guest):
    assert g.ok("echo 'a b   c' | awk '{print $3, NF}'") == "c 3\n"
    assert g.ok("echo root:x:0:0 | awk -F: '{print $1 \"-\" $3}'") == \
        "root-0\n"
    assert g.ok("awk -F: '$3 == 0 {print $1}' /etc/passwd") == "root\n"


def test_awk_begin_end_and_printf(g: Guest):
    out = g.ok("printf '1\\n2\\n3\\n' | "
               "awk 'BEGIN {n = 0} {n++} END {print \"lines\", n}'")
    assert out == "lines 3\n"
    out = g.ok("awk 'BEGIN {printf \"%5.2f|%-4s|%x|%c\\n\", 3.14159, "
               "\"ab\", 255, 65}'")
    assert out == " 3.14|ab  |ff|A\n"


def test_awk_arrays_and_a_sum_over_a_file(g: Guest):
    out = g.ok("printf 'a\\nb\\na\\nc\\na\\n' | "
               "awk '{c[$1]++} END {for (k in c) print k, c[k]}' | sort")
    assert out == "a 3\nb 1\nc 1\n"
    g.ok("awk 'BEGIN {for (i = 1; i <= 100; i++) print i}' > /tmp/nums")
    assert g.ok("awk '{s += $1} END {print s, NR}' /tmp/nums") == "5050 100\n"


def test_awk_runs_commands(g: Guest):
    """system() and command pipes: glibc's posix_spawn, on clone3 in
    vfork's form (the child borrows awk's memory until it execs)."""
    out = g.ok("awk 'BEGIN { r = system(\"echo from system; exit 3\"); "
               "print \"status\", r }'")
    assert out == "from system\nstatus 3\n"
    out = g.ok("printf 'b\\na\\nc\\n' | awk '{ print | \"sort\" }'")
    assert out == "a\nb\nc\n"
    out = g.ok("awk 'BEGIN { \"echo piped in\" | getline v; print \"got\", v }'")
    assert out == "got piped in\n"


def test_awk_names_a_missing_file(g: Guest):
    out, status = g.run("awk '{print}' /nonexistent")
    assert status != 0 and "/nonexistent" in out, out


def vi_open(g: Guest, path: str) -> None:
    """Start vi and wait for its status line (it is in raw mode then)."""
    g.send(f"vi {path}\r")
    g.expect(rf"\x1b\[24;1H\x1b\[K[^\r\n]*{path}")


def vi_quit(g: Guest, path: str) -> None:
    """:wq, and wait for the shell's prompt after vi's report."""
    g.send(":wq\r")
    g.expect(rf"'{path}' \d+L, \d+C")
    g.expect(r"\x1b\[\?1049l# ")


def typed(text: str) -> str:
    """A pattern for text as vi echoes it: when the keys arrive apart, vi
    may move the cursor between two of them (h, ESC [1;2H, ello)."""
    return r"(?:\x1b\[[0-9;?]*[A-Za-z])*".join(re.escape(c) for c in text)


def test_vi_inserts_and_writes(g: Guest):
    vi_open(g, "/tmp/f")
    g.send("ihello")
    g.expect(typed("hello"))
    g.send("\x1b")                     # ESC alone: poll's timeout says so
    g.expect(r"- /tmp/f \[Modified\]")
    vi_quit(g, "/tmp/f")
    assert g.ok("cat /tmp/f") == "hello\n"


def test_vi_deletes_a_line_of_an_existing_file(g: Guest):
    g.ok("printf 'one\\ntwo\\nthree\\n' > /tmp/g")
    vi_open(g, "/tmp/g")
    g.send("dd")
    g.expect(r"Delete 1 lines")
    vi_quit(g, "/tmp/g")
    assert g.ok("cat /tmp/g") == "two\nthree\n"


def test_terminal_is_sane_after_vi(g: Guest):
    vi_open(g, "/tmp/h")
    g.send(":q\r")
    g.expect(r"\x1b\[\?1049l# ")
    # echo and line editing back: the typed line echoes, ^U kills it
    assert g.ok("echo sane") == "sane\n"
    g.send("echo wrong\x15")
    assert g.ok("echo right") == "right\n"


def test_linux_signal_handler_runs_and_returns(g: Guest):
    out = g.ok("busybox sh -c 'trap \"echo caught USR1\" USR1; "
               "kill -USR1 $$; echo after'")
    assert out == "caught USR1\nafter\n"


def test_wait_status_names_linux_signals(g: Guest):
    # SIGUSR1 is 10 in Linux (30 here): busybox's sh names it, and $? is
    # 128 + 10
    out = g.ok("busybox sh -c 'busybox sh -c \"kill -USR1 \\$\\$\"; echo $?'")
    assert out == "User defined signal 1\n138\n"


def test_getcwd_and_uname_through_busybox(g: Guest):
    """getcwd climbs the tree in the kernel (Linux asks it; we keep no
    names), across a mount point too; uname gives our names."""
    g.ok("mkdir -p /tmp/d1/d2")
    assert g.ok("(cd /tmp/d1/d2 && busybox pwd -P)") == "/tmp/d1/d2\n"
    assert g.ok("(cd / && busybox pwd -P)") == "/\n"
    g.ok("newfs /dev/rsd1a > /dev/null && mount /dev/sd1a /mnt")
    g.ok("mkdir -p /mnt/x/y")
    assert g.ok("(cd /mnt/x/y && busybox pwd -P)") == "/mnt/x/y\n"
    assert g.ok("(cd /mnt && busybox pwd -P)") == "/mnt\n"
    g.ok("umount /mnt")              # and getcwd left no vnode held
    assert g.ok("busybox uname -s") == g.ok("uname -s")


def test_busybox_reads_directories_through_getdents64(g: Guest):
    g.ok("mkdir -p /tmp/bbd/sub && : > /tmp/bbd/a && : > /tmp/bbd/b && "
         "ln -s a /tmp/bbd/l")
    assert g.ok("busybox ls /tmp/bbd").split() == ["a", "b", "l", "sub"]
    # the types come from the entries (d_type), not from a stat of each
    assert g.ok("busybox find /tmp/bbd -type d").split() == ["/tmp/bbd", "/tmp/bbd/sub"]
    assert g.ok("busybox find /tmp/bbd -type l").split() == ["/tmp/bbd/l"]
    # more entries than one call's buffer holds (glibc asks for 32 KB): each
    # name comes once, the calls resume where the last one stopped
    g.ok("mkdir /tmp/bbbig && cd /tmp/bbbig && i=0; while [ $i -lt 1500 ]; "
         "do : > name-of-some-length-$i; i=$((i+1)); done; cd /")
    names = g.ok("busybox ls -a /tmp/bbbig").split()
    assert len(names) == 1502 and len(set(names)) == 1502, len(names)
    assert {".", "..", "name-of-some-length-0", "name-of-some-length-1499"} <= \
        set(names), names[:5]
    g.ok("rm -r /tmp/bbd /tmp/bbbig")
