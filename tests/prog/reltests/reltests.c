/*
 * reltests: the reliability regressions of issue 14 that one process can
 * show: shrinking a file across its indirect levels, growing one past
 * the largest size, a write(2) that fails half way (EFAULT, ENOSPC),
 * and the space each gives back; and those that take several: a
 * truncation while sync() runs, renames that lock two directories or
 * two files at once (issue 21).
 * One line per check, "(reltests) what: ok" or "... FAILED: why", and a
 * last line "N passed, M failed"; exit status 0 only if nothing failed.
 *
 *	usage: reltests [-d dir] [-i iters] [-n] [-t test]
 *	  -d dir  a writable directory on the file system to test (/tmp)
 *	  -i n	  loops of each worker of the renames test (200)
 *	  -n	  do not compare free space (LFS frees a block only when
 *		  the cleaner or a checkpoint gets to it)
 *	  -t test run only that one: shrink, bigtrunc, badwrite, fill,
 *		  synctrunc or renames (the last three run only when asked:
 *		  fill writes until ENOSPC, synctrunc wants a file made for
 *		  it, renames leaves its trees in dir)
 *
 * The kernel's own complaints ("bad block ... freed", "free inode had N
 * blocks") go to the console; the pytest file looks for them there.
 */
#include <sys/types.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/*
 * Renames that lock two directories, or two files, at once (issue 21).
 * Every such rename must take its locks in the one order, or two of them
 * can each hold what the other waits for, for good.  Each shape runs
 * four processes, one role each (a letter): two in the middle make the
 * conflicting calls over and over, and the first and the last keep the
 * contested vnodes locked across disk writes (mkdir and rmdir in a
 * directory, fsync of a file), so that both often wait for the same
 * vnode; booted with lockyield=2 (kern/kern_lock.c) they also give up
 * the CPU between their locks.  A worker still running after RN_WATCHDOG
 * seconds is a deadlock; the processes are shown.
 */
#define RN_PROCS	4		/* the most roles a shape has */
#define RN_WATCHDOG	60

static int rn_iters = 200;		/* -i: the loops of each worker */

/* A path under dir, from a pattern with at most one %d. */
static const char *
rn(const char *fmt, int n)
{
	static char p[4][300];
	static int which;
	char tail[64];

	which = (which + 1) % 4;
	snprintf(tail, sizeof(tail), fmt, n);
	snprintf(p[which], sizeof(p[which]), "%s/%s", dir, tail);
	return p[which];
}

/* An error a worker did not expect: said, and the worker fails. */
static int
rn_fail(int me, const char *what, const char *a, int e)
{
	printf("reltests: worker %d: %s %s: errno %d\n", me, what, a, e);
	return 1;
}

/*
 * A write to the disk outside every contested vnode: the holders below
 * let go and sleep here, so the scheduler's round robin, which starts
 * after the holder, decides who gets the vnode next (the worker after it).
 */
static int
rn_rest(int me)
{
	int fd = open(rn("rest%d", me), O_CREAT | O_WRONLY, 0644), ok;

	ok = fd >= 0 && write(fd, "r", 1) == 1 && fsync(fd) == 0;
	if (fd >= 0)
		close(fd);
	return ok ? 0 : rn_fail(me, "write/fsync", rn("rest%d", me), errno);
}

/* Keep directory d locked across disk writes: mkdir and rmdir in it. */
static int
rn_busydir(int me, const char *d)
{
	char x[300];
	int i;

	snprintf(x, sizeof(x), "%s/x%d", d, me);
	for (i = 0; i < rn_iters; i++) {
		if (mkdir(x, 0755) < 0)
			return rn_fail(me, "mkdir", x, errno);
		if (rn_rest(me) || rmdir(x) < 0 || rn_rest(me))
			return rn_fail(me, "rmdir", x, errno);
	}
	return 0;
}

/* Keep file f locked across disk writes: write and fsync it. */
static int
rn_busyfile(int me, const char *f)
{
	int fd = open(f, O_WRONLY), i;

	for (i = 0; fd >= 0 && i < rn_iters; i++)
		if (lseek(fd, 0, SEEK_SET) != 0 || write(fd, "x", 1) != 1 ||
		    fsync(fd) < 0 || rn_rest(me))
			break;
	if (fd < 0 || i < rn_iters)
		return rn_fail(me, "write/fsync", f, errno);
	close(fd);
	return 0;
}

/*
 * Directories a and b in p, each holding a file so neither may replace
 * the other: a rename of a over b within p (ENOTEMPTY once both are
 * locked) against moves of a subdirectory between a and b (the mount's
 * rename lock), which lock a and b in either order.
 */
static void
rn_dirs_tree(void)
{
	mkdir(rn("p", 0), 0755);
	mkdir(rn("p/a", 0), 0755);
	mkdir(rn("p/b", 0), 0755);
	close(open(rn("p/a/keep", 0), O_CREAT | O_WRONLY, 0644));
	close(open(rn("p/b/keep", 0), O_CREAT | O_WRONLY, 0644));
	mkdir(rn("p/a/s", 0), 0755);
}

static int
rn_dirs(int me, char role)
{
	int i;

	if (role == 'a' || role == 'b')
		return rn_busydir(me, rn(role == 'a' ? "p/a" : "p/b", 0));
	for (i = 0; i < rn_iters; i++) {
		if (role == 'X') {
			if (rename(rn("p/a", 0), rn("p/b", 0)) == 0 ||
			    errno != ENOTEMPTY)
				return rn_fail(me, "rename", "p/a p/b", errno);
			if (rename(rn("p/b", 0), rn("p/a", 0)) == 0 ||
			    errno != ENOTEMPTY)
				return rn_fail(me, "rename", "p/b p/a", errno);
		} else if (rename(rn("p/a/s", 0), rn("p/b/s", 0)) < 0 ||
		    rename(rn("p/b/s", 0), rn("p/a/s", 0)) < 0)
			return rn_fail(me, "rename", "p/a/s p/b/s", errno);
		if (rn_rest(me))
			return 1;
	}
	return 0;
}

/*
 * Two files F1 and F2 with names in h, and with names a and b in each of
 * d0 and d1 that always name the two different files: a rename of a
 * over b in d0 and in d1, each making its a again as a link to the file
 * its b no longer names.  The two renames lock F1 and F2 in either order.
 */
static void
rn_files_tree(void)
{
	mkdir(rn("h", 0), 0755);
	mkdir(rn("d0", 0), 0755);
	mkdir(rn("d1", 0), 0755);
	close(open(rn("h/F1", 0), O_CREAT | O_WRONLY, 0644));
	close(open(rn("h/F2", 0), O_CREAT | O_WRONLY, 0644));
	link(rn("h/F1", 0), rn("d0/a", 0));
	link(rn("h/F2", 0), rn("d0/b", 0));
	link(rn("h/F2", 0), rn("d1/a", 0));
	link(rn("h/F1", 0), rn("d1/b", 0));
}

static int
rn_files(int me, char role)
{
	struct stat f1, b;
	char a[300], bn[300];
	int i;

	if (role == '1' || role == '2')
		return rn_busyfile(me, rn("h/F%d", role - '0'));
	if (stat(rn("h/F1", 0), &f1) < 0)
		return rn_fail(me, "stat", "h/F1", errno);
	snprintf(a, sizeof(a), "%s", rn("d%d/a", role - 'X'));
	snprintf(bn, sizeof(bn), "%s", rn("d%d/b", role - 'X'));
	for (i = 0; i < rn_iters; i++) {
		if (rename(a, bn) < 0)
			return rn_fail(me, "rename", a, errno);
		if (stat(bn, &b) < 0)
			return rn_fail(me, "stat", bn, errno);
		if (link(rn(b.st_ino == f1.st_ino ? "h/F2" : "h/F1", 0), a) < 0)
			return rn_fail(me, "link", a, errno);
	}
	return 0;
}

static void
rn_run(const char *what, void (*tree)(void), int (*fn)(int, char),
    const char *roles)
{
	int pids[RN_PROCS], status[RN_PROCS], left, i, t, bad = 0;
	int nproc = (int)strlen(roles);

	tree();
	for (i = 0; i < nproc; i++) {
		status[i] = -1;
		if ((pids[i] = fork()) == 0)
			exit(fn(i, roles[i]));
	}
	for (t = 0, left = nproc; left > 0 && t < 10 * RN_WATCHDOG; t++) {
		for (i = 0; i < nproc; i++) {
			if (pids[i] > 0 && status[i] == -1 &&
			    waitpid(pids[i], &status[i], WNOHANG) == pids[i])
				left--;
		}
		if (left > 0)
			usleep(100000);	/* a watchdog, not a wait for work */
	}
	for (i = 0; i < nproc; i++)
		if (status[i] != -1 && !exited_with(status[i], 0))
			bad++;
	if (left > 0) {
		fflush(stdout);
		system("/bin/ps -alx");		/* who sleeps where */
		for (i = 0; i < nproc; i++)
			if (status[i] == -1)
				kill(pids[i], SIGKILL);
	}
	check(left == 0 && bad == 0, what, "%d of %d workers stuck after "
	    "%d s, %d failed", left, nproc, RN_WATCHDOG, bad);
}

static void
test_renames(void)
{
	rn_run("a directory over its sibling, against moves between them",
	    rn_dirs_tree, rn_dirs, "aXYb");
	rn_run("files with names in two directories, renamed over each other",
	    rn_files_tree, rn_files, "1XY2");
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
	{ "renames", test_renames, 0 },
};
#define NTESTS	(int)(sizeof(tests) / sizeof(tests[0]))

int
main(int argc, char **argv)
{
	const char *only = NULL;
	int c, i, ran = 0;

	check_prog = "reltests";
	while ((c = getopt(argc, argv, "d:i:nt:")) != -1) {
		switch (c) {
		case 'd':
			snprintf(dir, sizeof(dir), "%s", optarg);
			break;
		case 'i':
			rn_iters = atoi(optarg);
			break;
		case 'n':
			nospace = 1;
			break;
		case 't':
			only = optarg;
			break;
		default:
			fprintf(stderr, "usage: reltests [-d dir] [-i iters] "
			    "[-n] [-t test]\n");
			return 64;
		}
	}
	for (i = 0; i < NTESTS; i++) {
		if (only ? strcmp(only, tests[i].name) != 0 : !tests[i].always)
			continue;
		tests[i].fn();
		ran++;
	}
	if (ran == 0) {
		fprintf(stderr, "reltests: no test named %s\n", only);
		return 64;
	}
	return check_done();
}
