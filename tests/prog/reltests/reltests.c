/*
 * reltests: the reliability regressions of issue 14 that one process can
 * show: shrinking a file across its indirect levels, growing one past
 * the largest size, a write(2) that fails half way (EFAULT, ENOSPC),
 * and the space each gives back; and one that takes two: a truncation
 * while sync() runs.
 * One line per check, "(reltests) what: ok" or "... FAILED: why", and a
 * last line "N passed, M failed"; exit status 0 only if nothing failed.
 *
 *	usage: reltests [-d dir] [-n] [-t test]
 *	  -d dir  a writable directory on the file system to test (/tmp)
 *	  -n	  do not compare free space (LFS frees a block only when
 *		  the cleaner or a checkpoint gets to it)
 *	  -t test run only that one: shrink, bigtrunc, badwrite, fill or
 *		  synctrunc (the last two run only when asked: fill writes
 *		  until ENOSPC, synctrunc wants a file made for it)
 *
 * The kernel's own complaints ("bad block ... freed", "free inode had N
 * blocks") go to the console; the pytest file looks for them there.
 */
#include <sys/types.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/check.h"

#define KB		1024
#define MB		(1024 * 1024)
#define NDADDR		12
#define CHUNK		(64 * KB)
#define KERNEL_ADDR	((void *)0xC0000000)

static char dir[256] = "/tmp";
static int nospace;		/* -n: free space is not compared */
static char buf[CHUNK];		/* not on the stack (see badptrs) */

static const char *
path(const char *name)
{
	static char p[2][300];
	static int which;

	which ^= 1;
	snprintf(p[which], sizeof(p[which]), "%s/%s", dir, name);
	return p[which];
}

static unsigned char
pattern(off_t o)
{
	return (unsigned char)((o >> 12) * 7 + (o & 0xfff) * 13 + 1) | 1;
}

static long
freeblocks(void)
{
	struct statfs sf;

	sync();
	if (statfs(dir, &sf) < 0)
		return -1;
	return sf.f_bfree;
}

static long
blocksize(void)
{
	struct statfs sf;

	return statfs(dir, &sf) < 0 ? 4096 : sf.f_iosize;
}

static int
write_pattern(int fd, off_t off, off_t len)
{
	while (len > 0) {
		int n = len > CHUNK ? CHUNK : (int)len, i;

		for (i = 0; i < n; i++)
			buf[i] = (char)pattern(off + i);
		if (lseek(fd, off, SEEK_SET) < 0 || write(fd, buf, n) != n)
			return -1;
		off += n;
		len -= n;
	}
	return 0;
}

/* The first offset in [off, off + len) that does not hold the pattern. */
static off_t
verify(int fd, off_t off, off_t len)
{
	while (len > 0) {
		int n = len > CHUNK ? CHUNK : (int)len, i;

		if (lseek(fd, off, SEEK_SET) < 0 || read(fd, buf, n) != n)
			return off;
		for (i = 0; i < n; i++)
			if ((unsigned char)buf[i] != pattern(off + i))
				return off + i;
		off += n;
		len -= n;
	}
	return -1;
}

static struct stat
fstat_(int fd)
{
	struct stat st;

	memset(&st, 0, sizeof(st));
	fstat(fd, &st);
	return st;
}

/*
 * A 6 MB file (its last blocks under the double indirect block) shrunk
 * step by step across every level boundary: each step keeps the data
 * before it and gives back the blocks after it; the last one leaves no
 * block at all.
 */
static void
test_shrink(void)
{
	long bsize = blocksize(), before, after;
	off_t direct = NDADDR * bsize, single = direct + (bsize / 4) * bsize;
	off_t sizes[] = { 5 * MB, single + bsize + 1, single + bsize, single,
	    single - 1, direct + 3 * bsize, direct + 1, direct, 10000, 1, 0 };
	off_t bad;
	long prevblocks;
	struct stat st;
	char what[96];
	int fd, i, sparse;

	for (sparse = 0; sparse < 2; sparse++) {
		before = freeblocks();
		fd = open(path("shrink"), O_CREAT | O_RDWR | O_TRUNC, 0644);
		if (sparse) {
			/* Only the last byte: a tree of one block a level. */
			check(write_pattern(fd, 6 * MB - 1, 1) == 0,
			    "write the last byte of a sparse 6 MB file",
			    "errno %d", errno);
		} else {
			check(write_pattern(fd, 0, 6 * MB) == 0,
			    "write a 6 MB file", "errno %d", errno);
		}
		prevblocks = fstat_(fd).st_blocks;
		for (i = 0; i < (int)(sizeof(sizes) / sizeof(sizes[0])); i++) {
			int ok = ftruncate(fd, sizes[i]) == 0;

			snprintf(what, sizeof(what), "%sftruncate to %lld",
			    sparse ? "sparse: " : "", (long long)sizes[i]);
			st = fstat_(fd);
			/* (Shortening into a hole may allocate the new
			 * last block, so a sparse file may gain one.) */
			check(ok && st.st_size == sizes[i] &&
			    (sparse || st.st_blocks <= prevblocks), what,
			    "errno %d, size %lld, blocks %ld (were %ld)",
			    ok ? 0 : errno, (long long)st.st_size,
			    (long)st.st_blocks, prevblocks);
			prevblocks = st.st_blocks;
			if (!sparse) {
				bad = verify(fd, 0, sizes[i]);
				check(bad < 0, "  the data before it stays",
				    "differs at %lld", (long long)bad);
			}
		}
		st = fstat_(fd);
		check(st.st_blocks == 0, "  an empty file has no blocks",
		    "%ld", (long)st.st_blocks);
		close(fd);
		unlink(path("shrink"));
		after = freeblocks();
		if (!nospace)
			check(after == before, "  every block comes back",
			    "%ld free before, %ld after", before, after);
	}
}

/*
 * write(2) from a kernel address fails with EFAULT after the block was
 * allocated: the file keeps its size and its blocks, and the space comes
 * back (a truncate that frees blocks sized for the old size leaks them).
 */
static void
test_badwrite(void)
{
	static const struct { off_t size, at; int len; const char *what; }
	    cases[] = {
		{ 0, 0, 8192, "an empty file" },
		{ 1000, 1000, 3000, "a file ending in a fragment" },
		{ 5000, 5000, 100, "a file ending in a fragment, small" },
		{ 4096, 4096, 8192, "a file of one full block" },
		{ 20000, 200 * 1024, 8192, "past the direct blocks" },
		{ 0, 5 * MB, 4096, "an empty file, at 5 MB" },
	};
	long before, after;
	struct stat st0, st;
	char what[96];
	int fd, i, k, n, e;

	before = freeblocks();
	for (k = 0; k < 20; k++) {
		for (i = 0; i < (int)(sizeof(cases) / sizeof(cases[0])); i++) {
			fd = open(path("badwrite"), O_CREAT | O_RDWR | O_TRUNC,
			    0644);
			write_pattern(fd, 0, cases[i].size);
			fsync(fd);
			st0 = fstat_(fd);
			lseek(fd, cases[i].at, SEEK_SET);
			n = write(fd, KERNEL_ADDR, cases[i].len);
			e = errno;
			fsync(fd);
			st = fstat_(fd);
			close(fd);
			unlink(path("badwrite"));
			if (k > 0)
				continue;	/* the repeats are for the leak */
			snprintf(what, sizeof(what), "write from a kernel "
			    "address to %s", cases[i].what);
			check(n == -1 && e == EFAULT, what, "returned %d, "
			    "errno %d", n, e);
			check(st.st_size == st0.st_size &&
			    st.st_blocks == st0.st_blocks,
			    "  size and blocks unchanged", "size %lld -> %lld, "
			    "blocks %ld -> %ld", (long long)st0.st_size,
			    (long long)st.st_size, (long)st0.st_blocks,
			    (long)st.st_blocks);
		}
	}
	after = freeblocks();
	if (!nospace)
		check(after == before, "120 failed writes leave the free space "
		    "as it was", "%ld free before, %ld after", before, after);
}

/*
 * Fill the file system through one file (its error path truncates what
 * did not arrive), then shrink and remove it: the space comes back.
 */
static void
test_fill(void)
{
	long before = freeblocks(), after;
	off_t size = 0;
	struct stat st;
	int fd, n, i, e = 0;

	fd = open(path("fill"), O_CREAT | O_RDWR | O_TRUNC, 0644);
	for (;;) {
		for (i = 0; i < CHUNK; i++)
			buf[i] = (char)pattern(size + i);
		n = write(fd, buf, CHUNK);
		if (n <= 0) {
			e = errno;
			break;
		}
		size += n;
	}
	st = fstat_(fd);
	check(n < 0 && e == ENOSPC && st.st_size == size, "write until the "
	    "file system is full", "returned %d, errno %d, size %lld of %lld",
	    n, e, (long long)st.st_size, (long long)size);
	check(verify(fd, 0, size) < 0, "  what arrived reads back", "no");
	check(ftruncate(fd, size / 2) == 0 && verify(fd, 0, size / 2) < 0,
	    "  shrink it to half", "errno %d", errno);
	close(fd);
	unlink(path("fill"));
	after = freeblocks();
	if (!nospace)
		check(after == before, "  removing it gives every block back",
		    "%ld free before, %ld after", before, after);
}

/*
 * ftruncate past the largest file the layout addresses is EFBIG, as a
 * write there is: the last block's number would wrap to a small one
 * (the fuzzer found a file of 2^44 + 64 KB that fsck then cleared).
 */
static void
test_bigtrunc(void)
{
	static const off_t sizes[] = { (off_t)1 << 44, ((off_t)1 << 44) +
	    65536, ((off_t)1 << 62) + 5, 0x7fffffffffffffffLL };
	struct stat st;
	char what[96];
	int fd, i, r, e;

	fd = open(path("bigtrunc"), O_CREAT | O_RDWR | O_TRUNC, 0644);
	write_pattern(fd, 0, 5000);
	for (i = 0; i < (int)(sizeof(sizes) / sizeof(sizes[0])); i++) {
		r = ftruncate(fd, sizes[i]);
		e = errno;
		st = fstat_(fd);
		snprintf(what, sizeof(what), "ftruncate to %lld is EFBIG",
		    (long long)sizes[i]);
		check(r == -1 && e == EFBIG && st.st_size == 5000, what,
		    "returned %d, errno %d, size now %lld", r, e,
		    (long long)st.st_size);
	}
	close(fd);
	unlink(path("bigtrunc"));
}

/*
 * A truncation that sleeps (reading an indirect block from the disk)
 * while another process's sync() runs the segment writer.  LFS's writer
 * copies the inode then, without its lock, and clears its flags; the
 * blocks the truncation frees after the copy must still reach the disk
 * in a later copy.  They did not: the disk kept the new size with the
 * old pointers, blocks past the end of the file counted free.  Only the
 * checker sees that, so the pytest file unmounts and runs it.  The file
 * dir/synctrunc is the caller's: blocks under the single indirect block,
 * which must not be in the cache (mounted since it was written).
 */
static void
test_synctrunc(void)
{
	long bsize = blocksize();
	off_t keep = NDADDR * bsize - bsize / 2;	/* no indirect block */
	struct stat st;
	int fd, p[2], pid, r, e;
	char c;

	fd = open(path("synctrunc"), O_RDWR);
	st = fstat_(fd);
	check(fd >= 0 && st.st_size > NDADDR * bsize, "synctrunc is there",
	    "open: fd %d, size %lld", fd, (long long)st.st_size);
	if (fd < 0 || pipe(p) < 0)
		return;
	if ((pid = fork()) == 0) {
		close(p[0]);
		sync();
		write(p[1], "s", 1);		/* syncing from now on */
		for (;;)
			sync();
	}
	close(p[1]);
	read(p[0], &c, 1);
	r = ftruncate(fd, keep);
	e = errno;
	kill(pid, SIGKILL);
	reap(pid);
	close(p[0]);
	st = fstat_(fd);
	check(r == 0 && st.st_size == keep, "truncate while sync runs",
	    "returned %d, errno %d, size %lld", r, e, (long long)st.st_size);
	close(fd);
}

static const struct {
	const char *name;
	void	(*fn)(void);
	int	always;
} tests[] = {
	{ "shrink", test_shrink, 1 },
	{ "bigtrunc", test_bigtrunc, 1 },
	{ "badwrite", test_badwrite, 1 },
	{ "fill", test_fill, 0 },
	{ "synctrunc", test_synctrunc, 0 },
};
#define NTESTS	(int)(sizeof(tests) / sizeof(tests[0]))

int
main(int argc, char **argv)
{
	const char *only = NULL;
	int c, i;

	check_prog = "reltests";
	while ((c = getopt(argc, argv, "d:nt:")) != -1) {
		switch (c) {
		case 'd':
			snprintf(dir, sizeof(dir), "%s", optarg);
			break;
		case 'n':
			nospace = 1;
			break;
		case 't':
			only = optarg;
			break;
		default:
			fprintf(stderr, "usage: reltests [-d dir] [-n] "
			    "[-t test]\n");
			return 64;
		}
	}
	for (i = 0; i < NTESTS; i++) {
		if (only ? strcmp(only, tests[i].name) != 0 : !tests[i].always)
			continue;
		tests[i].fn();
	}
	return check_done();
}
