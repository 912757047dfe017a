"""Job control at the guest's shell, as a user types it: ^Z stops the
foreground job and the shell takes the terminal back, jobs lists it, bg and
fg continue it, kill %n signals its process group, and a background job
that reads the terminal is stopped by SIGTTIN instead of stealing input."""
from __future__ import annotations

import re

PROMPT = r"\n# "


def test_ctrl_z_stops_the_job_and_fg_brings_it_back(guest):
    g = guest
    g.send("sleep 30\n")
    g.expect(r"sleep 30\r*\n")
    g.send("\x1a")                                  # ^Z
    g.expect(r"\[(\d+)\] (\d+) Stopped")
    job, pid = g.child.match.group(1), g.child.match.group(2)
    g.expect(PROMPT)
    assert f"[{job}] {pid} Stopped" in g.ok("jobs")
    assert re.search(rf"^\s*{pid} .*T.* sleep", g.ok("ps"), re.M) or "sleep" in g.ok("ps")
    out = g.ok("bg")
    assert f"[{job}] {pid}" in out
    assert f"[{job}] {pid} Running" in g.ok("jobs")
    g.send(f"fg %{job}\n")
    g.expect(rf"\n{pid}\r*\n")                      # fg names the job it continues
    g.send("\x03")                                  # ^C: to the job, not the shell
    g.expect(PROMPT)
    assert g.ok("jobs").strip() == ""
    assert g.ok("echo alive") .strip() == "alive"


def test_kill_percent_signals_the_job(guest):
    g = guest
    out = g.ok("sleep 60 & sleep 61 & jobs")
    assert "Running" in out
    g.ok("kill %1 %2")
    out = g.ok("wait; jobs")
    assert out.strip() == "", out
    g.send("kill %7\n")
    g.expect(r"kill: %7: no such job")
    g.expect(PROMPT)
    assert g.ok("kill -l 143").strip() == "TERM"


def test_a_background_reader_is_stopped_not_fed(guest):
    """cat in the background would take the next line typed: SIGTTIN
    stops it, the shell reports it at the next prompt, and the line goes
    to the shell."""
    g = guest
    g.send("cat > /tmp/got &\n")
    g.expect(PROMPT)
    g.ok("sleep 1")                     # cat reaches its read and stops
    out = g.ok("echo typed")
    assert "typed" in out
    assert "Stopped" in g.ok("jobs")
    g.ok("kill %1")
    out, status = g.run("fg", 30)       # continued, it takes the TERM
    assert status == 128 + 15 and "Terminated" in out, out
    assert g.ok("cat /tmp/got").strip() == ""
