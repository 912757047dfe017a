/*
 * Linux's file, descriptor and process calls, run as our own: each
 * builds our argument structure (kern/syscallargs.h) from Linux's
 * registers and calls sysent[SYS_*], translating flags on the way in and
 * structures on the way out.  Paths are relative to the current
 * directory: the *at calls accept AT_FDCWD or an absolute path, say
 * EOPNOTSUPP to a directory descriptor, and EBADF or ENOTDIR, as Linux,
 * to a descriptor that is not open or not a directory.
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/file.h"
#include "kern/vnode.h"
#include "kern/namei.h"
#include "kern/malloc.h"
#include "kern/uio.h"
#include "kern/syscallargs.h"
#include "compat/linux/linux.h"
#include "compat/linux/linux_syscall.h"
#include <sys/syscall.h>
#include <sys/fcntl.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <sys/termios.h>
#include <sys/dirent.h>
#include <sys/ufs/dir.h>

int	vn_stat(struct vnode *, struct stat *);

#define PTR(i)	((void *)args[i])
#define INT(i)	((int)args[i])

#define LINUX_F_DUPFD_CLOEXEC	1030

/* The simple ones: the same arguments in the same order. */
#define PASS(lname, code, type)						\
int									\
lname(struct proc *p, const u_int32_t *args, int *rval)			\
{									\
	type a;								\
									\
	memcpy(&a, args, sizeof(a));					\
	return linux_bsdcall(p, code, &a, rval);			\
}
PASS(linux_sys_read, SYS_read, struct read_args)
PASS(linux_sys_write, SYS_write, struct write_args)
PASS(linux_sys_close, SYS_close, struct close_args)
PASS(linux_sys_link, SYS_link, struct link_args)
PASS(linux_sys_unlink, SYS_unlink, struct unlink_args)
PASS(linux_sys_execve, SYS_execve, struct execve_args)
PASS(linux_sys_chdir, SYS_chdir, struct chdir_args)
PASS(linux_sys_chmod, SYS_chmod, struct chmod_args)
PASS(linux_sys_getpid, SYS_getpid, struct exit_args)
PASS(linux_sys_getppid, SYS_getppid, struct exit_args)
PASS(linux_sys_getuid, SYS_getuid, struct exit_args)
PASS(linux_sys_geteuid, SYS_geteuid, struct exit_args)
PASS(linux_sys_getgid, SYS_getgid, struct exit_args)
PASS(linux_sys_getegid, SYS_getegid, struct exit_args)
PASS(linux_sys_access, SYS_access, struct access_args)
PASS(linux_sys_rename, SYS_rename, struct rename_args)
PASS(linux_sys_mkdir, SYS_mkdir, struct mkdir_args)
PASS(linux_sys_rmdir, SYS_rmdir, struct rmdir_args)
PASS(linux_sys_dup, SYS_dup, struct dup_args)
PASS(linux_sys_dup2, SYS_dup2, struct dup2_args)
PASS(linux_sys_umask, SYS_umask, struct umask_args)
PASS(linux_sys_symlink, SYS_symlink, struct symlink_args)
PASS(linux_sys_readlink, SYS_readlink, struct readlink_args)
PASS(linux_sys_fsync, SYS_fsync, struct fsync_args)
PASS(linux_sys_poll, SYS_poll, struct poll_args)	/* same struct pollfd */
PASS(linux_sys_gettimeofday, SYS_gettimeofday, struct gettimeofday_args)

/* dup3: dup2 that may set close-on-exec (glibc's freopen uses it). */
int
linux_sys_dup3(struct proc *p, const u_int32_t *args, int *rval)
{
	struct dup2_args a = { INT(0), INT(1) };
	int error;

	if ((INT(2) & ~LINUX_O_CLOEXEC) || INT(0) == INT(1))
		return EINVAL;		/* as Linux */
	if ((error = linux_bsdcall(p, SYS_dup2, &a, rval)) == 0 &&
	    (INT(2) & LINUX_O_CLOEXEC))
		p->p_fdflags[rval[0]] |= FD_CLOEXEC;
	return error;
}

/* wait4 and waitpid: the same rusage, the status with Linux's signal numbers. */
static int
do_wait(struct proc *p, int pid, int *status, int options, void *rusage,
    int *rval)
{
	struct wait4_args a = { pid, status, options, rusage };
	int error, st;

	if ((error = linux_bsdcall(p, SYS_wait4, &a, rval)) != 0 ||
	    status == NULL || rval[0] == 0)
		return error;
	if ((error = copyin(status, &st, sizeof(st))) != 0)
		return error;
	st = linux_wstatus(st);
	return copyout(&st, status, sizeof(st));
}

int
linux_sys_wait4(struct proc *p, const u_int32_t *args, int *rval)
{
	return do_wait(p, INT(0), PTR(1), INT(2), PTR(3), rval);
}

int
linux_sys_waitpid(struct proc *p, const u_int32_t *args, int *rval)
{
	return do_wait(p, INT(0), PTR(1), INT(2), NULL, rval);
}

/*
 * May a *at call use this path?  An absolute one ignores dirfd, and a
 * relative one is ours with AT_FDCWD.  Otherwise Linux's errors for the
 * descriptor (EBADF: not open; ENOTDIR: not a directory), and EOPNOTSUPP
 * for a directory's, which namei cannot start from.
 */
static int
at_check(struct proc *p, int dirfd, const char *path)
{
	struct file *fp;
	char c;
	int error;

	if ((error = copyin(path, &c, 1)) != 0)
		return error;
	if (c == '/' || c == '\0' || dirfd == LINUX_AT_FDCWD)
		return 0;		/* "" is namei's ENOENT, as in Linux */
	if ((error = getfile(p, dirfd, &fp)) != 0)
		return error;
	if (fp->f_type != DTYPE_VNODE ||
	    ((struct vnode *)fp->f_data)->v_type != VDIR)
		return ENOTDIR;
	return EOPNOTSUPP;
}

static int
do_open(struct proc *p, const char *path, int lflags, int mode, int *rval)
{
	struct open_args a = { path, linux_to_bsd_oflags(lflags), mode };
	int error;

	if ((error = linux_bsdcall(p, SYS_open, &a, rval)) != 0)
		return error;
	if (lflags & LINUX_O_CLOEXEC)
		p->p_fdflags[rval[0]] |= FD_CLOEXEC;
	return 0;
}

int
linux_sys_open(struct proc *p, const u_int32_t *args, int *rval)
{
	return do_open(p, PTR(0), INT(1), INT(2), rval);
}

int
linux_sys_openat(struct proc *p, const u_int32_t *args, int *rval)
{
	int error = at_check(p, INT(0), PTR(1));

	return error ? error : do_open(p, PTR(1), INT(2), INT(3), rval);
}

int
linux_sys_lseek(struct proc *p, const u_int32_t *args, int *rval)
{
	struct lseek_args a = { INT(0), 0, (int32_t)args[1], INT(2) };

	return linux_bsdcall(p, SYS_lseek, &a, rval);
}

/* _llseek(fd, offset_high, offset_low, loff_t *result, whence) */
int
linux_sys_llseek(struct proc *p, const u_int32_t *args, int *rval)
{
	struct lseek_args a = { INT(0), 0,
	    (off_t)((u_int64_t)args[1] << 32 | args[2]), INT(4) };
	int64_t result;
	int error;

	if ((error = linux_bsdcall(p, SYS_lseek, &a, rval)) != 0)
		return error;
	result = (u_int32_t)rval[0] | (int64_t)rval[1] << 32;
	rval[0] = 0;
	return copyout(&result, PTR(3), sizeof(result));
}

/* truncate64 and ftruncate64: the length in two registers, low word first. */
int
linux_sys_truncate64(struct proc *p, const u_int32_t *args, int *rval)
{
	struct truncate_args a = { PTR(0), 0,
	    (off_t)((u_int64_t)args[2] << 32 | args[1]) };

	return linux_bsdcall(p, SYS_truncate, &a, rval);
}

int
linux_sys_ftruncate64(struct proc *p, const u_int32_t *args, int *rval)
{
	struct ftruncate_args a = { INT(0), 0,
	    (off_t)((u_int64_t)args[2] << 32 | args[1]) };

	return linux_bsdcall(p, SYS_ftruncate, &a, rval);
}

/* pipe2(fds, flags): glibc's pipe() too.  O_CLOEXEC and O_NONBLOCK. */
int
linux_sys_pipe2(struct proc *p, const u_int32_t *args, int *rval)
{
	int error, fds[2], i, lflags = INT(1);

	if (lflags & ~(LINUX_O_CLOEXEC | LINUX_O_NONBLOCK))
		return EINVAL;
	if ((error = linux_bsdcall(p, SYS_pipe, NULL, rval)) != 0)
		return error;
	fds[0] = rval[0];
	fds[1] = rval[1];
	for (i = 0; i < 2; i++) {
		if (lflags & LINUX_O_CLOEXEC)
			p->p_fdflags[fds[i]] |= FD_CLOEXEC;
		if (lflags & LINUX_O_NONBLOCK)
			p->p_fd[fds[i]]->f_flag |= O_NONBLOCK;
	}
	rval[0] = 0;
	if ((error = copyout(fds, PTR(0), sizeof(fds))) != 0) {
		for (i = 0; i < 2; i++) {	/* as Linux: no descriptors */
			struct close_args c = { fds[i] };

			(void)linux_bsdcall(p, SYS_close, &c, rval);
		}
		rval[0] = 0;
	}
	return error;
}

int
linux_sys_pipe(struct proc *p, const u_int32_t *args, int *rval)
{
	u_int32_t a2[2] = { args[0], 0 };

	return linux_sys_pipe2(p, a2, rval);
}

/*
 * writev: the whole iovec array first, as Linux copies it (EFAULT, or
 * EINVAL for a total past SSIZE_MAX, with nothing written); then one
 * write per element, stopping at a short one or an error.  Bytes already
 * written are the answer, and the error waits for the next call.
 */
int
linux_sys_writev(struct proc *p, const u_int32_t *args, int *rval)
{
	struct linux_iovec { u_int32_t base, len; } *iov;
	struct write_args a;
	int i, n = INT(2), error, total = 0;
	u_int32_t sum = 0;

	if (n < 0 || n > 1024)
		return EINVAL;
	iov = malloc(MAX(n, 1) * sizeof(*iov), M_WAITOK);
	if ((error = copyin(PTR(1), iov, n * sizeof(*iov))) != 0)
		goto out;
	for (i = 0; i < n; i++) {
		if (iov[i].len > 0x7fffffff - sum) {
			error = EINVAL;
			goto out;
		}
		sum += iov[i].len;
	}
	for (i = 0; i < n; i++) {
		a.fd = INT(0);
		a.buf = (void *)iov[i].base;
		a.nbyte = iov[i].len;
		if ((error = linux_bsdcall(p, SYS_write, &a, rval)) != 0) {
			if (total)
				error = 0;
			break;
		}
		total += rval[0];
		if ((u_int32_t)rval[0] < iov[i].len)
			break;
	}
	rval[0] = total;
out:
	free(iov);
	return error;
}

/* One terminal ioctl (kind: linux_ioctl_cmd's) as ours, cmd, on fp. */
static int
term_ioctl(struct file *fp, int kind, u_long cmd, void *uarg)
{
	struct linux_termios lt;
	struct termios t;
	struct winsize ws;		/* the largest of the SAME ones */
	u_int size = (cmd >> 16) & IOCPARM_MASK;
	int error;

	switch (kind) {
	case LINUX_IOC_GETTERMIOS:
		if ((error = fp->f_ops->fo_ioctl(fp, cmd, (caddr_t)&t)) != 0)
			return error;
		linux_termios_from(&t, &lt);
		return copyout(&lt, uarg, sizeof(lt));
	case LINUX_IOC_SETTERMIOS:
		if ((error = copyin(uarg, &lt, sizeof(lt))) != 0)
			return error;
		linux_termios_to(&lt, &t);
		return fp->f_ops->fo_ioctl(fp, cmd, (caddr_t)&t);
	case LINUX_IOC_SAME:
		KASSERT(size <= sizeof(ws));
		memset(&ws, 0, sizeof(ws));
		if ((cmd & IOC_IN) && (error = copyin(uarg, &ws, size)) != 0)
			return error;
		if ((error = fp->f_ops->fo_ioctl(fp, cmd, (caddr_t)&ws)) != 0)
			return error;
		return (cmd & IOC_OUT) ? copyout(&ws, uarg, size) : 0;
	default:
		return ENOTTY;
	}
}

/*
 * ioctl: the terminal's (linux_ioctl_cmd's table), run as ours on the
 * file with the argument translated; any other says ENOTTY, and so does
 * a device with no ioctls (ours says ENODEV: /dev/null is no terminal).
 */
int
linux_sys_ioctl(struct proc *p, const u_int32_t *args, int *rval)
{
	struct file *fp;
	u_long cmd = 0;
	int error, kind;

	(void)rval;
	if ((error = getfile(p, INT(0), &fp)) != 0)
		return error;
	if (!(fp->f_flag & (FREAD | FWRITE)))
		return EBADF;
	kind = linux_ioctl_cmd(args[1], &cmd);
	error = term_ioctl(fp, kind, cmd, PTR(2));
	return error == ENODEV ? ENOTTY : error;
}

int
linux_sys_fcntl64(struct proc *p, const u_int32_t *args, int *rval)
{
	struct fcntl_args a = { INT(0), INT(1), INT(2) };
	int error;

	switch (a.cmd) {
	case F_DUPFD:
	case F_GETFD:
	case F_SETFD:
		return linux_bsdcall(p, SYS_fcntl, &a, rval);
	case LINUX_F_DUPFD_CLOEXEC:
		a.cmd = F_DUPFD;
		if ((error = linux_bsdcall(p, SYS_fcntl, &a, rval)) == 0)
			p->p_fdflags[rval[0]] |= FD_CLOEXEC;
		return error;
	case F_GETFL:
		if ((error = linux_bsdcall(p, SYS_fcntl, &a, rval)) == 0)
			rval[0] = bsd_to_linux_oflags(rval[0]);
		return error;
	case F_SETFL:
		a.arg = linux_to_bsd_oflags(a.arg);
		return linux_bsdcall(p, SYS_fcntl, &a, rval);
	default:			/* record locks and the rest */
		return EINVAL;
	}
}

/* Our struct stat of a path (follow: symbolic links) or a descriptor. */
static int
stat_path(const char *path, int follow, struct stat *sb)
{
	struct nameidata *nd = malloc(sizeof(*nd), M_WAITOK);
	int error;

	NDINIT(nd, LOOKUP, follow ? FOLLOW : NOFOLLOW, UIO_USERSPACE, path);
	if ((error = namei(nd)) == 0) {
		error = vn_stat(nd->ni_vp, sb);
		vrele(nd->ni_vp);
	}
	free(nd);
	return error;
}

static int
stat_fd(struct proc *p, int fd, struct stat *sb)
{
	struct file *fp;
	int error;

	if ((error = getfile(p, fd, &fp)) != 0)
		return error;
	memset(sb, 0, sizeof(*sb));
	return fp->f_ops->fo_stat(fp, sb);
}

static int
out_stat64(const struct stat *sb, void *uaddr)
{
	struct linux_stat64 ls;

	linux_stat64_from(sb, &ls);
	return copyout(&ls, uaddr, sizeof(ls));
}

int
linux_sys_stat64(struct proc *p, const u_int32_t *args, int *rval)
{
	struct stat sb;
	int error;

	(void)p, (void)rval;
	if ((error = stat_path(PTR(0), 1, &sb)) != 0)
		return error;
	return out_stat64(&sb, PTR(1));
}

int
linux_sys_lstat64(struct proc *p, const u_int32_t *args, int *rval)
{
	struct stat sb;
	int error;

	(void)p, (void)rval;
	if ((error = stat_path(PTR(0), 0, &sb)) != 0)
		return error;
	return out_stat64(&sb, PTR(1));
}

int
linux_sys_fstat64(struct proc *p, const u_int32_t *args, int *rval)
{
	struct stat sb;
	int error;

	(void)rval;
	if ((error = stat_fd(p, INT(0), &sb)) != 0)
		return error;
	return out_stat64(&sb, PTR(1));
}

/*
 * statx(dirfd, path, flags, mask, buf): glibc's stat, lstat and fstat
 * all come here (fstat as an empty path with AT_EMPTY_PATH).  Every
 * basic field is filled whatever the mask asks.
 */
int
linux_sys_statx(struct proc *p, const u_int32_t *args, int *rval)
{
	struct linux_statx *sx;
	struct stat sb;
	char c;
	int error;

	(void)rval;
	if ((error = copyin(PTR(1), &c, 1)) != 0)
		return error;
	if (c == '\0' && (INT(2) & LINUX_AT_EMPTY_PATH))
		error = stat_fd(p, INT(0), &sb);
	else if ((error = at_check(p, INT(0), PTR(1))) == 0)
		error = stat_path(PTR(1), !(INT(2) & LINUX_AT_SYMLINK_NOFOLLOW),
		    &sb);
	if (error)
		return error;
	sx = malloc(sizeof(*sx), M_WAITOK);
	linux_statx_from(&sb, sx);
	error = copyout(sx, PTR(4), sizeof(*sx));
	free(sx);
	return error;
}

/* Linux's directory entry as getdents64 gives it, 8-byte aligned. */
struct linux_dirent64 {
	u_int64_t d_ino;
	int64_t	d_off;			/* where the next entry begins */
	u_int16_t d_reclen;
	u_int8_t d_type;		/* DT_*: the same numbers as ours */
	char	d_name[];
};

/*
 * getdents64(fd, buf, count): the directory's entries from the
 * descriptor's offset, in Linux's layout.  Ours come from VOP_READDIR a
 * directory block at a time, as they lie on the disk, so an entry's
 * offset is exact: when the next one does not fit in buf, the offset
 * stays at it for the next call (EINVAL if not even one fits, as Linux).
 */
int
linux_sys_getdents64(struct proc *p, const u_int32_t *args, int *rval)
{
	char *user = PTR(1), *blk = NULL;
	u_int32_t count = args[2], done = 0;
	struct linux_dirent64 *ld = NULL;
	struct file *fp;
	struct vnode *vp;
	struct iovec iov;
	struct uio uio;
	off_t off, base, pos;
	int error, n, len, reclen;

	if ((error = getfile(p, INT(0), &fp)) != 0)
		return error;
	if (fp->f_type != DTYPE_VNODE || !(fp->f_flag & FREAD))
		return EBADF;
	if ((vp = fp->f_data)->v_type != VDIR)
		return ENOTDIR;
	blk = malloc(DIRBLKSIZ, M_WAITOK);
	ld = malloc(sizeof(*ld) + MAXNAMLEN + 8, M_WAITOK);
	for (off = fp->f_offset;; off = base + n) {
		base = off & ~(off_t)(DIRBLKSIZ - 1);
		uio_setup1(&uio, &iov, blk, DIRBLKSIZ, base, UIO_SYSSPACE,
		    UIO_READ);
		if ((error = VOP_READDIR(vp, &uio, &p->p_cred)) != 0 ||
		    (n = DIRBLKSIZ - uio.uio_resid) == 0)
			break;
		for (pos = base; pos < base + n; pos += reclen) {
			struct dirent *dp = (struct dirent *)(blk + (pos - base));

			reclen = dp->d_reclen;
			if (reclen < 8 || pos + reclen > base + n ||
			    dp->d_namlen > reclen - 8) {
				error = EIO;	/* ufs_dircheck let it by */
				goto out;
			}
			if (pos < off || dp->d_fileno == 0)
				continue;
			len = (sizeof(*ld) + dp->d_namlen + 1 + 7) & ~7;
			if (done + len > count) {
				off = pos;
				if (done == 0)
					error = EINVAL;
				goto out;
			}
			memset(ld, 0, len);
			ld->d_ino = dp->d_fileno;
			ld->d_off = pos + reclen;
			ld->d_reclen = len;
			ld->d_type = dp->d_type;
			memcpy(ld->d_name, dp->d_name, dp->d_namlen);
			if ((error = copyout(ld, user + done, len)) != 0)
				goto out;
			done += len;
		}
	}
out:
	if (error == 0 || done > 0) {
		fp->f_offset = off;
		*rval = done;
		error = 0;
	}
	free(ld);
	free(blk);
	return error;
}
