/*
 * The Linux system-call table and its dispatcher.
 *
 * Linux on i386 passes the call number in %eax and up to six arguments
 * in %ebx, %ecx, %edx, %esi, %edi and %ebp, and returns a value or a
 * negative errno in %eax (there is no carry flag).  Most calls are ours
 * under another number: they run through our own table, sysent[SYS_*],
 * with the arguments rearranged (linux_file.c, linux_misc.c) and the
 * errno translated (linux_xlate.c).  A number with no entry returns
 * -ENOSYS, and is counted in linux_nosys_count[] (GDB: "p
 * linux_nosys_count"); the first time a number is seen the console says
 * which program made it.  Nothing a program asks for panics the kernel.
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/syscalls.h"
#include "kern/i386/cpu.h"
#include "compat/linux/linux.h"
#include "compat/linux/linux_syscall.h"

#define LINUX_NSYSCALL	450

u_int32_t linux_nosys_count[LINUX_NSYSCALL];

/* The table, by Linux number (arch/x86/entry/syscalls/syscall_32.tbl). */
static const struct linux_sysent linux_sysent[LINUX_NSYSCALL] = {
	[1] = { "exit", linux_sys_exit },
	[2] = { "fork", linux_sys_fork },
	[3] = { "read", linux_sys_read },
	[4] = { "write", linux_sys_write },
	[5] = { "open", linux_sys_open },
	[6] = { "close", linux_sys_close },
	[7] = { "waitpid", linux_sys_waitpid },
	[9] = { "link", linux_sys_link },
	[10] = { "unlink", linux_sys_unlink },
	[11] = { "execve", linux_sys_execve },
	[12] = { "chdir", linux_sys_chdir },
	[13] = { "time", linux_sys_time },
	[15] = { "chmod", linux_sys_chmod },
	[19] = { "lseek", linux_sys_lseek },
	[20] = { "getpid", linux_sys_getpid },
	[33] = { "access", linux_sys_access },
	[37] = { "kill", linux_sys_kill },
	[38] = { "rename", linux_sys_rename },
	[39] = { "mkdir", linux_sys_mkdir },
	[40] = { "rmdir", linux_sys_rmdir },
	[41] = { "dup", linux_sys_dup },
	[42] = { "pipe", linux_sys_pipe },
	[45] = { "brk", linux_sys_brk },
	[54] = { "ioctl", linux_sys_ioctl },
	[60] = { "umask", linux_sys_umask },
	[63] = { "dup2", linux_sys_dup2 },
	[64] = { "getppid", linux_sys_getppid },
	[78] = { "gettimeofday", linux_sys_gettimeofday },
	[83] = { "symlink", linux_sys_symlink },
	[85] = { "readlink", linux_sys_readlink },
	[91] = { "munmap", linux_sys_munmap },
	[114] = { "wait4", linux_sys_wait4 },
	[118] = { "fsync", linux_sys_fsync },
	[120] = { "clone", linux_sys_clone },
	[122] = { "uname", linux_sys_uname },
	[125] = { "mprotect", linux_sys_mprotect },
	[140] = { "_llseek", linux_sys_llseek },
	[116] = { "sysinfo", linux_sys_sysinfo },
	[119] = { "sigreturn", linux_sys_sigreturn },
	[146] = { "writev", linux_sys_writev },
	[168] = { "poll", linux_sys_poll },
	[172] = { "prctl", linux_sys_prctl },
	[173] = { "rt_sigreturn", linux_sys_rt_sigreturn },
	[174] = { "rt_sigaction", linux_sys_rt_sigaction },
	[175] = { "rt_sigprocmask", linux_sys_rt_sigprocmask },
	[183] = { "getcwd", linux_sys_getcwd },
	[190] = { "vfork", linux_sys_vfork },
	[191] = { "ugetrlimit", linux_sys_ugetrlimit },
	[192] = { "mmap2", linux_sys_mmap2 },
	[193] = { "truncate64", linux_sys_truncate64 },
	[194] = { "ftruncate64", linux_sys_ftruncate64 },
	[195] = { "stat64", linux_sys_stat64 },
	[196] = { "lstat64", linux_sys_lstat64 },
	[197] = { "fstat64", linux_sys_fstat64 },
	[199] = { "getuid32", linux_sys_getuid },
	[200] = { "getgid32", linux_sys_getgid },
	[201] = { "geteuid32", linux_sys_geteuid },
	[202] = { "getegid32", linux_sys_getegid },
	[220] = { "getdents64", linux_sys_getdents64 },
	[221] = { "fcntl64", linux_sys_fcntl64 },
	[224] = { "gettid", linux_sys_getpid },	/* one thread: its id is the pid */
	[238] = { "tkill", linux_sys_tkill },
	[243] = { "set_thread_area", linux_sys_set_thread_area },
	[252] = { "exit_group", linux_sys_exit },
	[258] = { "set_tid_address", linux_sys_set_tid_address },
	[265] = { "clock_gettime", linux_sys_clock_gettime },
	[270] = { "tgkill", linux_sys_tgkill },
	[295] = { "openat", linux_sys_openat },
	[311] = { "set_robust_list", linux_sys_set_robust_list },
	[330] = { "dup3", linux_sys_dup3 },
	[331] = { "pipe2", linux_sys_pipe2 },
	[355] = { "getrandom", linux_sys_getrandom },
	[383] = { "statx", linux_sys_statx },
	[386] = { "rseq", linux_sys_rseq },
	[403] = { "clock_gettime64", linux_sys_clock_gettime64 },
	[435] = { "clone3", linux_sys_clone3 },
};

/* Run one of our own system calls (sys/syscall.h number) for a Linux one. */
int
linux_bsdcall(struct proc *p, int code, void *args, int *rval)
{
	return sysent[code].sy_call(p, args, rval);
}

void
linux_syscall(struct proc *p, struct trapframe *tf)
{
	u_int32_t code = tf->tf_eax;
	u_int32_t args[6] = { tf->tf_ebx, tf->tf_ecx, tf->tf_edx,
	    tf->tf_esi, tf->tf_edi, tf->tf_ebp };
	int rval[2] = { 0, 0 }, error;

	if (code >= LINUX_NSYSCALL || linux_sysent[code].fn == NULL) {
		if (code < LINUX_NSYSCALL && linux_nosys_count[code]++ == 0)
			printf("linux: pid %d (%s): system call %u is not "
			    "supported: ENOSYS\n", p->p_pid, p->p_comm, code);
		tf->tf_eax = -linux_errno(ENOSYS);
		return;
	}
	error = linux_sysent[code].fn(p, args, rval);
	switch (error) {
	case 0:
		tf->tf_eax = rval[0];
		break;
	case ERESTART:
		tf->tf_eip -= 2;		/* run "int $0x80" again */
		break;
	case EJUSTRETURN:			/* exec set the registers */
		break;
	default:
		tf->tf_eax = -linux_errno(error);
		break;
	}
}
