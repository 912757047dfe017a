"""qemu/turnaround.py: the split of the time between two disk commands,
on made-up files whose parts are known (no guest, no timing)."""

from __future__ import annotations

from pathlib import Path

from qemu import turnaround

RT_MINUS_MONO = 1_700_000_000_000_000_000     # realtime runs this far ahead (ns)
GUEST_T0 = 5_000_000_000                      # the guest's microsecond 0, host ns
# Each command: the parts (us) of the turnaround before it, as PARTS orders them.
PARTS = {"late": 20, "reply": 150, "intr": 40, "guest": 500, "kick": 60, "request": 90}
SERVICE_US = 30_000                           # the drive's time for each command
FORGIVEN = 100                                # the host's share the server forgave (us)


def made_up(tmp: Path, ncmd: int = 6, queued_after: int | None = None):
    """Write sd1.stats and qemu.trace for ncmd 64 KB writes, back to back
    (two NBD handles, reused as QEMU does),
    and return the guest's iostat -l text.  queued_after: that command's
    successor was already waiting (it is sent before the interrupt)."""
    stats = ["# op lba nsect t_pick t_start t_done t_wake t_io"]
    trace = []
    iolog = ["sd1: last N I/Os, oldest first",
             "      begin_us         end_us    svc_us     sector   bytes  op"]

    def qemu(t_ns: int, line: str) -> None:
        us = (t_ns + RT_MINUS_MONO) // 1000
        trace.append(f"4242@{us // 1_000_000}.{us % 1_000_000:06d}:{line}")

    def guest_us(t_ns: int) -> int:
        return (t_ns - GUEST_T0) // 1000

    kick = GUEST_T0 + 1_000_000_000
    for n in range(ncmd):
        lba = 128 * n
        qemu(kick, "virtio_queue_notify vdev 0x1 n 2 vq 0x2")
        send = kick + PARTS["kick"] * 1000
        qemu(send, f"nbd_send_request Sending request to server: {{ .from = {lba * 512}, "
                   f".len = 65536, .handle = {7 + n % 2}, .flags = 0x1, .type = 1 (write) }}")
        pick = send + PARTS["request"] * 1000
        done = pick + SERVICE_US * 1000
        wake = done + PARTS["late"] * 1000
        # the model started it FORGIVEN us before the server picked it up
        start = pick - FORGIVEN * 1000 if n else pick
        stats.append(f"w {lba} 128 {pick} {start} {done} {wake} {pick + 5000}")
        reply = wake + PARTS["reply"] * 1000 // 2
        qemu(reply, f"nbd_receive_simple_reply Got simple reply: {{ .error = 0 (success), "
                    f"handle = {7 + n % 2} }}")
        irq = wake + PARTS["reply"] * 1000
        qemu(irq, "virtio_scsi_cmd_resp virtio_scsi_cmd_resp lun=0 tag=0x1 response=0 "
                  "status=0x0")
        end = irq + PARTS["intr"] * 1000
        iolog.append(f"{guest_us(kick - 3000):14d} {guest_us(end):14d} "
                     f"{guest_us(end) - guest_us(kick - 3000):9d} {lba:10d}   65536  w")
        kick = end + PARTS["guest"] * 1000
        if n == queued_after:
            kick = irq - 2_000_000      # sent while this one was at the drive
    (tmp / "sd1.stats").write_text("\n".join(stats) + "\n")
    # An event of another disk and a line that is not an event change nothing.
    trace.insert(2, f"4242@1.000000:nbd_send_request Sending request to server: {{ "
                    f".from = 4096, .len = 512, .handle = 99, .flags = 0x0, .type = 0 (read) }}")
    trace.append("qemu-system-i386: terminating on signal 15")
    (tmp / "qemu.trace").write_text("\n".join(trace) + "\n")
    return "\n".join(iolog) + "\n"


def test_each_part_of_the_turnaround_is_found(tmp_path):
    log = turnaround.read_iolog(made_up(tmp_path))
    assert len(log) == 6
    [sp] = turnaround.analyse(tmp_path, [("w", log)], RT_MINUS_MONO)
    assert sp.n == 5
    for part, us in PARTS.items():
        # whole microseconds; and the fit takes the guest's stamp for
        # its notify, 3 us later, which moves intr and guest by 3 us
        assert abs(sp.mean[part] - us) <= 4, (part, sp.mean[part])
    assert abs(sp.total - sum(PARTS.values())) <= 2
    assert abs(sp.outside - sum(PARTS[p] for p in turnaround.OUTSIDE)) <= 2
    assert abs(sp.model - (sum(PARTS.values()) - FORGIVEN)) <= 2
    assert sp.residual_us <= 2


def test_a_command_that_was_already_waiting_has_no_turnaround(tmp_path):
    log = turnaround.read_iolog(made_up(tmp_path, queued_after=2))
    [sp] = turnaround.analyse(tmp_path, [("w", log)], RT_MINUS_MONO)
    assert sp.n == 4


def test_commands_the_server_never_saw_are_left_out(tmp_path):
    text = made_up(tmp_path, ncmd=4)
    text += f"{10**9:14d} {10**9 + 50:14d} {50:9d} {999999:10d}   65536  w\n"
    log = turnaround.read_iolog(text)
    cmds, first = turnaround.match(
        log, turnaround.read_stats(tmp_path / "sd1.stats"),
        turnaround.read_trace(tmp_path / "qemu.trace", RT_MINUS_MONO))
    assert [c.g.sector for c in cmds] == [0, 128, 256, 384]
    assert first == 0


def test_a_pass_is_matched_to_its_own_requests_not_an_earlier_passes(tmp_path):
    """Two passes write the same sectors: each is split on its own requests."""
    log = turnaround.read_iolog(made_up(tmp_path, ncmd=8))
    server = turnaround.read_stats(tmp_path / "sd1.stats")
    # the made-up commands 4..7 rewrite the sectors of 0..3
    for n, s in enumerate(server[4:]):
        s.lba = 128 * n
    for n, g in enumerate(log[4:]):
        g.sector = 128 * n
    (tmp_path / "sd1.stats").write_text("".join(
        f"{s.op} {s.lba} {s.nsect} {s.pick} {s.start} {s.done} {s.wake} 0\n" for s in server))
    splits = turnaround.analyse(tmp_path, [("first", log[:4]), ("second", log[4:])],
                                RT_MINUS_MONO)
    assert [sp.n for sp in splits] == [3, 3]
    assert all(sp.residual_us <= 4 for sp in splits)
    assert all(abs(sp.total - sum(PARTS.values())) <= 2 for sp in splits)
