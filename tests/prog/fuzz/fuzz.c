/*
 * fuzz: random system calls with hostile arguments, from a seed, each
 * batch in a child the parent watches; the kernel may refuse anything
 * but must not panic, hang, or leave a process it cannot kill.
 *
 *	usage: fuzz [-s seed] [-n calls] [-b batch] [-u uid] [-t ms]
 *		    [-B batch] dir
 *
 * -n calls in batches of -b (100), each batch in a fresh child working
 * in dir (a scratch directory; it is made if missing, and holds the
 * children's files: f0..f3, d0).  Run as root, even batches stay root
 * and odd ones setuid to -u (1000) first; run as anyone else, every
 * batch is that user.  -B runs batch N alone (to reproduce one).
 *
 * A call is a number (most often one the kernel has, sometimes any) and
 * six argument words, each chosen by the argument's kind from values
 * that break things: NULL, kernel addresses, unmapped and straddling
 * user addresses, read-only text, huge lengths, negative descriptors
 * and offsets, every flag bit.  Paths are names in dir only (no "/" or
 * ".."), so a root child can damage nothing else; root children never
 * call reboot, and mount, unmount, mknod (a node for a disk) and
 * settimeofday get bad pointers only.  kill only names the child itself, its group, or no process.
 * A child that forks has the new child exit at once.
 *
 * The child has a file in dir as its standard descriptors (never the
 * console, whose modes an ioctl could change, nor /dev/null, whose mode
 * a root child's fchmod would) and tells the parent,
 * through a pipe on descriptor 60 that no argument names, the index of
 * each call before it makes it.  A child that stops telling for -t ms
 * (500) is killed (a call that blocks is allowed); one that is still
 * there 5 s after SIGKILL is reported with its call and ps -alx, and
 * the run stops.  A child killed by a signal is counted by signal and
 * the call that was running is printed (the first five).
 *
 * Last line: "fuzz: N calls in B batches (R as root, U as uid u);
 * children: E exited, K killed by signals (SIGSEGV n, ...), H blocked
 * and killed (in read n, ...), X unkillable"; exit status 0 only if X
 * is 0.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define REPORTFD	60
#define NSIGS		32
#define BUFSZ		(64 * 1024)
#define PAGE		4096u

/* Argument kinds. */
#define A_PATH	'P'	/* a path */
#define A_BUF	'B'	/* a buffer to read or write */
#define A_FD	'f'
#define A_INT	'i'
#define A_LEN	'l'
#define A_PID	'K'
#define A_OFF	'o'	/* 64-bit: two words */
#define A_PAD	'-'

struct call {
	int	num;
	const char *name;
	const char *args;
};

static const struct call calls[] = {
	{ SYS_exit, "exit", "i" }, { SYS_fork, "fork", "" },
	{ SYS_read, "read", "fBl" }, { SYS_write, "write", "fBl" },
	{ SYS_open, "open", "Pii" }, { SYS_close, "close", "f" },
	{ SYS_wait4, "wait4", "KBiB" }, { SYS_link, "link", "PP" },
	{ SYS_unlink, "unlink", "P" }, { SYS_chdir, "chdir", "P" },
	{ SYS_fchdir, "fchdir", "f" }, { SYS_mknod, "mknod", "Pii" },
	{ SYS_chmod, "chmod", "Pi" }, { SYS_chown, "chown", "Pii" },
	{ SYS_break, "break", "B" }, { SYS_getfsstat, "getfsstat", "Bli" },
	{ SYS_getpid, "getpid", "" }, { SYS_mount, "mount", "PPiB" },
	{ SYS_unmount, "unmount", "Pi" }, { SYS_setuid, "setuid", "i" },
	{ SYS_getuid, "getuid", "" }, { SYS_geteuid, "geteuid", "" },
	{ SYS_access, "access", "Pi" }, { SYS_sync, "sync", "" },
	{ SYS_kill, "kill", "Ki" }, { SYS_getppid, "getppid", "" },
	{ SYS_dup, "dup", "f" }, { SYS_pipe, "pipe", "" },
	{ SYS_getegid, "getegid", "" }, { SYS_sigaction, "sigaction", "iBB" },
	{ SYS_getgid, "getgid", "" }, { SYS_sigprocmask, "sigprocmask", "ii" },
	{ SYS_sigpending, "sigpending", "" }, { SYS_ioctl, "ioctl", "fiB" },
	{ SYS_reboot, "reboot", "i" }, { SYS_symlink, "symlink", "PP" },
	{ SYS_readlink, "readlink", "PBl" }, { SYS_execve, "execve", "PBB" },
	{ SYS_umask, "umask", "i" }, { SYS_getgroups, "getgroups", "lB" },
	{ SYS_setgroups, "setgroups", "lB" }, { SYS_getpgrp, "getpgrp", "" },
	{ SYS_setpgid, "setpgid", "KK" }, { SYS_dup2, "dup2", "ff" },
	{ SYS_fcntl, "fcntl", "fii" }, { SYS_fsync, "fsync", "f" },
	{ SYS_sigreturn, "sigreturn", "B" },
	{ SYS_sigsuspend, "sigsuspend", "i" },
	{ SYS_gettimeofday, "gettimeofday", "BB" },
	{ SYS_getrusage, "getrusage", "iB" },
	{ SYS_settimeofday, "settimeofday", "BB" },
	{ SYS_fchown, "fchown", "fii" }, { SYS_fchmod, "fchmod", "fi" },
	{ SYS_rename, "rename", "PP" }, { SYS_mkdir, "mkdir", "Pi" },
	{ SYS_rmdir, "rmdir", "P" }, { SYS_utimes, "utimes", "PB" },
	{ SYS_setsid, "setsid", "" }, { SYS_statfs, "statfs", "PB" },
	{ SYS_fstatfs, "fstatfs", "fB" }, { SYS_setgid, "setgid", "i" },
	{ SYS_setegid, "setegid", "i" }, { SYS_seteuid, "seteuid", "i" },
	{ SYS_lfs_bmapv, "lfs_bmapv", "BBl" },
	{ SYS_lfs_markv, "lfs_markv", "BBl" },
	{ SYS_lfs_segclean, "lfs_segclean", "Bi" },
	{ SYS_lfs_segwait, "lfs_segwait", "BB" },
	{ SYS_stat, "stat", "PB" }, { SYS_fstat, "fstat", "fB" },
	{ SYS_lstat, "lstat", "PB" },
	{ SYS_getdirentries, "getdirentries", "fBlB" },
	{ SYS_lseek, "lseek", "f-oi" }, { SYS_truncate, "truncate", "P-o" },
	{ SYS_ftruncate, "ftruncate", "f-o" },
	{ SYS_nanosleep, "nanosleep", "BB" },
	{ SYS_getproc, "getproc", "Bl" }, { SYS_diskstats, "diskstats", "iBl" },
	{ SYS_bufstats, "bufstats", "B" }, { SYS_lfsstats, "lfsstats", "BBl" },
};
#define NCALLS	(int)(sizeof(calls) / sizeof(calls[0]))

/* Names the children may use: all in the scratch directory. */
static const char *names[] = {
	"f0", "f1", "f2", "f3", "d0", "d0/f0", "d0/d1", ".", "",
	"nonexistent", "f0/x",
};

static char *heapend;		/* the break: the first unmapped byte */
static char bigname[1200];	/* a path longer than MAXPATHLEN */
static char longcomp[300];	/* a component longer than MAXNAMLEN */
static char *buf;		/* BUFSZ bytes, ending at heapend */
static int isroot, uid = 1000;
static u_int32_t rng;

static u_int32_t
rnd(u_int32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return n ? rng % n : rng;
}

static u_int32_t
badpointer(void)
{
	static const u_int32_t bad[] = {
		0, 1, 0xC0000000, 0xC0100000, 0xFFFFF000, 0xFFFFFFFF,
		0x7FFF0000, 0x00001000, 0xBFFFFFFC,
	};

	switch (rnd(4)) {
	case 0:
		return (u_int32_t)(heapend - 2);	/* straddles the end */
	case 1:
		return (u_int32_t)heapend;		/* just past it */
	default:
		return bad[rnd(sizeof(bad) / sizeof(bad[0]))];
	}
}

static u_int32_t
someint(void)
{
	static const u_int32_t v[] = {
		0, 1, 2, 3, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe,
		0x1ff, 0x1000, 0x10000, 0x100000, 0xffff, 64, 65,
	};

	return rnd(2) ? v[rnd(sizeof(v) / sizeof(v[0]))] : rnd(0);
}

static u_int32_t
somefd(void)
{
	static const u_int32_t v[] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 63, 64, 1000, 0xffffffff,
		0x80000000, 0x7fffffff,
	};

	return v[rnd(sizeof(v) / sizeof(v[0]))];
}

static u_int32_t
somepath(int safe)
{
	if (safe || rnd(3))
		switch (rnd(8)) {
		case 0:
			return (u_int32_t)bigname;
		case 1:
			return (u_int32_t)longcomp;
		default:
			return (u_int32_t)names[rnd(sizeof(names) /
			    sizeof(names[0]))];
		}
	return badpointer();
}

static u_int32_t
somebuf(void)
{
	u_int32_t i, n;

	switch (rnd(4)) {
	case 0:
		return badpointer();
	case 1:
		return (u_int32_t)rnd;		/* read-only text */
	default:
		/* Our buffer, near its end or not, with random bytes. */
		n = rnd(64);
		for (i = 0; i < n; i++)
			((u_int32_t *)buf)[rnd(BUFSZ / 4)] = rnd(0);
		return (u_int32_t)(buf + (rnd(2) ? rnd(BUFSZ) & ~3u :
		    BUFSZ - 4 * rnd(8)));
	}
}

static u_int32_t
somepid(pid_t me)
{
	switch (rnd(5)) {
	case 0:
		return (u_int32_t)me;
	case 1:
		return 0;			/* our own group */
	case 2:
		return (u_int32_t)-me;		/* the same, by number */
	case 3:
		return 99999;			/* nobody */
	default:
		return isroot ? (u_int32_t)me : 1;	/* init: EPERM */
	}
}

/* The call and its words for index k of a batch (rng already seeded). */
static int
makecall(u_int32_t *w, const char **namep, pid_t me, int asroot)
{
	const struct call *c;
	const char *a;
	int n, i;

	for (i = 0; i < 8; i++)
		w[i] = someint();
	if (rnd(10) == 0) {			/* any number at all */
		*namep = "?";
		n = (int)someint();
		if (rnd(2))
			n = (int)rnd(400);
		for (i = 0; i < 8; i++)
			if (rnd(2))
				w[i] = rnd(2) ? badpointer() : somebuf();
		/* None of the numbers root must not call. */
		for (i = 0; i < NCALLS; i++)
			if (calls[i].num == n)
				return -1;
		return n;
	}
	c = &calls[rnd(NCALLS)];
	/* Calls that end the batch or block till the watchdog: rarer. */
	if ((c->num == SYS_exit || c->num == SYS_sigreturn ||
	    c->num == SYS_break || c->num == SYS_execve) && rnd(4) != 0)
		c = &calls[rnd(NCALLS)];
	else if ((c->num == SYS_sigsuspend || c->num == SYS_nanosleep ||
	    c->num == SYS_wait4) && rnd(16) != 0)
		c = &calls[rnd(NCALLS)];
	*namep = c->name;
	if (asroot && (c->num == SYS_reboot))
		return -1;
	for (a = c->args, i = 0; *a && i < 7; a++, i++) {
		switch (*a) {
		case A_PATH:
			w[i] = somepath(0);
			break;
		case A_BUF:
			w[i] = somebuf();
			break;
		case A_FD:
			w[i] = somefd();
			break;
		case A_LEN:
			w[i] = rnd(3) ? rnd(BUFSZ + 8) : someint();
			break;
		case A_PID:
			w[i] = somepid(me);
			break;
		case A_OFF:
			w[i] = someint();
			w[++i] = rnd(3) ? 0 : someint();
			break;
		case A_PAD:
			w[i] = rnd(0);
			break;
		default:
			w[i] = someint();
			break;
		}
	}
	/* What a root child may not do: only the failing forms. */
	if (asroot && (c->num == SYS_mount || c->num == SYS_unmount ||
	    c->num == SYS_settimeofday || c->num == SYS_mknod)) {
		w[0] = badpointer();
		w[1] = badpointer();
	}
	if (c->num == SYS_kill && (int32_t)w[0] == -1)
		w[0] = (u_int32_t)me;
	return c->num;
}

static void
seed_batch(unsigned seed, int batch)
{
	rng = seed * 2654435761u ^ ((u_int32_t)batch * 40503u + 0x9e3779b9u);
	if (rng == 0)
		rng = 1;
}

static void
child(unsigned seed, int batch, int ncalls, int asroot)
{
	u_int32_t w[8];
	const char *name;
	pid_t me;
	int k, n, fd;

	setsid();
	me = getpid();
	if (!asroot && (setgid(uid) < 0 || setuid(uid) < 0))
		_exit(100);
	for (fd = 0; fd < 64; fd++)
		if (fd != REPORTFD)
			close(fd);
	/* Its own file, not /dev/null: fchmod(0, ...) changes no node. */
	open("stdio", O_RDWR | O_CREAT | O_TRUNC, 0666);
	dup(0);
	dup(0);
	/* Descriptors for the calls to use: files, a directory, a pipe. */
	open("f0", O_RDWR | O_CREAT, 0666);
	open("f1", O_RDONLY | O_CREAT, 0666);
	open(".", O_RDONLY);
	syscall(SYS_pipe);
	seed_batch(seed, batch);
	for (k = 0; k < ncalls; k++) {
		n = makecall(w, &name, me, asroot);
		write(REPORTFD, &k, sizeof(k));
		if (n < 0)
			continue;
		syscall(n, w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]);
		if (getpid() != me)
			_exit(0);		/* a forked child: done */
	}
	k = -1;
	write(REPORTFD, &k, sizeof(k));
	_exit(0);
}

/* Say what call k of a batch was, by making it again (not calling it). */
static void
describe(unsigned seed, int batch, int k, int asroot, pid_t pid)
{
	u_int32_t w[8];
	const char *name = "?";
	int i, n = -1;

	seed_batch(seed, batch);
	for (i = 0; i <= k; i++)
		n = makecall(w, &name, pid, asroot);
	printf("  call %d: %s (%d)(%#x, %#x, %#x, %#x, %#x, %#x)\n", k, name,
	    n, w[0], w[1], w[2], w[3], w[4], w[5]);
}

/* Which calls blocked until the watchdog, by name: a tally. */
static struct { const char *name; int n; } blockers[16];

static void
noteblocked(unsigned seed, int batch, int k, int asroot, pid_t pid)
{
	u_int32_t w[8];
	const char *name = "?";
	int i;

	seed_batch(seed, batch);
	for (i = 0; i <= k; i++)
		makecall(w, &name, pid, asroot);
	for (i = 0; i < 16 && blockers[i].name; i++)
		if (strcmp(blockers[i].name, name) == 0)
			break;
	if (i == 16)
		return;
	blockers[i].name = name;
	blockers[i].n++;
}

static void
nap(void)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

static void
setup_memory(void)
{
	int i;

	/* The heap ends on a page boundary, right after buf. */
	sbrk(PAGE - ((u_int32_t)sbrk(0) & (PAGE - 1)));
	buf = sbrk(BUFSZ);
	heapend = buf + BUFSZ;
	memset(buf, 'x', BUFSZ);
	for (i = 0; i < (int)sizeof(bigname) - 1; i++)
		bigname[i] = i % 2 ? '/' : 'a';
	for (i = 0; i < (int)sizeof(longcomp) - 1; i++)
		longcomp[i] = 'n';
}

static const char *
signame(int s)
{
	static char other[8];

	switch (s) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGILL: return "SIGILL";
	case SIGKILL: return "SIGKILL";
	case SIGTERM: return "SIGTERM";
	case SIGPIPE: return "SIGPIPE";
	case SIGFPE: return "SIGFPE";
	case SIGTRAP: return "SIGTRAP";
	}
	snprintf(other, sizeof(other), "sig%d", s);
	return other;
}

int
main(int argc, char **argv)
{
	int c, ncalls = 1000, bsize = 100, timeout = 500, only = -1;
	long total = 0, nroot = 0, nuser = 0, exited = 0, signalled = 0;
	long blocked = 0, unkillable = 0, bysig[NSIGS], shown = 0;
	int fds[2], batch, nbatch, status, k;
	unsigned seed = 1;
	const char *dir;

	while ((c = getopt(argc, argv, "s:n:b:u:t:B:")) != -1) {
		switch (c) {
		case 's': seed = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'n': ncalls = atoi(optarg); break;
		case 'b': bsize = atoi(optarg); break;
		case 'u': uid = atoi(optarg); break;
		case 't': timeout = atoi(optarg); break;
		case 'B': only = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: fuzz [-s seed] [-n calls] "
			    "[-b batch] [-u uid] [-t ms] [-B batch] dir\n");
			return 2;
		}
	}
	if (optind != argc - 1 || bsize < 1 || ncalls < 1) {
		fprintf(stderr, "usage: fuzz [-s seed] [-n calls] [-b batch] "
		    "[-u uid] [-t ms] [-B batch] dir\n");
		return 2;
	}
	dir = argv[optind];
	isroot = geteuid() == 0;
	if (!isroot)
		uid = getuid();
	mkdir(dir, 0777);
	chmod(dir, 0777);
	if (chdir(dir) < 0) {
		perror(dir);
		return 2;
	}
	mkdir("d0", 0777);
	chmod("d0", 0777);
	setup_memory();
	memset(bysig, 0, sizeof(bysig));
	nbatch = (ncalls + bsize - 1) / bsize;
	printf("fuzz: seed %u, %d calls in batches of %d, in %s\n", seed,
	    ncalls, bsize, dir);
	fflush(stdout);
	for (batch = only >= 0 ? only : 0; batch < nbatch; batch++) {
		int asroot = isroot && batch % 2 == 0, last = -1, idle = 0;
		int n = batch == nbatch - 1 ? ncalls - batch * bsize : bsize;
		pid_t pid;

		if (only >= 0 && batch != only)
			break;
		if (pipe(fds) < 0 || dup2(fds[1], REPORTFD) < 0) {
			perror("fuzz: pipe");
			return 2;
		}
		close(fds[1]);
		fcntl(fds[0], F_SETFL, O_NONBLOCK);
		fflush(stdout);
		if ((pid = fork()) == 0) {
			close(fds[0]);
			child(seed, batch, n, asroot);
		}
		close(REPORTFD);
		if (pid < 0) {
			perror("fuzz: fork");
			return 2;
		}
		asroot ? nroot++ : nuser++;
		for (;;) {
			int got = 0;

			while (read(fds[0], &k, sizeof(k)) == sizeof(k)) {
				got = 1;
				if (k >= 0)
					last = k;
			}
			if (waitpid(pid, &status, WNOHANG) == pid)
				break;
			idle = got ? 0 : idle + 10;
			if (idle < timeout) {
				nap();
				continue;
			}
			/* Blocked (or spinning) in a call: kill it. */
			kill(pid, SIGKILL);
			for (idle = 0; idle < 5000; idle += 10) {
				if (waitpid(pid, &status, WNOHANG) == pid)
					break;
				nap();
			}
			if (idle >= 5000) {
				printf("fuzz: batch %d (%s): child %d "
				    "unkillable\n", batch, asroot ? "root" :
				    "user", (int)pid);
				describe(seed, batch, last, asroot, pid);
				fflush(stdout);
				system("/bin/ps -alx");	/* who sleeps where */
				unkillable++;
				break;
			}
			blocked++;
			noteblocked(seed, batch, last, asroot, pid);
			status = -1;
			break;
		}
		close(fds[0]);
		total += last + 1;
		if (unkillable)
			break;
		if (status == -1)
			continue;
		if (WIFSIGNALED(status)) {
			int s = WTERMSIG(status);

			signalled++;
			bysig[s < NSIGS ? s : 0]++;
			if (shown++ < 5) {
				printf("fuzz: batch %d (%s): child killed by "
				    "%s\n", batch, asroot ? "root" : "user",
				    signame(s));
				describe(seed, batch, last, asroot, pid);
			}
		} else
			exited++;
	}
	printf("fuzz: %ld calls in %ld batches (%ld as root, %ld as uid %d); "
	    "children: %ld exited, %ld killed by signals", total,
	    nroot + nuser, nroot, nuser, uid, exited, signalled);
	for (c = 0, k = 0; k < NSIGS; k++)
		if (bysig[k])
			printf("%s%s %ld", c++ ? ", " : " (", signame(k),
			    bysig[k]);
	printf("%s, %ld blocked and killed", c ? ")" : "", blocked);
	for (k = 0; k < 16 && blockers[k].name; k++)
		printf("%s%s %d", k ? ", " : " (in ", blockers[k].name,
		    blockers[k].n);
	printf("%s, %ld unkillable\n", k ? ")" : "", unkillable);
	return unkillable ? 1 : 0;
}
