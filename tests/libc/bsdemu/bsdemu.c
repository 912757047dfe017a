/*
 * The 4.4BSD system calls of lib/libc/sys, implemented on Linux, for the
 * host tests only.  Linking the guest's libc (minus its trap stubs) and
 * programs with this file gives binaries that run on a Linux host, so
 * the tests can run the real ls, cp, sh, ... before the kernel boots.
 *
 * Each call translates its arguments (flags, signal numbers, masks,
 * device numbers), makes the Linux call, and translates the result
 * back: Linux's -errno becomes errno (renumbered) and -1, and structures
 * (stat, statfs, directory entries, wait status) are rewritten in their
 * 4.4BSD layout.  This is not part of the system.
 */
#include <sys/types.h>
#include <sys/dirent.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/txn.h>
#include <sys/utsname.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "linux.h"

/* Linux errno -> 4.4BSD errno, where they differ. */
static int
maperrno(int e)
{
	switch (e) {
	case 11:	return EAGAIN;
	case 35:	return EDEADLK;
	case 36:	return ENAMETOOLONG;
	case 37:	return ENOLCK;
	case 38:	return ENOSYS;
	case 39:	return ENOTEMPTY;
	case 40:	return ELOOP;
	case 87:	return EUSERS;
	case 88:	return ENOTSOCK;
	case 95:	return EOPNOTSUPP;
	case 110:	return ETIMEDOUT;
	case 114:	return EALREADY;
	case 115:	return EINPROGRESS;
	case 116:	return ESTALE;
	case 122:	return EDQUOT;
	}
	return e;
}

static long
ret(long r)
{
	if (r < 0 && r > -4096) {
		errno = maperrno(-r);
		return -1;
	}
	return r;
}

static long
fail(int e)
{
	errno = e;
	return -1;
}

/* Signal numbers: index BSD -> Linux, and the reverse. */
static const int b2l[NSIG] = {
	0, 1, 2, 3, 4, 5, 6, 0, 8, 9, 7, 11, 31, 13, 14, 15,
	23, 19, 20, 18, 17, 21, 22, 29, 24, 25, 26, 27, 28, 0, 10, 12,
};

static int
l2b(int lsig)
{
	int s;

	for (s = 1; s < NSIG; s++)
		if (b2l[s] == lsig)
			return s;
	return 0;
}

static unsigned long long
maskb2l(sigset_t m)
{
	unsigned long long l;
	int s;

	l = 0;
	for (s = 1; s < NSIG; s++)
		if ((m & sigmask(s)) && b2l[s] != 0)
			l |= 1ULL << (b2l[s] - 1);
	return l;
}

static sigset_t
maskl2b(unsigned long long l)
{
	sigset_t m;
	int s;

	m = 0;
	for (s = 1; s < NSIG; s++)
		if (b2l[s] != 0 && (l & (1ULL << (b2l[s] - 1))))
			m |= sigmask(s);
	return m;
}

static dev_t
mapdev(unsigned long long d)
{
	unsigned maj, min;

	maj = (d >> 8) & 0xfff;
	min = (d & 0xff) | ((d >> 12) & 0xfff00);
	return makedev(maj & 0xff, min & 0xff);
}

static int
mapoflags(int f)
{
	int l;

	l = (f & O_ACCMODE) | LO_LARGEFILE;
	if (f & O_NONBLOCK)
		l |= LO_NONBLOCK;
	if (f & O_APPEND)
		l |= LO_APPEND;
	if (f & O_CREAT)
		l |= LO_CREAT;
	if (f & O_TRUNC)
		l |= LO_TRUNC;
	if (f & O_EXCL)
		l |= LO_EXCL;
	if (f & O_FSYNC)
		l |= LO_SYNC;
	return l;
}

void
_exit(int status)
{
	for (;;)
		L1(LNR_exit_group, status);
}

pid_t fork(void)		{ return ret(L0(2)); }
ssize_t read(int fd, void *b, size_t n)	{ return ret(L3(LNR_read, fd, b, n)); }
ssize_t write(int fd, const void *b, size_t n) { return ret(L3(LNR_write, fd, b, n)); }
int close(int fd)		{ return ret(L1(LNR_close, fd)); }
int link(const char *a, const char *b) { return ret(L2(LNR_link, a, b)); }
int unlink(const char *p)	{ return ret(L1(LNR_unlink, p)); }
int chdir(const char *p)	{ return ret(L1(LNR_chdir, p)); }
int fchdir(int fd)		{ return ret(L1(LNR_fchdir, fd)); }
int chmod(const char *p, mode_t m) { return ret(L2(LNR_chmod, p, m)); }
int fchmod(int fd, mode_t m)	{ return ret(L2(LNR_fchmod, fd, m)); }
int chown(const char *p, uid_t u, gid_t g) { return ret(L3(LNR_chown32, p, u, g)); }
int fchown(int fd, uid_t u, gid_t g) { return ret(L3(LNR_fchown32, fd, u, g)); }
pid_t getpid(void)		{ return L0(LNR_getpid); }
pid_t getppid(void)		{ return L0(LNR_getppid); }
uid_t getuid(void)		{ return L0(LNR_getuid32); }
uid_t geteuid(void)		{ return L0(LNR_geteuid32); }
gid_t getgid(void)		{ return L0(LNR_getgid32); }
gid_t getegid(void)		{ return L0(LNR_getegid32); }
int setuid(uid_t u)		{ return ret(L1(LNR_setuid32, u)); }
int setgid(gid_t g)		{ return ret(L1(LNR_setgid32, g)); }
int seteuid(uid_t u)		{ return ret(L3(LNR_setresuid32, -1, u, -1)); }
int setegid(gid_t g)		{ return ret(L3(LNR_setresgid32, -1, g, -1)); }
int getgroups(int n, gid_t *g)	{ return ret(L2(LNR_getgroups32, n, g)); }
int setgroups(int n, const gid_t *g) { return ret(L2(LNR_setgroups32, n, g)); }
int access(const char *p, int m) { return ret(L2(LNR_access, p, m)); }
void sync(void)			{ L0(LNR_sync); }
int fsync(int fd)		{ return ret(L1(LNR_fsync, fd)); }
int dup(int fd)			{ return ret(L1(LNR_dup, fd)); }
int dup2(int a, int b)		{ return ret(L2(LNR_dup2, a, b)); }
int symlink(const char *a, const char *b) { return ret(L2(LNR_symlink, a, b)); }
ssize_t readlink(const char *p, char *b, size_t n) { return ret(L3(LNR_readlink, p, b, n)); }
int execve(const char *p, char *const *a, char *const *e) { return ret(L3(LNR_execve, p, a, e)); }
mode_t umask(mode_t m)		{ return L1(LNR_umask, m); }
pid_t getpgrp(void)		{ return L0(LNR_getpgrp); }
int setpgid(pid_t p, pid_t g)	{ return ret(L2(LNR_setpgid, p, g)); }
pid_t setsid(void)		{ return ret(L0(LNR_setsid)); }
int rename(const char *a, const char *b) { return ret(L2(LNR_rename, a, b)); }
int mkdir(const char *p, mode_t m) { return ret(L2(LNR_mkdir, p, m)); }
int rmdir(const char *p)	{ return ret(L1(LNR_rmdir, p)); }
int gettimeofday(struct timeval *tv, struct timezone *tz) { return ret(L2(LNR_gettimeofday, tv, tz)); }
int settimeofday(const struct timeval *tv, const struct timezone *tz) { return ret(L2(LNR_settimeofday, tv, tz)); }
int getrusage(int who, struct rusage *ru) { return ret(L2(LNR_getrusage, who, ru)); }
int utimes(const char *p, const struct timeval *tv) { return ret(L2(LNR_utimes, p, tv)); }
int nanosleep(const struct timespec *a, struct timespec *b) { return ret(L2(LNR_nanosleep, a, b)); }
int sigreturn(void *p)		{ return fail(ENOSYS); }
int mount(const char *t, const char *d, int f, void *a) { return fail(EPERM); }
int unmount(const char *d, int f) { return fail(EPERM); }
int reboot(int h)		{ return fail(EPERM); }
int lfs_bmapv(const struct fsid *a, struct block_info *b, int c) { return fail(ENOSYS); }
int lfs_markv(const struct fsid *a, struct block_info *b, int c) { return fail(ENOSYS); }
int lfs_segclean(const struct fsid *a, unsigned int b) { return fail(ENOSYS); }
int lfs_segwait(const struct fsid *a, struct timeval *b) { return fail(ENOSYS); }
int lfsstats(const struct fsid *a, struct lfs_stats *b, int c) { return fail(ENOSYS); }
int getproc(struct kinfo_proc *a, int b) { return fail(ENOSYS); }
int diskstats(int a, struct diskstats *b, int c) { return fail(ENOSYS); }
int bufstats(void *a)	{ return fail(ENOSYS); }
int chflags(const char *p, u_int32_t f) { return fail(EOPNOTSUPP); }
int fchflags(int fd, u_int32_t f) { return fail(EOPNOTSUPP); }
int txn_begin(void)		{ return fail(ENOSYS); }
int txn_commit(void)		{ return fail(ENOSYS); }
int txn_abort(void)		{ return fail(ENOSYS); }
int txn_detect(void)		{ return fail(ENOSYS); }
int txnstats(struct txnstats *s, int r) { return fail(ENOSYS); }
int uname(struct utsname *u)	{ return fail(ENOSYS); }	/* the guest's names */
int vmstats(struct vmstats *v)	{ return fail(ENOSYS); }
int syscall(int n, ...)		{ return fail(ENOSYS); }

int
open(const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = va_arg(ap, int);
	va_end(ap);
	return ret(L3(LNR_open, path, mapoflags(flags), mode));
}

int
mknod(const char *path, mode_t mode, dev_t dev)
{
	return ret(L3(LNR_mknod, path, mode, (major(dev) << 8) | minor(dev)));
}

int
kill(pid_t pid, int sig)
{
	if (sig < 0 || sig >= NSIG || (sig != 0 && b2l[sig] == 0))
		return fail(EINVAL);
	return ret(L2(LNR_kill, pid, b2l[sig]));
}

u_int64_t
__sys_pipe(void)
{
	int fds[2];
	long r;

	if ((r = ret(L1(LNR_pipe, fds))) < 0)
		return (u_int64_t)-1;
	return (u_int32_t)fds[0] | (u_int64_t)(u_int32_t)fds[1] << 32;
}

/* break: map pages after the end of bss (Linux's brk area is elsewhere). */
int
__sys_break(const char *addr)
{
	extern char end[];
	static unsigned long top;
	unsigned long want;
	long r;

	if (top == 0)
		top = ((unsigned long)end + 4095) & ~4095UL;
	want = ((unsigned long)addr + 4095) & ~4095UL;
	if (want > top) {
		r = L6(LNR_mmap2, top, want - top, 3 /* rw */,
		    0x32 | 0x100000 /* private|anon|fixed, noreplace */, -1, 0);
		if (r < 0 && r > -4096)
			return fail(ENOMEM);
		top = want;
	}
	return 0;
}

off_t
__sys_lseek(int fd, int pad, off_t off, int whence)
{
	long long result;

	if (ret(L5(LNR__llseek, fd, (long)(off >> 32), (long)off, &result,
	    whence)) < 0)
		return -1;
	return result;
}

ssize_t
__sys_pread(int fd, void *b, size_t n, int pad, off_t off)
{
	return ret(L5(LNR_pread64, fd, b, n, (long)off, (long)(off >> 32)));
}

ssize_t
__sys_pwrite(int fd, const void *b, size_t n, int pad, off_t off)
{
	return ret(L5(LNR_pwrite64, fd, b, n, (long)off, (long)(off >> 32)));
}

int
__sys_truncate(const char *path, int pad, off_t len)
{
	return ret(L3(LNR_truncate64, path, (long)len, (long)(len >> 32)));
}

int
__sys_ftruncate(int fd, int pad, off_t len)
{
	return ret(L3(LNR_ftruncate64, fd, (long)len, (long)(len >> 32)));
}

static void
convstat(struct linux_stat64 *l, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_dev = mapdev(l->st_dev);
	st->st_ino = (ino_t)l->st_ino;
	st->st_mode = l->st_mode;
	st->st_nlink = l->st_nlink;
	st->st_uid = l->st_uid;
	st->st_gid = l->st_gid;
	st->st_rdev = mapdev(l->st_rdev);
	st->st_atimespec.tv_sec = l->st_atime_;
	st->st_atimespec.tv_nsec = l->st_atime_nsec;
	st->st_mtimespec.tv_sec = l->st_mtime_;
	st->st_mtimespec.tv_nsec = l->st_mtime_nsec;
	st->st_ctimespec.tv_sec = l->st_ctime_;
	st->st_ctimespec.tv_nsec = l->st_ctime_nsec;
	st->st_size = l->st_size;
	st->st_blocks = l->st_blocks;
	st->st_blksize = l->st_blksize;
}

int
stat(const char *path, struct stat *st)
{
	struct linux_stat64 l;

	if (ret(L2(LNR_stat64, path, &l)) < 0)
		return -1;
	convstat(&l, st);
	return 0;
}

int
lstat(const char *path, struct stat *st)
{
	struct linux_stat64 l;

	if (ret(L2(LNR_lstat64, path, &l)) < 0)
		return -1;
	convstat(&l, st);
	return 0;
}

int
fstat(int fd, struct stat *st)
{
	struct linux_stat64 l;

	if (ret(L2(LNR_fstat64, fd, &l)) < 0)
		return -1;
	convstat(&l, st);
	return 0;
}

/* Directory entries: Linux dirent64 records rewritten as UFS ones. */
int
getdirentries(int fd, char *buf, int nbytes, long *basep)
{
	static char lbuf[8192];
	struct linux_dirent64 *ld;
	struct dirent *bd;
	int n, off, out, namlen, reclen;

	*basep = (long)__sys_lseek(fd, 0, 0, SEEK_CUR);
	if (nbytes > (int)sizeof(lbuf))
		nbytes = sizeof(lbuf);
	if ((n = ret(L3(LNR_getdents64, fd, lbuf, nbytes))) <= 0)
		return n;
	out = 0;
	for (off = 0; off < n; off += ld->d_reclen) {
		ld = (struct linux_dirent64 *)(lbuf + off);
		namlen = strlen(ld->d_name);
		reclen = (8 + namlen + 1 + 3) & ~3;
		bd = (struct dirent *)(buf + out);
		bd->d_fileno = (u_int32_t)ld->d_ino;
		bd->d_reclen = reclen;
		bd->d_type = ld->d_type;
		bd->d_namlen = namlen;
		memcpy(bd->d_name, ld->d_name, namlen + 1);
		out += reclen;
	}
	return out;
}

static void
convstatfs(struct linux_statfs64 *l, struct statfs *f)
{
	memset(f, 0, sizeof(*f));
	f->f_bsize = l->f_bsize;
	f->f_iosize = l->f_bsize;
	f->f_blocks = l->f_blocks;
	f->f_bfree = l->f_bfree;
	f->f_bavail = l->f_bavail;
	f->f_files = l->f_files;
	f->f_ffree = l->f_ffree;
	f->f_fsid.val[0] = l->f_fsid[0];
	f->f_fsid.val[1] = l->f_fsid[1];
	if (l->f_flags & 1)
		f->f_flags |= MNT_RDONLY;
}

int
statfs(const char *path, struct statfs *f)
{
	struct linux_statfs64 l;

	if (ret(L3(LNR_statfs64, path, sizeof(l), &l)) < 0)
		return -1;
	convstatfs(&l, f);
	strncpy(f->f_mntonname, path, MNAMELEN);
	strncpy(f->f_mntfromname, "host", MNAMELEN);
	strncpy(f->f_fstypename, "host", MFSNAMELEN);
	return 0;
}

int
fstatfs(int fd, struct statfs *f)
{
	struct linux_statfs64 l;

	if (ret(L3(LNR_fstatfs64, fd, sizeof(l), &l)) < 0)
		return -1;
	convstatfs(&l, f);
	return 0;
}

/*
 * getfsstat: the host's mounts of real disks and tmpfs, from
 * /proc/self/mounts.
 */
int
getfsstat(struct statfs *buf, long bufsize, int flags)
{
	static char text[16384];
	struct statfs f;
	char *line, *next, *dev, *dir, *type;
	int fd, n, count;

	if ((fd = open("/proc/self/mounts", O_RDONLY)) < 0)
		return -1;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n < 0)
		return -1;
	text[n] = '\0';
	count = 0;
	for (line = text; *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) == NULL)
			next = line + strlen(line);
		else
			*next++ = '\0';
		dev = line;
		if ((dir = strchr(dev, ' ')) == NULL)
			continue;
		*dir++ = '\0';
		if ((type = strchr(dir, ' ')) == NULL)
			continue;
		*type++ = '\0';
		type[strcspn(type, " ")] = '\0';
		if (*dev != '/' && strcmp(type, "tmpfs") != 0)
			continue;
		if (buf != NULL) {
			if ((long)((count + 1) * sizeof(*buf)) > bufsize)
				break;
			if (statfs(dir, &f) < 0)
				continue;
			strncpy(f.f_mntfromname, dev, MNAMELEN);
			strncpy(f.f_fstypename, type, MFSNAMELEN);
			buf[count] = f;
		}
		count++;
	}
	return count;
}

int
ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (req == TIOCGPGRP)
		return ret(L3(LNR_ioctl, fd, LTIOCGPGRP, arg));
	if (req == TIOCSPGRP)
		return ret(L3(LNR_ioctl, fd, LTIOCSPGRP, arg));
	return fail(ENOTTY);
}

int
fcntl(int fd, int cmd, ...)
{
	va_list ap;
	long arg, r;

	va_start(ap, cmd);
	arg = va_arg(ap, long);
	va_end(ap);
	if (cmd == F_SETFL)
		arg = mapoflags(arg) & ~(LO_LARGEFILE | O_ACCMODE);
	r = ret(L3(LNR_fcntl64, fd, cmd, arg));
	if (cmd == F_GETFL && r >= 0)
		r = (r & O_ACCMODE) | (r & LO_APPEND ? O_APPEND : 0) |
		    (r & LO_NONBLOCK ? O_NONBLOCK : 0);
	return r;
}

/* wait4: the signal numbers in the status are renumbered. */
pid_t
wait4(pid_t pid, int *status, int options, struct rusage *ru)
{
	int st, lsig;
	long r;

	if ((r = ret(L4(LNR_wait4, pid, &st, options, ru))) <= 0)
		return r;
	if (status != NULL) {
		if ((st & 0x7f) == 0x7f)		/* stopped */
			st = (l2b((st >> 8) & 0xff) << 8) | 0x7f;
		else if ((lsig = st & 0x7f) != 0)	/* killed */
			st = (st & ~0x7f) | l2b(lsig);
		*status = st;
	}
	return r;
}

/*
 * Signals.  Handlers are called through a trampoline that renumbers
 * the signal; the table holds the program's handlers by BSD number.
 */
static sig_t handlers[NSIG];

static void
trampoline(int lsig)
{
	int sig;

	sig = l2b(lsig);
	if (sig > 0 && handlers[sig] != SIG_DFL && handlers[sig] != SIG_IGN)
		handlers[sig](sig);
}

int
sigaction(int sig, const struct sigaction *act, struct sigaction *oact)
{
	struct linux_sigaction la, ola;

	if (sig <= 0 || sig >= NSIG || b2l[sig] == 0)
		return fail(EINVAL);
	memset(&la, 0, sizeof(la));
	if (act != NULL) {
		la.handler = act->sa_handler == SIG_DFL ||
		    act->sa_handler == SIG_IGN ? act->sa_handler : trampoline;
		la.mask = maskb2l(act->sa_mask);
		/* i386 Linux builds the frame rt_sigreturn reads only for
		 * SA_SIGINFO; without it a handler's return restored
		 * garbage (the shell died after ^C at its prompt). */
		la.flags = LSA_RESTORER | LSA_SIGINFO;
		if (act->sa_flags & SA_RESTART)
			la.flags |= LSA_RESTART;
		if (act->sa_flags & SA_NODEFER)
			la.flags |= LSA_NODEFER;
		if (act->sa_flags & SA_RESETHAND)
			la.flags |= LSA_RESETHAND;
		la.restorer = __linux_restore_rt;
	}
	if (ret(L4(LNR_rt_sigaction, b2l[sig], act != NULL ? &la : NULL,
	    &ola, 8)) < 0)
		return -1;
	if (oact != NULL) {
		oact->sa_handler = ola.handler == trampoline ? handlers[sig] :
		    ola.handler;
		oact->sa_mask = maskl2b(ola.mask);
		oact->sa_flags = (ola.flags & LSA_RESTART ? SA_RESTART : 0) |
		    (ola.flags & LSA_NODEFER ? SA_NODEFER : 0) |
		    (ola.flags & LSA_RESETHAND ? SA_RESETHAND : 0);
	}
	if (act != NULL)
		handlers[sig] = act->sa_handler;
	return 0;
}

int
sigprocmask(int how, const sigset_t *set, sigset_t *oset)
{
	unsigned long long l, ol;
	int lhow;

	l = 0;
	lhow = how == SIG_BLOCK ? 0 : how == SIG_UNBLOCK ? 1 : 2;
	if (set != NULL && how != SIG_BLOCK && how != SIG_UNBLOCK &&
	    how != SIG_SETMASK)
		return fail(EINVAL);
	if (set != NULL)
		l = maskb2l(*set);
	if (ret(L4(LNR_rt_sigprocmask, lhow, set != NULL ? &l : NULL, &ol,
	    8)) < 0)
		return -1;
	if (oset != NULL)
		*oset = maskl2b(ol);
	return 0;
}

int
__sys_sigpending(void)
{
	unsigned long long l;

	if (ret(L2(LNR_rt_sigpending, &l, 8)) < 0)
		return -1;
	return maskl2b(l);
}

int
__sys_sigsuspend(sigset_t mask)
{
	unsigned long long l;

	l = maskb2l(mask);
	return ret(L2(LNR_rt_sigsuspend, &l, 8));
}
