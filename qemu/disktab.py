"""/etc/disktab from the drive profiles (qemu/drivemodel.py): one source for
the drives the guest knows by name, as 4.4BSD's disktab(5) kept them.

    python3 -m qemu.disktab > build/root/etc/disktab     (the Makefile does it)

An entry per profile with a SCSI identity: the geometry QEMU reports
(ns sectors per track, nt tracks per cylinder, nc cylinders, su sectors),
rm the rpm, and where the profile has a mechanism its track and cylinder
skews (sk, cs, in sectors) and head switch (hs, microseconds); partitions
a and c the whole disk.  `disklabel -w sd1 hp97560` writes a label from it.
"""
from __future__ import annotations

import sys

from qemu import drivemodel


def entry(p: drivemodel.Profile) -> str:
    ident = p.identity
    caps = ["ty=winchester", "dt=SCSI", "se#512", f"ns#{ident.secs}",
            f"nt#{ident.heads}", f"nc#{ident.cyls}", f"su#{p.sectors}",
            f"rm#{ident.rotation_rate}"]
    m = p.mechanism
    if m is not None:
        caps += [f"sk#{m.track_skew}", f"cs#{m.cylinder_skew}",
                 f"hs#{round(m.head_switch_ms * 1000)}"]
    caps += [f"pa#{p.sectors}", "oa#0", "ta=4.2BSD", f"pc#{p.sectors}", "oc#0"]
    names = f"{p.name}|{ident.vendor} {ident.product}"
    lines = [f"# {p.description}", f"{names}:\\"]
    for i in range(0, len(caps), 6):
        tail = ":\\" if i + 6 < len(caps) else ":"
        lines.append("\t:" + ":".join(caps[i:i + 6]) + tail)
    return "\n".join(lines)


def disktab() -> str:
    head = ("# /etc/disktab: the drives of the thesis, made from qemu/drivemodel.py "
            "(do not edit).\n# disktab(5): ns sectors/track, nt tracks/cylinder, "
            "nc cylinders, su sectors,\n# rm rpm, sk track skew, cs cylinder skew "
            "(sectors), hs head switch (us).\n")
    return head + "\n\n".join(entry(p) for p in drivemodel.PROFILES.values()
                              if p.identity is not None and p.sectors) + "\n"


if __name__ == "__main__":
    sys.stdout.write(disktab())
