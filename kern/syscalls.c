/*
 * The system call table, by 4.4BSD number (see sys/syscall.h).
 * Generated once from a list; edit it as a table.
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/syscalls.h"

static int
sys_nosys(struct proc *p, void *uap, int *retval)
{
	(void)p, (void)uap, (void)retval;
	return ENOSYS;
}

int	sys_exit(struct proc *, void *, int *);
int	sys_fork(struct proc *, void *, int *);
int	sys_read(struct proc *, void *, int *);
int	sys_write(struct proc *, void *, int *);
int	sys_open(struct proc *, void *, int *);
int	sys_close(struct proc *, void *, int *);
int	sys_wait4(struct proc *, void *, int *);
int	sys_link(struct proc *, void *, int *);
int	sys_unlink(struct proc *, void *, int *);
int	sys_chdir(struct proc *, void *, int *);
int	sys_fchdir(struct proc *, void *, int *);
int	sys_mknod(struct proc *, void *, int *);
int	sys_chmod(struct proc *, void *, int *);
int	sys_chown(struct proc *, void *, int *);
int	sys_break(struct proc *, void *, int *);
int	sys_getfsstat(struct proc *, void *, int *);
int	sys_getpid(struct proc *, void *, int *);
int	sys_mount(struct proc *, void *, int *);
int	sys_unmount(struct proc *, void *, int *);
int	sys_setuid(struct proc *, void *, int *);
int	sys_getuid(struct proc *, void *, int *);
int	sys_geteuid(struct proc *, void *, int *);
int	sys_access(struct proc *, void *, int *);
int	sys_sync(struct proc *, void *, int *);
int	sys_kill(struct proc *, void *, int *);
int	sys_getppid(struct proc *, void *, int *);
int	sys_dup(struct proc *, void *, int *);
int	sys_pipe(struct proc *, void *, int *);
int	sys_getegid(struct proc *, void *, int *);
int	sys_sigaction(struct proc *, void *, int *);
int	sys_getgid(struct proc *, void *, int *);
int	sys_sigprocmask(struct proc *, void *, int *);
int	sys_sigpending(struct proc *, void *, int *);
int	sys_ioctl(struct proc *, void *, int *);
int	sys_reboot(struct proc *, void *, int *);
int	sys_symlink(struct proc *, void *, int *);
int	sys_readlink(struct proc *, void *, int *);
int	sys_execve(struct proc *, void *, int *);
int	sys_umask(struct proc *, void *, int *);
int	sys_getgroups(struct proc *, void *, int *);
int	sys_setgroups(struct proc *, void *, int *);
int	sys_getpgrp(struct proc *, void *, int *);
int	sys_setpgid(struct proc *, void *, int *);
int	sys_dup2(struct proc *, void *, int *);
int	sys_fcntl(struct proc *, void *, int *);
int	sys_fsync(struct proc *, void *, int *);
int	sys_sigreturn(struct proc *, void *, int *);
int	sys_sigsuspend(struct proc *, void *, int *);
int	sys_gettimeofday(struct proc *, void *, int *);
int	sys_getrusage(struct proc *, void *, int *);
int	sys_settimeofday(struct proc *, void *, int *);
int	sys_fchown(struct proc *, void *, int *);
int	sys_fchmod(struct proc *, void *, int *);
int	sys_rename(struct proc *, void *, int *);
int	sys_mkdir(struct proc *, void *, int *);
int	sys_rmdir(struct proc *, void *, int *);
int	sys_utimes(struct proc *, void *, int *);
int	sys_setsid(struct proc *, void *, int *);
int	sys_statfs(struct proc *, void *, int *);
int	sys_fstatfs(struct proc *, void *, int *);
int	sys_setgid(struct proc *, void *, int *);
int	sys_setegid(struct proc *, void *, int *);
int	sys_seteuid(struct proc *, void *, int *);
int	sys_stat(struct proc *, void *, int *);
int	sys_fstat(struct proc *, void *, int *);
int	sys_lstat(struct proc *, void *, int *);
int	sys_getdirentries(struct proc *, void *, int *);
int	sys_lseek(struct proc *, void *, int *);
int	sys_truncate(struct proc *, void *, int *);
int	sys_ftruncate(struct proc *, void *, int *);
int	sys_nanosleep(struct proc *, void *, int *);
int	sys_getproc(struct proc *, void *, int *);
int	sys_diskstats(struct proc *, void *, int *);
int	sys_bufstats(struct proc *, void *, int *);
int	sys_lfs_bmapv(struct proc *, void *, int *);
int	sys_lfs_markv(struct proc *, void *, int *);
int	sys_lfs_segclean(struct proc *, void *, int *);
int	sys_lfs_segwait(struct proc *, void *, int *);
int	sys_lfsstats(struct proc *, void *, int *);

#define S(n, name, narg)	[n] = { narg, sys_##name, #name }
const struct sysent sysent[] = {
	[0] = { 0, sys_nosys, "nosys" },
	S(1, exit, 1),
	S(2, fork, 0),
	S(3, read, 3),
	S(4, write, 3),
	S(5, open, 3),
	S(6, close, 1),
	S(7, wait4, 4),
	S(9, link, 2),
	S(10, unlink, 1),
	S(12, chdir, 1),
	S(13, fchdir, 1),
	S(14, mknod, 3),
	S(15, chmod, 2),
	S(16, chown, 3),
	S(17, break, 1),
	S(18, getfsstat, 3),
	S(20, getpid, 0),
	S(21, mount, 4),
	S(22, unmount, 2),
	S(23, setuid, 1),
	S(24, getuid, 0),
	S(25, geteuid, 0),
	S(33, access, 2),
	S(36, sync, 0),
	S(37, kill, 2),
	S(39, getppid, 0),
	S(41, dup, 1),
	S(42, pipe, 0),
	S(43, getegid, 0),
	S(46, sigaction, 3),
	S(47, getgid, 0),
	S(48, sigprocmask, 2),
	S(52, sigpending, 0),
	S(54, ioctl, 3),
	S(55, reboot, 1),
	S(57, symlink, 2),
	S(58, readlink, 3),
	S(59, execve, 3),
	S(60, umask, 1),
	S(79, getgroups, 2),
	S(80, setgroups, 2),
	S(81, getpgrp, 0),
	S(82, setpgid, 2),
	S(90, dup2, 2),
	S(92, fcntl, 3),
	S(95, fsync, 1),
	S(103, sigreturn, 1),
	S(111, sigsuspend, 1),
	S(116, gettimeofday, 2),
	S(117, getrusage, 2),
	S(122, settimeofday, 2),
	S(123, fchown, 3),
	S(124, fchmod, 2),
	S(128, rename, 2),
	S(136, mkdir, 2),
	S(137, rmdir, 1),
	S(138, utimes, 2),
	S(147, setsid, 0),
	S(157, statfs, 2),
	S(158, fstatfs, 2),
	S(181, setgid, 1),
	S(182, setegid, 1),
	S(183, seteuid, 1),
	S(184, lfs_bmapv, 3),
	S(185, lfs_markv, 3),
	S(186, lfs_segclean, 2),
	S(187, lfs_segwait, 2),
	S(188, stat, 2),
	S(189, fstat, 2),
	S(190, lstat, 2),
	S(196, getdirentries, 4),
	S(199, lseek, 5),
	S(200, truncate, 4),
	S(201, ftruncate, 4),
	S(240, nanosleep, 2),
	S(300, getproc, 2),
	S(301, diskstats, 3),
	S(302, bufstats, 1),
	S(303, lfsstats, 3),
};
const int nsysent = nitems(sysent);
