/*
 * linuxraw.h: what the sections of linuxraw share (main.c has the list of
 * sections): Linux i386 system-call numbers and flags, the raw call, and
 * the checks that count what passed.
 */
#ifndef LINUXRAW_H
#define LINUXRAW_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <poll.h>
#include <termios.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Linux i386 system-call numbers (arch/x86/entry/syscalls/syscall_32.tbl) */
#define NR_exit			1
#define NR_fork			2
#define NR_write		4
#define NR_getpid		20
#define NR_wait4		114
#define NR_clone		120
#define NR_mprotect		125
#define NR_writev		146
#define NR_set_thread_area	243
#define NR_openat		295
#define NR_dup3			330
#define NR_statx		383
#define NR_ioctl		54
#define NR_sigreturn		119
#define NR_poll			168
#define NR_prctl		172
#define NR_rt_sigaction		174
#define NR_rt_sigprocmask	175
#define NR_getcwd		183
#define NR_tgkill		270
#define NR_pipe2		331

#define CLONE_VM		0x00000100
#define CLONE_FS		0x00000200
#define CLONE_FILES		0x00000400
#define CLONE_SIGHAND		0x00000800
#define CLONE_VFORK		0x00004000
#define CLONE_THREAD		0x00010000
#define CLONE_SYSVSEM		0x00040000
#define CLONE_SETTLS		0x00080000
#define CLONE_PARENT_SETTID	0x00100000
#define CLONE_CHILD_CLEARTID	0x00200000
#define CLONE_CHILD_SETTID	0x01000000

#define KERNADDR		0xC0000000u	/* the kernel's first address */
#define USEREND			0xBFC00000u	/* user space ends here */
#define TLS_ENTRY		6		/* the kernel's TLS GDT slot */

/* struct user_desc's flags */
#define UD_SEG32		0x01
#define UD_RDONLY		0x08
#define UD_PAGES		0x10
#define UD_NOTPRESENT		0x20
#define UD_USEABLE		0x40

struct user_desc {
	unsigned entry_number, base_addr, limit, flags;
};
long	sys(long nr, long a, long b, long c, long d, long e);
void	rawexit(int code) __attribute__((noreturn));
unsigned gs0(void);
void	check(const char *what, int ok, long got);
void	expect(const char *what, long got, long want);
int	inchild(int (*body)(void *), void *arg);

/* The sections, one file each but for the small ones. */
void	t_openat(const char *dir);	/* io.c */
void	t_writev(const char *dir);
void	t_dup3(const char *dir);
void	t_full(const char *dir);
void	t_tls(void);			/* mem.c */
void	t_mprotect(void);
void	t_clone(void);			/* clone.c */
void	t_signals(void);		/* signals.c */
void	t_term(const char *dir);	/* term.c */
void	t_nosys(void);

#endif
