/*
 * System call numbers: 4.4BSD's where 4.4BSD had the call, numbers after
 * 4.4BSD's for the project's own calls.
 *
 * The trap ABI (i386, as 4.4BSD): a libc stub is called like a C function,
 * loads the number into %eax and executes "int $0x80".  The kernel reads
 * the arguments from the user stack, starting at 4(%esp) (0(%esp) is the
 * stub's return address).  On success the carry flag is clear and the
 * result is in %eax (64-bit results such as lseek's in %edx:%eax; pipe
 * returns the read end in %eax and the write end in %edx; fork returns 0
 * in the child).  On failure the carry flag is set and %eax holds the
 * errno value.  64-bit arguments (off_t) occupy two stack words, low first,
 * after the 4.4BSD pad word where 4.4BSD had one (lseek, truncate, ftruncate).
 */
#ifndef _SYS_SYSCALL_H_
#define _SYS_SYSCALL_H_

#define SYS_exit		1
#define SYS_fork		2
#define SYS_read		3
#define SYS_write		4
#define SYS_open		5
#define SYS_close		6
#define SYS_wait4		7
#define SYS_link		9
#define SYS_unlink		10
#define SYS_chdir		12
#define SYS_fchdir		13
#define SYS_mknod		14
#define SYS_chmod		15
#define SYS_chown		16
#define SYS_break		17	/* set the end of the data segment */
#define SYS_getfsstat		18
#define SYS_getpid		20
#define SYS_mount		21
#define SYS_unmount		22
#define SYS_setuid		23
#define SYS_getuid		24
#define SYS_geteuid		25
#define SYS_access		33
#define SYS_sync		36
#define SYS_kill		37
#define SYS_getppid		39
#define SYS_dup			41
#define SYS_pipe		42
#define SYS_getegid		43
#define SYS_sigaction		46
#define SYS_getgid		47
#define SYS_sigprocmask		48
#define SYS_sigpending		52
#define SYS_ioctl		54
#define SYS_reboot		55
#define SYS_symlink		57
#define SYS_readlink		58
#define SYS_execve		59
#define SYS_umask		60
#define SYS_getgroups		79
#define SYS_setgroups		80
#define SYS_getpgrp		81
#define SYS_setpgid		82
#define SYS_dup2		90
#define SYS_fcntl		92
#define SYS_fsync		95
#define SYS_sigreturn		103
#define SYS_sigsuspend		111
#define SYS_gettimeofday	116
#define SYS_getrusage		117
#define SYS_settimeofday	122
#define SYS_fchown		123
#define SYS_fchmod		124
#define SYS_rename		128
#define SYS_mkdir		136
#define SYS_rmdir		137
#define SYS_utimes		138
#define SYS_setsid		147
#define SYS_statfs		157
#define SYS_fstatfs		158
#define SYS_setgid		181
#define SYS_setegid		182
#define SYS_seteuid		183
#define SYS_lfs_bmapv		184	/* thesis 6.4: the cleaner's calls */
#define SYS_lfs_markv		185
#define SYS_lfs_segclean	186
#define SYS_lfs_segwait		187
#define SYS_stat		188
#define SYS_fstat		189
#define SYS_lstat		190
#define SYS_getdirentries	196
#define SYS_lseek		199
#define SYS_truncate		200
#define SYS_ftruncate		201
#define SYS_nanosleep		240	/* NetBSD's number */

/* The project's own calls, after 4.4BSD's. */
#define SYS_getproc		300	/* process table snapshot, for ps */
#define SYS_diskstats		301	/* thesis 7.2 disk counters */
#define SYS_bufstats		302	/* buffer-cache queue counts */
#define SYS_lfsstats		303	/* thesis 7.2 LFS counters */

#define SYS_MAXSYSCALL		310

#endif
