"""Host tests of the Linux compatibility layer's translations
(compat/linux/linux_xlate.c): the file is compiled for i386 on the host
with the kernel's headers, next to a small C harness that prints what
each function gives, and the test compares that with Linux's own numbers
and structure layouts (as glibc on this host sees them)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

TOP = Path(__file__).resolve().parents[2]
GCCINC = subprocess.run(["gcc", "-m32", "-print-file-name=include"],
                        capture_output=True, text=True).stdout.strip()

HARNESS = r"""
#include <stddef.h>
#define USEREND 0xbfc00000	/* kern/i386/pmap.h VM_MAXUSER_ADDRESS */
#include "compat/linux/linux.h"
#include "sys/errno.h"
#include "sys/fcntl.h"
#include "sys/stat.h"
int printf(const char *, ...);

int
main(void)
{
	static const int bsd[] = { EPERM, ENOENT, EDEADLK, EAGAIN, ENAMETOOLONG,
	    ENOTEMPTY, ELOOP, ENOSYS, EOPNOTSUPP, ENOLCK, EFTYPE, 0, 200 };
	struct linux_user_desc u = { -1, 0x12345678, 0xfffff, 0x51 };
	static const struct linux_user_desc tlscases[] = {
		{ 6, 0xc0000000, 0xfff, 0x01 },		/* at the kernel */
		{ 6, USEREND - 4096, 0xfff, 0x01 },	/* the last user page */
		{ 6, USEREND - 4096, 0x1000, 0x01 },	/* one byte past it */
		{ 6, USEREND - 0x100000, 0x100, 0x11 },	/* 257 pages: past it */
		{ 6, 0xfffff000, 0xfffff, 0x51 },	/* 4 GB, kernel base */
		{ 6, 0x1000, 0xfff, 0x21 },		/* not present */
		{ 6, 0x1000, 0xfff, 0x03 },		/* expand-down */
		{ 6, 0, 0, 0x28 },			/* empty: clears */
		{ 6, 0, 0, 0 },				/* all zeros: clears */
	};
	struct stat sb = { 0 };
	struct linux_stat64 l64;
	struct linux_statx sx;
	u_int32_t d[2];
	unsigned i;
	int r;

	for (i = 0; i < sizeof(bsd) / sizeof(bsd[0]); i++)
		printf("errno %d %d\n", bsd[i], linux_errno(bsd[i]));
	printf("oflags %d\n", linux_to_bsd_oflags(01 | 0100 | 0200 | 01000 | 02000 | 04000));
	printf("back %d\n", bsd_to_linux_oflags(O_WRONLY | O_APPEND | O_NONBLOCK));
	printf("sizes %u %u\n", (unsigned)sizeof(l64), (unsigned)sizeof(sx));
	printf("off64 %u %u %u %u\n", (unsigned)offsetof(struct linux_stat64, lst_size),
	    (unsigned)offsetof(struct linux_stat64, lst_blocks),
	    (unsigned)offsetof(struct linux_stat64, lst_mtime),
	    (unsigned)offsetof(struct linux_stat64, lst_ino));
	printf("offx %u %u %u %u\n", (unsigned)offsetof(struct linux_statx, stx_mode),
	    (unsigned)offsetof(struct linux_statx, stx_ino),
	    (unsigned)offsetof(struct linux_statx, stx_mtime),
	    (unsigned)offsetof(struct linux_statx, stx_dev_major));
	sb.st_mode = S_IFREG | 0644;
	sb.st_size = 5000000000LL;
	sb.st_ino = 77;
	sb.st_dev = (4 << 8) | 10;
	sb.st_mtimespec.tv_sec = 1000;
	sb.st_mtimespec.tv_nsec = 999;
	linux_stat64_from(&sb, &l64);
	linux_statx_from(&sb, &sx);
	printf("stat64 %o %lld %u %u %u\n", l64.lst_mode, (long long)l64.lst_size,
	    (unsigned)l64.lst_ino, l64.lst_mtime, l64.lst_mtime_nsec);
	printf("statx %o %llu %llu %lld %u %u %u\n", sx.stx_mode,
	    (unsigned long long)sx.stx_size, (unsigned long long)sx.stx_ino,
	    (long long)sx.stx_mtime.tv_sec, sx.stx_mtime.tv_nsec,
	    sx.stx_dev_major, sx.stx_dev_minor);
	r = linux_tls_descriptor(&u, USEREND, d);
	printf("tls %d %08x %08x\n", r, d[0], d[1]);
	u.flags = 0x50;			/* a 16-bit segment: refused */
	printf("tls16 %d\n", linux_tls_descriptor(&u, USEREND, d));
	for (i = 0; i < sizeof(tlscases) / sizeof(tlscases[0]); i++) {
		d[0] = d[1] = 0xdead;
		r = linux_tls_descriptor(&tlscases[i], USEREND, d);
		printf("tlscase %d %08x %08x\n", r, d[0], d[1]);
	}
	return 0;
}
"""

NOTES = r"""
#include "compat/linux/linux.h"
int printf(const char *, ...);
int read(int, void *, unsigned);
int
main(void)
{
	static unsigned char buf[4096];
	int n = read(0, buf, sizeof(buf));

	printf("%d\n", linux_note_is_linux(buf, n < 0 ? 0 : n));
	return 0;
}
"""


def build(tmp_path: Path, name: str, source: str) -> Path:
    src = tmp_path / f"{name}.c"
    src.write_text(source)
    exe = tmp_path / name
    subprocess.run(["gcc", "-m32", "-Wall", "-nostdinc", "-isystem", GCCINC,
                    "-I", str(TOP), "-o", str(exe), str(src),
                    str(TOP / "compat/linux/linux_xlate.c")], check=True)
    return exe


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, list[str]]:
    exe = build(tmp_path_factory.mktemp("xlate"), "harness", HARNESS)
    out = subprocess.run([str(exe)], capture_output=True, text=True,
                         check=True).stdout
    res: dict[str, list[str]] = {}
    for line in out.splitlines():
        key, *vals = line.split()
        res.setdefault(key, []).append(" ".join(vals))
    return res


def test_errno_values_are_linux_numbers(results) -> None:
    got = dict(tuple(map(int, v.split())) for v in results["errno"])
    # BSD -> Linux: EPERM and ENOENT agree; EDEADLK and EAGAIN swap
    # places; the rest move (Linux <asm-generic/errno.h>).
    assert got == {1: 1, 2: 2, 11: 35, 35: 11, 63: 36, 66: 39, 62: 40,
                   78: 38, 45: 95, 77: 37, 79: 22, 0: 0, 200: 22}


def test_open_flags_translate_both_ways(results) -> None:
    # O_WRONLY|O_CREAT|O_EXCL|O_TRUNC|O_APPEND|O_NONBLOCK in BSD's values
    assert int(results["oflags"][0]) == 0x1 | 0x200 | 0x800 | 0x400 | 0x8 | 0x4
    # back to Linux: O_WRONLY|O_APPEND|O_NONBLOCK|O_LARGEFILE
    assert int(results["back"][0]) == 0o1 | 0o2000 | 0o4000 | 0o100000


def test_structure_layouts_match_linux_i386(results) -> None:
    assert results["sizes"] == ["96 256"]
    assert results["off64"] == ["44 56 72 88"]
    assert results["offx"] == ["28 32 112 136"]


def test_stat_fields_carry_over(results) -> None:
    assert results["stat64"] == ["100644 5000000000 77 1000 999"]
    assert results["statx"] == ["100644 5000000000 77 1000 999 4 10"]


def test_tls_descriptor_is_a_ring3_data_segment(results) -> None:
    # base 0x12345678, limit 0xfffff pages, 32-bit, useable: what Linux's
    # fill_ldt() builds (access 0xf3: present, DPL 3, data, writable, accessed)
    assert results["tls"] == ["0 5678ffff 12dff334"]
    assert results["tls16"] == ["-1"]


def test_tls_descriptor_stays_in_user_space(results) -> None:
    # Only glibc's shape (all 4 GB from a user base) may reach past the end
    # of user space; a segment not present would fault in trapret.
    refused = "-1 0000dead 0000dead"
    assert results["tlscase"] == [
        refused,                            # base at the kernel
        "0 f0000fff bf40f3bf",              # the last user page, exactly
        refused, refused, refused,          # past the end; kernel base
        refused, refused,                   # not present; expand-down
        "0 00000000 00000000",              # empty: the slot cleared
        "0 00000000 00000000",              # all zeros, the same
    ]


def note_of(path: Path) -> bytes:
    """The PT_NOTE segments of an ELF file, concatenated."""
    out = subprocess.run(["objcopy", "-O", "binary", "--only-section=.note.ABI-tag",
                          str(path), "/dev/stdout"], capture_output=True).stdout
    return out


def test_glibc_program_is_recognised_and_ours_is_not(tmp_path: Path) -> None:
    exe = build(tmp_path, "notes", NOTES)
    glibc_prog = TOP / "build/root/usr/tests/linuxtest"
    own_prog = TOP / "build/root/bin/ls"
    if not glibc_prog.exists() or not own_prog.exists():
        pytest.skip("make all first")
    for prog, want in ((glibc_prog, "1"), (own_prog, "0")):
        notes = note_of(prog)
        got = subprocess.run([str(exe)], input=notes, capture_output=True,
                             check=True).stdout.decode().strip()
        assert got == want, f"{prog}: {got}"
