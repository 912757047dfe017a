/*
 * syscalls: checks every system call of the foundation from inside the
 * guest, the calls that succeed and the errno each error path returns.
 * One line per check, "(syscalls) what: ok" or "... FAILED: why", and a
 * last line "N passed, M failed", as Pintos tests print.
 *
 * usage: syscalls [-d dir] [-n]
 *   -d dir  a writable scratch directory (default /tmp)
 *   -n      also fill dir's file system to ENOSPC and check that removing
 *           the file gives every block back (use a small, empty one)
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/mount.h>
#include <sys/time.h>
#include <sys/resource.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/lib/check.h"

#define BAD	((void *)0xC0001000)	/* kernel space: never a user address */
#define UNMAPPED ((void *)0x7fff0000)	/* user space, nothing mapped */

static char dir[256] = "/tmp";

/* rv == -1 and errno == want */
static void
fails(int rv, int want, const char *what)
{
	char why[128];

	snprintf(why, sizeof(why), "returned %d, errno %d (%s), want errno %d (%s)",
	    rv, errno, strerror(errno), want, strerror(want));
	check(rv == -1 && errno == want, what, "%s", why);
}

static void
succeeds(int rv, const char *what)
{
	char why[128];

	snprintf(why, sizeof(why), "returned %d, errno %d (%s)", rv, errno,
	    strerror(errno));
	check(rv != -1, what, "%s", why);
}

static char *
path(const char *name)
{
	static char buf[4][512];
	static int n;

	n = (n + 1) % 4;
	snprintf(buf[n], sizeof(buf[n]), "%s/%s", dir, name);
	return buf[n];
}

/* pread and pwrite: at an offset, the descriptor's offset untouched. */
static void
test_pread(void)
{
	char buf[64];
	int fd, p[2];

	fd = open(path("p"), O_CREAT | O_RDWR | O_TRUNC, 0644);
	succeeds(fd, "open for pread");
	check(write(fd, "0123456789", 10) == 10, "write for pread", "short");
	check(lseek(fd, 3, SEEK_SET) == 3, "lseek for pread", "not 3");
	memset(buf, 0, sizeof(buf));
	check(pread(fd, buf, 4, 5) == 4 && strcmp(buf, "5678") == 0,
	    "pread at an offset", "%s", buf);
	check(lseek(fd, 0, SEEK_CUR) == 3, "pread leaves the offset", "moved");
	check(pwrite(fd, "ab", 2, 8) == 2 && pread(fd, buf, 10, 0) == 10 &&
	    memcmp(buf, "01234567ab", 10) == 0, "pwrite at an offset", "%.10s",
	    buf);
	check(lseek(fd, 0, SEEK_CUR) == 3, "pwrite leaves the offset",
	    "moved");
	check(pwrite(fd, "z", 1, 20) == 1 && pread(fd, buf, 64, 9) == 12 &&
	    buf[1] == 0 && buf[11] == 'z', "pwrite past the end leaves a hole",
	    "size or bytes");
	check(pread(fd, buf, 4, 100) == 0, "pread past the end: 0", "not 0");
	fails(pread(fd, buf, 4, -1), EINVAL, "pread at a negative offset");
	fails(pwrite(fd, buf, 4, -5), EINVAL, "pwrite at a negative offset");
	fails(pread(99, buf, 4, 0), EBADF, "pread bad fd");
	close(fd);
	fd = open(path("p"), O_RDONLY);
	fails(pwrite(fd, "x", 1, 0), EBADF, "pwrite to a read-only fd");
	close(fd);
	unlink(path("p"));
	succeeds(pipe(p), "pipe for pread");
	fails(pread(p[0], buf, 1, 0), ESPIPE, "pread on a pipe");
	fails(pwrite(p[1], "x", 1, 0), ESPIPE, "pwrite on a pipe");
	close(p[0]);
	close(p[1]);
}

static void
test_files(void)
{
	char buf[64];
	struct stat st;
	int fd, fd2;

	fd = open(path("f"), O_CREAT | O_RDWR | O_TRUNC, 0644);
	succeeds(fd, "open O_CREAT");
	check(write(fd, "hello", 5) == 5, "write", "short write");
	check(lseek(fd, 0, SEEK_SET) == 0, "lseek SEEK_SET", "wrong offset");
	memset(buf, 0, sizeof(buf));
	check(read(fd, buf, sizeof(buf)) == 5 && strcmp(buf, "hello") == 0,
	    "read back", "%s", buf);
	check(read(fd, buf, sizeof(buf)) == 0, "read at end of file", "not 0");
	check(lseek(fd, 0, SEEK_END) == 5, "lseek SEEK_END", "not 5");
	fails(lseek(fd, -10, SEEK_SET), EINVAL, "lseek before start");
	fails(lseek(fd, 0, 7), EINVAL, "lseek bad whence");
	succeeds(fstat(fd, &st), "fstat");
	check(st.st_size == 5 && S_ISREG(st.st_mode) && st.st_nlink == 1,
	    "fstat fields", "size/mode/nlink");
	succeeds(fsync(fd), "fsync");
	fd2 = dup(fd);
	succeeds(fd2, "dup");
	check(lseek(fd2, 1, SEEK_SET) == 1 && lseek(fd, 0, SEEK_CUR) == 1,
	    "dup shares the offset", "offsets differ");
	succeeds(dup2(fd, 20), "dup2");
	check(fcntl(20, F_GETFD) == 0, "dup2 clears close-on-exec", "set");
	succeeds(close(20), "close dup2'd fd");
	succeeds(close(fd2), "close");
	succeeds(ftruncate(fd, 2), "ftruncate");
	check(fstat(fd, &st) == 0 && st.st_size == 2, "ftruncate size", "not 2");
	close(fd);
	succeeds(truncate(path("f"), 10000), "truncate up");
	check(stat(path("f"), &st) == 0 && st.st_size == 10000,
	    "truncate size", "not 10000");
	fd = open(path("f"), O_WRONLY | O_APPEND);
	write(fd, "x", 1);
	close(fd);
	check(stat(path("f"), &st) == 0 && st.st_size == 10001, "O_APPEND",
	    "not appended");
	fd = open(path("f"), O_WRONLY | O_TRUNC);
	close(fd);
	check(stat(path("f"), &st) == 0 && st.st_size == 0, "O_TRUNC",
	    "not truncated");
	fails(open(path("f"), O_CREAT | O_EXCL | O_WRONLY, 0644), EEXIST,
	    "open O_EXCL existing");
	fails(open(path("nonexistent"), O_RDONLY), ENOENT, "open missing");
	fails(open(path("f/x"), O_RDONLY), ENOTDIR, "open through a file");
	fails(open(dir, O_WRONLY), EISDIR, "open a directory for writing");
	fails(read(-1, buf, 1), EBADF, "read bad fd");
	fails(write(99, buf, 1), EBADF, "write bad fd");
	fails(close(99), EBADF, "close bad fd");
	fails(fstat(99, &st), EBADF, "fstat bad fd");
	fails(dup(99), EBADF, "dup bad fd");
	fails(dup2(99, 3), EBADF, "dup2 bad fd");
	fails(lseek(99, 0, SEEK_SET), EBADF, "lseek bad fd");
	fd = open(path("f"), O_RDONLY);
	fails(write(fd, "x", 1), EBADF, "write to a read-only fd");
	close(fd);
	test_pread();
}

static void
test_efault(void)
{
	struct stat st;
	struct timeval tv;
	int fd = open(path("f"), O_RDWR);

	write(fd, "0123456789", 10);
	lseek(fd, 0, SEEK_SET);
	fails(open(BAD, O_RDONLY), EFAULT, "open kernel-space path");
	fails(open(UNMAPPED, O_RDONLY), EFAULT, "open unmapped path");
	fails(read(fd, BAD, 10), EFAULT, "read into kernel space");
	fails(read(fd, UNMAPPED, 10), EFAULT, "read into unmapped memory");
	fails(write(fd, BAD, 10), EFAULT, "write from kernel space");
	fails(stat(path("f"), BAD), EFAULT, "stat into kernel space");
	fails(stat(BAD, &st), EFAULT, "stat kernel-space path");
	fails(gettimeofday(BAD, NULL), EFAULT, "gettimeofday bad pointer");
	fails(execve(BAD, NULL, NULL), EFAULT, "execve bad path");
	fails(mkdir(UNMAPPED, 0755), EFAULT, "mkdir unmapped path");
	fails(sigaction(SIGINT, BAD, NULL), EFAULT, "sigaction bad pointer");
	succeeds(gettimeofday(&tv, NULL), "gettimeofday");
	check(tv.tv_sec > 1000000000, "time of day is after 2001", "too early");
	close(fd);
}

static void
test_names(void)
{
	char buf[600], target[64];
	struct stat st;
	int n;

	succeeds(mkdir(path("d"), 0755), "mkdir");
	fails(mkdir(path("d"), 0755), EEXIST, "mkdir existing");
	fails(mkdir(path("f/d"), 0755), ENOTDIR, "mkdir under a file");
	succeeds(mkdir(path("d/sub"), 0755), "mkdir nested");
	check(stat(path("d"), &st) == 0 && st.st_nlink == 3,
	    "directory link count", "not 3");
	fails(rmdir(path("d")), ENOTEMPTY, "rmdir non-empty");
	fails(rmdir(path("f")), ENOTDIR, "rmdir a file");
	fails(unlink(path("d")), EPERM, "unlink a directory");
	succeeds(link(path("f"), path("d/hard")), "link across directories");
	check(stat(path("f"), &st) == 0 && st.st_nlink == 2, "link count 2",
	    "not 2");
	fails(link(path("f"), path("d/hard")), EEXIST, "link existing name");
	fails(link(path("d"), path("dlink")), EPERM, "link a directory");
	succeeds(rename(path("d/hard"), path("d/sub/moved")),
	    "rename across directories");
	fails(stat(path("d/hard"), &st), ENOENT, "old name gone");
	check(stat(path("d/sub/moved"), &st) == 0 && st.st_nlink == 2,
	    "new name, same inode", "missing");
	succeeds(rename(path("d/sub"), path("sub2")), "rename a directory");
	check(stat(path("sub2/.."), &st) == 0, "moved directory's ..", "bad");
	fails(rename(path("sub2"), path("sub2/x")), EINVAL,
	    "rename a directory into itself");
	succeeds(unlink(path("sub2/moved")), "unlink");
	check(stat(path("f"), &st) == 0 && st.st_nlink == 1, "link count 1",
	    "not 1");
	succeeds(rmdir(path("sub2")), "rmdir");
	succeeds(symlink("f", path("sym")), "symlink");
	fails(symlink("f", path("sym")), EEXIST, "symlink existing");
	n = readlink(path("sym"), target, sizeof(target));
	check(n == 1 && target[0] == 'f', "readlink", "wrong target");
	check(lstat(path("sym"), &st) == 0 && S_ISLNK(st.st_mode), "lstat",
	    "not a link");
	check(stat(path("sym"), &st) == 0 && S_ISREG(st.st_mode),
	    "stat follows links", "not followed");
	fails(readlink(path("f"), target, sizeof(target)), EINVAL,
	    "readlink a file");
	memset(buf, 'a', 300);
	buf[300] = '\0';
	fails(open(buf, O_RDONLY), ENAMETOOLONG, "component too long");
	memset(buf, 0, sizeof(buf));
	for (n = 0; n < 590; n += 2)
		memcpy(buf + n, "a/", 2);
	fails(stat(buf, &st), ENOENT, "long path walks until a name is missing");
	succeeds(chdir(path("d")), "chdir");
	check(stat("../f", &st) == 0, "relative path after chdir", "not found");
	fails(chdir(path("f")), ENOTDIR, "chdir to a file");
	fails(chdir(path("none")), ENOENT, "chdir missing");
	chdir("/");
	fails(unlink(path("none")), ENOENT, "unlink missing");
	fails(rmdir(path("none")), ENOENT, "rmdir missing");
	succeeds(rmdir(path("d")), "rmdir empty");
}

static void
test_attrs(void)
{
	struct timeval tv[2];
	struct stat st;
	struct statfs sfs;
	mode_t old;
	int fd;

	succeeds(chmod(path("f"), 0600), "chmod");
	check(stat(path("f"), &st) == 0 && (st.st_mode & 07777) == 0600,
	    "chmod mode", "wrong");
	succeeds(chown(path("f"), 1000, 1000), "chown by root");
	check(stat(path("f"), &st) == 0 && st.st_uid == 1000 && st.st_gid == 1000,
	    "chown owner", "wrong");
	chown(path("f"), 0, 0);
	tv[0].tv_sec = 1000000;
	tv[0].tv_usec = 0;
	tv[1].tv_sec = 2000000;
	tv[1].tv_usec = 0;
	succeeds(utimes(path("f"), tv), "utimes");
	check(stat(path("f"), &st) == 0 && st.st_mtime == 2000000 &&
	    st.st_atime == 1000000, "utimes times", "wrong");
	old = umask(077);
	fd = open(path("masked"), O_CREAT | O_WRONLY, 0666);
	close(fd);
	check(stat(path("masked"), &st) == 0 && (st.st_mode & 0777) == 0600,
	    "umask applies", "wrong mode");
	umask(old);
	unlink(path("masked"));
	succeeds(access(path("f"), R_OK | W_OK), "access");
	fails(access(path("none"), F_OK), ENOENT, "access missing");
	succeeds(statfs(dir, &sfs), "statfs");
	check(sfs.f_blocks > 0 && sfs.f_bfree <= sfs.f_blocks, "statfs counts",
	    "nonsense");
}

/* Runs fn in a child as uid 1000; returns the child's exit status. */
static int
as_student(int (*fn)(void))
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (setgid(1000) < 0 || setuid(1000) < 0)
			_exit(99);
		_exit(fn());
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

static int
student_eacces(void)
{
	int fd = open(path("secret"), O_RDONLY);

	if (fd != -1 || errno != EACCES)
		return 1;
	if (mkdir("/root/x", 0755) != -1 || errno != EACCES)
		return 2;
	if (chown(path("secret"), 1000, 1000) != -1 || errno != EPERM)
		return 3;
	if (setuid(0) != -1 || errno != EPERM)
		return 4;
	if (getuid() != 1000 || geteuid() != 1000)
		return 5;
	if (reboot(0) != -1 || errno != EPERM)
		return 6;
	return 0;
}

static void
test_users(void)
{
	int fd = open(path("secret"), O_CREAT | O_WRONLY, 0600);
	char why[32];
	int rv;

	close(fd);
	check(getuid() == 0 && geteuid() == 0, "root's uid", "not 0");
	rv = as_student(student_eacces);
	snprintf(why, sizeof(why), "child step %d failed", rv);
	check(rv == 0, "EACCES and EPERM for a non-root user", "%s", why);
	unlink(path("secret"));
}

static volatile int got;

static void
handler(int sig)
{
	got = sig;
}

static void
test_processes(char *self)
{
	struct sigaction sa;
	struct timeval t0, t1;
	struct timespec ts;
	int status, p[2];
	char buf[16], *brk0, *brk1;
	pid_t pid;

	pid = fork();
	if (pid == 0)
		_exit(42);
	check(pid > 0, "fork", "failed");
	check(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 42, "wait4 exit status", "wrong");
	fails(wait(&status), ECHILD, "wait without children");
	pid = fork();
	if (pid == 0) {
		char *argv[] = { self, "-child", "arg", NULL };
		char *envp[] = { "SYSCALLS_ENV=yes", NULL };

		execve(self, argv, envp);
		_exit(97);
	}
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 7,
	    "execve passes argv and envp", "child saw something else");
	pid = fork();
	if (pid == 0) {
		*(volatile int *)0 = 1;		/* a user fault */
		_exit(0);
	}
	waitpid(pid, &status, 0);
	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
	    "a NULL write kills with SIGSEGV", "wrong status");
	pid = fork();
	if (pid == 0) {
		for (;;)
			sleep(100);
		_exit(0);
	}
	succeeds(kill(pid, SIGTERM), "kill");
	waitpid(pid, &status, 0);
	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
	    "default action terminates", "wrong status");
	fails(kill(99999, 0), ESRCH, "kill a missing pid");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	succeeds(sigaction(SIGUSR1, &sa, NULL), "sigaction");
	kill(getpid(), SIGUSR1);
	check(got == SIGUSR1, "handler runs", "not called");
	fails(sigaction(SIGKILL, &sa, NULL), EINVAL, "catch SIGKILL");
	check(getppid() > 0 && getpid() > 1, "getpid and getppid", "bad ids");
	brk0 = sbrk(0);
	brk1 = sbrk(1 << 20);
	check(brk1 == brk0, "sbrk returns the old break", "wrong");
	memset(brk1, 1, 1 << 20);
	check(sbrk(0) == brk0 + (1 << 20), "sbrk grows the heap", "wrong");
	gettimeofday(&t0, NULL);
	ts.tv_sec = 0;
	ts.tv_nsec = 200000000;
	succeeds(nanosleep(&ts, NULL), "nanosleep");
	gettimeofday(&t1, NULL);
	check((t1.tv_sec - t0.tv_sec) * 1000000 + t1.tv_usec - t0.tv_usec >=
	    200000, "nanosleep sleeps long enough", "woke early");
	succeeds(pipe(p), "pipe");
	write(p[1], "ping", 4);
	check(read(p[0], buf, sizeof(buf)) == 4 && memcmp(buf, "ping", 4) == 0,
	    "pipe carries data", "wrong");
	fails(lseek(p[0], 0, SEEK_SET), ESPIPE, "lseek on a pipe");
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	fails(write(p[1], "x", 1), EPIPE, "write to a pipe nobody reads");
	close(p[1]);
}

/* poll: a pipe's ends, a file, a bad descriptor, the timeout, a child's write. */
static void
test_poll(void)
{
	struct pollfd fds[4];
	struct timeval t0, t1;
	int p[2], fd, status;
	pid_t pid;

	succeeds(pipe(p), "pipe for poll");
	fd = open(path("f"), O_RDONLY);
	fds[0].fd = p[0];
	fds[0].events = POLLIN;
	fds[1].fd = p[1];
	fds[1].events = POLLOUT;
	fds[2].fd = fd;
	fds[2].events = POLLIN | POLLOUT;
	fds[3].fd = 99;
	fds[3].events = POLLIN;
	check(poll(fds, 4, 0) == 3 && fds[0].revents == 0 &&
	    fds[1].revents == POLLOUT && fds[2].revents == (POLLIN | POLLOUT) &&
	    fds[3].revents == POLLNVAL, "poll: ready ends, a file, a bad fd",
	    "revents %x %x %x %x", fds[0].revents, fds[1].revents,
	    fds[2].revents, fds[3].revents);
	gettimeofday(&t0, NULL);
	check(poll(fds, 1, 150) == 0 && fds[0].revents == 0,
	    "poll: an empty pipe times out", "revents %x", fds[0].revents);
	gettimeofday(&t1, NULL);
	check((t1.tv_sec - t0.tv_sec) * 1000000 + t1.tv_usec - t0.tv_usec >=
	    140000, "poll waits for its timeout", "woke early");
	if ((pid = fork()) == 0) {
		struct timespec ts = { 0, 100000000 };

		nanosleep(&ts, NULL);
		write(p[1], "x", 1);
		_exit(0);
	}
	check(poll(fds, 1, -1) == 1 && fds[0].revents == POLLIN,
	    "poll wakes when another process writes", "revents %x",
	    fds[0].revents);
	waitpid(pid, &status, 0);
	close(p[1]);
	check(poll(fds, 1, 0) == 1 && fds[0].revents == (POLLIN | POLLHUP),
	    "poll: a pipe with no writer left says POLLHUP", "revents %x",
	    fds[0].revents);
	fails(poll((struct pollfd *)BAD, 1, 0), EFAULT, "poll with a bad array");
	fails(poll(fds, 100000, 0), EINVAL, "poll with too many descriptors");
	close(p[0]);
	close(fd);
}

static void
test_dirents(void)
{
	char buf[4096];
	long base;
	int fd, n, found = 0;

	fd = open(dir, O_RDONLY);
	while ((n = getdirentries(fd, buf, sizeof(buf), &base)) > 0) {
		char *cp = buf;

		while (cp < buf + n) {
			struct dirent *dp = (struct dirent *)cp;

			if (dp->d_fileno && strcmp(dp->d_name, "f") == 0)
				found = 1;
			if (dp->d_reclen == 0)
				break;
			cp += dp->d_reclen;
		}
	}
	check(n == 0 && found, "getdirentries finds a file", "not found");
	close(fd);
	fd = open(path("f"), O_RDONLY);
	fails(getdirentries(fd, buf, sizeof(buf), &base), EINVAL,
	    "getdirentries on a file");
	close(fd);
}

/*
 * Blocks through the direct, single and double indirect pointers, a
 * hole between them, and a file past 1 GB (sparse, so it fits anywhere).
 */
static void
test_bigfile(void)
{
	static const off_t offs[] = { 0, 100 * 1024, 5 << 20, 50 << 20,
	    (off_t)1100 << 20 };
	char buf[4096], want[4096];
	struct stat st;
	unsigned i;
	int fd, ok = 1;

	fd = open(path("big"), O_CREAT | O_RDWR | O_TRUNC, 0644);
	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		memset(want, 'A' + i, sizeof(want));
		if (lseek(fd, offs[i], SEEK_SET) != offs[i] ||
		    write(fd, want, sizeof(want)) != sizeof(want))
			ok = 0;
	}
	check(ok, "write through indirect blocks and past 1 GB", "failed");
	check(fstat(fd, &st) == 0 && st.st_size == ((off_t)1100 << 20) + 4096,
	    "size past 1 GB", "wrong size");
	check(st.st_blocks < 200, "holes take no space", "too many blocks");
	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		memset(want, 'A' + i, sizeof(want));
		lseek(fd, offs[i], SEEK_SET);
		if (read(fd, buf, sizeof(buf)) != sizeof(buf) ||
		    memcmp(buf, want, sizeof(buf)) != 0)
			ok = 0;
	}
	check(ok, "read back through indirect blocks", "data differs");
	lseek(fd, 3 << 20, SEEK_SET);
	memset(want, 0, sizeof(want));
	check(read(fd, buf, sizeof(buf)) == sizeof(buf) &&
	    memcmp(buf, want, sizeof(buf)) == 0, "a hole reads as zeros",
	    "not zeros");
	succeeds(ftruncate(fd, 200 * 1024), "truncate a big file");
	check(fstat(fd, &st) == 0 && st.st_blocks <= 2 * 8 + 8,
	    "truncate frees indirect blocks", "blocks kept");
	lseek(fd, 100 * 1024, SEEK_SET);
	memset(want, 'B', sizeof(want));
	check(read(fd, buf, sizeof(buf)) == sizeof(buf) &&
	    memcmp(buf, want, sizeof(buf)) == 0, "truncate keeps what stays",
	    "data lost");
	close(fd);
	succeeds(unlink(path("big")), "unlink a big file");
}

static void
test_enospc(void)
{
	static char chunk[65536];
	struct statfs before, full, after;
	char why[96];
	int fd, n;
	long total = 0;

	sync();
	statfs(dir, &before);
	fd = open(path("fill"), O_CREAT | O_WRONLY | O_TRUNC, 0644);
	succeeds(fd, "create the filler");
	while ((n = write(fd, chunk, sizeof(chunk))) > 0)
		total += n;
	fails(n, ENOSPC, "write to a full file system");
	check(total > 0, "the filler took space", "nothing written");
	succeeds(fsync(fd), "fsync the filler");
	close(fd);
	statfs(dir, &full);
	check(full.f_bavail <= 0, "statfs says full", "space left");
	succeeds(unlink(path("fill")), "remove the filler");
	sync();
	statfs(dir, &after);
	snprintf(why, sizeof(why), "%ld free before, %ld after",
	    before.f_bfree, after.f_bfree);
	check(after.f_bfree == before.f_bfree, "every block comes back", "%s", why);
}

int
main(int argc, char **argv)
{
	int c, enospc = 0;

	if (argc == 3 && strcmp(argv[1], "-child") == 0) {
		char *env = getenv("SYSCALLS_ENV");
		return (strcmp(argv[2], "arg") == 0 && env &&
		    strcmp(env, "yes") == 0) ? 7 : 1;
	}
	while ((c = getopt(argc, argv, "d:n")) != -1) {
		if (c == 'd')
			strncpy(dir, optarg, sizeof(dir) - 1);
		else if (c == 'n')
			enospc = 1;
		else {
			fprintf(stderr, "usage: syscalls [-d dir] [-n]\n");
			return 64;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	check_prog = "syscalls";
	test_files();
	test_efault();
	test_names();
	test_attrs();
	test_users();
	test_processes(argv[0]);
	test_poll();
	test_dirents();
	test_bigfile();
	if (enospc)
		test_enospc();
	unlink(path("sym"));
	unlink(path("f"));
	sync();
	return check_done();
}
