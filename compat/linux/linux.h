/*
 * Linux binary compatibility for static i386 ELF programs, in the manner
 * of NetBSD's compat_linux.
 *
 * A program is a Linux one when its ELF file says so (linux_exec.c): a
 * "GNU" ABI-tag note naming the Linux OS, or the GNU/Linux OSABI byte.
 * exec gives its process emul_linux (kern/emul.h) and a Linux initial stack
 * (argc, argv, envp and the auxiliary vector glibc reads); the system
 * call trap then goes to linux_syscall() (linux_syscall.c), which takes
 * the arguments from the registers as Linux does, runs the call through
 * our own kernel functions, and returns a value or -errno in %eax.
 * Translations of flags, errno values and structures are pure functions
 * in linux_xlate.c, which the host tests compile too.
 *
 * What a terminal program needs (Debian's BusyBox vi): the terminal's
 * ioctls run as ours with struct termios translated (linux_file.c), poll
 * is ours (kern/sys_poll.c), and signals are ours with Linux's numbers,
 * sigaction and handler frames (linux_signal.c, which exec's emulation
 * hook e_sendsig calls).  Nothing here knows which program runs.
 *
 * What the kernel keeps per Linux process is in struct proc (kern/proc.h):
 * the TLS segment descriptor that set_thread_area installs in GDT slot
 * GUTLS_SEL (loaded by the scheduler for the running process), and the
 * low end of the anonymous mmap area, which grows down from the bottom of
 * the stack's reserve towards the break.
 */
#ifndef _COMPAT_LINUX_LINUX_H_
#define _COMPAT_LINUX_LINUX_H_

#include <sys/types.h>

struct proc;
struct trapframe;
struct vnode;
struct stat;

/* ELF identification */
#define LINUX_ELFOSABI		3	/* EI_OSABI of GNU/Linux */
#define LINUX_NT_GNU_ABI_TAG	1	/* note type, name "GNU" */
#define LINUX_ABI_OS_LINUX	0	/* first word of that note's data */

/* Auxiliary vector entries (Linux <elf.h>) */
#define LINUX_AT_NULL		0
#define LINUX_AT_PHDR		3
#define LINUX_AT_PHENT		4
#define LINUX_AT_PHNUM		5
#define LINUX_AT_PAGESZ		6
#define LINUX_AT_BASE		7
#define LINUX_AT_FLAGS		8
#define LINUX_AT_ENTRY		9
#define LINUX_AT_UID		11
#define LINUX_AT_EUID		12
#define LINUX_AT_GID		13
#define LINUX_AT_EGID		14
#define LINUX_AT_PLATFORM	15
#define LINUX_AT_HWCAP		16
#define LINUX_AT_CLKTCK		17
#define LINUX_AT_SECURE		23
#define LINUX_AT_RANDOM		25
#define LINUX_AT_EXECFN		31
#define LINUX_RANDOM_BYTES	16		/* AT_RANDOM's data */

/* The program image facts the auxiliary vector needs. */
/* Open flags (i386 Linux, octal as in <asm-generic/fcntl.h>) */
#define LINUX_O_ACCMODE		00000003
#define LINUX_O_CREAT		00000100
#define LINUX_O_EXCL		00000200
#define LINUX_O_NOCTTY		00000400
#define LINUX_O_TRUNC		00001000
#define LINUX_O_APPEND		00002000
#define LINUX_O_NONBLOCK	00004000
#define LINUX_O_DSYNC		00010000
#define LINUX_O_LARGEFILE	00100000
#define LINUX_O_DIRECTORY	00200000
#define LINUX_O_NOFOLLOW	00400000
#define LINUX_O_CLOEXEC		02000000
#define LINUX_O_SYNC		04010000

#define LINUX_AT_FDCWD		(-100)
#define LINUX_AT_SYMLINK_NOFOLLOW 0x100
#define LINUX_AT_EMPTY_PATH	0x1000

/* struct stat64 of i386 Linux: 96 bytes (4-byte aligned long longs) */
struct linux_stat64 {
	u_int64_t lst_dev;
	u_int32_t lst_pad0;
	u_int32_t lst_ino32;
	u_int32_t lst_mode;
	u_int32_t lst_nlink;
	u_int32_t lst_uid;
	u_int32_t lst_gid;
	u_int64_t lst_rdev;
	u_int32_t lst_pad3;
	int64_t	  lst_size;
	u_int32_t lst_blksize;
	u_int64_t lst_blocks;
	u_int32_t lst_atime, lst_atime_nsec;
	u_int32_t lst_mtime, lst_mtime_nsec;
	u_int32_t lst_ctime, lst_ctime_nsec;
	u_int64_t lst_ino;
} __attribute__((packed, aligned(4)));

struct linux_statx_timestamp {
	int64_t	  tv_sec;
	u_int32_t tv_nsec;
	int32_t	  reserved;
};

/* struct statx: 256 bytes, the same on every architecture */
struct linux_statx {
	u_int32_t stx_mask;
	u_int32_t stx_blksize;
	u_int64_t stx_attributes;
	u_int32_t stx_nlink;
	u_int32_t stx_uid;
	u_int32_t stx_gid;
	u_int16_t stx_mode;
	u_int16_t stx_spare0;
	u_int64_t stx_ino;
	u_int64_t stx_size;
	u_int64_t stx_blocks;
	u_int64_t stx_attributes_mask;
	struct linux_statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
	u_int32_t stx_rdev_major, stx_rdev_minor;
	u_int32_t stx_dev_major, stx_dev_minor;
	u_int64_t stx_mnt_id;
	u_int64_t stx_spare2;
	u_int64_t stx_spare3[12];
} __attribute__((aligned(8)));

#define LINUX_STATX_BASIC_STATS	0x000007ff	/* type .. blocks */

/* struct user_desc of set_thread_area(2) */
struct linux_user_desc {
	u_int32_t entry_number;
	u_int32_t base_addr;
	u_int32_t limit;
	u_int32_t flags;	/* seg_32bit:1 contents:2 read_exec_only:1
				   limit_in_pages:1 seg_not_present:1 useable:1 */
};

/* The terminal ioctls' struct termios (the kernel's, not glibc's: 36 bytes) */
#define LINUX_NCCS		19
struct linux_termios {
	u_int32_t c_iflag, c_oflag, c_cflag, c_lflag;
	u_int8_t  c_line;
	u_int8_t  c_cc[LINUX_NCCS];
};

/* Signals: numbers 1..31 (LINUX_NSIG - 1); a set is 64 bits, bit n-1 for n */
#define LINUX_NSIG		32
typedef u_int64_t linux_sigset_t;

/* sigaction's flags (i386) */
#define LINUX_SA_NOCLDSTOP	0x00000001
#define LINUX_SA_SIGINFO	0x00000004
#define LINUX_SA_RESTORER	0x04000000
#define LINUX_SA_ONSTACK	0x08000000
#define LINUX_SA_RESTART	0x10000000
#define LINUX_SA_NODEFER	0x40000000
#define LINUX_SA_RESETHAND	0x80000000

/* linux_xlate.c: pure translations (kernel and host tests) */
struct termios;
void	linux_termios_from(const struct termios *, struct linux_termios *);
void	linux_termios_to(const struct linux_termios *, struct termios *);
int	linux_to_bsd_sig(int lsig);
int	bsd_to_linux_sig(int bsig);
linux_sigset_t bsd_to_linux_sigset(u_int32_t bmask);
u_int32_t linux_to_bsd_sigset(linux_sigset_t lmask);
int	linux_to_bsd_saflags(u_int32_t lflags);
u_int32_t bsd_to_linux_saflags(int bflags);
int	linux_wstatus(int bsd_status);
/* An ioctl: ours, and how its argument differs (LINUX_IOC_*); 0: unknown. */
#define LINUX_IOC_SAME		1	/* the same bytes (int, struct winsize) */
#define LINUX_IOC_GETTERMIOS	2	/* ours out, as struct linux_termios */
#define LINUX_IOC_SETTERMIOS	3	/* struct linux_termios in, as ours */
int	linux_ioctl_cmd(u_int32_t lcmd, u_long *bcmd);

/* linux_signal.c */
void	linux_sendsig(struct proc *, int sig, u_int32_t mask, u_int32_t code);
int	linux_errno(int bsd_errno);
int	linux_to_bsd_oflags(int lflags);
int	bsd_to_linux_oflags(int bflags);
void	linux_stat64_from(const struct stat *, struct linux_stat64 *);
void	linux_statx_from(const struct stat *, struct linux_statx *);
int	linux_tls_descriptor(const struct linux_user_desc *, u_int32_t userend,
	    u_int32_t desc[2]);
int	linux_note_is_linux(const unsigned char *notes, u_int32_t len);

/* linux_exec.c */
int	linux_elf_probe(struct vnode *vp, const void *ehdr);
struct emul;
struct execimage;
extern const struct emul emul_linux;
int	linux_auxv(const struct execimage *, u_int32_t randomva,
	    u_int32_t execfnva, u_int32_t *auxv);

/* linux_syscall.c */
void	linux_syscall(struct proc *, struct trapframe *);
extern u_int32_t linux_nosys_count[];	/* unsupported calls, by number */

#endif
