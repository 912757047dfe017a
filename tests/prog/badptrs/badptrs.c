/*
 * badptrs: every system call that takes a pointer or a descriptor, given
 * bad ones.  Each must fail with EFAULT or EBADF and leave the kernel
 * running: a kernel that dereferences a user pointer without copyin or
 * copyout panics here instead.  One line per check, "(badptrs) what: ok"
 * or "... FAILED: why", and a last line "N passed, M failed"; the exit
 * status is 0 only if nothing failed.
 *
 *	usage: badptrs [-d dir]	(dir: a writable scratch directory, /tmp)
 *
 * The bad pointers:
 *	NULL		page 0, never mapped
 *	kernel		0xC0000000 and 0xFFFFF000, kernel space
 *	unmapped	0x7FFF0000, a user address between heap and stack
 *	run-off		a string whose last byte is the last byte of the heap,
 *			with no NUL before the unmapped page after it
 *	straddle	a buffer that starts two bytes before the end of the
 *			heap and runs past it
 *	text		the program's text, mapped read-only (for calls that
 *			write through the pointer)
 * The heap is grown by sbrk to end on a page boundary; stdout has a
 * static buffer, so nothing else moves the break afterwards.
 */
#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/lib/check.h"

#define PAGE		4096u
#define CLOSEDFD	40	/* a descriptor we make sure is closed */
#define MAXFD		64	/* NOFILE: the first impossible descriptor */

static char dir[256] = "/tmp";
static char *heapend;		/* the break: the first unmapped byte */
static char outbuf[BUFSIZ];	/* where calls may write when they fail */
static char stdiobuf[BUFSIZ];	/* stdout's: stdio must not call malloc */
static unsigned char text[64];	/* the text page's first bytes, to compare */
static char *self;

struct bad {
	const char *name;
	void	*p;
};

/* The pointer sets; the heap ones are filled in by setup(). */
static struct bad paths[] = {
	{ "NULL", NULL }, { "kernel", (void *)0xC0000000 },
	{ "top of memory", (void *)0xFFFFF000 },
	{ "unmapped", (void *)0x7FFF0000 }, { "run-off string", NULL },
};
static struct bad inbufs[] = {
	{ "NULL", NULL }, { "kernel", (void *)0xC0000000 },
	{ "top of memory", (void *)0xFFFFF000 },
	{ "unmapped", (void *)0x7FFF0000 }, { "straddling", NULL },
};
static struct bad outbufs[] = {
	{ "NULL", NULL }, { "kernel", (void *)0xC0000000 },
	{ "top of memory", (void *)0xFFFFF000 },
	{ "unmapped", (void *)0x7FFF0000 }, { "straddling", NULL },
	{ "read-only text", NULL },
};
#define NBAD(a)	(int)(sizeof(a) / sizeof(a[0]))

static char *
path(const char *name)
{
	static char buf[4][512];
	static int n;

	n = (n + 1) % 4;
	snprintf(buf[n], sizeof(buf[n]), "%s/%s", dir, name);
	return buf[n];
}

/* Calls fn with each bad pointer in set; every call must fail: EFAULT. */
static void
efault(const char *call, int (*fn)(void *), struct bad *set, int n)
{
	char what[128];
	int i, rv;

	for (i = 0; i < n; i++) {
		snprintf(what, sizeof(what), "%s, %s pointer: EFAULT", call,
		    set[i].name);
		errno = 0;
		rv = fn(set[i].p);
		check(rv == -1 && errno == EFAULT, what, "returned %d, "
		    "errno %d (%s)", rv, errno, strerror(errno));
	}
}

static int datafd, dirfd_, consfd;	/* a file with data, /, the console */

/* One function per call; P is the bad pointer under test. */
#define CALL(name, expr) static int name(void *P) { return (expr); }
CALL(c_open, open(P, O_RDONLY))
CALL(c_creat, open(P, O_CREAT | O_WRONLY, 0644))
CALL(c_stat, stat(P, (struct stat *)outbuf))
CALL(c_lstat, lstat(P, (struct stat *)outbuf))
CALL(c_access, access(P, F_OK))
CALL(c_chdir, chdir(P))
CALL(c_mkdir, mkdir(P, 0755))
CALL(c_rmdir, rmdir(P))
CALL(c_unlink, unlink(P))
CALL(c_chmod, chmod(P, 0644))
CALL(c_chown, chown(P, 0, 0))
CALL(c_truncate, truncate(P, 0))
CALL(c_mknod, mknod(P, S_IFCHR | 0600, 0))
CALL(c_utimes_path, utimes(P, NULL))
CALL(c_link_from, link(P, path("newlink")))
CALL(c_link_to, link(path("data"), P))
CALL(c_symlink_target, symlink(P, path("newsym")))
CALL(c_symlink_name, symlink("data", P))
CALL(c_rename_from, rename(P, path("newname")))
CALL(c_rename_to, rename(path("data"), P))
CALL(c_readlink_path, readlink(P, outbuf, 64))
CALL(c_statfs_path, statfs(P, (struct statfs *)outbuf))
CALL(c_unmount, unmount(P, 0))
CALL(c_mount_type, mount(P, "/mnt", 0, NULL))
CALL(c_mount_path, mount("ffs", P, 0, NULL))
CALL(c_exec_path, execve(P, NULL, NULL))
CALL(c_write, (lseek(datafd, 0, SEEK_END), write(datafd, P, 100)))
CALL(c_settimeofday, settimeofday(P, NULL))
CALL(c_setgroups, setgroups(1, P))
CALL(c_sigaction_new, sigaction(SIGUSR1, P, NULL))
CALL(c_nanosleep, nanosleep(P, NULL))
CALL(c_utimes_times, utimes(path("data"), P))
CALL(c_mount_args, mount("ffs", "/mnt", 0, P))
CALL(c_ioctl_in, ioctl(consfd, TIOCSPGRP, P))
CALL(c_sigreturn, syscall(SYS_sigreturn, P))
CALL(c_read, (lseek(datafd, 0, SEEK_SET), read(datafd, P, 100)))
CALL(c_fstat, fstat(datafd, P))
CALL(c_stat_buf, stat(path("data"), P))
CALL(c_statfs_buf, statfs(dir, P))
CALL(c_fstatfs, fstatfs(datafd, P))
CALL(c_getfsstat, getfsstat(P, 4 * sizeof(struct statfs), 0))
CALL(c_readlink_buf, readlink(path("sym"), P, 64))
CALL(c_getdirentries, (lseek(dirfd_, 0, SEEK_SET),
    getdirentries(dirfd_, P, 4096, NULL)))
CALL(c_gettimeofday, gettimeofday(P, NULL))
CALL(c_gettimeofday_tz, gettimeofday((struct timeval *)outbuf, P))
CALL(c_getrusage, getrusage(RUSAGE_SELF, P))
CALL(c_getgroups, getgroups(16, P))
CALL(c_sigaction_old, sigaction(SIGUSR1, NULL, P))
CALL(c_getproc, getproc(P, 8))
CALL(c_diskstats, syscall(SYS_diskstats, 0, P, 0))
CALL(c_bufstats, syscall(SYS_bufstats, P))
CALL(c_vmstats, syscall(SYS_vmstats, P))
CALL(c_ioctl_out, ioctl(consfd, TIOCGPGRP, P))

/*
 * Bad pointers inside exec's argument vectors.  The straddling vector
 * is different: valid string pointers up to the end of the heap and no
 * NULL before it, set up here and undone after.
 */
static char **
runoff_vector(void *P)
{
	char **v = (char **)(void *)(heapend - 2 * sizeof(char *));

	if (P != heapend - 2)
		return P;
	v[0] = v[1] = "x";
	return v;
}

static int
c_exec_argv(void *P)
{
	int rv = execve(self, runoff_vector(P), NULL);

	memset(heapend - 8, 'a', 8);
	return rv;
}

static int
c_exec_argstr(void *P)
{
	char *argv[] = { self, P, NULL };

	return execve(self, argv, NULL);
}

static int
c_exec_envp(void *P)
{
	char *argv[] = { self, "-never", NULL };
	int rv = execve(self, argv, runoff_vector(P));

	memset(heapend - 8, 'a', 8);
	return rv;
}

static int
c_exec_envstr(void *P)
{
	char *argv[] = { self, "-never", NULL }, *envp[] = { "A=1", P, NULL };

	return execve(self, argv, envp);
}

/* wait4 must fail without losing the child: it can be reaped after. */
static int
c_wait4(void *P)
{
	pid_t pid = fork();
	int rv, err, status;

	if (pid == 0)
		_exit(7);
	rv = wait4(pid, P, 0, NULL);
	err = errno;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 7)
		return -2;
	errno = err;
	return rv;
}

static int
c_wait4_rusage(void *P)
{
	pid_t pid = fork();
	int rv, err, status;

	if (pid == 0)
		_exit(7);
	rv = wait4(pid, &status, 0, P);
	err = errno;
	if (waitpid(pid, &status, 0) != pid)
		return -2;
	errno = err;
	return rv;
}

/* Arguments on a bad stack: the trap's copyin of them must fail. */
static int
c_badstack(void *P)
{
	u_int32_t ret, cf, esp = (u_int32_t)P;

	__asm volatile(
	    "movl %%esp, %%edi\n\t"
	    "movl %%edx, %%esp\n\t"
	    "int $0x80\n\t"
	    "movl %%edi, %%esp\n\t"
	    "setc %%cl\n\t"
	    "movzbl %%cl, %%ecx"
	    : "=a"(ret), "=c"(cf), "+d"(esp)
	    : "0"(SYS_write)
	    : "edi", "memory", "cc");
	if (!cf)
		return ret;
	errno = ret;
	return -1;
}

/* Grow the heap to a page boundary and aim the heap pointers at its end. */
static void
setup(void)
{
	char *brk0 = sbrk(0);
	u_int32_t end = ((u_int32_t)brk0 + 2 * PAGE - 1) & ~(PAGE - 1);
	int fd;

	sbrk(end - (u_int32_t)brk0);
	heapend = sbrk(0);
	memset(heapend - 8, 'a', 8);		/* no NUL before the end */
	paths[NBAD(paths) - 1].p = heapend - 8;
	inbufs[NBAD(inbufs) - 1].p = heapend - 2;
	outbufs[NBAD(outbufs) - 2].p = heapend - 2;
	outbufs[NBAD(outbufs) - 1].p = (void *)checkline;
	memcpy(text, (void *)checkline, sizeof(text));
	fd = open(path("data"), O_CREAT | O_RDWR | O_TRUNC, 0644);
	memset(outbuf, 'd', 1000);
	write(fd, outbuf, 1000);
	close(fd);
	datafd = open(path("data"), O_RDWR);
	symlink("data", path("sym"));
	dirfd_ = open("/", O_RDONLY);
	consfd = open("/dev/console", O_RDWR);
	close(CLOSEDFD);
}

static void
test_pointers(void)
{
	struct stat st;
	gid_t g = 0;

	check(heapend == (char *)sbrk(0) && ((u_int32_t)heapend & (PAGE - 1))
	    == 0, "the heap ends on a page boundary", "break %p", heapend);
	efault("open", c_open, paths, NBAD(paths));
	efault("open O_CREAT", c_creat, paths, NBAD(paths));
	efault("stat path", c_stat, paths, NBAD(paths));
	efault("lstat path", c_lstat, paths, NBAD(paths));
	efault("access", c_access, paths, NBAD(paths));
	efault("chdir", c_chdir, paths, NBAD(paths));
	efault("mkdir", c_mkdir, paths, NBAD(paths));
	efault("rmdir", c_rmdir, paths, NBAD(paths));
	efault("unlink", c_unlink, paths, NBAD(paths));
	efault("chmod", c_chmod, paths, NBAD(paths));
	efault("chown", c_chown, paths, NBAD(paths));
	efault("truncate", c_truncate, paths, NBAD(paths));
	efault("mknod", c_mknod, paths, NBAD(paths));
	efault("utimes path", c_utimes_path, paths, NBAD(paths));
	efault("link source", c_link_from, paths, NBAD(paths));
	efault("link target", c_link_to, paths, NBAD(paths));
	efault("symlink contents", c_symlink_target, paths, NBAD(paths));
	efault("symlink name", c_symlink_name, paths, NBAD(paths));
	efault("rename source", c_rename_from, paths, NBAD(paths));
	efault("rename target", c_rename_to, paths, NBAD(paths));
	efault("readlink path", c_readlink_path, paths, NBAD(paths));
	efault("statfs path", c_statfs_path, paths, NBAD(paths));
	efault("unmount", c_unmount, paths, NBAD(paths));
	efault("mount type", c_mount_type, paths, NBAD(paths));
	efault("mount path", c_mount_path, paths, NBAD(paths));
	efault("execve path", c_exec_path, paths, NBAD(paths));
	efault("execve argv string", c_exec_argstr, paths + 1, NBAD(paths) - 1);
	efault("execve envp string", c_exec_envstr, paths + 1, NBAD(paths) - 1);

	/*
	 * Buffers the kernel reads.  Where NULL means "none" (no new time,
	 * action, times or vector) the set starts after it.
	 */
	efault("write", c_write, inbufs, NBAD(inbufs));
	fstat(datafd, &st);
	check(st.st_size == 1000, "writes that fail with EFAULT leave the "
	    "file's size alone", "size %ld after five failed 100-byte writes "
	    "at the end of a 1000-byte file", (long)st.st_size);
	efault("settimeofday", c_settimeofday, inbufs + 1, NBAD(inbufs) - 1);
	efault("setgroups", c_setgroups, inbufs, NBAD(inbufs));
	efault("sigaction new action", c_sigaction_new, inbufs + 1,
	    NBAD(inbufs) - 1);
	efault("nanosleep", c_nanosleep, inbufs, NBAD(inbufs));
	efault("utimes times", c_utimes_times, inbufs + 1, NBAD(inbufs) - 1);
	efault("mount arguments", c_mount_args, inbufs, NBAD(inbufs));
	efault("ioctl TIOCSPGRP", c_ioctl_in, inbufs, NBAD(inbufs));
	tcsetpgrp(consfd, getpgrp());	/* should a bad one have got in */
	efault("sigreturn", c_sigreturn, inbufs, NBAD(inbufs));
	efault("execve argv", c_exec_argv, inbufs + 1, NBAD(inbufs) - 1);
	efault("execve envp", c_exec_envp, inbufs + 1, NBAD(inbufs) - 1);
	efault("system call arguments on a bad stack", c_badstack, inbufs + 1,
	    NBAD(inbufs) - 1);

	/* Buffers the kernel writes; again NULL only where it is not "none". */
	setgroups(1, &g);		/* so getgroups has one to copy out */
	efault("read", c_read, outbufs, NBAD(outbufs));
	efault("fstat", c_fstat, outbufs, NBAD(outbufs));
	efault("stat buffer", c_stat_buf, outbufs, NBAD(outbufs));
	efault("statfs buffer", c_statfs_buf, outbufs, NBAD(outbufs));
	efault("fstatfs", c_fstatfs, outbufs, NBAD(outbufs));
	efault("getfsstat", c_getfsstat, outbufs + 1, NBAD(outbufs) - 1);
	efault("readlink buffer", c_readlink_buf, outbufs, NBAD(outbufs));
	efault("getdirentries", c_getdirentries, outbufs, NBAD(outbufs));
	efault("gettimeofday", c_gettimeofday, outbufs + 1, NBAD(outbufs) - 1);
	efault("gettimeofday timezone", c_gettimeofday_tz, outbufs + 1,
	    NBAD(outbufs) - 1);
	efault("getrusage", c_getrusage, outbufs, NBAD(outbufs));
	efault("getgroups", c_getgroups, outbufs, NBAD(outbufs));
	efault("sigaction old action", c_sigaction_old, outbufs + 1,
	    NBAD(outbufs) - 1);
	efault("getproc", c_getproc, outbufs + 1, NBAD(outbufs) - 1);
	efault("diskstats", c_diskstats, outbufs + 1, NBAD(outbufs) - 1);
	efault("bufstats", c_bufstats, outbufs, NBAD(outbufs));
	efault("vmstats", c_vmstats, outbufs, NBAD(outbufs));
	efault("ioctl TIOCGPGRP", c_ioctl_out, outbufs, NBAD(outbufs));
	efault("wait4 status", c_wait4, outbufs + 1, NBAD(outbufs) - 1);
	efault("wait4 rusage", c_wait4_rusage, outbufs + 1, NBAD(outbufs) - 1);
	check(memcmp(text, (void *)checkline, sizeof(text)) == 0,
	    "read-only text is unchanged", "the kernel wrote into it");
	check(brk((void *)0xC0000000) == -1 && errno == ENOMEM,
	    "break into kernel space: ENOMEM", "errno %d", errno);
}

/* One function per descriptor call; FD is the bad descriptor. */
#define FDCALL(name, expr) static int name(int FD) { return (expr); }
FDCALL(f_read, read(FD, outbuf, 1))
FDCALL(f_write, write(FD, outbuf, 1))
FDCALL(f_close, close(FD))
FDCALL(f_dup, dup(FD))
FDCALL(f_dup2_from, dup2(FD, 30))
FDCALL(f_fcntl, fcntl(FD, F_GETFL))
FDCALL(f_fstat, fstat(FD, (struct stat *)outbuf))
FDCALL(f_fstatfs, fstatfs(FD, (struct statfs *)outbuf))
FDCALL(f_fchdir, fchdir(FD))
FDCALL(f_fchmod, fchmod(FD, 0644))
FDCALL(f_fchown, fchown(FD, 0, 0))
FDCALL(f_fsync, fsync(FD))
FDCALL(f_lseek, (int)lseek(FD, 0, SEEK_SET))
FDCALL(f_ftruncate, ftruncate(FD, 0))
FDCALL(f_getdirentries, getdirentries(FD, outbuf, 512, NULL))
FDCALL(f_ioctl, ioctl(FD, TIOCGPGRP, outbuf))

static void
tryfd(const char *call, int (*fn)(int))
{
	static const int fds[] = { -1, MAXFD, 1000, CLOSEDFD, (int)0x80000000 };
	char what[96], why[128] = "";
	unsigned i;
	int rv, ok = 1;

	for (i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		errno = 0;
		rv = fn(fds[i]);
		if (rv != -1 || errno != EBADF) {
			if (ok)
				snprintf(why, sizeof(why), "descriptor %d: "
				    "returned %d, errno %d (%s)", fds[i], rv,
				    errno, strerror(errno));
			ok = 0;
		}
	}
	snprintf(what, sizeof(what), "%s, bad descriptors: EBADF", call);
	check(ok, what, "%s", why);
}

static void
test_descriptors(void)
{
	int rdonly = open(path("data"), O_RDONLY);
	int wronly = open(path("data"), O_WRONLY);

	tryfd("read", f_read);
	tryfd("write", f_write);
	tryfd("close", f_close);
	tryfd("dup", f_dup);
	tryfd("dup2", f_dup2_from);
	tryfd("fcntl", f_fcntl);
	tryfd("fstat", f_fstat);
	tryfd("fstatfs", f_fstatfs);
	tryfd("fchdir", f_fchdir);
	tryfd("fchmod", f_fchmod);
	tryfd("fchown", f_fchown);
	tryfd("fsync", f_fsync);
	tryfd("lseek", f_lseek);
	tryfd("ftruncate", f_ftruncate);
	tryfd("getdirentries", f_getdirentries);
	tryfd("ioctl", f_ioctl);
	check(dup2(0, -1) == -1 && errno == EBADF, "dup2 to -1: EBADF",
	    "errno %d", errno);
	check(dup2(0, MAXFD) == -1 && errno == EBADF, "dup2 past the table: "
	    "EBADF", "errno %d", errno);
	check(read(wronly, outbuf, 1) == -1 && errno == EBADF,
	    "read on a write-only descriptor: EBADF", "errno %d", errno);
	check(write(rdonly, outbuf, 1) == -1 && errno == EBADF,
	    "write on a read-only descriptor: EBADF", "errno %d", errno);
	close(rdonly);
	close(wronly);
}

/*
 * Good pointers the kernel must accept: a large buffer on the stack
 * whose pages the program has not touched yet.  A user access there
 * grows the stack; copyout into it must grow it too, not fail.
 */
static int __attribute__((noinline))
read_into_stack(int fd)
{
	char buf[256 * 1024];

	return read(fd, buf, sizeof(buf));
}

static int __attribute__((noinline))
write_from_stack(int fd)
{
	char buf[300 * 1024], *p = buf + 100 * 1024;

	buf[0] = 1;			/* touch only the lowest page */
	__asm volatile("" : "+r"(p));	/* what p holds does not matter */
	return write(fd, p, 4);
}

static void
test_stack(void)
{
	int fd = open("/dev/zero", O_RDONLY), n, p[2];

	n = read_into_stack(fd);
	check(n == 256 * 1024, "read into an untouched 256 KB stack buffer",
	    "returned %d, errno %d (%s)", n, errno, strerror(errno));
	close(fd);
	pipe(p);
	n = write_from_stack(p[1]);
	check(n == 4, "write from an untouched part of the stack",
	    "returned %d, errno %d (%s)", n, errno, strerror(errno));
	close(p[0]);
	close(p[1]);
}

static void
test_still_alive(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		char *argv[] = { "true", NULL };

		execve("/bin/true", argv, NULL);
		_exit(99);
	}
	check(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status)
	    && WEXITSTATUS(status) == 0, "the system still runs programs",
	    "fork or exec failed");
}

int
main(int argc, char **argv)
{
	int c;

	check_prog = "badptrs";
	while ((c = getopt(argc, argv, "d:")) != -1) {
		if (c == 'd')
			strncpy(dir, optarg, sizeof(dir) - 1);
		else {
			fprintf(stderr, "usage: badptrs [-d dir]\n");
			return 64;
		}
	}
	self = strchr(argv[0], '/') ? argv[0] : "/usr/tests/badptrs";
	setvbuf(stdout, stdiobuf, _IOLBF, sizeof(stdiobuf));
	test_stack();
	setup();
	test_pointers();
	test_descriptors();
	test_still_alive();
	unlink(path("sym"));
	unlink(path("data"));
	return check_done();
}
