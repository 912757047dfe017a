"""ps(1) in a guest: the process table, read through getproc(2), in BSD's
columns and state letters; and ^C at the shell, which must kill the
foreground job and leave the shell running.

Background jobs are always reaped with the shell's "wait" in the same
command line, so that the shell never reports a finished job between a
command's output and its prompt.
"""
from __future__ import annotations

import re

from tests.guest import Guest

ROW = re.compile(r"^\s*(\d+)\s+(\S+)\s+(co|\?\?)\s+(\d+:\d\d\.\d\d)\s(.+)$")
LONG_HEADER = "UID PID PPID PGID SZ WCHAN STAT TT TIME COMMAND".split()
POLLS = 200     # ps runs to wait for a state change, each a guest command


def table(out: str) -> list[dict]:
    """ps's rows, as dicts; the header and every row must be well formed."""
    lines = [l for l in out.splitlines() if l.strip()]
    assert lines and lines[0].split() == ["PID", "STAT", "TT", "TIME",
                                          "COMMAND"], out
    rows = []
    for line in lines[1:]:
        m = ROW.match(line)
        assert m, f"malformed ps line {line!r}"
        rows.append({"pid": int(m.group(1)), "stat": m.group(2),
                     "tt": m.group(3), "time": m.group(4),
                     "command": m.group(5).strip()})
    return rows


def row_of(rows: list[dict], pid: int) -> dict | None:
    return next((r for r in rows if r["pid"] == pid), None)


def commands(rows: list[dict]) -> list[str]:
    return [r["command"] for r in rows]


def shell_pid(g: Guest) -> int:
    return int(g.ok("echo $$").strip())


def test_ps_x_lists_init_update_sh_and_itself(guest):
    sh = shell_pid(guest)
    rows = table(guest.ok("ps -x"))
    pids = [r["pid"] for r in rows]
    assert pids == sorted(set(pids)), "rows not one per process, by pid"

    init = row_of(rows, 1)
    assert init and init["command"] == "init", rows
    assert init["stat"].startswith("S") and init["tt"] == "co", init

    update = [r for r in rows if r["command"] == "(update)"]
    assert len(update) == 1, f"no kernel process update: {commands(rows)}"
    assert update[0]["stat"][0] in "SR" and update[0]["tt"] == "??", update

    shell = row_of(rows, sh)
    assert shell and shell["command"] == "sh", rows
    assert shell["stat"][0] in "SR" and "s" in shell["stat"], shell

    ps = [r for r in rows if r["command"] == "ps"]
    assert len(ps) == 1, rows
    assert ps[0]["stat"].startswith("R") and "+" in ps[0]["stat"], \
        f"ps itself should be running in the foreground: {ps[0]}"
    assert ps[0]["pid"] > sh


def test_ps_without_x_leaves_out_processes_without_a_terminal(guest):
    rows = table(guest.ok("ps"))
    assert "(update)" not in commands(rows)
    assert {"init", "sh", "ps"} <= set(commands(rows)), rows
    assert all(r["tt"] == "co" for r in rows), rows


def test_ps_l_adds_ids_wchan_and_size(guest):
    sh = shell_pid(guest)
    out = guest.ok("ps -l")
    lines = out.splitlines()
    assert lines[0].split() == LONG_HEADER, out
    fields = {int(l.split()[1]): l.split() for l in lines[1:] if l.strip()}
    uid, pid, ppid, pgid, sz, wchan, stat = fields[sh][:7]
    assert uid == "0" and int(pgid) == sh and int(sz) > 0, fields[sh]
    assert stat[0] in "SR" and (stat[0] == "S") == (wchan != "-"), \
        f"a sleeping process shows what it waits for: {fields[sh]}"
    ps = [f for f in fields.values() if f[-1] == "ps"]
    assert len(ps) == 1 and int(ps[0][2]) == sh, \
        f"ps's parent should be the shell {sh}: {ps}"
    assert int(ps[0][3]) == int(ps[0][1]), "ps runs in its own job's group"


def wait_for_state(g: Guest, pid: int, letter: str) -> dict | None:
    """ps -x until pid's STAT starts with letter; its row, or None."""
    for _ in range(POLLS):
        row = row_of(table(g.ok("ps -x")), pid)
        if row and row["stat"].startswith(letter):
            return row
    return None


def test_ps_shows_stopped_and_zombie_processes(guest):
    pid = int(guest.ok("sleep 100 & echo $!").splitlines()[-1])
    guest.ok(f"kill -STOP {pid}")
    stopped = wait_for_state(guest, pid, "T")
    guest.run(f"kill -KILL {pid}; wait {pid}")
    assert stopped and stopped["command"] == "sleep", \
        "a stopped sleep never showed as T"

    # sleep never waits for the true it inherits from sh: a zombie.
    parent = int(guest.ok("sh -c 'true & exec sleep 100' & echo $!")
                 .splitlines()[-1])
    zombie = None
    for _ in range(POLLS):
        rows = table(guest.ok("ps -x"))
        zombie = next((r for r in rows if r["command"] == "true"), None)
        if zombie and zombie["stat"].startswith("Z"):
            break
    guest.run(f"kill {parent}; wait {parent}")
    assert zombie and zombie["stat"].startswith("Z"), \
        f"an exited, unwaited-for child should show as Z: {zombie}"
    for _ in range(POLLS):
        if "true" not in commands(table(guest.ok("ps -x"))):
            break
    else:
        raise AssertionError("init did not reap the orphaned zombie")


def test_ps_bad_option_prints_usage(guest):
    out, status = guest.run("ps -q")
    assert status != 0 and "usage: ps" in out, (status, out)


def test_ctrl_c_kills_the_foreground_job_not_the_shell(guest):
    sh = shell_pid(guest)
    # A background watcher says READY once sleep is in the foreground
    # ("+" in its STAT), so ^C cannot arrive while the shell still owns
    # the terminal.
    guest.child.sendline(
        "sh -c 'until ps | grep sleep | grep -F S+ >/dev/null; do :; done;"
        " echo READY' & sleep 100")
    guest.expect(r"\nREADY\r*\n", 30)
    guest.send("\x03")
    guest.expect(r"\n# ", 30)
    # $? first; then reap the watcher, so no job report comes later
    out = guest.ok("s=$?; wait; echo $s")
    assert out.split() == ["130"], f"$? after ^C: {out!r}"
    assert shell_pid(guest) == sh, "the shell did not survive ^C"
    assert "sleep" not in commands(table(guest.ok("ps -x")))
