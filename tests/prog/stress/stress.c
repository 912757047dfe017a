/*
 * stress: several processes running mixed namespace and data operations
 * on one directory tree at once, under a watchdog.
 *
 *	usage: stress [-p nproc] [-t seconds] [-n ops] [-s seed]
 *		      [-w watchdog] [-x op,op...] dir
 *
 * The parent makes dir/t0 .. dir/t2 and forks nproc workers (4); each
 * runs operations chosen from its own seed (seed + worker) until the
 * time (-t, 10 s) or its share of ops (-n) runs out.  An operation picks
 * names from small pools so that the workers collide on purpose:
 * directories tI, tI/DJ and tI/DJ/DK, files fN in any of them.
 *
 *	create	open(O_CREAT), write a piece	write	a piece at an offset
 *	trunc	truncate to a size up to 6 MB	read	read back and check
 *	rename	a file, over another		rendir	a directory, across
 *	link	a file				unlink	a file
 *	mkdir, rmdir				readdir	check every name
 *	fsync	a file				stat	any name
 *
 * Offsets and sizes cross the direct, single and double indirect ranges
 * (48 KB and 4 MB with 4 KB blocks) so truncation frees partial trees.
 * Every byte written at file offset o is pattern(o), whoever writes it,
 * so a read may check what it gets despite the others: each byte is 0
 * (a hole, or past a truncation) or pattern(o).  A readdir checks that
 * every name is one the workers make.
 *
 * Errors the kernel must give for a collision (ENOENT, EEXIST,
 * ENOTEMPTY, ENOTDIR, EISDIR, EINVAL for a directory moved below
 * itself, EPERM for a link to a directory, EMLINK, ENOSPC) are counted
 * as expected; any other is unexpected and printed.  A read that finds
 * a wrong byte or a name that no worker makes is a wrong result.
 *
 * Watchdog: each worker tells the parent, through a pipe, the operation
 * it starts; a ticker child writes a tick a second.  A worker that has
 * made no progress for -w seconds (30) is reported with its operation,
 * ps -alx shows every process's wait channel, and the workers are
 * killed; one that does not die within 5 s is reported as unkillable.
 *
 * Last line, the one tests read:
 *	stress: N ops by P procs in T s, E expected errors (ENOENT n, ...),
 *	U unexpected, W wrong, S stuck
 * Exit status 0 only if U, W and S are all 0.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXPROC		16
#define NTOP		3	/* tI */
#define NSUB		4	/* DJ, DK */
#define NFILE		8	/* fN */
#define MAXIO		(16 * 1024)
#define KB		1024
#define MB		(1024 * 1024)

enum op {
	OP_CREATE, OP_WRITE, OP_TRUNC, OP_READ, OP_RENAME, OP_RENDIR,
	OP_LINK, OP_UNLINK, OP_MKDIR, OP_RMDIR, OP_READDIR, OP_FSYNC,
	OP_STAT, NOP
};
static const char *opnames[NOP] = {
	"create", "write", "trunc", "read", "rename", "rendir", "link",
	"unlink", "mkdir", "rmdir", "readdir", "fsync", "stat",
};
/* How often each is chosen, out of the sum. */
static int weight[NOP] = { 10, 14, 6, 8, 8, 6, 4, 8, 8, 6, 4, 2, 6 };

/* Parent <- worker messages; 64 bytes, so each write is atomic. */
enum { M_START, M_ERR, M_WRONG, M_DONE, M_TICK };
struct msg {
	short	kind;
	short	worker;
	int	a, b;		/* START: op count, op; ERR: errno, count */
	char	text[52];	/* START: the operation */
};

static const char *dir;
static int nproc = 4, seconds = 10, watchdog = 30;
static long maxops;
static unsigned seed = 1;
static int msgfd;		/* workers: the write end */
static int me;			/* worker number */
static u_int32_t rng;
static char iobuf[MAXIO], checkbuf[MAXIO];

/* Per worker, sent to the parent at the end. */
static long errcount[ELAST + 1];
static long nwrong;

static u_int32_t
rnd(u_int32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng % n;
}

/* The byte every writer puts at file offset o: never 0. */
static unsigned char
pattern(off_t o)
{
	u_int32_t h = (u_int32_t)(o >> 2) * 2654435761u + (u_int32_t)(o >> 20);

	return (unsigned char)((h >> (8 * (o & 3))) | 1);
}

static void
sendmsg_(int kind, int a, int b, const char *text)
{
	struct msg m;

	memset(&m, 0, sizeof(m));
	m.kind = (short)kind;
	m.worker = (short)me;
	m.a = a;
	m.b = b;
	if (text)
		strncpy(m.text, text, sizeof(m.text) - 1);
	write(msgfd, &m, sizeof(m));
}

/* ---------------------------------------------------------------- names */

static int
expected(int e)
{
	switch (e) {
	case ENOENT: case EEXIST: case ENOTEMPTY: case ENOTDIR: case EISDIR:
	case EINVAL: case EPERM: case EMLINK: case ENOSPC:
		return 1;
	}
	return 0;
}

/* A directory: tI, tI/DJ or tI/DJ/DK. */
static void
dirname_(char *p, size_t n)
{
	int depth = (int)rnd(3);

	snprintf(p, n, "%s/t%u", dir, rnd(NTOP));
	while (depth-- > 0)
		snprintf(p + strlen(p), n - strlen(p), "/D%u", rnd(NSUB));
}

/* A file name fN in some directory; now and then a directory's name. */
static void
filename_(char *p, size_t n)
{
	dirname_(p, n);
	if (rnd(16) == 0)
		snprintf(p + strlen(p), n - strlen(p), "/D%u", rnd(NSUB));
	else
		snprintf(p + strlen(p), n - strlen(p), "/f%u", rnd(NFILE));
}

/* A file name fN, never a directory's name. */
static void
strictfile(char *p, size_t n)
{
	dirname_(p, n);
	snprintf(p + strlen(p), n - strlen(p), "/f%u", rnd(NFILE));
}

/* A directory below the top: tI/DJ[/DK]; now and then a file's name. */
static void
subdirname(char *p, size_t n)
{
	dirname_(p, n);
	if (rnd(16) == 0)
		snprintf(p + strlen(p), n - strlen(p), "/f%u", rnd(NFILE));
	else
		snprintf(p + strlen(p), n - strlen(p), "/D%u", rnd(NSUB));
}

/* Offsets and sizes over the direct, single and double indirect ranges. */
static off_t
someoffset(void)
{
	switch (rnd(4)) {
	case 0:
		return rnd(48 * KB);
	case 1:
		return rnd(256 * KB);
	case 2:
		return 4 * MB + rnd(128 * KB) - 64 * KB;
	default:
		return rnd(6 * MB);
	}
}

/* ------------------------------------------------------------ operations */

static void
fill(off_t off, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		iobuf[i] = (char)pattern(off + (off_t)i);
}

static int
writeat(int fd, off_t off, size_t len)
{
	fill(off, len);
	if (lseek(fd, off, SEEK_SET) < 0)
		return -1;
	return write(fd, iobuf, len) < 0 ? -1 : 0;
}

static void
wrong(const char *fmt, ...)
{
	va_list ap;

	nwrong++;
	if (nwrong > 5)
		return;
	printf("stress: worker %d: WRONG: ", me);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static int
do_read(const char *p)
{
	off_t off = someoffset();
	size_t len = 1 + rnd(MAXIO), i;
	struct stat st;
	ssize_t n;
	int fd;

	if ((fd = open(p, O_RDONLY)) < 0)
		return -1;
	/* A name may be a directory's (mkdir takes fN now and then). */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	if (lseek(fd, off, SEEK_SET) < 0 ||
	    (n = read(fd, checkbuf, len)) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	close(fd);
	for (i = 0; i < (size_t)n; i++) {
		unsigned char c = (unsigned char)checkbuf[i];

		if (c != 0 && c != pattern(off + (off_t)i)) {
			wrong("%s offset %lld: byte %#x, not 0 or %#x", p,
			    (long long)(off + (off_t)i), c,
			    pattern(off + (off_t)i));
			break;
		}
	}
	return 0;
}

/* Every name in a directory is one the workers make. */
static int
goodname(const char *s)
{
	char *end;

	if (strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return 1;
	if ((s[0] != 'f' && s[0] != 'D' && s[0] != 't') || s[1] == '\0')
		return 0;
	(void)strtol(s + 1, &end, 10);
	return *end == '\0';
}

static int
do_readdir(const char *p)
{
	struct dirent *d;
	DIR *dp;

	if ((dp = opendir(p)) == NULL)
		return -1;
	while ((d = readdir(dp)) != NULL)
		if (!goodname(d->d_name))
			wrong("%s: entry \"%.40s\" (ino %u)", p, d->d_name,
			    (unsigned)d->d_fileno);
	closedir(dp);
	return 0;
}

static int
do_create(const char *p)
{
	int flags = O_WRONLY | O_CREAT, fd, r;

	if (rnd(4) == 0)
		flags |= O_EXCL;
	if (rnd(4) == 0)
		flags |= O_TRUNC;
	if ((fd = open(p, flags, 0644)) < 0)
		return -1;
	r = writeat(fd, rnd(4) ? 0 : someoffset(), 1 + rnd(MAXIO));
	if (r < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

static int
do_write(const char *p)
{
	int fd, r;

	if ((fd = open(p, O_WRONLY)) < 0)
		return -1;
	r = writeat(fd, someoffset(), 1 + rnd(MAXIO));
	if (r < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

static int
do_fsync(const char *p)
{
	int fd, r;

	if ((fd = open(p, O_RDONLY)) < 0)
		return -1;
	r = fsync(fd);
	if (r < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

static enum op
pickop(void)
{
	int total = 0, i, r;

	for (i = 0; i < NOP; i++)
		total += weight[i];
	r = (int)rnd((u_int32_t)total);
	for (i = 0; i < NOP; i++) {
		if (r < weight[i])
			break;
		r -= weight[i];
	}
	return (enum op)i;
}

/* An operation's names (and truncate's size), chosen before it runs. */
struct opargs {
	char	a[128], b[128];
	off_t	size;
};

static void
prepare(enum op op, struct opargs *o, char *text, size_t tn)
{
	const char *a = o->a + strlen(dir) + 1, *b = o->b + strlen(dir) + 1;

	o->b[0] = '\0';
	o->size = 0;
	switch (op) {
	case OP_RENAME:
		/* Only rendir moves directories: with it left out (-x),
		 * nothing renames one, so an fN name is never one. */
		if (weight[OP_RENDIR] == 0)
			strictfile(o->a, sizeof(o->a));
		else
			filename_(o->a, sizeof(o->a));
		filename_(o->b, sizeof(o->b));
		break;
	case OP_LINK:
		filename_(o->a, sizeof(o->a));
		filename_(o->b, sizeof(o->b));
		break;
	case OP_RENDIR:
		subdirname(o->a, sizeof(o->a));
		subdirname(o->b, sizeof(o->b));
		break;
	case OP_MKDIR:
	case OP_RMDIR:
		subdirname(o->a, sizeof(o->a));
		break;
	case OP_READDIR:
		dirname_(o->a, sizeof(o->a));
		break;
	case OP_STAT:
		if (rnd(2))
			filename_(o->a, sizeof(o->a));
		else
			subdirname(o->a, sizeof(o->a));
		break;
	case OP_TRUNC:
		o->size = rnd(8) == 0 ? 0 : someoffset();
		/* FALLTHROUGH */
	default:
		filename_(o->a, sizeof(o->a));
		break;
	}
	if (op == OP_TRUNC)
		snprintf(text, tn, "trunc %s %lld", a, (long long)o->size);
	else if (o->b[0])
		snprintf(text, tn, "%s %s %s", opnames[op], a, b);
	else
		snprintf(text, tn, "%s %s", opnames[op], a);
}

/* Run it: 0, or -1 with errno. */
static int
execute(enum op op, struct opargs *o)
{
	struct stat st;

	switch (op) {
	case OP_CREATE:		return do_create(o->a);
	case OP_WRITE:		return do_write(o->a);
	case OP_TRUNC:		return truncate(o->a, o->size);
	case OP_READ:		return do_read(o->a);
	case OP_RENAME:
	case OP_RENDIR:		return rename(o->a, o->b);
	case OP_LINK:		return link(o->a, o->b);
	case OP_UNLINK:		return unlink(o->a);
	case OP_MKDIR:		return mkdir(o->a, 0755);
	case OP_RMDIR:		return rmdir(o->a);
	case OP_READDIR:	return do_readdir(o->a);
	case OP_FSYNC:		return do_fsync(o->a);
	case OP_STAT:		return lstat(o->a, &st);
	default:		return 0;
	}
}

static void
worker(void)
{
	time_t end = time(NULL) + seconds;
	long ops, nunexp = 0;
	struct opargs o;
	char text[52];
	int e;

	rng = seed * 2654435761u + (u_int32_t)me * 40503u + 1;
	if (rng == 0)
		rng = 1;
	for (ops = 0; (maxops == 0 || ops < maxops) && time(NULL) < end;
	    ops++) {
		enum op op = pickop();

		prepare(op, &o, text, sizeof(text));
		sendmsg_(M_START, (int)ops, op, text);
		if (execute(op, &o) == 0)
			continue;
		e = errno;
		if (e < 0 || e > ELAST)
			e = 0;
		errcount[e]++;
		if (!expected(e) && ++nunexp <= 10) {
			printf("stress: worker %d: %s: unexpected %s\n", me,
			    text, strerror(e));
			fflush(stdout);
		}
	}
	for (e = 0; e <= ELAST; e++)
		if (errcount[e])
			sendmsg_(M_ERR, e, (int)errcount[e], NULL);
	if (nwrong)
		sendmsg_(M_WRONG, (int)nwrong, 0, NULL);
	sendmsg_(M_DONE, (int)ops, 0, NULL);
	_exit(0);
}

/* ---------------------------------------------------------------- parent */

static const char *
errname(int e)
{
	static const struct { int e; const char *name; } names[] = {
		{ ENOENT, "ENOENT" }, { EEXIST, "EEXIST" },
		{ ENOTEMPTY, "ENOTEMPTY" }, { ENOTDIR, "ENOTDIR" },
		{ EISDIR, "EISDIR" }, { EINVAL, "EINVAL" }, { EPERM, "EPERM" },
		{ EMLINK, "EMLINK" }, { ENOSPC, "ENOSPC" }, { EIO, "EIO" },
		{ EFAULT, "EFAULT" }, { EBADF, "EBADF" }, { EBUSY, "EBUSY" },
		{ EACCES, "EACCES" }, { EFBIG, "EFBIG" }, { EROFS, "EROFS" },
		{ ENFILE, "ENFILE" }, { EMFILE, "EMFILE" },
	};
	static char other[16];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == e)
			return names[i].name;
	snprintf(other, sizeof(other), "errno%d", e);
	return other;
}

static int
readmsg(int fd, struct msg *m)
{
	char *p = (char *)m;
	size_t got = 0;
	ssize_t n;

	while (got < sizeof(*m)) {
		if ((n = read(fd, p + got, sizeof(*m) - got)) <= 0)
			return -1;
		got += (size_t)n;
	}
	return 0;
}

static void
ticker(int fd)
{
	struct msg m;

	memset(&m, 0, sizeof(m));
	m.kind = M_TICK;
	for (;;) {
		sleep(1);
		if (write(fd, &m, sizeof(m)) < 0)
			_exit(0);
	}
}

static void
parseexclude(char *list)
{
	char *w;
	int i;

	for (w = strtok(list, ","); w; w = strtok(NULL, ",")) {
		for (i = 0; i < NOP && strcmp(w, opnames[i]) != 0; i++)
			continue;
		if (i == NOP) {
			fprintf(stderr, "stress: no operation %s\n", w);
			exit(2);
		}
		weight[i] = 0;
	}
}

static void
usage(void)
{
	fprintf(stderr, "usage: stress [-p nproc] [-t seconds] [-n ops] "
	    "[-s seed] [-w watchdog] [-x op,op...] dir\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	pid_t pids[MAXPROC], tick;
	int alive[MAXPROC], last[MAXPROC], done[MAXPROC], fds[2];
	long opsdone[MAXPROC];
	char lastop[MAXPROC][52], path[256];
	long total = 0, errs[ELAST + 1], nexp = 0, nunexp = 0, wrongs = 0;
	int c, i, e, now = 0, nalive, stuck = 0, status, dying = -1;
	time_t start;
	struct msg m;

	while ((c = getopt(argc, argv, "p:t:n:s:w:x:")) != -1) {
		switch (c) {
		case 'p': nproc = atoi(optarg); break;
		case 't': seconds = atoi(optarg); break;
		case 'n': maxops = atol(optarg); break;
		case 's': seed = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'w': watchdog = atoi(optarg); break;
		case 'x': parseexclude(optarg); break;
		default: usage();
		}
	}
	if (optind != argc - 1 || nproc < 1 || nproc > MAXPROC ||
	    watchdog < 1)
		usage();
	dir = argv[optind];
	for (i = 0; i < NTOP; i++) {
		snprintf(path, sizeof(path), "%s/t%d", dir, i);
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			printf("stress: mkdir %s: %s\n", path, strerror(errno));
			return 2;
		}
	}
	printf("stress: %d procs, %d s, seed %u, on %s\n", nproc, seconds,
	    seed, dir);
	fflush(stdout);
	if (pipe(fds) < 0) {
		perror("stress: pipe");
		return 2;
	}
	start = time(NULL);
	for (i = 0; i < nproc; i++) {
		alive[i] = 1;
		done[i] = 0;
		last[i] = 0;
		opsdone[i] = 0;
		strcpy(lastop[i], "(none)");
		if ((pids[i] = fork()) == 0) {
			close(fds[0]);
			msgfd = fds[1];
			me = i;
			worker();
		}
		if (pids[i] < 0) {
			perror("stress: fork");
			return 2;
		}
	}
	if ((tick = fork()) == 0) {
		close(fds[0]);
		ticker(fds[1]);
	}
	close(fds[1]);
	memset(errs, 0, sizeof(errs));
	nalive = nproc;
	while (nalive > 0 && readmsg(fds[0], &m) == 0) {
		int w = m.worker;

		if (m.kind == M_TICK) {
			now++;
			for (i = 0; i < nproc; i++) {
				if (!alive[i])
					continue;
				if (waitpid(pids[i], &status, WNOHANG) ==
				    pids[i]) {
					alive[i] = 0;
					nalive--;
					if (!done[i]) {
						printf("stress: worker %d died "
						    "(status %#x) in %s\n", i,
						    status, lastop[i]);
						nunexp++;
					}
					continue;
				}
				if (dying < 0 && now - last[i] > watchdog) {
					printf("stress: watchdog: worker %d "
					    "(pid %d) stuck %d s in %s\n", i,
					    (int)pids[i], now - last[i],
					    lastop[i]);
					stuck++;
				}
			}
			if (stuck && dying < 0) {
				fflush(stdout);
				system("/bin/ps -alx");	/* who sleeps where */
				for (i = 0; i < nproc; i++)
					if (alive[i])
						kill(pids[i], SIGKILL);
				dying = now;
			}
			if (dying >= 0 && now - dying > 5) {
				for (i = 0; i < nproc; i++)
					if (alive[i])
						printf("stress: worker %d (pid "
						    "%d) unkillable in %s\n",
						    i, (int)pids[i], lastop[i]);
				break;
			}
			continue;
		}
		if (w < 0 || w >= nproc)
			continue;
		last[w] = now;
		switch (m.kind) {
		case M_START:
			opsdone[w] = m.a;
			strncpy(lastop[w], m.text, sizeof(lastop[w]) - 1);
			lastop[w][sizeof(lastop[w]) - 1] = '\0';
			break;
		case M_ERR:
			if (m.a >= 0 && m.a <= ELAST)
				errs[m.a] += m.b;
			break;
		case M_WRONG:
			wrongs += m.a;
			break;
		case M_DONE:
			opsdone[w] = m.a;
			done[w] = 1;
			if (waitpid(pids[w], &status, 0) == pids[w]) {
				alive[w] = 0;
				nalive--;
			}
			break;
		}
	}
	kill(tick, SIGKILL);
	waitpid(tick, NULL, 0);
	for (i = 0; i < nproc; i++)
		total += opsdone[i];
	for (e = 0; e <= ELAST; e++) {
		if (expected(e))
			nexp += errs[e];
		else
			nunexp += errs[e];
	}
	printf("stress: %ld ops by %d procs in %ld s, %ld expected errors (",
	    total, nproc, (long)(time(NULL) - start), nexp);
	for (c = 0, e = 0; e <= ELAST; e++)
		if (errs[e] && expected(e))
			printf("%s%s %ld", c++ ? ", " : "", errname(e), errs[e]);
	printf("), %ld unexpected", nunexp);
	for (c = 0, e = 0; e <= ELAST; e++)
		if (errs[e] && !expected(e))
			printf("%s%s %ld", c++ ? ", " : " (", errname(e),
			    errs[e]);
	printf("%s, %ld wrong, %d stuck\n", c ? ")" : "", wrongs, stuck);
	return nunexp || wrongs || stuck ? 1 : 0;
}
