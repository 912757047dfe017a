/*
 * linuxraw: the Linux layer's edges, checked through raw "int $0x80"
 * system calls (a Linux program: glibc, "gcc -m32 -static" on the host).
 * glibc's wrappers would hide the raw answer, and some checks change or
 * clear the %gs segment glibc keeps its thread pointer in: those run in a
 * child that makes only raw calls and leaves by a raw exit.
 *
 *	linuxraw [-d dir] [section ...]
 *
 * Sections (all of them without one):
 *	openat	openat and statx with bad directory descriptors: EBADF, ENOTDIR
 *	tls	set_thread_area: segments that reach past user space, not
 *		present, clearing the one %gs holds; glibc's own still works
 *	mprotect  outside user space, unaligned, unmapped, bad protections
 *	clone	fork's form (glibc's fork(), CLONE_CHILD_SETTID...), vfork's
 *		(CLONE_VM|CLONE_VFORK, vfork(); system() and popen() on
 *		them); the thread forms refused cleanly
 *	writev	an unreadable iovec array or lengths past SSIZE_MAX: nothing
 *		written; a bad buffer after a good one: the partial count
 *	dup3	with and without O_CLOEXEC, its EINVALs; glibc's freopen
 *	signals	rt_sigaction's EINVALs; handlers on both of Linux's frames
 *		(glibc's restorers), the mask inside and after, blocking,
 *		signal numbers in kill and in wait's status; a forged
 *		sigreturn frame kills only its process
 *	term	the terminal's ioctls (TCGETS/TCSETS round trip, the window
 *		size, ENOTTY elsewhere), poll, pipe2, getcwd, prctl, uname
 *	nosys	(not in "all") unknown calls: ENOSYS, and one console line
 *	full	(not in "all") dir is on a full file system: write, writev
 *		and stdio's fwrite/fclose all say ENOSPC
 *
 * Prints one line per check, "(linuxraw) what: ok" or "(linuxraw) what:
 * FAILED: got ...", and last "N passed, M failed".
 */
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

static int passed, failed;
static char page[4096] __attribute__((aligned(4096)));

/* A raw system call: the value, or -errno, as the kernel put it in %eax. */
static long
sys(long nr, long a, long b, long c, long d, long e)
{
	long r;

	__asm volatile("int $0x80" : "=a"(r)
	    : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e) : "memory");
	return r;
}

static void __attribute__((noreturn))
rawexit(int code)
{
	sys(NR_exit, code, 0, 0, 0, 0);
	for (;;)
		continue;
}

/* The word at %gs:0 (glibc: the thread control block's own address). */
static unsigned
gs0(void)
{
	unsigned v;

	__asm volatile("movl %%gs:0, %0" : "=r"(v));
	return v;
}

static void
check(const char *what, int ok, long got)
{
	if (ok) {
		printf("(linuxraw) %s: ok\n", what);
		passed++;
	} else {
		printf("(linuxraw) %s: FAILED: got %ld\n", what, got);
		failed++;
	}
	fflush(stdout);
}

/* Check that a raw call answered exactly want (a value or -errno). */
static void
expect(const char *what, long got, long want)
{
	check(what, got == want, got);
}

/*
 * Run body in a child made by the raw fork call, which must leave by
 * rawexit(); return its wait status (or -1 when fork failed).
 */
static int
inchild(int (*body)(void *), void *arg)
{
	long pid = sys(NR_fork, 0, 0, 0, 0, 0);
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0)
		rawexit(body(arg));
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

/* --- openat -------------------------------------------------------------- */

static void
t_openat(const char *dir)
{
	char path[512];
	long fd, r;
	unsigned char sx[256];

	snprintf(path, sizeof(path), "%s/linuxraw.f", dir);
	fd = sys(NR_openat, AT_FDCWD, (long)path, O_RDWR | O_CREAT | O_TRUNC,
	    0644, 0);
	check("openat AT_FDCWD, creating a file", fd >= 0, fd);
	expect("openat, relative path, descriptor 99 not open: EBADF",
	    sys(NR_openat, 99, (long)"linuxraw.x", O_RDONLY, 0, 0), -EBADF);
	expect("openat, relative path, descriptor -2: EBADF",
	    sys(NR_openat, -2, (long)"linuxraw.x", O_RDONLY, 0, 0), -EBADF);
	expect("openat, relative path, descriptor 4096: EBADF",
	    sys(NR_openat, 4096, (long)"x", O_RDONLY, 0, 0), -EBADF);
	expect("openat, relative path, a file's descriptor: ENOTDIR",
	    sys(NR_openat, fd, (long)"linuxraw.x", O_RDONLY, 0, 0), -ENOTDIR);
	expect("openat O_CREAT, descriptor 99: EBADF, nothing created",
	    sys(NR_openat, 99, (long)"linuxraw.new", O_WRONLY | O_CREAT, 0644,
	    0), -EBADF);
	check("... and no linuxraw.new appeared",
	    access("linuxraw.new", F_OK) < 0, errno);
	r = sys(NR_openat, 99, (long)"/etc/passwd", O_RDONLY, 0, 0);
	check("openat, absolute path, descriptor 99: the descriptor is ignored",
	    r >= 0, r);
	if (r >= 0)
		close(r);
	expect("statx, relative path, descriptor 99: EBADF",
	    sys(NR_statx, 99, (long)"linuxraw.x", 0, 0x7ff, (long)sx), -EBADF);
	expect("statx, relative path, a file's descriptor: ENOTDIR",
	    sys(NR_statx, fd, (long)"linuxraw.x", 0, 0x7ff, (long)sx),
	    -ENOTDIR);
	expect("openat, a path at a kernel address: EFAULT",
	    sys(NR_openat, 99, KERNADDR, O_RDONLY, 0, 0), -EFAULT);
	close(fd);
	unlink(path);
}

/* --- set_thread_area ----------------------------------------------------- */

static long
sta(unsigned entry, unsigned base, unsigned limit, unsigned flags)
{
	struct user_desc ud = { entry, base, limit, flags };

	return sys(NR_set_thread_area, (long)&ud, 0, 0, 0, 0);
}

/*
 * set_thread_area in a child, so that a segment the kernel wrongly takes
 * is a FAILED line and not this process's broken %gs: its answer, as 0 or
 * -errno (-255: another answer).
 */
static int
c_sta(void *arg)
{
	const struct user_desc *u = arg;
	long r = sta(u->entry_number, u->base_addr, u->limit, u->flags);

	return r == 0 ? 0 : r < 0 && r > -255 ? -r : 255;
}

static long
sta_child(unsigned entry, unsigned base, unsigned limit, unsigned flags)
{
	struct user_desc ud = { entry, base, limit, flags };
	int st = inchild(c_sta, &ud);

	if (st == -1 || !WIFEXITED(st))
		return -1000;
	return -(long)WEXITSTATUS(st);
}

/* A segment of the 4 KB at arg, then %gs:0 must read its first word. */
static int
c_small_segment(void *arg)
{
	unsigned *w = arg;

	if (sta(TLS_ENTRY, (unsigned)w, 0xfff, UD_SEG32) != 0)
		return 1;
	return gs0() == w[0] ? 0 : 2;
}

/* Clear the slot %gs holds, then use %gs: the process is signalled, the
 * kernel lives. */
static int
c_clear_then_use(void *arg)
{
	(void)arg;
	if (sta(TLS_ENTRY, 0, 0, UD_RDONLY | UD_NOTPRESENT) != 0)
		return 1;
	return gs0() == 0 ? 2 : 3;	/* not reached */
}

static void
t_tls(void)
{
	unsigned tcb = gs0();
	struct user_desc ud;
	int st;

	expect("set_thread_area, base at the kernel: EINVAL",
	    sta_child(TLS_ENTRY, KERNADDR, 0xfff, UD_SEG32), -EINVAL);
	expect("set_thread_area, 8 KB from the last user page: EINVAL",
	    sta_child(TLS_ENTRY, USEREND - 4096, 0x1fff, UD_SEG32), -EINVAL);
	expect("set_thread_area, 257 pages from 1 MB below the end: EINVAL",
	    sta_child(TLS_ENTRY, USEREND - 0x100000, 0x100,
	    UD_SEG32 | UD_PAGES), -EINVAL);
	expect("set_thread_area, 4 GB from a kernel base: EINVAL",
	    sta_child(TLS_ENTRY, 0xfffff000u, 0xfffff, UD_SEG32 | UD_PAGES),
	    -EINVAL);
	expect("set_thread_area, a segment not present: EINVAL",
	    sta_child(TLS_ENTRY, (unsigned)page, 0xfff,
	    UD_SEG32 | UD_NOTPRESENT), -EINVAL);
	expect("set_thread_area, another GDT slot: EINVAL",
	    sta_child(12, (unsigned)page, 0xfff, UD_SEG32), -EINVAL);
	expect("set_thread_area, the descriptor at a kernel address: EFAULT",
	    sys(NR_set_thread_area, KERNADDR, 0, 0, 0, 0), -EFAULT);

	expect("child: a segment ending at the last user byte: 0",
	    sta_child(TLS_ENTRY, USEREND - 4096, 0xfff, UD_SEG32), 0);
	expect("child: clearing the slot %gs holds, then back to user mode: 0",
	    sta_child(TLS_ENTRY, 0, 0, UD_RDONLY | UD_NOTPRESENT), 0);
	expect("child: clearing it with an all-zero descriptor: 0",
	    sta_child(TLS_ENTRY, 0, 0, 0), 0);
	page[0] = 'L';
	st = inchild(c_small_segment, page);
	check("child: a 4 KB segment in user space, %gs:0 reads it",
	    st == 0, st);
	st = inchild(c_clear_then_use, NULL);
	check("child: a %gs access after clearing: a signal, not a panic",
	    st != -1 && WIFSIGNALED(st), st);

	ud = (struct user_desc){ -1, tcb, 0xfffff,
	    UD_SEG32 | UD_PAGES | UD_USEABLE };
	expect("set_thread_area, glibc's own (4 GB from the TCB) again: 0",
	    sys(NR_set_thread_area, (long)&ud, 0, 0, 0, 0), 0);
	check("... in slot 6, and %gs:0 still the TCB",
	    ud.entry_number == TLS_ENTRY && gs0() == tcb, gs0());
}

/* --- mprotect ------------------------------------------------------------ */

static void
t_mprotect(void)
{
	expect("mprotect of a kernel page: ENOMEM",
	    sys(NR_mprotect, KERNADDR, 4096, PROT_READ, 0, 0), -ENOMEM);
	expect("mprotect of 8 KB from the last user page: ENOMEM",
	    sys(NR_mprotect, USEREND - 4096, 8192, PROT_READ, 0, 0), -ENOMEM);
	expect("mprotect of a range that wraps past 4 GB: ENOMEM",
	    sys(NR_mprotect, 0xfffff000u, 8192, PROT_READ, 0, 0), -ENOMEM);
	expect("mprotect of an unmapped user page: ENOMEM",
	    sys(NR_mprotect, 0x40000000, 4096, PROT_READ, 0, 0), -ENOMEM);
	expect("mprotect of an unaligned address: EINVAL",
	    sys(NR_mprotect, (long)page + 1, 4096, PROT_READ, 0, 0), -EINVAL);
	expect("mprotect with an unknown protection bit: EINVAL",
	    sys(NR_mprotect, (long)page, 4096, 0x100, 0, 0), -EINVAL);
	expect("mprotect of nothing (length 0) at a kernel address: 0",
	    sys(NR_mprotect, KERNADDR, 0, PROT_READ, 0, 0), 0);
	expect("mprotect of the program's own data page: 0",
	    sys(NR_mprotect, (long)page, 4096, PROT_READ | PROT_WRITE, 0, 0),
	    0);
	page[1] = 'w';
	check("... which is still writable", page[1] == 'w', 0);
}

/* --- clone --------------------------------------------------------------- */

/* Reap one child; its exit status, or -1 for anything else. */
static int
reap(long pid)
{
	int st;

	if (pid <= 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static volatile int vfork_marker;	/* a vfork child's store */

/*
 * clone(CLONE_VM|CLONE_VFORK|SIGCHLD) onto stack; the child, in our
 * memory, sets vfork_marker to 1 and exits 3 without touching a stack
 * (it has one with nothing on it).  Returns what the parent got.
 */
static long
vfork_on(char *stack)
{
	long r;

	__asm volatile("int $0x80\n\t"
	    "testl %%eax, %%eax\n\t"
	    "jnz 1f\n\t"
	    "movl $1, vfork_marker\n\t"
	    "movl $1, %%eax\n\t"		/* exit(3) */
	    "movl $3, %%ebx\n\t"
	    "int $0x80\n"
	    "1:"
	    : "=a"(r)
	    : "a"(NR_clone), "b"(CLONE_VM | CLONE_VFORK | SIGCHLD), "c"(stack),
	      "d"(0), "S"(0), "D"(0)
	    : "memory");
	return r;
}

static void
t_clone(void)
{
	volatile int ctid = -1, ptid = -1;
	long pid, me = getpid(), r;
	char *stack = malloc(16384), line[64];
	FILE *f;
	int st;

	pid = fork();
	if (pid == 0)
		_exit(getpid() != me && getppid() == me ? 7 : 8);
	st = reap(pid);
	check("glibc fork(): the child runs and exits 7", st == 7,
	    pid < 0 ? -errno : st);

	pid = sys(NR_clone, SIGCHLD, 0, 0, 0, 0);
	if (pid == 0)
		rawexit(sys(NR_getpid, 0, 0, 0, 0, 0) != me ? 0 : 1);
	st = reap(pid);
	check("clone(SIGCHLD): fork", st == 0, pid < 0 ? pid : st);

	pid = sys(NR_clone, SIGCHLD | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID,
	    0, 0, 0, (long)&ctid);
	if (pid == 0)
		rawexit(ctid == sys(NR_getpid, 0, 0, 0, 0, 0) ? 0 : 1);
	st = reap(pid);
	check("clone(SIGCHLD|CHILD_SETTID|CHILD_CLEARTID): the child's id is "
	    "in the child's memory", st == 0, pid < 0 ? pid : st);
	check("... and not in the parent's", ctid == -1, ctid);

	pid = sys(NR_clone, SIGCHLD | CLONE_PARENT_SETTID, 0, (long)&ptid, 0,
	    0);
	if (pid == 0)
		rawexit(0);
	check("clone(SIGCHLD|PARENT_SETTID): the child's id in the parent's "
	    "memory",
	    pid > 0 && ptid == pid, pid < 0 ? pid : ptid);
	reap(pid);

	pid = sys(NR_clone, SIGCHLD | CLONE_CHILD_SETTID, 0, 0, 0, KERNADDR);
	if (pid == 0)
		rawexit(0);
	st = reap(pid);
	check("clone(SIGCHLD|CHILD_SETTID) at a kernel address: a child, "
	    "nothing stored", st == 0, pid < 0 ? pid : st);

	pid = sys(NR_clone, SIGCHLD | CLONE_CHILD_SETTID, 0, 0, 0, 0x40000000);
	if (pid == 0)
		rawexit(0);
	st = reap(pid);
	check("clone(SIGCHLD|CHILD_SETTID) at an unmapped address: the same",
	    st == 0, pid < 0 ? pid : st);

	r = sys(NR_clone, CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
	    CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID |
	    CLONE_CHILD_CLEARTID, (long)(stack + 16384), (long)&ptid, 0,
	    (long)&ctid);
	if (r == 0)
		rawexit(0);
	check("clone, pthread_create's flags: ENOSYS or EINVAL",
	    r == -ENOSYS || r == -EINVAL, r);
	vfork_marker = 0;
	r = vfork_on(stack + 16384);
	check("clone, posix_spawn's CLONE_VM|CLONE_VFORK: the child ran in "
	    "our memory first", r > 0 && vfork_marker == 1, r);
	st = r > 0 ? reap(r) : -1;
	check("... and exited 3", st == 3, st);
	vfork_marker = 0;
	if ((pid = vfork()) == 0) {
		vfork_marker = 2;
		_exit(4);
	}
	check("glibc vfork(): the child ran in our memory first",
	    pid > 0 && vfork_marker == 2, pid);
	st = pid > 0 ? reap(pid) : -1;
	check("... and exited 4", st == 4, st);
	r = sys(NR_clone, CLONE_VM | SIGCHLD, (long)(stack + 16384), 0, 0, 0);
	if (r == 0)
		rawexit(0);
	check("clone, CLONE_VM without CLONE_VFORK: ENOSYS or EINVAL",
	    r == -ENOSYS || r == -EINVAL, r);
	st = system("exit 5");
	check("glibc system() (posix_spawn): the shell's status",
	    WIFEXITED(st) && WEXITSTATUS(st) == 5, st);
	f = popen("echo through popen", "r");
	check("glibc popen(): the command's output", f != NULL &&
	    fgets(line, sizeof(line), f) != NULL &&
	    strcmp(line, "through popen\n") == 0, errno);
	if (f != NULL)
		check("... pclose: its status", pclose(f) == 0, 0);
	r = sys(NR_clone, SIGUSR1, 0, 0, 0, 0);
	if (r == 0)
		rawexit(0);
	check("clone with SIGUSR1 at exit: ENOSYS or EINVAL",
	    r == -ENOSYS || r == -EINVAL, r);
	r = sys(NR_clone, SIGCHLD, (long)(stack + 16384), 0, 0, 0);
	if (r == 0)
		rawexit(0);
	check("clone(SIGCHLD) on a new stack: ENOSYS or EINVAL",
	    r == -ENOSYS || r == -EINVAL, r);
	expect("no child left behind by the refused forms: ECHILD",
	    sys(NR_wait4, -1, 0, WNOHANG, 0, 0), -ECHILD);
	free(stack);
}

/* --- writev -------------------------------------------------------------- */

struct iov { void *base; unsigned len; };

static long
filesize(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static void
t_writev(const char *dir)
{
	char path[512];
	struct iov *v, two[2];
	char *m;
	long fd;

	snprintf(path, sizeof(path), "%s/linuxraw.v", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	check("open a scratch file", fd >= 0, errno);

	/* Three iovecs whose third lies in an unmapped page. */
	m = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check("mmap 8 KB, munmap its second page", m != MAP_FAILED &&
	    munmap(m + 4096, 4096) == 0, errno);
	v = (struct iov *)(m + 4096 - 2 * sizeof(*v));
	v[0] = (struct iov){ "hello", 5 };
	v[1] = (struct iov){ "world!", 6 };
	expect("writev, the third iovec unreadable: EFAULT",
	    sys(NR_writev, fd, (long)v, 3, 0, 0), -EFAULT);
	expect("... and nothing was written before the EFAULT",
	    filesize(path), 0);
	v[1] = (struct iov){ "world!", 0x7ffffffe };
	expect("writev, lengths past SSIZE_MAX: EINVAL",
	    sys(NR_writev, fd, (long)v, 2, 0, 0), -EINVAL);
	expect("... and nothing was written before the EINVAL",
	    filesize(path), 0);
	two[0] = (struct iov){ "hello", 5 };
	two[1] = (struct iov){ (void *)0x40000000, 6 };
	expect("writev, the second buffer unmapped: 5 (what was written)",
	    sys(NR_writev, fd, (long)two, 2, 0, 0), 5);
	two[1] = (struct iov){ "world!", 6 };
	expect("writev of two good buffers: 11",
	    sys(NR_writev, fd, (long)two, 2, 0, 0), 11);
	expect("... the file holds 16 bytes", filesize(path), 16);
	expect("writev of 1025 iovecs: EINVAL",
	    sys(NR_writev, fd, (long)two, 1025, 0, 0), -EINVAL);
	munmap(m, 4096);
	close(fd);
	unlink(path);
}

/* --- dup3 ---------------------------------------------------------------- */

static void
t_dup3(const char *dir)
{
	char path[512], buf[16];
	FILE *f;
	long fd = open("/etc/passwd", O_RDONLY);

	expect("dup3 to 10 with O_CLOEXEC: 10",
	    sys(NR_dup3, fd, 10, O_CLOEXEC, 0, 0), 10);
	check("... close-on-exec set", fcntl(10, F_GETFD) == FD_CLOEXEC, errno);
	expect("dup3 to 10 again, no flags: 10",
	    sys(NR_dup3, fd, 10, 0, 0, 0), 10);
	check("... close-on-exec clear", fcntl(10, F_GETFD) == 0, errno);
	expect("dup3 to itself: EINVAL", sys(NR_dup3, fd, fd, 0, 0, 0), -EINVAL);
	expect("dup3 with an unknown flag: EINVAL",
	    sys(NR_dup3, fd, 11, O_APPEND, 0, 0), -EINVAL);
	expect("dup3 of a descriptor not open: EBADF",
	    sys(NR_dup3, 99, 11, 0, 0, 0), -EBADF);
	close(10);
	close(fd);
	snprintf(path, sizeof(path), "%s/linuxraw.fr", dir);
	fd = dup(1);			/* the console, for afterwards */
	f = freopen(path, "w", stdout);
	if (f != NULL) {
		printf("through stdout\n");
		fflush(stdout);
		dup2(fd, 1);
	}
	close(fd);
	check("freopen of stdout (dup3 under it)", f != NULL, errno);
	f = fopen(path, "r");
	check("... and what was printed is in the file", f != NULL &&
	    fgets(buf, sizeof(buf), f) != NULL &&
	    strcmp(buf, "through stdout\n") == 0, errno);
	if (f != NULL)
		fclose(f);
	unlink(path);
}

/* --- signals ------------------------------------------------------------- */

static volatile int caught, caught_info, info_signo, masked_inside;

static void
on_signal(int sig)
{
	sigset_t now;

	caught = sig;
	sigprocmask(SIG_BLOCK, NULL, &now);
	masked_inside = sigismember(&now, sig);
}

static void
on_siginfo(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	caught_info = sig;
	info_signo = si->si_signo;
}

/* A sigreturn with no frame under it: the child dies of SIGSEGV. */
static int
c_forged_sigreturn(void *arg)
{
	(void)arg;
	__asm volatile("movl $0xbfff0000, %%esp; movl $119, %%eax; int $0x80"
	    ::: "memory");
	return 0;
}

static void
t_signals(void)
{
	struct sigaction sa, old;
	sigset_t set, now;
	unsigned long long kset[2] = { 0, 0 };
	int status;
	pid_t pid;

	expect("rt_sigaction with a 4-byte set: EINVAL",
	    sys(NR_rt_sigaction, SIGUSR1, 0, (long)kset, 4, 0), -EINVAL);
	expect("rt_sigaction of signal 0: EINVAL",
	    sys(NR_rt_sigaction, 0, 0, (long)kset, 8, 0), -EINVAL);
	expect("rt_sigaction of signal 65: EINVAL",
	    sys(NR_rt_sigaction, 65, 0, (long)kset, 8, 0), -EINVAL);
	expect("rt_sigaction of SIGKILL: EINVAL",
	    sys(NR_rt_sigaction, SIGKILL, (long)kset, 0, 8, 0), -EINVAL);
	expect("rt_sigaction to an unreadable address: EFAULT",
	    sys(NR_rt_sigaction, SIGUSR1, (long)KERNADDR, 0, 8, 0), -EFAULT);
	expect("rt_sigprocmask with a bad how: EINVAL",
	    sys(NR_rt_sigprocmask, 7, (long)kset, 0, 8, 0), -EINVAL);

	signal(SIGUSR2, on_signal);
	caught = 0;
	raise(SIGUSR2);
	check("a plain handler runs (sigreturn's frame)", caught == SIGUSR2,
	    caught);
	check("... with its signal blocked inside", masked_inside == 1,
	    masked_inside);
	sigprocmask(SIG_BLOCK, NULL, &now);
	check("... and unblocked after", !sigismember(&now, SIGUSR2), 0);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_siginfo;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	caught_info = info_signo = 0;
	kill(getpid(), SIGUSR1);
	check("an SA_SIGINFO handler runs (rt_sigreturn's frame)",
	    caught_info == SIGUSR1 && info_signo == SIGUSR1, caught_info);
	sigaction(SIGUSR1, NULL, &old);
	check("sigaction gives back the handler and its flags",
	    old.sa_sigaction == on_siginfo &&
	    (old.sa_flags & (SA_SIGINFO | SA_RESTART)) ==
	    (SA_SIGINFO | SA_RESTART), old.sa_flags);

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	caught_info = 0;
	kill(getpid(), SIGUSR1);
	check("a blocked signal waits", caught_info == 0, caught_info);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	check("... and comes when unblocked", caught_info == SIGUSR1,
	    caught_info);
	expect("tgkill of another thread group's thread: ESRCH",
	    sys(NR_tgkill, getpid(), getpid() + 1, SIGUSR1, 0, 0), -ESRCH);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);

	if ((pid = fork()) == 0) {
		kill(getpid(), SIGUSR1);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	check("a child killed by SIGUSR1: wait says SIGUSR1",
	    WIFSIGNALED(status) && WTERMSIG(status) == SIGUSR1, status);
	status = inchild(c_forged_sigreturn, NULL);
	check("sigreturn on a forged frame: SIGSEGV, the kernel lives",
	    WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, status);
}

/* --- term: the terminal's ioctls, poll, getcwd, prctl, uname ------------- */

/* The kernel's struct termios, which TCGETS fills (not glibc's). */
struct kernel_termios {
	unsigned c_iflag, c_oflag, c_cflag, c_lflag;
	unsigned char c_line, c_cc[19];
};

static void
t_term(const char *dir)
{
	struct kernel_termios t, orig, back;
	struct winsize ws, ows;
	struct pollfd pfd[2];
	struct utsname u;
	char buf[256], name[16];
	long tty = open("/dev/tty", O_RDWR), fd, r;
	int p[2];

	check("open /dev/tty", tty >= 0, errno);
	expect("TCGETS on the terminal",
	    sys(NR_ioctl, tty, TCGETS, (long)&orig, 0, 0), 0);
	check("... Linux's bits: ICANON, ECHO, ISIG, ICRNL, ONLCR",
	    (orig.c_lflag & (ICANON | ECHO | ISIG)) == (ICANON | ECHO | ISIG) &&
	    (orig.c_iflag & ICRNL) && (orig.c_oflag & (OPOST | ONLCR)) ==
	    (OPOST | ONLCR), orig.c_lflag);
	check("... Linux's indices: VINTR ^C, VERASE DEL, VEOF ^D, VMIN 1",
	    orig.c_cc[VINTR] == 3 && orig.c_cc[VERASE] == 0x7f &&
	    orig.c_cc[VEOF] == 4 && orig.c_cc[VMIN] == 1, orig.c_cc[VINTR]);
	t = orig;
	t.c_lflag &= ~(ICANON | ECHO);
	expect("TCSETS: raw", sys(NR_ioctl, tty, TCSETS, (long)&t, 0, 0), 0);
	sys(NR_ioctl, tty, TCGETS, (long)&back, 0, 0);
	check("... TCGETS says so", !(back.c_lflag & (ICANON | ECHO)) &&
	    (back.c_lflag & ISIG), back.c_lflag);
	expect("TCSETSW: back as it was",
	    sys(NR_ioctl, tty, TCSETSW, (long)&orig, 0, 0), 0);
	sys(NR_ioctl, tty, TCGETS, (long)&back, 0, 0);
	check("... every field as it was", memcmp(&back, &orig,
	    sizeof(orig)) == 0, back.c_lflag);
	sys(NR_ioctl, tty, TIOCGWINSZ, (long)&ows, 0, 0);
	ws.ws_row = 30;
	ws.ws_col = 100;
	ws.ws_xpixel = ws.ws_ypixel = 0;
	expect("TIOCSWINSZ", sys(NR_ioctl, tty, TIOCSWINSZ, (long)&ws, 0, 0), 0);
	memset(&ws, 0, sizeof(ws));
	expect("TIOCGWINSZ", sys(NR_ioctl, tty, TIOCGWINSZ, (long)&ws, 0, 0), 0);
	check("... 30 x 100", ws.ws_row == 30 && ws.ws_col == 100, ws.ws_row);
	sys(NR_ioctl, tty, TIOCSWINSZ, (long)&ows, 0, 0);
	expect("TCGETS to an unwritable address: EFAULT",
	    sys(NR_ioctl, tty, TCGETS, (long)KERNADDR, 0, 0), -EFAULT);
	expect("an unknown ioctl on the terminal: ENOTTY",
	    sys(NR_ioctl, tty, 0x541b, (long)&r, 0, 0), -ENOTTY);
	fd = open("/etc/passwd", O_RDONLY);
	expect("TCGETS on a file: ENOTTY",
	    sys(NR_ioctl, fd, TCGETS, (long)&t, 0, 0), -ENOTTY);
	close(fd);
	fd = open("/dev/null", O_RDWR);
	expect("TCGETS on /dev/null: ENOTTY",
	    sys(NR_ioctl, fd, TCGETS, (long)&t, 0, 0), -ENOTTY);
	close(fd);
	expect("TCGETS on a descriptor not open: EBADF",
	    sys(NR_ioctl, 99, TCGETS, (long)&t, 0, 0), -EBADF);

	check("pipe (glibc: pipe2)", pipe(p) == 0, errno);
	pfd[0].fd = p[0];
	pfd[0].events = POLLIN;
	pfd[1].fd = tty;
	pfd[1].events = POLLOUT;
	expect("poll: the terminal can be written, the pipe is empty",
	    sys(NR_poll, (long)pfd, 2, 50, 0, 0), 1);
	check("... revents", pfd[0].revents == 0 && pfd[1].revents == POLLOUT,
	    pfd[1].revents);
	write(p[1], "x", 1);
	expect("poll: the pipe has a byte", sys(NR_poll, (long)pfd, 1, 10000, 0,
	    0), 1);
	close(p[0]);
	close(p[1]);
	close(tty);
	expect("pipe2 with O_CLOEXEC|O_NONBLOCK",
	    sys(NR_pipe2, (long)p, O_CLOEXEC | O_NONBLOCK, 0, 0, 0), 0);
	check("... both ends close-on-exec and non-blocking",
	    fcntl(p[0], F_GETFD) == FD_CLOEXEC && fcntl(p[1], F_GETFD) ==
	    FD_CLOEXEC && (fcntl(p[0], F_GETFL) & O_NONBLOCK), errno);
	check("... an empty read: EAGAIN", read(p[0], buf, 1) == -1 &&
	    errno == EAGAIN, errno);
	close(p[0]);
	close(p[1]);
	expect("pipe2 with an unknown flag: EINVAL",
	    sys(NR_pipe2, (long)p, O_APPEND, 0, 0, 0), -EINVAL);
	expect("pipe2 to an unwritable address: EFAULT",
	    sys(NR_pipe2, (long)KERNADDR, 0, 0, 0, 0), -EFAULT);

	expect("getcwd into one byte: ERANGE",
	    sys(NR_getcwd, (long)buf, 1, 0, 0, 0), -ERANGE);
	r = sys(NR_getcwd, (long)buf, sizeof(buf), 0, 0, 0);
	check("getcwd: the directory and its length with the NUL",
	    r == (long)strlen(dir) + 1 && strcmp(buf, dir) == 0, r);
	expect("getcwd to an unwritable address: EFAULT",
	    sys(NR_getcwd, (long)KERNADDR, sizeof(buf), 0, 0, 0), -EFAULT);
	expect("prctl PR_SET_NAME",
	    sys(NR_prctl, PR_SET_NAME, (long)"rawname", 0, 0, 0), 0);
	memset(name, 0, sizeof(name));
	sys(NR_prctl, PR_GET_NAME, (long)name, 0, 0, 0);
	check("... PR_GET_NAME gives it back", strcmp(name, "rawname") == 0, 0);
	expect("prctl of an unknown option: EINVAL",
	    sys(NR_prctl, 9999, 0, 0, 0, 0), -EINVAL);
	check("uname: our machine", uname(&u) == 0 &&
	    strcmp(u.machine, "i386") == 0 && u.sysname[0] != '\0', errno);
}

/* --- nosys: calls the layer does not know -------------------------------- */

static void
t_nosys(void)
{
	expect("an unknown call (449): ENOSYS", sys(449, 0, 0, 0, 0, 0),
	    -ENOSYS);
	expect("... again: ENOSYS", sys(449, 1, 2, 3, 4, 5), -ENOSYS);
	expect("a number past the table (100000): ENOSYS",
	    sys(100000, 0, 0, 0, 0, 0), -ENOSYS);
	expect("a negative number: ENOSYS", sys(-1, 0, 0, 0, 0, 0), -ENOSYS);
}

/* --- full: dir is on a full file system ---------------------------------- */

static void
t_full(const char *dir)
{
	static char buf[65536];
	char path[512];
	struct iov v[2] = { { buf, 512 }, { buf, 512 } };
	FILE *f;
	long fd, r;
	size_t n;

	snprintf(path, sizeof(path), "%s/linuxraw.full", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	check("open a file on the full file system", fd >= 0, errno);
	while ((r = sys(NR_write, fd, (long)buf, sizeof(buf), 0, 0)) ==
	    (long)sizeof(buf))
		continue;
	expect("write 64 KB at a time until it fails: ENOSPC", r, -ENOSPC);
	while ((r = sys(NR_write, fd, (long)buf, 512, 0, 0)) == 512)
		continue;
	expect("then 512 bytes at a time: ENOSPC", r, -ENOSPC);
	expect("writev of two 512-byte buffers: ENOSPC",
	    sys(NR_writev, fd, (long)v, 2, 0, 0), -ENOSPC);
	close(fd);
	unlink(path);
	/* Fill what unlinking gave back, with stdio this time. */
	f = fopen(path, "w");
	check("fopen another", f != NULL, errno);
	if (f == NULL)
		return;
	errno = 0;
	do
		n = fwrite(buf, 1, 4000, f);
	while (n == 4000);
	check("fwrite until it fails: ENOSPC", errno == ENOSPC && ferror(f),
	    errno);
	fclose(f);
	/* A stream whose only write is fclose's flush. */
	snprintf(path + strlen(path), 8, ".2");
	f = fopen(path, "w");
	check("fopen a third", f != NULL, errno);
	if (f == NULL)
		return;
	check("fwrite 100 bytes into its buffer", fwrite(buf, 1, 100, f) == 100,
	    errno);
	errno = 0;
	check("fclose, whose flush fails: EOF, ENOSPC", fclose(f) == EOF &&
	    errno == ENOSPC, errno);
	unlink(path);
	path[strlen(path) - 2] = '\0';
	unlink(path);
}

int
main(int argc, char *argv[])
{
	static const char *all[] = { "openat", "tls", "mprotect", "clone",
	    "writev", "dup3", "signals", "term", NULL };
	const char *dir = "/tmp", **sections = all;
	int i;

	if (argc > 2 && strcmp(argv[1], "-d") == 0) {
		dir = argv[2];
		argc -= 2;
		argv += 2;
	}
	if (argc > 1)
		sections = (const char **)argv + 1;
	if (chdir(dir) != 0) {
		perror(dir);
		return 2;
	}
	for (i = 0; sections[i] != NULL; i++) {
		const char *s = sections[i];

		if (strcmp(s, "openat") == 0)
			t_openat(dir);
		else if (strcmp(s, "tls") == 0)
			t_tls();
		else if (strcmp(s, "mprotect") == 0)
			t_mprotect();
		else if (strcmp(s, "clone") == 0)
			t_clone();
		else if (strcmp(s, "writev") == 0)
			t_writev(dir);
		else if (strcmp(s, "dup3") == 0)
			t_dup3(dir);
		else if (strcmp(s, "signals") == 0)
			t_signals();
		else if (strcmp(s, "term") == 0)
			t_term(dir);
		else if (strcmp(s, "nosys") == 0)
			t_nosys();
		else if (strcmp(s, "full") == 0)
			t_full(dir);
		else {
			fprintf(stderr, "linuxraw: unknown section %s\n", s);
			return 2;
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
