/*
 * supercomp: the supercomputer benchmark of thesis 7.9, after Miller's
 * traces [MILL91] (bench/supercomputer.py drives it).
 *
 *	supercomp -f file -s filesize -w wsize [-S seed] create
 *	supercomp -f file -s filesize -w wsize verify
 *	supercomp -f file -r rsize -w wsize -n nreads -N nwrites
 *	    [-c count] [-a align] [-S seed] run
 *
 * Sizes are bytes, or with a k or m suffix KB or MB (1024s).  Options
 * may come before or after the command.
 *
 * create: the file is cut into units of wsize bytes (the last one
 * shorter if wsize does not divide filesize) and the units are written
 * in a random order, one write(2) each, then the file is fsynced: the
 * order of the writes, not of the file, decides where a file system
 * puts the blocks.  Each unit is stamped with its index, 16-byte lines
 * "unit 0000000012\n", so that od or verify can tell the units apart.
 * verify: every unit holds its own stamp and the file is filesize
 * bytes; exit 1 if not.
 *
 * run: count requests (1000 by default), reads of rsize bytes and writes
 * of wsize bytes in the ratio nreads:nwrites, interleaved at random, each
 * at a random offset in the file, a multiple of align bytes (4096 by
 * default, the file systems' block) with the whole request inside the
 * file.  The writes are plain write(2) calls (the cache may hold them);
 * one fsync ends the run.  Each call is timed alone (gettimeofday around
 * the lseek and the read or write).
 *
 * Output, one line each, name=value, times in microseconds:
 *	supercomp create units=N bytes=B size=W usecs=U fsync_usecs=F
 *	supercomp verify units=N bytes=B bad=K
 *	supercomp read n=N size=R bytes=B usecs=U mean_us=M sd_us=S
 *	    min_us=A max_us=Z kbps=T
 *	supercomp write n=... (the same fields)
 *	supercomp fsync usecs=F
 *	supercomp run requests=N usecs=U
 * usecs of a kind is the sum of its calls' times, kbps its bytes over
 * that sum in KB (1024 bytes) per second; run's usecs is the whole run
 * with the fsync.
 */
#include <sys/types.h>
#include <sys/time.h>
#include <sys/stat.h>
#include <err.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STAMP		16		/* bytes of one stamp line */
#define DEFCOUNT	1000		/* requests of a run (thesis 7.9) */
#define DEFALIGN	4096		/* a file-system block */

struct kind {
	const char *name;
	long	 size;			/* bytes per request */
	long	 n;			/* requests done */
	u_int64_t *us;			/* each one's time */
	u_int64_t total_us, min_us, max_us;
};

static const char *path;
static long filesize = -1, rsize = -1, wsize = -1, nreads = -1, nwrites = -1;
static long count = DEFCOUNT, align = DEFALIGN;
static u_int32_t seed = 1;

static void
usage(void)
{
	fprintf(stderr, "usage: supercomp -f file -s filesize -w wsize "
	    "[-S seed] create\n"
	    "       supercomp -f file -s filesize -w wsize verify\n"
	    "       supercomp -f file -r rsize -w wsize -n nreads -N nwrites "
	    "[-c count] [-a align] [-S seed] run\n");
	exit(1);
}

/* A size or count: digits, with k or m for KB or MB; under 2 GB. */
static long
number(const char *arg)
{
	long n, unit = 1;
	char *end;

	n = strtol(arg, &end, 10);
	if (*end == 'k' || *end == 'K')
		unit = 1024, end++;
	else if (*end == 'm' || *end == 'M')
		unit = 1024 * 1024, end++;
	if (*arg < '0' || *arg > '9' || *end != '\0' || n < 0 ||
	    n > LONG_MAX / unit)
		usage();
	return n * unit;
}

static u_int64_t
now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (u_int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
}

/* xorshift32: the same order and offsets for the same seed. */
static u_int32_t
nextrand(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 17;
	seed ^= seed << 5;
	return seed;
}

/* The integer square root, two bits at a time. */
static u_int64_t
isqrt(u_int64_t x)
{
	u_int64_t r = 0, bit = (u_int64_t)1 << 62;

	while (bit > x)
		bit >>= 2;
	while (bit != 0) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else
			r >>= 1;
		bit >>= 2;
	}
	return r;
}

static void *
xmalloc(size_t n)
{
	void *p;

	if ((p = malloc(n ? n : 1)) == NULL)
		errx(1, "no memory for %lu bytes", (unsigned long)n);
	return p;
}

/* Fill buf with len bytes of 16-byte stamp lines "WORD NNNNNNNNNN\n". */
static void
stamp(char *buf, long len, const char *word, long index)
{
	char line[STAMP + 1];
	long i;

	snprintf(line, sizeof(line), "%-4.4s %010ld\n", word, index);
	for (i = 0; i < len; i++)
		buf[i] = line[i % STAMP];
}

static long
units(void)
{
	if (filesize <= 0 || wsize <= 0)
		usage();
	return (filesize + wsize - 1) / wsize;
}

static long
unitlen(long u)
{
	return filesize - u * wsize < wsize ? filesize - u * wsize : wsize;
}

static void
create(void)
{
	long n = units(), i, j, len;
	u_int32_t *order, t;
	u_int64_t start, wrote, done;
	char *buf;
	int fd;

	order = xmalloc(n * sizeof(*order));
	buf = xmalloc(wsize);
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n - 1; i > 0; i--) {		/* Fisher-Yates */
		j = nextrand() % (i + 1);
		t = order[i], order[i] = order[j], order[j] = t;
	}
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
		err(1, "%s", path);
	start = now_us();
	for (i = 0; i < n; i++) {
		len = unitlen(order[i]);
		stamp(buf, len, "unit", order[i]);
		if (lseek(fd, (off_t)order[i] * wsize, SEEK_SET) < 0)
			err(1, "%s: lseek to unit %u", path, order[i]);
		if (write(fd, buf, len) != len)
			err(1, "%s: write of unit %u", path, order[i]);
	}
	wrote = now_us();
	if (fsync(fd) < 0)
		err(1, "%s: fsync", path);
	done = now_us();
	close(fd);
	printf("supercomp create units=%ld bytes=%ld size=%ld usecs=%llu "
	    "fsync_usecs=%llu\n", n, filesize, wsize, done - start,
	    done - wrote);
}

static void
verify(void)
{
	long n = units(), u, len, bad = 0;
	char *buf, *want;
	struct stat st;
	int fd;

	buf = xmalloc(wsize);
	want = xmalloc(wsize);
	if ((fd = open(path, O_RDONLY)) < 0)
		err(1, "%s", path);
	if (fstat(fd, &st) < 0)
		err(1, "%s", path);
	if (st.st_size != filesize)
		errx(1, "%s: %lld bytes, not %ld", path, (long long)st.st_size,
		    filesize);
	for (u = 0; u < n; u++) {
		len = unitlen(u);
		if (read(fd, buf, len) != len)
			err(1, "%s: read of unit %ld", path, u);
		stamp(want, len, "unit", u);
		if (memcmp(buf, want, len) != 0)
			bad++;
	}
	close(fd);
	printf("supercomp verify units=%ld bytes=%ld bad=%ld\n", n, filesize,
	    bad);
	if (bad != 0)
		errx(1, "%s: %ld of %ld units do not hold their stamp", path,
		    bad, n);
}

static void
report(const struct kind *k)
{
	u_int64_t mean = 0, ss = 0, d, kbps100 = 0;
	u_int64_t bytes = (u_int64_t)k->n * k->size;
	long i;

	if (k->n > 0)
		mean = k->total_us / k->n;
	for (i = 0; i < k->n; i++) {
		d = k->us[i] > mean ? k->us[i] - mean : mean - k->us[i];
		ss += d * d;
	}
	if (k->total_us > 0)
		kbps100 = bytes * 100 * 1000000 / 1024 / k->total_us;
	printf("supercomp %s n=%ld size=%ld bytes=%llu usecs=%llu mean_us=%llu "
	    "sd_us=%llu min_us=%llu max_us=%llu kbps=%llu.%02llu\n", k->name,
	    k->n, k->size, bytes, k->total_us, mean,
	    k->n > 1 ? isqrt(ss / (k->n - 1)) : 0, k->min_us, k->max_us,
	    kbps100 / 100, kbps100 % 100);
}

/* One request of kind k at a random aligned offset; its time goes to k. */
static void
request(int fd, struct kind *k, char *buf, off_t size, int writing)
{
	u_int64_t slots = (u_int64_t)(size - k->size) / align + 1;
	off_t off = (off_t)(nextrand() % slots) * align;
	u_int64_t start, us;
	ssize_t got;

	if (writing)
		stamp(buf, k->size, "wrt", k->n);
	start = now_us();
	if (lseek(fd, off, SEEK_SET) < 0)
		err(1, "%s: lseek to %lld", path, (long long)off);
	got = writing ? write(fd, buf, k->size) : read(fd, buf, k->size);
	us = now_us() - start;
	if (got != k->size)
		err(1, "%s: %s of %ld at %lld", path, k->name, k->size,
		    (long long)off);
	k->us[k->n++] = us;
	k->total_us += us;
	if (k->n == 1 || us < k->min_us)
		k->min_us = us;
	if (us > k->max_us)
		k->max_us = us;
}

static void
run(void)
{
	struct kind rd = { "read" }, wr = { "write" };
	long i, j, nr;
	u_int64_t start, fstart, end;
	struct stat st;
	char *kinds, t, *buf;
	int fd;

	if (rsize <= 0 || wsize <= 0 || nreads < 0 || nwrites < 0 ||
	    nreads + nwrites == 0 || align <= 0 || count <= 0)
		usage();
	rd.size = rsize, wr.size = wsize;
	/* The split of count in the ratio nreads:nwrites, rounded. */
	nr = (long)(((long long)count * nreads * 2 + (nreads + nwrites)) /
	    (2 * (nreads + nwrites)));
	kinds = xmalloc(count);
	for (i = 0; i < count; i++)
		kinds[i] = i < nr ? 'r' : 'w';
	for (i = count - 1; i > 0; i--) {
		j = nextrand() % (i + 1);
		t = kinds[i], kinds[i] = kinds[j], kinds[j] = t;
	}
	rd.us = xmalloc(nr * sizeof(*rd.us));
	wr.us = xmalloc((count - nr) * sizeof(*wr.us));
	buf = xmalloc(rsize > wsize ? rsize : wsize);
	if ((fd = open(path, O_RDWR)) < 0)
		err(1, "%s", path);
	if (fstat(fd, &st) < 0)
		err(1, "%s", path);
	if (st.st_size < rsize || st.st_size < wsize)
		errx(1, "%s: %lld bytes, smaller than a request", path,
		    (long long)st.st_size);
	start = now_us();
	for (i = 0; i < count; i++) {
		if (kinds[i] == 'r')
			request(fd, &rd, buf, st.st_size, 0);
		else
			request(fd, &wr, buf, st.st_size, 1);
	}
	fstart = now_us();
	if (fsync(fd) < 0)
		err(1, "%s: fsync", path);
	end = now_us();
	close(fd);
	report(&rd);
	report(&wr);
	printf("supercomp fsync usecs=%llu\n", end - fstart);
	printf("supercomp run requests=%ld usecs=%llu\n", count, end - start);
}

int
main(int argc, char *argv[])
{
	const char *cmd = NULL;
	int ch;

	/* Options, then the command, then perhaps more options. */
	while (optind < argc) {
		while ((ch = getopt(argc, argv, "a:c:f:n:N:r:s:S:w:")) != -1) {
			switch (ch) {
			case 'a':
				align = number(optarg);
				break;
			case 'c':
				count = number(optarg);
				break;
			case 'f':
				path = optarg;
				break;
			case 'n':
				nreads = number(optarg);
				break;
			case 'N':
				nwrites = number(optarg);
				break;
			case 'r':
				rsize = number(optarg);
				break;
			case 's':
				filesize = number(optarg);
				break;
			case 'S':
				seed = (u_int32_t)number(optarg);
				if (seed == 0)	/* xorshift's fixed point */
					seed = 1;
				break;
			case 'w':
				wsize = number(optarg);
				break;
			default:
				usage();
			}
		}
		if (optind < argc) {
			if (cmd != NULL)
				usage();
			cmd = argv[optind++];
		}
	}
	if (cmd == NULL || path == NULL)
		usage();
	if (strcmp(cmd, "create") == 0)
		create();
	else if (strcmp(cmd, "verify") == 0)
		verify();
	else if (strcmp(cmd, "run") == 0)
		run();
	else
		usage();
	return 0;
}
