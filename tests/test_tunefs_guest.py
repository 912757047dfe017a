"""tunefs in the guest: it tunes an unmounted file system on the scratch
disk, refuses while the file system is mounted (under its block or its
raw name), and what it sets is what the kernel's allocator then does, as
dumpfs -i shows in the layout of a file written after it."""
import re

from tests.guest import Guest

RUNS = re.compile(r"^runs\t(\d+)\tblocks (\d+)\tlongest (\d+)$", re.M)
RUN = re.compile(r"^run\tlbn \d+-\d+\tfrag \d+-\d+\t(\d+) blocks$", re.M)


def values(text: str) -> dict[str, str]:
    """tunefs's `name<TAB>value' lines."""
    return dict(line.split("\t", 1) for line in text.splitlines()
                if "\t" in line)


def write_file(g: Guest, name: str, blocks: int) -> tuple[list[int], int]:
    """Write a file of 4 KB blocks on a fresh mount of sd1a, unmount, and
    return its runs' lengths and the longest, from dumpfs -i."""
    g.ok("mount /dev/sd1a /mnt")
    g.ok(f"dd if=/dev/zero of=/mnt/{name} bs=4096 count={blocks}")
    ino = int(g.ok(f"ls -i /mnt/{name}").split()[0])
    g.ok("umount /mnt")
    out = g.ok(f"dumpfs -i {ino} /dev/rsd1a")
    nruns, total, longest = map(int, RUNS.search(out).groups())
    lengths = [int(n) for n in RUN.findall(out)]
    assert (nruns, total) == (len(lengths), blocks), out
    return lengths, longest


def test_tunefs_refuses_a_mounted_file_system(guest: Guest) -> None:
    guest.ok("newfs /dev/rsd1a", timeout=300)
    out = guest.ok("tunefs -a 8 -d 0 /dev/rsd1a")
    assert "tunefs: maxcontig changes from 1 to 8" in out
    assert "tunefs: rotdelay changes from 4ms to 0ms" in out

    guest.ok("mount /dev/sd1a /mnt")
    for special in ("/dev/rsd1a", "/dev/sd1a"):
        out, status = guest.run(f"tunefs -a 16 {special}")
        assert status == 1, out
        assert f"tunefs: {special}: mounted on /mnt; unmount it first" \
            in out
    # Printing is harmless while mounted; the kernel took the new values.
    v = values(guest.ok("tunefs /dev/rsd1a"))
    assert (v["maxcontig"], v["rotdelay"]) == ("8", "0ms")

    guest.ok("umount /mnt")
    out = guest.ok("tunefs -a 16 /dev/rsd1a")
    assert "tunefs: maxcontig changes from 8 to 16" in out
    guest.ok("mount /dev/sd1a /mnt && umount /mnt")


def test_maxcontig_and_rotdelay_shape_the_kernels_layout(
        guest: Guest) -> None:
    guest.ok("newfs /dev/rsd1a", timeout=300)  # maxcontig 1, rotdelay 4 ms
    lengths, longest = write_file(guest, "newfs", 40)
    assert longest == 1, lengths

    guest.ok("tunefs -a 8 /dev/rsd1a")        # rotdelay stays 4 ms
    lengths, longest = write_file(guest, "gapped", 100)
    assert longest == 8 and max(lengths) <= 8, lengths

    guest.ok("tunefs -d 0 /dev/rsd1a")        # no gap: one long run
    lengths, longest = write_file(guest, "contiguous", 100)
    assert longest > 8, lengths
