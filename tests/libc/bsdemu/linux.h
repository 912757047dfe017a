/*
 * What the BSD-on-Linux test backend needs to know about Linux i386:
 * system call numbers, and the structures it converts.  (Written out
 * here because the backend is compiled with the guest's headers.)
 */
#ifndef LINUX_H
#define LINUX_H

long	__linux_call(long, long, long, long, long, long, long);
void	__linux_restore_rt(void);

#define L0(n)			__linux_call(n, 0, 0, 0, 0, 0, 0)
#define L1(n, a)		__linux_call(n, (long)(a), 0, 0, 0, 0, 0)
#define L2(n, a, b)		__linux_call(n, (long)(a), (long)(b), 0, 0, 0, 0)
#define L3(n, a, b, c)		__linux_call(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define L4(n, a, b, c, d)	__linux_call(n, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)
#define L5(n, a, b, c, d, e)	__linux_call(n, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)
#define L6(n, a, b, c, d, e, f)	__linux_call(n, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f))

#define LNR_read		3
#define LNR_write		4
#define LNR_open		5
#define LNR_close		6
#define LNR_link		9
#define LNR_unlink		10
#define LNR_execve		11
#define LNR_chdir		12
#define LNR_mknod		14
#define LNR_chmod		15
#define LNR_getpid		20
#define LNR_access		33
#define LNR_sync		36
#define LNR_kill		37
#define LNR_rename		38
#define LNR_mkdir		39
#define LNR_rmdir		40
#define LNR_dup			41
#define LNR_pipe		42
#define LNR_ioctl		54
#define LNR_setpgid		57
#define LNR_umask		60
#define LNR_dup2		63
#define LNR_getppid		64
#define LNR_getpgrp		65
#define LNR_setsid		66
#define LNR_getrusage		77
#define LNR_gettimeofday	78
#define LNR_settimeofday	79
#define LNR_symlink		83
#define LNR_readlink		85
#define LNR_fchmod		94
#define LNR_wait4		114
#define LNR_fsync		118
#define LNR_fchdir		133
#define LNR__llseek		140
#define LNR_nanosleep		162
#define LNR_rt_sigaction	174
#define LNR_rt_sigprocmask	175
#define LNR_rt_sigpending	176
#define LNR_rt_sigsuspend	179
#define LNR_pread64		180
#define LNR_pwrite64		181
#define LNR_mmap2		192
#define LNR_truncate64		193
#define LNR_ftruncate64		194
#define LNR_stat64		195
#define LNR_lstat64		196
#define LNR_fstat64		197
#define LNR_getuid32		199
#define LNR_getgid32		200
#define LNR_geteuid32		201
#define LNR_getegid32		202
#define LNR_getgroups32		205
#define LNR_setgroups32		206
#define LNR_fchown32		207
#define LNR_setresuid32		208
#define LNR_setresgid32		210
#define LNR_chown32		212
#define LNR_setuid32		213
#define LNR_setgid32		214
#define LNR_getdents64		220
#define LNR_fcntl64		221
#define LNR_exit_group		252
#define LNR_statfs64		268
#define LNR_fstatfs64		269
#define LNR_utimes		271

#define LO_NONBLOCK	04000
#define LO_APPEND	02000
#define LO_CREAT	0100
#define LO_TRUNC	01000
#define LO_EXCL		0200
#define LO_SYNC		04010000
#define LO_LARGEFILE	0100000

#define LSA_SIGINFO	0x00000004	/* an rt frame, for rt_sigreturn */
#define LSA_RESTORER	0x04000000
#define LSA_RESTART	0x10000000
#define LSA_NODEFER	0x40000000
#define LSA_RESETHAND	0x80000000

#define LTIOCGPGRP	0x540f
#define LTIOCSPGRP	0x5410

struct linux_stat64 {
	unsigned long long st_dev;
	unsigned char	 pad0[4];
	unsigned long	 st_ino32;
	unsigned int	 st_mode;
	unsigned int	 st_nlink;
	unsigned long	 st_uid;
	unsigned long	 st_gid;
	unsigned long long st_rdev;
	unsigned char	 pad3[4];
	long long	 st_size;
	unsigned long	 st_blksize;
	unsigned long long st_blocks;
	unsigned long	 st_atime_, st_atime_nsec;
	unsigned long	 st_mtime_, st_mtime_nsec;
	unsigned long	 st_ctime_, st_ctime_nsec;
	unsigned long long st_ino;
} __attribute__((packed));

struct linux_statfs64 {
	unsigned int	 f_type;
	unsigned int	 f_bsize;
	unsigned long long f_blocks;
	unsigned long long f_bfree;
	unsigned long long f_bavail;
	unsigned long long f_files;
	unsigned long long f_ffree;
	int		 f_fsid[2];
	unsigned int	 f_namelen;
	unsigned int	 f_frsize;
	unsigned int	 f_flags;
	unsigned int	 f_spare[4];
} __attribute__((packed));

struct linux_sigaction {
	void	(*handler)(int);
	unsigned long flags;
	void	(*restorer)(void);
	unsigned long long mask;
};

struct linux_dirent64 {
	unsigned long long d_ino;
	long long	 d_off;
	unsigned short	 d_reclen;
	unsigned char	 d_type;
	char		 d_name[];
} __attribute__((packed));

#endif
