/*
 * clustertest: file data stays intact under a mix of sequential and
 * random writes, reads, truncations and fsyncs, the traffic that drives
 * EFS's clustered reads and writes (kern/vfs_cluster.c) through all their
 * cases: clusters that fill, clusters broken by a seek, read-ahead over
 * blocks still waiting to be written, delayed writes cut off by a
 * truncation.
 *
 *	usage: clustertest [-s seed] [-n ops] write file
 *	       clustertest [-s seed] [-n ops] verify file
 *
 * write: create the file and apply ops operations chosen by a generator
 * seeded with seed, to the file and to a copy in memory; reads along the
 * way and a last full read compare the file with the copy.  verify: replay
 * the same operations on the copy only and compare it with the file as
 * it is now (say, after an unmount and mount, when every block comes
 * from the disk).  One check line per comparison (tests/lib/check.c).
 */
#include <sys/types.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/check.h"

#define MAXSIZE	(3 * 1024 * 1024)	/* the file never grows past this */

static u_int32_t rng;
static char *model, *buf;		/* the expected file; an I/O buffer */
static long msize;			/* the expected file's size */

static u_int32_t
rnd(u_int32_t n)
{
	rng ^= rng << 13;		/* xorshift32 */
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng % n;
}

/* The bytes op number op writes at offset off: both depend on where. */
static void
fill(char *p, long off, long len, int op)
{
	long i;

	for (i = 0; i < len; i++)
		p[i] = (char)((off + i) * 7 + op * 13 + ((off + i) >> 12));
}

/* Does the file hold the model's bytes in [off, off + len)? */
static int
same(int fd, long off, long len)
{
	long n;

	if (lseek(fd, off, SEEK_SET) != off)
		return 0;
	while (len > 0) {
		n = read(fd, buf, len < 65536 ? len : 65536);
		if (n <= 0 || memcmp(buf, model + off, n) != 0)
			return 0;
		off += n;
		len -= n;
	}
	return 1;
}

/* Write [off, off + len) in pieces of chunk bytes, file (fd >= 0) and model. */
static int
put(int fd, long off, long len, long chunk, int op)
{
	long n;

	fill(model + off, off, len, op);
	if (off > msize)		/* a gap reads as zeros */
		memset(model + msize, 0, off - msize);
	if (off + len > msize)
		msize = off + len;
	if (fd < 0)
		return 1;
	if (lseek(fd, off, SEEK_SET) != off)
		return 0;
	for (; len > 0; off += n, len -= n) {
		n = len < chunk ? len : chunk;
		if (write(fd, model + off, n) != n)
			return 0;
	}
	return 1;
}

/*
 * Operation op: on the model, and on the file when fd >= 0.  Returns 0
 * when a system call failed or a read disagreed with the model.
 */
static int
step(int fd, int op)
{
	static const long chunks[] = { 4096, 8192, 65536, 1000, 512, 20000 };
	long off, len, k = rnd(100);

	if (k < 40) {			/* a sequential run, block aligned */
		off = (long)rnd(MAXSIZE / 4096) * 4096;
		len = (1 + rnd(64)) * 4096;
		if (off + len > MAXSIZE)
			len = MAXSIZE - off;
		return put(fd, off, len, chunks[rnd(6)], op);
	}
	if (k < 60) {			/* an append */
		off = msize;
		len = 1 + rnd(200000);
		if (off + len > MAXSIZE)
			return 1;
		return put(fd, off, len, chunks[rnd(6)], op);
	}
	if (k < 80) {			/* a small write anywhere */
		off = rnd(MAXSIZE - 20000);
		len = 1 + rnd(10000);
		return put(fd, off, len, len, op);
	}
	if (k < 92) {			/* read a stretch back */
		if (msize == 0)
			return 1;
		off = rnd(msize);
		len = 1 + rnd(300000);
		if (off + len > msize)
			len = msize - off;
		return fd < 0 || same(fd, off, len);
	}
	if (k < 96) {			/* truncate shorter */
		msize = msize ? rnd(msize) : 0;
		return fd < 0 || ftruncate(fd, msize) == 0;
	}
	return fd < 0 || fsync(fd) == 0;
}

int
main(int argc, char *argv[])
{
	int c, fd, op, nops = 300, verify, ok = 1;
	u_int32_t seed = 1;

	check_prog = "clustertest";
	while ((c = getopt(argc, argv, "s:n:")) != -1) {
		switch (c) {
		case 's':
			seed = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			nops = atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2 || (strcmp(argv[0], "write") != 0 &&
	    strcmp(argv[0], "verify") != 0) || nops < 0)
		goto usage;
	verify = argv[0][0] == 'v';
	rng = seed ? seed : 1;
	model = malloc(MAXSIZE);
	buf = malloc(65536);
	if (model == NULL || buf == NULL) {
		fprintf(stderr, "clustertest: out of memory\n");
		return 2;
	}
	fd = verify ? open(argv[1], O_RDONLY) :
	    open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		fprintf(stderr, "clustertest: %s: %s\n", argv[1],
		    strerror(errno));
		return 2;
	}
	for (op = 0; op < nops && ok; op++)
		if (!(ok = step(verify ? -1 : fd, op)))
			check(0, "every operation", "operation %d failed or "
			    "read wrong data (errno %d)", op, errno);
	if (ok && !verify)
		check(1, "every operation", "%d operations", nops);
	check(lseek(fd, 0, SEEK_END) == msize, "the file's size",
	    "%ld, expected %ld", (long)lseek(fd, 0, SEEK_END), msize);
	check(same(fd, 0, msize), verify ? "the file read back from disk" :
	    "the file read back", "differs from what was written");
	close(fd);
	return check_done();
usage:
	fprintf(stderr, "usage: clustertest [-s seed] [-n ops] write|verify "
	    "file\n");
	return 2;
}
