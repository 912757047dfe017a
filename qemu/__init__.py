"""The host side of the machine: launching QEMU, the timed disks behind it,
and the Python that reads what the guest wrote.

    python3 -m qemu COMMAND     the one launcher (qemu/__main__.py): boot,
                                crashimage, crashtest, bench

    launch.py       the QEMU command line, the disk servers, the .gdbinit
    disk.py         one nbdkit drive server per disk, and an NBD client
    drive.py        the nbdkit plugin (loaded by nbdkit, not imported)
    drivemodel.py   the 1992 drive models (DRIVE.md)
    writelog.py     the disk's write log and power-cut faults
    lfsdisk.py      the BSD-LFS on-disk format, read from an image
    gdb_helpers.py, gdb_lfs.py   GDB commands (loaded by GDB)
    crashimage.py   a crashed LFS for doc/lfs-recovery.md
    validate_drive.py   the drive server against its model (make bench)

The top of the tree is the root of the Python packages qemu, tests and
bench: run Python from there (the Makefile does; pytest.ini tells pytest).
"""
