"""Roll-forward seen from GDB, checked against the crashed image: the
stops of the recovery walk-through (doc/lfs-recovery.md, which
tests/test_walkthroughs.py runs as written), each checked against what
the image holds, and the helpers' answers to bad input.

A crashed LFS is made as `make crashimage` makes it (a checkpoint, five
partial segments after it, the power cut in the middle of a last
directory operation).  A guest boots on it with a gdbstub; GDB, with the
walk-through's breakpoints, stops at the line of lfs_rfw_accept where a
partial segment is accepted, in lfs_rfw_apply, in lfs_rfw_setblk (where a
forced write's data block is put back in its file), and once the file
system is mounted; the LFS helpers print what a student would look at there.
The test reads GDB's output as a story: one `== STOP' line per stop,
then what the helpers said.
"""
from __future__ import annotations

import re

import pexpect

from qemu import crashimage, launch, lfsdisk
from tests.guest import BUILD, free_port

NEW_INO = 7         # /mnt/new: the first inode made after the checkpoint
APPENDED_INO = 5    # /mnt/src/a: the file the no-dirop fsync wrote (data only)


# A GDB Python driver: continue to each breakpoint, run the walk-through's
# helpers for the function stopped in, until the mount is done.
DRIVER = """
import gdb
def stop_name():
    return gdb.selected_frame().function().name
def show(*cmds):
    for c in cmds:
        gdb.execute(c)
print("== BAD INPUT")
for c in {bad!r}:
    gdb.execute(c)
print("== STOP before the mount")
gdb.execute("lfs-sb")
while True:
    gdb.execute("continue", to_string=True)
    name = stop_name()
    if name == "lfs_rfw_accept":
        print("== STOP accept daddr %d" % int(gdb.parse_and_eval("daddr")))
        show("lfs-segsum *ssp", "lfs-ifile {new}", "lfs-sb d")
    elif name == "lfs_rfw_apply":
        print("== STOP apply daddr %d" % int(gdb.parse_and_eval("daddr")))
        show("lfs-segsum daddr", "lfs-ifile {new}", "lfs-ifile {app}",
             "lfs-sb fs")
    elif name == "lfs_rfw_setblk":
        print("== STOP setblk ino %d lbn %d daddr %d" % (
            int(gdb.parse_and_eval("ip->i_number")),
            int(gdb.parse_and_eval("lbn")), int(gdb.parse_and_eval("daddr"))))
        show("inode ip")
    else:
        print("== STOP mounted")
        show("lfs-sb", "lfs-ifile {new}", "lfs-ifile {app}", "lfs-seguse 0")
        break
gdb.execute("delete")
print("== END")
"""


# Mistakes a student makes, and the one-line answer each gets.
BAD_INPUT = [
    ("lfs-segsum", "lfs-segsum: which summary?"),
    ("lfs-segsum 0", "lfs-segsum: block 0 is outside the file system"),
    ("lfs-segsum seg 99", "lfs-segsum: segment 99 does not exist (0..63)"),
    ("lfs-segsum *1", "lfs-segsum: 1 has type int, not struct segsum *"),
    ("lfs-ifile", "lfs-ifile: usage: lfs-ifile INUM"),
    ("lfs-ifile x", "lfs-ifile: 'x' is not an inode number"),
    ("lfs-ifile 1 2", "lfs-ifile: 2 has type int, not struct lfs *"),
    ("lfs-seguse 64", "lfs-seguse: segment 64 does not exist (0..63)"),
    ("lfs-sb 1", "lfs-sb: 1 has type int, not struct lfs * or struct dlfs *"),
]


def gdb_walk(port: int, image, tmp_path) -> pexpect.spawn:
    script = tmp_path / "walk.py"
    script.write_text(DRIVER.format(new=NEW_INO, app=APPENDED_INO,
                                    bad=[c for c, _ in BAD_INPUT]))
    return pexpect.spawn("gdb", [
        "-batch", "-nx",
        "-ex", "set pagination off",
        "-ex", f"file {BUILD / 'kernel'}",
        "-ex", f"target remote 127.0.0.1:{port}",
        *(a for c in launch.gdb_helper_commands() for a in ("-ex", c)),
        "-ex", f"lfs-disk {image}",
        "-ex", "break-at accept",          # the marked line (gdb_helpers.py)
        "-ex", "break lfs_rfw_apply",
        "-ex", "break lfs_rfw_setblk",
        "-ex", "break lfs_statfs",
        "-ex", f"source {script}",
        "-ex", "detach"], encoding="utf-8", timeout=180)


def stops(out: str) -> list[tuple[str, str]]:
    """(stop line, what the helpers printed there), in order.  A stop
    that repeats the one before it exactly is dropped: once in a while
    GDB reports a breakpoint at QEMU's gdbstub twice at the same place
    (seen once at a function's first line)."""
    parts = re.split(r"^== STOP (.*)\r?$", out, flags=re.M)
    seen: list[tuple[str, str]] = []
    for name, text in zip(parts[1::2], parts[2::2]):
        # GDB's notice of the next stop ends the text
        stop = (name, re.split(r"^Breakpoint \d+, ", text, flags=re.M)[0])
        if not seen or seen[-1] != stop:
            seen.append(stop)
    return seen


def field(text: str, name: str) -> str:
    m = re.search(rf"^{name}\t(\S+)", text, flags=re.M)
    assert m, f"no {name} in:\n{text}"
    return m.group(1)


def test_walkthrough_of_lfs_roll_forward(tmp_path, guests):
    image = tmp_path / "crashed-lfs.img"
    cut = crashimage.make(tmp_path / "make", image)
    print(crashimage.describe(image, cut))
    img = lfsdisk.Image(str(image))
    ckp, after = img.fs, img.after_checkpoint()
    img.close()
    flags = [p.ss.flagstr for p in after]
    assert flags == ["DIROP,CONT", "DIROP", "DIROP,CONT", "DIROP", "DATAONLY",
                     "DIROP,CONT"], flags

    port = free_port()
    g = guests.boot(tmp_path / "walk", sd1=image, gdb_port=port)
    gdb = gdb_walk(port, g.sd1, tmp_path)
    gdb.expect("Breakpoint 4 at")       # all set before the mount
    g.send("mount -t lfs /dev/sd1a /mnt\n")
    gdb.expect(pexpect.EOF)
    out = gdb.before.replace("\r", "")
    (tmp_path / "gdb.out").write_text(out)     # for a failed run
    assert "Traceback" not in out and "== END" in out, out
    seen = stops(out)
    assert seen[0][0] == "before the mount"
    assert "lfs-sb: no LFS is mounted" in seen[0][1]
    bad = out.split("== BAD INPUT")[1].split("== STOP")[0]
    for _, answer in BAD_INPUT:
        assert answer in bad, bad
    accepts = [(s, t) for s, t in seen if s.startswith("accept")]
    applies = [(s, t) for s, t in seen if s.startswith("apply")]
    setblks = [(s, t) for s, t in seen if s.startswith("setblk")]

    # Every valid partial segment after the checkpoint, in order;
    # serials one by one from the checkpoint's; lfs-segsum finds the
    # in-memory summary's block on the disk, the daddr GDB shows.
    assert len(accepts) == len(after)
    for i, (stop, text) in enumerate(accepts):
        assert stop == f"accept daddr {after[i].daddr}", stop
        assert re.search(rf"^pseg\t{after[i].daddr} \(in memory at "
                         rf"0x[0-9a-f]+\) serial {ckp.serial + 1 + i} "
                         rf".* flags {flags[i]} ", text, flags=re.M), text
        assert "sumsum\tok" in text and "datasum\tok" in text
        assert field(text, "serial") == str(ckp.serial)    # lfs-sb fs
        # Before the ifile is read: the checkpoint's map, which
        # does not know the new file.
        assert re.search(rf"^inomap\t{NEW_INO} version \d+ daddr 0 .*"
                         rf"\(disk block \d+, checkpoint serial "
                         rf"{ckp.serial}\)", text, flags=re.M), text

    # lfs_rfw_apply: only the no-dirop partial segment after the
    # newest ifile; the ifile in use already knows the new file.  The
    # forced write carried no inode: the map keeps the old one.
    assert [int(s.split()[-1]) for s, _ in applies] == [after[4].daddr]
    text = applies[0][1]
    assert f"finfo\tino {APPENDED_INO} " in text
    assert after[4].ss.ninos == 0
    assert re.search(rf"^inomap\t{NEW_INO} version \d+ daddr "
                     rf"{after[0].ss.inoaddrs[0]} ", text, flags=re.M)
    assert field(text, "serial") == str(ckp.serial)
    assert field(text, "idaddr") == str(after[3].ss.inoaddrs[0])

    # lfs_rfw_setblk: the DATAONLY partial segment's block goes back
    # into the appended file, whose inode still points at the old one.
    assert [s for s, _ in setblks] == [
        f"setblk ino {APPENDED_INO} lbn 0 daddr {after[4].daddr + 1}"]
    assert re.search(rf"size 4, .*\n  db \[(?!{after[4].daddr + 1}\b)\d+,",
                     setblks[0][1]), setblks[0][1]      # "one\n", before

    # Mounted: the roll-forward's checkpoint wrote the appended file's
    # inode; the log's segment in use.
    assert seen[-1][0] == "mounted"
    text = seen[-1][1]
    assert "superblock\t/mnt: struct lfs" in text
    assert int(field(text, "serial")) > after[-1].ss.serial
    assert re.search(rf"^inomap\t{APPENDED_INO} version \d+ daddr \d+ .*"
                     rf"\(in core", text, flags=re.M), text
    assert re.search(r"^segment\t0 dirty,active,superblock .*\(in core",
                     text, flags=re.M), text
    assert "flags\t0x7 ACTIVE|DIRTY|SUPERBLOCK" in text

    g.expect(r"rolled forward 5 partial segments, discarded 1 of an "
             r"unfinished dirop")
    g.expect(r"# ")
    assert g.ok("cat /mnt/src/a /mnt/new /mnt/dir/f").split() == \
        ["one", "five", "three", "four"]
    assert g.ok("ls -i /mnt/new").split()[0] == str(NEW_INO)
    assert g.ok("ls -i /mnt/src/a").split()[0] == str(APPENDED_INO)
    # The unfinished dirop (mkdir /mnt/lost) is gone.
    assert g.ok("ls /mnt").split() == ["dir", "ifile", "lost+found",
                                       "new", "src"]
