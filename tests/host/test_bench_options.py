"""Host tests of the benchmark drivers' options: no guest, no timing.

A driver that runs another's measurement (bench.cleaner runs tpcb.measure)
must give it every option it reads; a missing one is found here, not half
an hour into make bench THESIS=1.
"""
from __future__ import annotations

from bench import cleaner, tpcb


class MuteGuest:
    """Answers every command with nothing, and keeps them."""

    def __init__(self) -> None:
        self.commands: list[str] = []

    def ok(self, cmd: str, timeout: float | None = None) -> str:
        self.commands.append(cmd)
        return ""


def test_the_cleaner_gives_tpcb_every_option_it_reads():
    args = cleaner.options(["--fullness", "80"])
    for policy, config in cleaner.POLICIES.items():
        g = MuteGuest()
        res = tpcb.measure(g, config, args, lambda line: None,
                           tpcb.partition(args.scale, 0.80))
        assert g.commands[0].startswith("newfs_lfs"), (policy, g.commands)
        assert g.commands[-1] == "umount /mnt", (policy, g.commands)
        assert res.tps == [], policy        # nothing was answered, nothing measured


def test_a_failed_run_says_why_in_one_line():
    """A failure's report keeps the command and the program's last words
    (the cleaner's 90% point read "exited 1" and nothing else)."""
    from bench.driver import why_failed
    from tests.guest import GuestError
    e = GuestError("'tpcb -u 29 /mnt/tpcb' exited 1:\ntpcb mode lfs\nwarm\n"
                   "tpcb: transaction 812: No space left on device\n"
                   "tpcb: /mnt/tpcb: No space left on device\n")
    why = why_failed(e)
    assert why.startswith("'tpcb -u 29 /mnt/tpcb' exited 1:"), why
    assert "transaction 812: No space left on device" in why, why
    assert "\n" not in why and len(why_failed(e, 40)) == 40
    assert why_failed(GuestError("'true' exited 1:\n")) == "'true' exited 1:"
