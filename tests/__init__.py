"""The tests (make test: pytest over this folder) and the helpers they share.

    guest.py     a guest booted on private copies of the disks, driven
                 through its serial console
    conftest.py  the fixtures: guest (one booted guest), guests (boot them
                 with kernel arguments, memory, disks of your choice)
    fslib.py     newfs, mount, fsck and dumplfs in the guest, and running
                 an in-guest test program
    ffsimage.py  an FFS image read from Python
    host/        tests that run on the host only (tools, drive model, libc)
    crash/       the crash-point checker (make crashtest)
    prog/        the in-guest test programs (/usr/tests/NAME)

Test modules never import one another: what two of them need lives in a
helper module here.
"""
