/*
 * The system call stubs.  Each one is called like a C function, so the
 * arguments are already on the stack where the kernel reads them (from
 * 4(%esp), see <sys/syscall.h>): the stub loads the number into %eax and
 * traps.  Carry clear means success and the result is in %eax (%edx:%eax
 * for 64-bit results); carry set means %eax is an errno, and __cerror
 * stores it and returns -1.
 *
 * Calls whose C interface differs from the trap's are given __sys_ names
 * here and wrapped in C: lseek/truncate/ftruncate (the pad word), pipe
 * (two results), break (a keyword in C; brk/sbrk) and the signal-mask
 * calls (4.4BSD passes and returns masks by value; sigprocmask.S).
 */
#include <sys/syscall.h>

#define SYSCALL(name, num)	\
	.text;			\
	.globl name;		\
	.type name, @function;	\
name:				\
	movl $num, %eax;	\
	int $0x80;		\
	jc __cerror;		\
	ret;			\
	.size name, . - name

SYSCALL(_exit, SYS_exit)
SYSCALL(fork, SYS_fork)
SYSCALL(read, SYS_read)
SYSCALL(write, SYS_write)
SYSCALL(open, SYS_open)
SYSCALL(close, SYS_close)
SYSCALL(wait4, SYS_wait4)
SYSCALL(link, SYS_link)
SYSCALL(unlink, SYS_unlink)
SYSCALL(chdir, SYS_chdir)
SYSCALL(fchdir, SYS_fchdir)
SYSCALL(mknod, SYS_mknod)
SYSCALL(chmod, SYS_chmod)
SYSCALL(chown, SYS_chown)
SYSCALL(__sys_break, SYS_break)
SYSCALL(getfsstat, SYS_getfsstat)
SYSCALL(getpid, SYS_getpid)
SYSCALL(mount, SYS_mount)
SYSCALL(unmount, SYS_unmount)
SYSCALL(setuid, SYS_setuid)
SYSCALL(getuid, SYS_getuid)
SYSCALL(geteuid, SYS_geteuid)
SYSCALL(access, SYS_access)
SYSCALL(sync, SYS_sync)
SYSCALL(kill, SYS_kill)
SYSCALL(getppid, SYS_getppid)
SYSCALL(dup, SYS_dup)
SYSCALL(__sys_pipe, SYS_pipe)
SYSCALL(getegid, SYS_getegid)
SYSCALL(sigaction, SYS_sigaction)
SYSCALL(getgid, SYS_getgid)
SYSCALL(__sys_sigpending, SYS_sigpending)
SYSCALL(ioctl, SYS_ioctl)
SYSCALL(reboot, SYS_reboot)
SYSCALL(symlink, SYS_symlink)
SYSCALL(readlink, SYS_readlink)
SYSCALL(execve, SYS_execve)
SYSCALL(umask, SYS_umask)
SYSCALL(getgroups, SYS_getgroups)
SYSCALL(setgroups, SYS_setgroups)
SYSCALL(getpgrp, SYS_getpgrp)
SYSCALL(setpgid, SYS_setpgid)
SYSCALL(dup2, SYS_dup2)
SYSCALL(fcntl, SYS_fcntl)
SYSCALL(fsync, SYS_fsync)
SYSCALL(sigreturn, SYS_sigreturn)
SYSCALL(__sys_sigsuspend, SYS_sigsuspend)
SYSCALL(gettimeofday, SYS_gettimeofday)
SYSCALL(getrusage, SYS_getrusage)
SYSCALL(settimeofday, SYS_settimeofday)
SYSCALL(fchown, SYS_fchown)
SYSCALL(fchmod, SYS_fchmod)
SYSCALL(rename, SYS_rename)
SYSCALL(mkdir, SYS_mkdir)
SYSCALL(rmdir, SYS_rmdir)
SYSCALL(utimes, SYS_utimes)
SYSCALL(setsid, SYS_setsid)
SYSCALL(statfs, SYS_statfs)
SYSCALL(fstatfs, SYS_fstatfs)
SYSCALL(setgid, SYS_setgid)
SYSCALL(setegid, SYS_setegid)
SYSCALL(seteuid, SYS_seteuid)
SYSCALL(lfs_bmapv, SYS_lfs_bmapv)
SYSCALL(lfs_markv, SYS_lfs_markv)
SYSCALL(lfs_segclean, SYS_lfs_segclean)
SYSCALL(lfs_segwait, SYS_lfs_segwait)
SYSCALL(stat, SYS_stat)
SYSCALL(fstat, SYS_fstat)
SYSCALL(lstat, SYS_lstat)
SYSCALL(getdirentries, SYS_getdirentries)
SYSCALL(__sys_lseek, SYS_lseek)
SYSCALL(__sys_truncate, SYS_truncate)
SYSCALL(__sys_ftruncate, SYS_ftruncate)
SYSCALL(nanosleep, SYS_nanosleep)
SYSCALL(getproc, SYS_getproc)
SYSCALL(diskstats, SYS_diskstats)
SYSCALL(bufstats, SYS_bufstats)
SYSCALL(lfsstats, SYS_lfsstats)

	.section .note.GNU-stack, "", @progbits
