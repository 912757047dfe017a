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
                           cleaner.sectors_for(0.80, args.scale))
        assert g.commands[0].startswith("newfs_lfs"), (policy, g.commands)
        assert g.commands[-1] == "umount /mnt", (policy, g.commands)
        assert res.tps == [], policy        # nothing was answered, nothing measured
