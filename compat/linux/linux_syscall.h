/*
 * The Linux system calls (linux_file.c, linux_misc.c), each taking the
 * six argument registers as words, and the table entry that names them.
 */
#ifndef _COMPAT_LINUX_LINUX_SYSCALL_H_
#define _COMPAT_LINUX_LINUX_SYSCALL_H_

#include <sys/types.h>

struct proc;

typedef int linux_sy_call_t(struct proc *, const u_int32_t *args, int *rval);

struct linux_sysent {
	const char *name;
	linux_sy_call_t *fn;
};

int	linux_bsdcall(struct proc *, int code, void *args, int *rval);

linux_sy_call_t linux_sys_exit, linux_sys_fork, linux_sys_read,
    linux_sys_write, linux_sys_open, linux_sys_close, linux_sys_waitpid,
    linux_sys_link, linux_sys_unlink, linux_sys_execve, linux_sys_chdir,
    linux_sys_time, linux_sys_chmod, linux_sys_lseek, linux_sys_getpid,
    linux_sys_access, linux_sys_kill, linux_sys_rename, linux_sys_mkdir,
    linux_sys_rmdir, linux_sys_dup, linux_sys_pipe, linux_sys_brk,
    linux_sys_ioctl, linux_sys_umask, linux_sys_dup2, linux_sys_getppid,
    linux_sys_gettimeofday, linux_sys_symlink, linux_sys_readlink,
    linux_sys_munmap, linux_sys_wait4, linux_sys_fsync, linux_sys_mprotect,
    linux_sys_llseek, linux_sys_writev, linux_sys_ugetrlimit,
    linux_sys_mmap2, linux_sys_stat64, linux_sys_lstat64, linux_sys_fstat64,
    linux_sys_getuid, linux_sys_getgid, linux_sys_geteuid, linux_sys_getegid,
    linux_sys_fcntl64, linux_sys_set_thread_area, linux_sys_set_tid_address,
    linux_sys_clock_gettime, linux_sys_openat, linux_sys_set_robust_list,
    linux_sys_getrandom, linux_sys_statx, linux_sys_rseq,
    linux_sys_clock_gettime64, linux_sys_clone, linux_sys_dup3,
    linux_sys_poll, linux_sys_prctl, linux_sys_sigreturn,
    linux_sys_rt_sigreturn, linux_sys_rt_sigaction,
    linux_sys_rt_sigprocmask, linux_sys_tkill, linux_sys_tgkill,
    linux_sys_truncate64, linux_sys_ftruncate64, linux_sys_uname,
    linux_sys_getcwd, linux_sys_pipe2, linux_sys_clone3, linux_sys_vfork,
    linux_sys_getdents64, linux_sys_sysinfo;

#endif
