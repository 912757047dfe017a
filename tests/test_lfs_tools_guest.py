"""newfs_lfs and dumplfs in the guest: on the raw scratch disk (512-byte
sectors, the kernel's default label: partition a is the whole disk from
sector 0), the same file system as on the host, and the host's dumplfs
agrees with the guest's about it."""
from tests.host.tools import HOSTBIN, run


def superblock_lines(text: str) -> list[str]:
    """The lines that describe the checkpoint: everything before the
    ifile, which the two dumps must print identically."""
    return text.split("\nifile:")[0].strip().splitlines()


def test_newfs_lfs_in_the_guest_and_dumplfs_on_both_sides(tmp_path, guests):
    g = guests.boot()               # a blank 64 MB sd1
    made = g.ok("newfs_lfs /dev/rsd1a", timeout=300)
    assert "131072 sectors in 64 segments of 256 blocks of 4096 bytes" \
        in made
    guest_out = g.ok("dumplfs /dev/rsd1a", timeout=300)
    assert "datasum\tok" in guest_out
    assert "ifile\tconsistent" in guest_out
    assert "checkpoint\tsb[0] serial 1" in guest_out
    root = g.ok("dumplfs -i 2 /dev/rsd1a")
    assert "mode\t40755" in root and "nlink\t3" in root
    assert g.halt() == 0
    g.close()
    r = run(HOSTBIN, "dumplfs", tmp_path / "sd1.img", expect=None)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    assert "ifile\tconsistent" in r.stdout
    assert superblock_lines(r.stdout) == superblock_lines(guest_out)


def test_guest_dumplfs_finds_copy_1_when_copy_0_is_gone(guests):
    """Copy 0 zeroed on the host: the guest's dumplfs scans the raw disk
    for another copy, reports copy 0 and still checks the log."""
    g = guests.new()
    run(HOSTBIN, "newfs_lfs", g.sd1)
    with open(g.sd1, "r+b") as f:
        f.seek(8192)
        f.write(bytes(4096))
    g.boot()
    out, status = g.run("dumplfs /dev/rsd1a", timeout=300)
    assert status == 1, out
    assert "sb[0]\tblock 2 BAD: bad magic number" in out
    assert "checkpoint\tsb[1] serial 1" in out
    assert "datasum\tok" in out and "ifile\tconsistent" in out
