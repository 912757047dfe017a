"""Users: su as root and as the unprivileged student, and what a
non-root shell may not do."""


def test_root_becomes_student_and_back(guest):
    assert guest.ok("su student -c id").startswith("uid=1000(student)")
    out, status = guest.run("su student -c 'su -c id'")
    assert status != 0 and "Sorry" in out


def test_student_cannot_touch_roots_files(guest):
    guest.ok("echo secret > /root/s; chmod 600 /root/s")
    out, status = guest.run("su student -c 'cat /root/s'")
    assert status != 0 and "Permission denied" in out
    out, status = guest.run("su student -c 'mkdir /etc/x'")
    assert status != 0 and "Permission denied" in out
    out, status = guest.run("su student -c halt")
    assert status != 0
    assert guest.ok("echo still here").strip() == "still here"


def test_anyone_who_may_write_a_file_may_touch_it(guest):
    """utimes(path, NULL), "now", needs only write permission (POSIX);
    other times, or no write permission, need the owner."""
    guest.ok("echo w > /tmp/w; chmod 666 /tmp/w; echo r > /tmp/r; chmod 644 /tmp/r")
    guest.ok("su student -c 'touch /tmp/w'")
    out, status = guest.run("su student -c 'touch /tmp/r'")
    assert status != 0 and "/tmp/r" in out, out
