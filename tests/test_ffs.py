"""FFS from the outside: data survives a clean reboot and fsck_ffs finds
nothing to fix; a damaged superblock is refused by mount with a message,
not a panic; a full file system answers ENOSPC and gives space back."""
from tests.host.tools import HOSTBIN, run

SB_MAGIC_OFFSET = 8192 + 1020      # fs_magic in the primary superblock


def test_files_survive_a_clean_reboot_and_fsck_is_clean(tmp_path, guests):
    g = guests.boot()
    g.ok("mkdir /root/dir && echo persistent > /root/dir/p.txt")
    g.ok("cp /etc/passwd /root/dir/passwd && ln -s p.txt /root/dir/link")
    assert g.halt() == 0
    g.close()
    r = run(HOSTBIN, "fsck_ffs", "-n", tmp_path / "sd0.img")
    assert "MODIFIED" not in r.stdout
    g = guests.boot()                   # the same images, booted again
    assert g.ok("cat /root/dir/link").strip() == "persistent"
    assert g.ok("cat /root/dir/passwd") == g.ok("cat /etc/passwd")


def test_mount_refuses_a_corrupted_superblock(guests):
    g = guests.new()                    # makes a blank sd1.img
    run(HOSTBIN, "newfs", g.sd1)
    with open(g.sd1, "r+b") as f:
        f.seek(SB_MAGIC_OFFSET)
        f.write(b"\xde\xad\xbe\xef")
    g.boot()
    out, status = g.run("mount /dev/sd1a /mnt")
    assert status != 0
    assert "bad superblock" in g.child.before + out
    assert g.ok("echo still alive").strip() == "still alive"


def test_full_file_system_gives_enospc_and_space_back(tmp_path, guests):
    g = guests.new(sd1_sectors=8192)    # a 4 MB scratch disk
    run(HOSTBIN, "newfs", g.sd1)
    g.boot()
    g.ok("mount /dev/sd1a /mnt")
    out, status = g.run("/usr/tests/syscalls -d /mnt -n", timeout=300)
    failures = [l for l in out.splitlines() if "FAILED" in l]
    assert not failures, "\n".join(failures)
    assert status == 0, out
    g.ok("umount /mnt")
    g.close()
    run(HOSTBIN, "fsck_ffs", "-n", tmp_path / "sd1.img")


def test_newfs_and_mount_in_the_guest(tmp_path, guests):
    g = guests.boot()
    g.ok("newfs /dev/rsd1c", timeout=300)
    g.ok("mount /dev/sd1c /mnt && mkdir /mnt/a && echo hi > /mnt/a/f")
    g.ok("umount /mnt && mount /dev/sd1c /mnt")
    assert g.ok("cat /mnt/a/f").strip() == "hi"
    g.ok("umount /mnt")
    g.close()
    run(HOSTBIN, "fsck_ffs", "-n", tmp_path / "sd1.img")
