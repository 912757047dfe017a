/*
 * The translations between our system's values and Linux's: errno
 * numbers, open flags, the stat structures, a TLS segment descriptor,
 * and the ELF note that marks a Linux program.  Pure functions with no
 * kernel state, so tests/host/test_linux_xlate.py compiles this file on
 * the host and checks them.
 */
#include "compat/linux/linux.h"
#include "sys/errno.h"
#include "sys/fcntl.h"
#include "sys/stat.h"

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
