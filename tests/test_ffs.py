"""FFS from the outside: data survives a clean reboot and fsck_ffs finds
nothing to fix; a damaged superblock is refused by mount with a message,
not a panic; a full file system answers ENOSPC and gives space back."""
import subprocess
from pathlib import Path

from tests.guest import BUILD

SB_MAGIC_OFFSET = 8192 + 1020      # fs_magic in the primary superblock


def host_tool(name: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BUILD / "host" / name), *args],
                          capture_output=True, text=True)


def host_newfs(image: Path) -> None:
    r = host_tool("newfs", str(image))
    assert r.returncode == 0, r.stdout + r.stderr


def test_files_survive_a_clean_reboot_and_fsck_is_clean(tmp_path, guests):
    g = guests.boot()
    g.ok("mkdir /root/dir && echo persistent > /root/dir/p.txt")
    g.ok("cp /etc/passwd /root/dir/passwd && ln -s p.txt /root/dir/link")
    assert g.halt() == 0
    g.close()
    r = host_tool("fsck_ffs", "-n", str(tmp_path / "sd0.img"))
    assert r.returncode == 0, r.stdout
    assert "MODIFIED" not in r.stdout
    g = guests.boot()                   # the same images, booted again
    assert g.ok("cat /root/dir/link").strip() == "persistent"
    assert g.ok("cat /root/dir/passwd") == g.ok("cat /etc/passwd")


def test_mount_refuses_a_corrupted_superblock(guests):
    g = guests.new()                    # makes a blank sd1.img
    host_newfs(g.sd1)
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
    host_newfs(g.sd1)
    g.boot()
    g.ok("mount /dev/sd1a /mnt")
    out, status = g.run("/usr/tests/syscalls -d /mnt -n", timeout=300)
    failures = [l for l in out.splitlines() if "FAILED" in l]
    assert not failures, "\n".join(failures)
    assert status == 0, out
    g.ok("umount /mnt")
    g.close()
    r = host_tool("fsck_ffs", "-n", str(tmp_path / "sd1.img"))
    assert r.returncode == 0, r.stdout


def test_newfs_and_mount_in_the_guest(tmp_path, guests):
    g = guests.boot()
    g.ok("newfs /dev/rsd1c", timeout=300)
    g.ok("mount /dev/sd1c /mnt && mkdir /mnt/a && echo hi > /mnt/a/f")
    g.ok("umount /mnt && mount /dev/sd1c /mnt")
    assert g.ok("cat /mnt/a/f").strip() == "hi"
    g.ok("umount /mnt")
    g.close()
    r = host_tool("fsck_ffs", "-n", str(tmp_path / "sd1.img"))
    assert r.returncode == 0, r.stdout
