"""Running out of memory: processes get ENOMEM, the kernel stays up."""


def test_memory_hogs_get_enomem_and_the_kernel_survives(guest):
    out, status = guest.run("/usr/tests/memhog", timeout=300)
    assert "1 passed, 0 failed" in out, out
    assert status == 0
    # Memory came back: the shell can still fork and exec.
    assert guest.ok("echo after").strip() == "after"
