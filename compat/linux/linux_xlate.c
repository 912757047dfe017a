/*
 * The translations between our system's values and Linux's: errno
 * numbers, open flags, the stat structures, a TLS segment descriptor,
 * the ELF note that marks a Linux program, the terminal's attributes,
 * signal numbers, sets and sigaction flags, and wait's status.  Pure functions with no
 * kernel state, so tests/host/test_linux_xlate.py compiles this file on
 * the host and checks them.
 */
#include "compat/linux/linux.h"
#include "sys/errno.h"
#include "sys/fcntl.h"
#include "sys/stat.h"
#include "sys/termios.h"
#include "sys/signal.h"
#include "sys/ioctl.h"

/*
 * 4.4BSD and Linux agree on 1..34 except EDEADLK (BSD 11, where Linux
 * has EAGAIN); after 34 they part.  A BSD value with no Linux twin
 * becomes the nearest Linux meaning.
 */
static const unsigned char errnomap[ELAST + 1] = {
	[0] = 0,
	[EPERM] = 1, [ENOENT] = 2, [ESRCH] = 3, [EINTR] = 4, [EIO] = 5,
	[ENXIO] = 6, [E2BIG] = 7, [ENOEXEC] = 8, [EBADF] = 9, [ECHILD] = 10,
	[EDEADLK] = 35, [ENOMEM] = 12, [EACCES] = 13, [EFAULT] = 14,
	[ENOTBLK] = 15, [EBUSY] = 16, [EEXIST] = 17, [EXDEV] = 18,
	[ENODEV] = 19, [ENOTDIR] = 20, [EISDIR] = 21, [EINVAL] = 22,
	[ENFILE] = 23, [EMFILE] = 24, [ENOTTY] = 25, [ETXTBSY] = 26,
	[EFBIG] = 27, [ENOSPC] = 28, [ESPIPE] = 29, [EROFS] = 30,
	[EMLINK] = 31, [EPIPE] = 32, [EDOM] = 33, [ERANGE] = 34,
	[EAGAIN] = 11, [EINPROGRESS] = 115, [EALREADY] = 114,
	[ENOTSOCK] = 88, [EOPNOTSUPP] = 95, [ETIMEDOUT] = 110,
	[ELOOP] = 40, [ENAMETOOLONG] = 36, [ENOTEMPTY] = 39,
	[EPROCLIM] = 11, [EUSERS] = 87, [EDQUOT] = 122, [ESTALE] = 116,
	[ENOLCK] = 37, [ENOSYS] = 38, [EFTYPE] = 22,
};

int
linux_errno(int e)
{
	if (e < 0 || e > ELAST || (e != 0 && errnomap[e] == 0))
		return 22;		/* EINVAL */
	return errnomap[e];
}

/* Linux open(2) flags to ours; flags we have no use for are dropped. */
int
linux_to_bsd_oflags(int l)
{
	int b = l & LINUX_O_ACCMODE;	/* O_RDONLY 0, O_WRONLY 1, O_RDWR 2 */

	if (l & LINUX_O_CREAT)
		b |= O_CREAT;
	if (l & LINUX_O_EXCL)
		b |= O_EXCL;
	if (l & LINUX_O_TRUNC)
		b |= O_TRUNC;
	if (l & LINUX_O_APPEND)
		b |= O_APPEND;
	if (l & LINUX_O_NONBLOCK)
		b |= O_NONBLOCK;
	if (l & LINUX_O_DSYNC)
		b |= O_FSYNC;
	return b;
}

/* Ours to Linux's, for fcntl(F_GETFL). */
int
bsd_to_linux_oflags(int b)
{
	int l = b & O_ACCMODE;

	if (b & O_APPEND)
		l |= LINUX_O_APPEND;
	if (b & O_NONBLOCK)
		l |= LINUX_O_NONBLOCK;
	if (b & O_FSYNC)
		l |= LINUX_O_DSYNC;
	return l | LINUX_O_LARGEFILE;
}

/* Device numbers: Linux's old encoding, major << 8 | minor, is ours. */
void
linux_stat64_from(const struct stat *sb, struct linux_stat64 *ls)
{
	unsigned char *z = (unsigned char *)ls;
	unsigned i;

	for (i = 0; i < sizeof(*ls); i++)
		z[i] = 0;
	ls->lst_dev = sb->st_dev;
	ls->lst_ino32 = sb->st_ino;
	ls->lst_ino = sb->st_ino;
	ls->lst_mode = sb->st_mode;	/* S_IF* and permission bits agree */
	ls->lst_nlink = sb->st_nlink;
	ls->lst_uid = sb->st_uid;
	ls->lst_gid = sb->st_gid;
	ls->lst_rdev = sb->st_rdev;
	ls->lst_size = sb->st_size;
	ls->lst_blksize = sb->st_blksize;
	ls->lst_blocks = sb->st_blocks;
	ls->lst_atime = sb->st_atimespec.tv_sec;
	ls->lst_atime_nsec = sb->st_atimespec.tv_nsec;
	ls->lst_mtime = sb->st_mtimespec.tv_sec;
	ls->lst_mtime_nsec = sb->st_mtimespec.tv_nsec;
	ls->lst_ctime = sb->st_ctimespec.tv_sec;
	ls->lst_ctime_nsec = sb->st_ctimespec.tv_nsec;
}

static void
ts(struct linux_statx_timestamp *t, const struct timespec *s)
{
	t->tv_sec = s->tv_sec;
	t->tv_nsec = s->tv_nsec;
	t->reserved = 0;
}

void
linux_statx_from(const struct stat *sb, struct linux_statx *sx)
{
	unsigned char *z = (unsigned char *)sx;
	unsigned i;

	for (i = 0; i < sizeof(*sx); i++)
		z[i] = 0;
	sx->stx_mask = LINUX_STATX_BASIC_STATS;
	sx->stx_blksize = sb->st_blksize;
	sx->stx_nlink = sb->st_nlink;
	sx->stx_uid = sb->st_uid;
	sx->stx_gid = sb->st_gid;
	sx->stx_mode = sb->st_mode;
	sx->stx_ino = sb->st_ino;
	sx->stx_size = sb->st_size;
	sx->stx_blocks = sb->st_blocks;
	ts(&sx->stx_atime, &sb->st_atimespec);
	ts(&sx->stx_ctime, &sb->st_ctimespec);
	ts(&sx->stx_mtime, &sb->st_mtimespec);
	sx->stx_rdev_major = major(sb->st_rdev);
	sx->stx_rdev_minor = minor(sb->st_rdev);
	sx->stx_dev_major = major(sb->st_dev);
	sx->stx_dev_minor = minor(sb->st_dev);
}

/*
 * The i386 segment descriptor set_thread_area asks for: a present ring-3
 * data segment at base_addr, expanding up.  Returns 0, or -1 for what
 * Linux also refuses (a 16-bit or code segment; one not present, which
 * %gs would fault on in the kernel, in trapret) and for one that reaches
 * past user space (userend), or expanding down reaches up to 4 GB.  The
 * exception is glibc's own shape, all 4 GB from the thread pointer so
 * that negative offsets wrap to the TLS block below it: it reaches no
 * more than the flat user data segment, and paging keeps ring 3 out of
 * the kernel's pages.  An "empty" request (read-only and not present, or
 * all zeros, as Linux takes both) clears the slot: both words 0.
 */
int
linux_tls_descriptor(const struct linux_user_desc *u, u_int32_t userend,
    u_int32_t d[2])
{
	u_int32_t seg32 = u->flags & 1, contents = (u->flags >> 1) & 3;
	u_int32_t rdonly = (u->flags >> 3) & 1, pages = (u->flags >> 4) & 1;
	u_int32_t notpresent = (u->flags >> 5) & 1, useable = (u->flags >> 6) & 1;
	u_int32_t limit = u->limit & 0xfffff;
	u_int64_t size = ((u_int64_t)limit + 1) << (pages ? 12 : 0);

	if (u->base_addr == 0 && u->limit == 0 &&
	    ((u->flags & 0x7f) == 0 || (u->flags & 0x7f) == 0x28)) {
		d[0] = d[1] = 0;
		return 0;
	}
	if (!seg32 || contents != 0 || notpresent)
		return -1;
	if (u->base_addr >= userend || (size < (1ULL << 32) &&
	    u->base_addr + size > userend))
		return -1;
	d[0] = (u->base_addr & 0xffff) << 16 | (limit & 0xffff);
	d[1] = (u->base_addr & 0xff000000) | ((u->base_addr >> 16) & 0xff) |
	    (limit & 0xf0000) |
	    0x100 |			/* accessed */
	    (!rdonly) << 9 |		/* writable */
	    0x1000 |			/* code or data, not system */
	    3 << 13 |			/* DPL 3 */
	    1 << 15 |			/* present */
	    useable << 20 | seg32 << 22 | pages << 23;
	return 0;
}

/* Is there a "GNU" ABI-tag note naming Linux among these notes? */
int
linux_note_is_linux(const unsigned char *n, u_int32_t len)
{
	u_int32_t off = 0, namesz, descsz, type;

	while (off + 12 <= len) {
		namesz = n[off] | n[off + 1] << 8 | n[off + 2] << 16 | (u_int32_t)n[off + 3] << 24;
		descsz = n[off + 4] | n[off + 5] << 8 | n[off + 6] << 16 | (u_int32_t)n[off + 7] << 24;
		type = n[off + 8] | n[off + 9] << 8 | n[off + 10] << 16 | (u_int32_t)n[off + 11] << 24;
		off += 12;
		if (namesz > len || descsz > len)
			return 0;
		if (type == LINUX_NT_GNU_ABI_TAG && namesz == 4 &&
		    off + 4 + 4 <= len && n[off] == 'G' && n[off + 1] == 'N' &&
		    n[off + 2] == 'U' && n[off + 3] == '\0' && descsz >= 4)
			return n[off + 4] == LINUX_ABI_OS_LINUX &&
			    n[off + 5] == 0 && n[off + 6] == 0 && n[off + 7] == 0;
		off += ((namesz + 3) & ~3u) + ((descsz + 3) & ~3u);
	}
	return 0;
}

/*
 * Terminal attributes.  The flags have other bits in Linux's termios than
 * in 4.4BSD's (only the low input bits agree); each table pairs Linux's
 * bit with ours, and a bit of either side that is not in a table is
 * dropped.  Linux's control characters sit at other indices, and a
 * disabled one is 0 there, 0xff (_POSIX_VDISABLE) here, but VMIN and
 * VTIME are counts.  The speed is a code in Linux's c_cflag.
 */
struct bitpair {
	u_int32_t l, b;
};

static const struct bitpair iflags[] = {
	{ 0x0001, IGNBRK }, { 0x0002, BRKINT }, { 0x0004, IGNPAR },
	{ 0x0008, PARMRK }, { 0x0010, INPCK }, { 0x0020, ISTRIP },
	{ 0x0040, INLCR }, { 0x0080, IGNCR }, { 0x0100, ICRNL },
	{ 0x0400, IXON }, { 0x0800, IXANY }, { 0x1000, IXOFF },
	{ 0x2000, IMAXBEL },
};
static const struct bitpair oflags[] = {
	{ 0x0001, OPOST }, { 0x0004, ONLCR },
};
static const struct bitpair cflags[] = {
	{ 0x0010, CS6 }, { 0x0020, CS7 },	/* CSIZE: CS8 is both */
	{ 0x0040, CSTOPB }, { 0x0080, CREAD }, { 0x0100, PARENB },
	{ 0x0200, PARODD }, { 0x0400, HUPCL }, { 0x0800, CLOCAL },
};
static const struct bitpair lflags[] = {
	{ 0x00001, ISIG }, { 0x00002, ICANON }, { 0x00008, ECHO },
	{ 0x00010, ECHOE }, { 0x00020, ECHOK }, { 0x00040, ECHONL },
	{ 0x00080, NOFLSH }, { 0x00100, TOSTOP }, { 0x00200, ECHOCTL },
	{ 0x00400, ECHOPRT }, { 0x00800, ECHOKE }, { 0x08000, IEXTEN },
};
/* Control characters: { Linux index, our index } */
static const struct bitpair ccs[] = {
	{ 0, VINTR }, { 1, VQUIT }, { 2, VERASE }, { 3, VKILL }, { 4, VEOF },
	{ 5, VTIME }, { 6, VMIN }, { 8, VSTART }, { 9, VSTOP }, { 10, VSUSP },
	{ 11, VEOL }, { 12, VREPRINT }, { 13, VDISCARD }, { 14, VWERASE },
	{ 15, VLNEXT }, { 16, VEOL2 },
};
/* Speeds: { Linux's code in CBAUD, bits per second } */
static const struct bitpair speeds[] = {
	{ 0x0000, 0 }, { 0x000b, 2400 }, { 0x000c, 4800 }, { 0x000d, 9600 },
	{ 0x000e, 19200 }, { 0x000f, 38400 }, { 0x1001, 57600 },
	{ 0x1002, 115200 },
};
#define LINUX_CBAUD	0x100f
#define LINUX_VDISABLE	0
#define NPAIRS(t)	(sizeof(t) / sizeof(t[0]))

static u_int32_t
bits_to_bsd(u_int32_t l, const struct bitpair *t, unsigned n)
{
	u_int32_t b = 0;

	for (unsigned i = 0; i < n; i++)
		if (l & t[i].l)
			b |= t[i].b;
	return b;
}

static u_int32_t
bits_to_linux(u_int32_t b, const struct bitpair *t, unsigned n)
{
	u_int32_t l = 0;

	for (unsigned i = 0; i < n; i++)
		if ((b & t[i].b) == t[i].b)
			l |= t[i].l;
	return l;
}

void
linux_termios_from(const struct termios *t, struct linux_termios *lt)
{
	unsigned i;
	u_int32_t speed = speeds[NPAIRS(speeds) - 1].l;	/* unknown: 115200 */

	for (i = 0; i < NPAIRS(speeds); i++)
		if ((u_int32_t)t->c_ospeed == speeds[i].b)
			speed = speeds[i].l;
	lt->c_iflag = bits_to_linux(t->c_iflag, iflags, NPAIRS(iflags));
	lt->c_oflag = bits_to_linux(t->c_oflag, oflags, NPAIRS(oflags));
	lt->c_cflag = bits_to_linux(t->c_cflag, cflags, NPAIRS(cflags)) |
	    speed;
	lt->c_lflag = bits_to_linux(t->c_lflag, lflags, NPAIRS(lflags));
	lt->c_line = 0;
	for (i = 0; i < LINUX_NCCS; i++)
		lt->c_cc[i] = LINUX_VDISABLE;
	for (i = 0; i < NPAIRS(ccs); i++) {
		cc_t c = t->c_cc[ccs[i].b];

		if (c == _POSIX_VDISABLE && ccs[i].b != VMIN &&
		    ccs[i].b != VTIME)
			c = LINUX_VDISABLE;
		lt->c_cc[ccs[i].l] = c;
	}
}

void
linux_termios_to(const struct linux_termios *lt, struct termios *t)
{
	unsigned i;
	u_int32_t code = lt->c_cflag & LINUX_CBAUD;

	t->c_iflag = bits_to_bsd(lt->c_iflag, iflags, NPAIRS(iflags));
	t->c_oflag = bits_to_bsd(lt->c_oflag, oflags, NPAIRS(oflags));
	t->c_cflag = bits_to_bsd(lt->c_cflag, cflags, NPAIRS(cflags));
	t->c_lflag = bits_to_bsd(lt->c_lflag, lflags, NPAIRS(lflags));
	for (i = 0; i < NCCS; i++)
		t->c_cc[i] = _POSIX_VDISABLE;
	for (i = 0; i < NPAIRS(ccs); i++) {
		cc_t c = lt->c_cc[ccs[i].l];

		if (c == LINUX_VDISABLE && ccs[i].b != VMIN &&
		    ccs[i].b != VTIME)
			c = _POSIX_VDISABLE;
		t->c_cc[ccs[i].b] = c;
	}
	t->c_ispeed = t->c_ospeed = 115200;	/* an unknown code too */
	for (i = 0; i < NPAIRS(speeds); i++)
		if (code == speeds[i].l)
			t->c_ispeed = t->c_ospeed = speeds[i].b;
}

/*
 * Signal numbers: 1..6, 8, 9, 11, 13..15, 21, 22 and 24..28 agree; the
 * rest moved.  Linux's SIGSTKFLT (16) and SIGPWR (30) have no twin here,
 * nor our SIGEMT and SIGINFO there: 0.
 */
static const unsigned char lsig2bsd[LINUX_NSIG] = {
	0, SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE,
	SIGKILL, SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, 0,
	SIGCHLD, SIGCONT, SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU, SIGURG, SIGXCPU,
	SIGXFSZ, SIGVTALRM, SIGPROF, SIGWINCH, SIGIO, 0, SIGSYS,
};

int
linux_to_bsd_sig(int lsig)
{
	return lsig > 0 && lsig < LINUX_NSIG ? lsig2bsd[lsig] : 0;
}

int
bsd_to_linux_sig(int bsig)
{
	for (int l = 1; l < LINUX_NSIG; l++)
		if (lsig2bsd[l] == bsig && bsig != 0)
			return l;
	return 0;
}

linux_sigset_t
bsd_to_linux_sigset(u_int32_t bmask)
{
	linux_sigset_t l = 0;

	for (int s = 1; s < NSIG; s++)
		if ((bmask & sigmask(s)) && bsd_to_linux_sig(s))
			l |= (linux_sigset_t)1 << (bsd_to_linux_sig(s) - 1);
	return l;
}

/* Linux's real-time signals (32..64) have no twin: dropped. */
u_int32_t
linux_to_bsd_sigset(linux_sigset_t lmask)
{
	u_int32_t b = 0;

	for (int l = 1; l < LINUX_NSIG; l++)
		if ((lmask & ((linux_sigset_t)1 << (l - 1))) && lsig2bsd[l])
			b |= sigmask(lsig2bsd[l]);
	return b;
}

static const struct bitpair saflags[] = {
	{ LINUX_SA_NOCLDSTOP, SA_NOCLDSTOP }, { LINUX_SA_ONSTACK, SA_ONSTACK },
	{ LINUX_SA_RESTART, SA_RESTART }, { LINUX_SA_NODEFER, SA_NODEFER },
	{ LINUX_SA_RESETHAND, SA_RESETHAND },
};

/* SA_SIGINFO and SA_RESTORER are the layer's own business (linux_signal.c). */
int
linux_to_bsd_saflags(u_int32_t l)
{
	return bits_to_bsd(l, saflags, NPAIRS(saflags));
}

u_int32_t
bsd_to_linux_saflags(int b)
{
	return bits_to_linux(b, saflags, NPAIRS(saflags));
}

/* wait's status: an exit code as it is; a signal that killed or stopped, by number. */
int
linux_wstatus(int st)
{
	if ((st & 0xff) == 0x7f)		/* stopped: 0x7f, signal << 8 */
		return (bsd_to_linux_sig((st >> 8) & 0xff) << 8) | 0x7f;
	if (st & 0x7f)				/* killed: signal, core 0x80 */
		return (st & ~0xff) | (st & 0x80) |
		    bsd_to_linux_sig(st & 0x7f);
	return st;
}

/* The terminal's ioctls, Linux's number (asm-generic/ioctls.h) and ours. */
static const struct {
	u_int32_t lcmd;
	u_long	bcmd;
	int	kind;
} ioctls[] = {
	{ 0x5401, TIOCGETA, LINUX_IOC_GETTERMIOS },	/* TCGETS */
	{ 0x5402, TIOCSETA, LINUX_IOC_SETTERMIOS },	/* TCSETS */
	{ 0x5403, TIOCSETAW, LINUX_IOC_SETTERMIOS },	/* TCSETSW */
	{ 0x5404, TIOCSETAF, LINUX_IOC_SETTERMIOS },	/* TCSETSF */
	{ 0x540f, TIOCGPGRP, LINUX_IOC_SAME },		/* TIOCGPGRP */
	{ 0x5410, TIOCSPGRP, LINUX_IOC_SAME },		/* TIOCSPGRP */
	{ 0x5413, TIOCGWINSZ, LINUX_IOC_SAME },		/* TIOCGWINSZ */
	{ 0x5414, TIOCSWINSZ, LINUX_IOC_SAME },		/* TIOCSWINSZ */
};

int
linux_ioctl_cmd(u_int32_t lcmd, u_long *bcmd)
{
	for (unsigned i = 0; i < NPAIRS(ioctls); i++)
		if (ioctls[i].lcmd == lcmd) {
			*bcmd = ioctls[i].bcmd;
			return ioctls[i].kind;
		}
	return 0;
}
