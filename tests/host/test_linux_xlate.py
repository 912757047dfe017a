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


# -- terminal attributes, signals, wait's status, the terminal's ioctls ----
#
# The same C table of names is compiled twice: once with the host's
# <termios.h>, <signal.h> and <sys/ioctl.h>, which print Linux's values,
# and once with our headers beside linux_xlate.c, which reads those lines
# and prints what the translation makes of our value of the same name.

TERMIOS_FLAGS = {
    "iflag": "IGNBRK BRKINT IGNPAR PARMRK INPCK ISTRIP INLCR IGNCR ICRNL "
             "IXON IXOFF IXANY IMAXBEL",
    "oflag": "OPOST ONLCR",
    "cflag": "CS6 CS7 CS8 CSTOPB CREAD PARENB PARODD HUPCL CLOCAL",
    "lflag": "ECHOKE ECHOE ECHOK ECHO ECHONL ECHOPRT ECHOCTL ISIG ICANON "
             "IEXTEN TOSTOP NOFLSH",
    "cc": "VEOF VEOL VEOL2 VERASE VWERASE VKILL VREPRINT VINTR VQUIT VSUSP "
          "VSTART VSTOP VLNEXT VDISCARD VMIN VTIME",
    "sig": "SIGHUP SIGINT SIGQUIT SIGILL SIGTRAP SIGABRT SIGBUS SIGFPE "
           "SIGKILL SIGUSR1 SIGSEGV SIGUSR2 SIGPIPE SIGALRM SIGTERM SIGCHLD "
           "SIGCONT SIGSTOP SIGTSTP SIGTTIN SIGTTOU SIGURG SIGXCPU SIGXFSZ "
           "SIGVTALRM SIGPROF SIGWINCH SIGIO SIGSYS",
}
# Linux's terminal ioctls and ours
IOCTLS = {"TCGETS": "TIOCGETA", "TCSETS": "TIOCSETA", "TCSETSW": "TIOCSETAW",
          "TCSETSF": "TIOCSETAF", "TIOCGPGRP": "TIOCGPGRP",
          "TIOCSPGRP": "TIOCSPGRP", "TIOCGWINSZ": "TIOCGWINSZ",
          "TIOCSWINSZ": "TIOCSWINSZ"}


def name_table(names: dict[str, str]) -> str:
    rows = [f'\t{{ "{kind}", "{n}", (unsigned long){n} }},'
            for kind, ns in names.items() for n in ns.split()]
    return ("static const struct { const char *kind, *name; unsigned long v; }"
            " names[] = {\n" + "\n".join(rows) + "\n};\n"
            "#define NNAMES (sizeof(names) / sizeof(names[0]))\n")


LINUX_SIDE = r"""
#include <stdio.h>
#include <termios.h>
#include <signal.h>
#include <sys/ioctl.h>
%s
int
main(void)
{
	for (unsigned i = 0; i < NNAMES; i++)
		printf("%%s %%s %%lu\n", names[i].kind, names[i].name, names[i].v);
	printf("speed B115200 %%lu\n", (unsigned long)B115200);
	return 0;
}
"""

OUR_SIDE = r"""
#include "compat/linux/linux.h"
#include "sys/termios.h"
#include "sys/signal.h"
#include "sys/ioctl.h"
int printf(const char *, ...);
int scanf(const char *, ...);
int strcmp(const char *, const char *);
void *memset(void *, int, unsigned long);
%s
static unsigned long
ours(const char *name)
{
	for (unsigned i = 0; i < NNAMES; i++)
		if (strcmp(names[i].name, name) == 0)
			return names[i].v;
	return ~0ul;
}

static tcflag_t *
word(struct termios *t, const char *kind)
{
	return kind[0] == 'i' ? &t->c_iflag : kind[0] == 'o' ? &t->c_oflag :
	    kind[0] == 'c' ? &t->c_cflag : &t->c_lflag;
}

static u_int32_t
lword(struct linux_termios *t, const char *kind)
{
	return kind[0] == 'i' ? t->c_iflag : kind[0] == 'o' ? t->c_oflag :
	    kind[0] == 'c' ? t->c_cflag : t->c_lflag;
}

int
main(void)
{
	char kind[16], name[32], bname[32];
	unsigned long lv, v;
	struct termios t, back;
	struct linux_termios lt;
	u_long bcmd;
	int i, k;

	while (scanf("%%15s %%31s %%lu %%31s", kind, name, &lv, bname) == 4) {
		v = ours(bname);
		memset(&t, 0, sizeof(t));
		t.c_ospeed = 38400;
		if (strcmp(kind, "cc") == 0) {
			for (i = 0; i < NCCS; i++)
				t.c_cc[i] = _POSIX_VDISABLE;
			t.c_cc[v] = 'A';
			linux_termios_from(&t, &lt);
			for (k = -1, i = 0; i < LINUX_NCCS; i++)
				if (lt.c_cc[i] == 'A')
					k = i;
			linux_termios_to(&lt, &back);
			printf("%%s %%s %%d %%d\n", kind, name, k, back.c_cc[v] == 'A');
		} else if (strcmp(kind, "sig") == 0) {
			printf("%%s %%s %%d %%d\n", kind, name, bsd_to_linux_sig(v),
			    linux_to_bsd_sig(lv) == (int)v);
		} else if (strcmp(kind, "ioctl") == 0) {
			k = linux_ioctl_cmd(lv, &bcmd);
			printf("%%s %%s %%d %%d\n", kind, name, k, bcmd == v);
		} else if (strcmp(kind, "speed") == 0) {
			memset(&lt, 0, sizeof(lt));
			lt.c_cflag = lv;
			linux_termios_to(&lt, &back);
			t.c_ospeed = 115200;
			linux_termios_from(&t, &lt);
			printf("%%s %%s %%d %%lu\n", kind, name, back.c_ospeed,
			    (unsigned long)lt.c_cflag);
		} else {
			*word(&t, kind) = v;
			linux_termios_from(&t, &lt);
			linux_termios_to(&lt, &back);
			printf("%%s %%s %%lu %%d\n", kind, name,
			    (unsigned long)(lword(&lt, kind) &
			    (kind[0] == 'c' ? ~0x100fu : ~0u)),	/* not CBAUD */
			    *word(&back, kind) == v);
		}
	}
	printf("size %%u\n", (unsigned)sizeof(struct linux_termios));
	printf("sigset %%llu %%u\n",
	    (unsigned long long)bsd_to_linux_sigset(sigmask(SIGCHLD) | sigmask(SIGUSR1)),
	    linux_to_bsd_sigset((1ull << 16) | (1ull << 9) | (1ull << 40)) ==
	    (sigmask(SIGCHLD) | sigmask(SIGUSR1)));
	printf("wstatus %%d %%d %%d %%d\n", linux_wstatus(3 << 8),
	    linux_wstatus(SIGUSR1), linux_wstatus(SIGBUS | 0x80),
	    linux_wstatus(SIGTSTP << 8 | 0x7f));
	printf("saflags %%u %%d\n", bsd_to_linux_saflags(SA_RESTART | SA_NODEFER),
	    linux_to_bsd_saflags(0x80000000u | 0x04000000 | 0x4));
	printf("unknown %%d %%d %%d\n", linux_ioctl_cmd(0x541b, &bcmd),
	    linux_to_bsd_sig(16), bsd_to_linux_sig(SIGINFO));
	return 0;
}
"""


@pytest.fixture(scope="module")
def translated(tmp_path_factory) -> dict[str, list[str]]:
    tmp = tmp_path_factory.mktemp("xlate2")
    names = dict(TERMIOS_FLAGS)
    names["ioctl"] = " ".join(IOCTLS)
    host_src = tmp / "linux_side.c"
    host_src.write_text(LINUX_SIDE % name_table(names))
    subprocess.run(["gcc", "-Wall", "-o", str(tmp / "linux_side"),
                    str(host_src)], check=True)
    linux = subprocess.run([str(tmp / "linux_side")], capture_output=True,
                           text=True, check=True).stdout
    ours = dict(TERMIOS_FLAGS)
    ours["ioctl"] = " ".join(IOCTLS.values())
    exe = build(tmp, "our_side", OUR_SIDE % name_table(ours))
    lines = []
    for line in linux.splitlines():
        kind, name, value = line.split()
        lines.append(f"{kind} {name} {value} {IOCTLS.get(name, name) if kind == 'ioctl' else name}")
    out = subprocess.run([str(exe)], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, check=True).stdout
    res: dict[str, list[str]] = {"linux": linux.splitlines()}
    for line in out.splitlines():
        key, *vals = line.split()
        res.setdefault(key, []).append(" ".join(vals))
    return res


def linux_values(res, kind: str) -> dict[str, int]:
    return {n: int(v) for k, n, v in (l.split() for l in res["linux"])
            if k == kind}


@pytest.mark.parametrize("kind", ["iflag", "oflag", "cflag", "lflag"])
def test_termios_flags_are_linux_bits_and_come_back(translated, kind) -> None:
    want = linux_values(translated, kind)
    got = {n: (int(v), ok) for n, v, ok in
           (l.split() for l in translated[kind])}
    assert got == {n: (v, "1") for n, v in want.items()}


def test_control_characters_move_to_linux_indices(translated) -> None:
    want = linux_values(translated, "cc")
    got = {n: (int(i), ok) for n, i, ok in
           (l.split() for l in translated["cc"])}
    assert got == {n: (v, "1") for n, v in want.items()}


def test_linux_termios_is_the_kernels_36_bytes(translated) -> None:
    assert translated["size"] == ["36"]


def test_speed_code_translates(translated) -> None:
    # Linux's B115200 is a code in c_cflag; ours is bits per second.
    b115200 = linux_values(translated, "speed")["B115200"]
    assert translated["speed"] == [f"B115200 115200 {b115200}"]


def test_signal_numbers_translate_both_ways(translated) -> None:
    want = linux_values(translated, "sig")
    got = {n: (int(v), ok) for n, v, ok in
           (l.split() for l in translated["sig"])}
    assert got == {n: (v, "1") for n, v in want.items()}


def test_signal_sets_wait_status_and_sigaction_flags(translated) -> None:
    sig = linux_values(translated, "sig")
    # SIGCHLD and SIGUSR1 as Linux's bits; a real-time one (41) dropped
    assert translated["sigset"] == [
        f"{(1 << (sig['SIGCHLD'] - 1)) | (1 << (sig['SIGUSR1'] - 1))} 1"]
    # exit 3 unchanged; killed by SIGUSR1; SIGBUS with a core; stopped by SIGTSTP
    assert translated["wstatus"] == [
        f"{3 << 8} {sig['SIGUSR1']} {sig['SIGBUS'] | 0x80} "
        f"{sig['SIGTSTP'] << 8 | 0x7f}"]
    # SA_RESTART|SA_NODEFER; SA_RESETHAND (SA_RESTORER, SA_SIGINFO: the
    # layer's own) -> ours 0x4
    assert translated["saflags"] == [f"{0x10000000 | 0x40000000} 4"]


def test_terminal_ioctls_map_to_ours(translated) -> None:
    got = {n: (int(k), ok) for n, k, ok in
           (l.split() for l in translated["ioctl"])}
    assert all(ok == "1" and k > 0 for k, ok in got.values()), got
    assert set(got) == set(IOCTLS)


def test_unknown_ioctl_and_signals_without_a_twin(translated) -> None:
    # FIONREAD is not translated (ENOTTY); SIGSTKFLT and our SIGINFO have
    # no twin
    assert translated["unknown"] == ["0 0 0"]
