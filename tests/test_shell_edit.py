"""The shell's line editor and history (bin/sh/histedit.c), typed as a
person types: arrow keys and emacs keys edit the line, Up recalls earlier
lines, Tab completes file and command names, history and !-references
re-run lines.  The harness boots with editing off (set +E); each test
turns it on."""
from __future__ import annotations

import pytest

UP, LEFT, RIGHT = "\x1b[A", "\x1b[D", "\x1b[C"


@pytest.fixture
def sh(guest):
    guest.ok("mkdir -p /tmp/ed/sub && touch /tmp/ed/uniquefile /tmp/ed/sub/x")
    guest.send("set -E\n")
    guest.expect(r"\n# ")
    return guest


def line(g, keys: str, want: str) -> None:
    """Type keys and Enter; the command's output must be want."""
    g.send(keys + "\r")
    g.expect(rf"\n{want}\r*\n")
    g.expect(r"# ")


def test_keys_edit_the_line(sh):
    line(sh, "echo abc" + LEFT + LEFT + "X", "aXbc")
    line(sh, "cho hi\x01e", "hi")                       # ^A: to the start
    line(sh, "echo one two\x17three", "one three")      # ^W: a word
    line(sh, "junk\x15echo kept", "kept")               # ^U: the line
    line(sh, "echo abcd" + LEFT * 2 + "\x0b", "ab")     # ^K: to the end
    line(sh, "echo ab" + LEFT + "\x7f", "b")            # DEL: left of the cursor


def test_up_recalls_and_history_reruns(sh):
    line(sh, "echo first", "first")
    line(sh, "echo second", "second")
    line(sh, UP + UP, "first")
    line(sh, UP + "\x7f" * 5 + "again", "again")        # recalled, then edited
    line(sh, "!!", "again")
    line(sh, "!ech", "again")                           # the last line starting so
    out = sh.ok("history")
    assert "echo first" in out and "echo again" in out
    sh.send("!nosuch\r")
    sh.expect(r"!nosuch: event not found")
    sh.expect(r"# ")


def test_tab_completes_files_and_commands(sh):
    line(sh, "ls /tmp/ed/uni\t", "/tmp/ed/uniquefile")
    line(sh, "ls -d /tmp/ed/s\t", "/tmp/ed/sub/")       # a directory: a slash
    line(sh, "unam\t", "4.4BSD-LFS")                    # a command on PATH
