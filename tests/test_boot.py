"""Booting, the disks the boot finds, and shutting down."""
import re


def test_boot_reaches_root_shell(guest):
    assert "root on sd0a" in guest.boot_log
    out = guest.ok("echo $?")
    assert out.strip() == "0"


def test_boot_names_each_scsi_disk(guest):
    log = guest.boot_log
    assert "vioscsi0 at pci0" in log
    assert "sd0 at scsibus0 target 0: <BSDTEACH RAMDISK> 64MB" in log
    assert "sd1 at scsibus0 target 1:" in log


def test_hp97560_identity_shows_at_boot(guests):
    g = guests.boot(profile="hp97560")
    assert ("sd1 at scsibus0 target 1: <HP 97560> 1292MB, 1935 cyl, "
            "19 head, 72 sec, 4002 rpm") in g.boot_log


def test_the_label_knows_the_drive(guests):
    """The default label has the rpm the drive reports (VPD page B1), so
    newfs's rotational layout is the drive's: 66 revolutions a second,
    not 4.4BSD's guess of 60.  disklabel -w takes a drive from
    /etc/disktab (made from the drive profiles), as 4.4BSD's did."""
    g = guests.boot(profile="hp97560")
    g.ok("newfs -s 8192 /dev/rsd1a > /dev/null")
    assert re.search(r"\brps\s+66\b", g.ok("dumpfs -s /dev/rsd1a")), \
        g.ok("dumpfs -s /dev/rsd1a")
    assert "hp97560|HP 97560" in g.ok("cat /etc/disktab")
    g.ok("disklabel -w sd1 hp97560")
    label = g.ok("disklabel sd1")
    for line in ("disk: hp97560", "sectors/track: 72", "tracks/cylinder: 19",
                 "cylinders: 1935", "rpm: 4002"):
        assert line in label, label
    out, status = g.run("disklabel -w sd1 hp9756")
    assert status != 0 and "unknown disk type" in out, out


def test_halt_powers_off_with_status_0(guest):
    assert guest.halt() == 0


def test_reboot_restarts_the_machine(guests):
    g = guests.boot(allow_reboot=True)
    g.send("reboot\n")
    g.expect("rebooting")
    g.expect("4.4BSD-LFS teaching kernel")   # the banner again
    g.wait_ready()
    assert g.ok("echo again").strip() == "again"


def test_buffer_cache_size_from_memory_or_command_line(guests):
    g = guests.boot(mem=64)
    assert "buffer cache: 3269 buffers, 6539 KB" in g.boot_log
    g.close()
    g = guests.boot(kargs="bufcache=2048")
    assert "buffer cache: 1024 buffers, 2048 KB" in g.boot_log
    # A small cache still moves a file through whole: recycling works.
    g.ok("cp /bin/sh /tmp/a && cp /tmp/a /tmp/b")
    assert g.ok("wc -c < /tmp/b") == g.ok("wc -c < /bin/sh")
    assert g.ok("od -x /tmp/b | tail -3") == g.ok("od -x /bin/sh | tail -3")


def test_halt_waits_out_a_sync_under_way(guests):
    """halt unmounts while the update daemon may be asleep inside its sync
    of an LFS (every second here, a writer on the timed disk keeping it
    busy): the unmount waits for it instead of reclaiming the vnodes it is
    writing (it panicked in lfs_writefile, after "cannot read ifile
    block")."""
    g = guests.boot(profile="hp97560", kargs="syncinterval=1")
    g.ok("newfs_lfs -S 65536 /dev/rsd1a > /dev/null && "
         "mount -n -t lfs /dev/sd1a /mnt")
    g.ok("(while :; do dd if=/dev/zero of=/mnt/f bs=64k count=8; done) "
         "> /dev/null 2>&1 & true")
    g.ok("dd if=/dev/zero of=/mnt/g bs=64k count=24 2> /dev/null")
    assert g.halt() == 0
