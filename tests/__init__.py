"""The tests (make test: pytest over this folder) and the helpers they share.

    guest.py     a guest booted on private copies of the disks, driven
                 through its serial console
    conftest.py  the fixture guest: one booted guest
    ffsimage.py  an FFS image read from Python
    host/        tests that run on the host only (tools, drive model, libc)
    crash/       the crash-point checker (make crashtest)
    prog/        the in-guest test programs (/usr/tests/NAME)
"""
