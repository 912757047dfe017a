"""tar (issue 26): ustar archives made on the host extract in the guest
and archives made in the guest extract on the host (both through the raw
second disk), a round trip inside the guest, names with .. or a leading
/ on extract, and bad archives and arguments.  One guest."""
from __future__ import annotations

import io
import os
import subprocess
import tarfile
from pathlib import Path

MTIME = 1577934245                      # 2020-01-02 03:04:05 UTC
BIN = bytes(range(256)) * 20            # 5,120 bytes, every byte value
EVIL_SECTOR = 2048                      # where the second archive goes
LONG_SECTOR = 4096                      # ... and the long-named ones
LONGDIR = "d" * 120                     # a component ustar cannot hold
LONGFILE = "f" * 150
LONGTARGET = "../" + LONGFILE + "/" + "t" * 60      # a 214-byte link target


def host_tree(top: Path) -> Path:
    src = top / "src"
    (src / "sub").mkdir(parents=True)
    (src / "a").write_text("hello\n")
    os.chmod(src / "a", 0o751)
    os.utime(src / "a", (MTIME, MTIME))
    (src / "sub" / "bin").write_bytes(BIN)
    os.symlink("a", src / "link")
    return src


def evil_archive() -> bytes:
    """Members named /tmp/evil-abs, ../evil-up and ok (Python's tarfile:
    GNU tar will not write such names without -P)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for name in ("/tmp/evil-abs", "../evil-up", "ok"):
            info = tarfile.TarInfo(name)
            info.size = 5
            t.addfile(info, io.BytesIO(b"evil\n"))
    return buf.getvalue()


def long_archives() -> tuple[bytes, bytes]:
    """The same members in GNU's format (././@LongLink) and in pax's,
    as Python's tarfile writes them: a file and a symbolic link whose
    name, and a link whose target, are longer than ustar can hold."""
    out = []
    for fmt in (tarfile.GNU_FORMAT, tarfile.PAX_FORMAT):
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w", format=fmt) as t:
            info = tarfile.TarInfo(f"{LONGDIR}/{LONGFILE}")
            info.size, info.mtime = 5, MTIME
            t.addfile(info, io.BytesIO(b"long\n"))
            info = tarfile.TarInfo(f"{LONGDIR}/l" + "l" * 110)
            info.type, info.linkname = tarfile.SYMTYPE, LONGTARGET
            t.addfile(info)
        out.append(buf.getvalue())
    return out[0], out[1]


def test_tar(guests, tmp_path):
    src = host_tree(tmp_path)
    hostar = tmp_path / "host.tar"
    subprocess.run(["tar", "--format=ustar", "--owner=0", "--group=0",
                    "-cf", str(hostar), "-C", str(tmp_path), "src"], check=True)
    g = guests.new(sd1_sectors=8192)
    with open(g.sd1, "r+b") as f:
        f.write(hostar.read_bytes())
        f.seek(EVIL_SECTOR * 512)
        f.write(evil_archive())
        gnu, pax = long_archives()
        f.seek(LONG_SECTOR * 512)
        f.write(gnu)
        f.seek((LONG_SECTOR + 1024) * 512)
        f.write(pax)
    g.boot()

    # long names, GNU's and pax's: listed and extracted whole
    for what, sector in (("gnu", LONG_SECTOR), ("pax", LONG_SECTOR + 1024)):
        g.ok(f"dd if=/dev/rsd1c of=/tmp/{what}.tar bs=512 skip={sector} "
             "count=40 2>/dev/null")
        assert g.ok(f"tar tf /tmp/{what}.tar").split() == \
            [f"{LONGDIR}/{LONGFILE}", f"{LONGDIR}/l" + "l" * 110], what
        assert f"-> {LONGTARGET}" in g.ok(f"tar tvf /tmp/{what}.tar"), what
        g.ok(f"mkdir /tmp/{what} && tar xf /tmp/{what}.tar -C /tmp/{what}")
        assert g.ok(f"cat /tmp/{what}/{LONGDIR}/{LONGFILE}") == "long\n", what
        assert g.ok(f"ls -l /tmp/{what}/{LONGDIR}/l" + "l" * 110).rstrip() \
            .endswith(f"-> {LONGTARGET}"), what

    # the host's archive, listed and extracted in the guest
    listing = g.ok("tar -tvf /dev/rsd1c")
    assert "src/sub/bin" in listing and "src/link -> a" in listing, listing
    assert g.ok("tar tf /dev/rsd1c").split() == \
        [n for n in subprocess.run(["tar", "tf", str(hostar)], check=True,
                                   capture_output=True, text=True).stdout.split()]
    g.ok("mkdir /tmp/h && tar -xf /dev/rsd1c -C /tmp/h")
    assert g.ok("cat /tmp/h/src/a") == "hello\n"
    line = g.ok("ls -l /tmp/h/src/a")
    assert line.startswith("-rwxr-x--x") and "Jan  2  2020" in line, \
        "mode and mtime restored: " + line
    assert "-> a" in g.ok("ls -l /tmp/h/src/link"), "symbolic link"
    assert g.ok("wc -c < /tmp/h/src/sub/bin").strip() == str(len(BIN))

    # a round trip inside the guest, compared byte for byte
    g.ok("mkdir -p /tmp/rt/d/e && echo one > /tmp/rt/d/f && "
         "cp /bin/ls /tmp/rt/d/e/ls && chmod 600 /tmp/rt/d/f && "
         "ln -s f /tmp/rt/d/l && ln /tmp/rt/d/f /tmp/rt/d/hard")
    created = g.ok("cd /tmp/rt && tar cvf /tmp/rt.tar d; cd /").split()
    assert sorted(created) == ["d/", "d/e/", "d/e/ls", "d/f", "d/hard", "d/l"], \
        created
    assert " link to d/" in g.ok("tar tvf /tmp/rt.tar"), "a hard link member"
    g.ok("mkdir /tmp/x && tar xf /tmp/rt.tar -C /tmp/x")
    assert g.run("diff /tmp/rt/d/e/ls /tmp/x/d/e/ls") == ("", 0), \
        "a binary file comes back byte for byte"
    # (not the symbolic link's own time: there is no lutimes to set it)
    assert g.ok("ls -l /tmp/x/d | grep -v ' l -> '") == \
        g.ok("ls -l /tmp/rt/d | grep -v ' l -> '"), \
        "modes, sizes, times and link counts come back"
    assert g.ok("ls -l /tmp/x/d/l").rstrip().endswith("l -> f")
    g.ok("mkdir /tmp/y && tar cf - -C /tmp/rt d | tar xf - -C /tmp/y")
    assert g.run("diff /tmp/rt/d/f /tmp/y/d/f") == ("", 0), "- is a pipe"
    g.ok("mkdir /tmp/z && tar xf /tmp/rt.tar -C /tmp/z d/f")
    assert g.ok("ls /tmp/z/d").split() == ["f"], "extract only the named"

    # names that could escape: .. refused, a leading / stripped
    g.ok(f"dd if=/dev/rsd1c of=/tmp/evil.tar bs=512 skip={EVIL_SECTOR} "
         "count=40 2>/dev/null")
    g.ok("mkdir /tmp/ev")
    out, status = g.run("cd /tmp/ev && tar xf /tmp/evil.tar")
    g.ok("cd /")
    assert status == 1 and "../evil-up" in out and "leading '/'" in out, out
    assert g.ok("cat /tmp/ev/tmp/evil-abs /tmp/ev/ok").split() == \
        ["evil", "evil"]
    assert g.run("ls /tmp/evil-abs /evil-up /tmp/evil-up")[1] != 0

    # bad archives and arguments
    for cmd, message in [("tar tf /bin/ls", "not look like a tar archive"),
                         ("tar tf /tmp/nosuch", "/tmp/nosuch"),
                         ("tar cf /tmp/n.tar /tmp/nosuch", "/tmp/nosuch"),
                         ("tar tf /dev/null", "empty"),
                         ("tar -q", "usage: tar"), ("tar", "usage: tar"),
                         ("tar -ct", "usage: tar"), ("tar cf /tmp/n.tar", "usage")]:
        out, status = g.run(cmd)
        assert status == 1 and message in out, (cmd, out)
    g.ok("dd if=/tmp/rt.tar of=/tmp/cut.tar bs=512 count=4 2>/dev/null")
    out, status = g.run("tar tf /tmp/cut.tar")
    assert status == 1 and "end" in out, out

    # the guest's archive, extracted by the host's tar
    g.ok("echo from the guest > /tmp/h/src/guest.txt && "
         "chmod 640 /tmp/h/src/guest.txt")
    g.ok("tar cf /dev/rsd1c -C /tmp/h src")
    g.halt()
    guestar = tmp_path / "guest.tar"
    with open(g.sd1, "rb") as f:
        guestar.write_bytes(f.read(EVIL_SECTOR * 512))
    out = tmp_path / "out"
    out.mkdir()
    subprocess.run(["tar", "-xf", str(guestar), "-C", str(out)], check=True)
    got = out / "src"
    assert (got / "a").read_text() == "hello\n"
    assert (got / "a").stat().st_mode & 0o7777 == 0o751
    assert int((got / "a").stat().st_mtime) == MTIME
    assert (got / "sub" / "bin").read_bytes() == BIN
    assert os.readlink(got / "link") == "a"
    assert (got / "guest.txt").read_text() == "from the guest\n"
    assert (got / "guest.txt").stat().st_mode & 0o7777 == 0o640
