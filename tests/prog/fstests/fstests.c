/*
 * fstests: the file system under load, in the style of xv6's usertests.
 * One line per check, "(fstests) what: ok" or "... FAILED: why", and a
 * last line "N passed, M failed"; the exit status is 0 only if nothing
 * failed.
 *
 *	usage: fstests [-d dir] [-n] [-t test]
 *	  -d dir  a writable directory (default /tmp); the tests work in
 *		  dir/fstests.d and remove it at the end
 *	  -n	  instead of the other tests, fill dir's file system until
 *		  writes fail with ENOSPC, then check that removing the files
 *		  gives every block and inode back (use a small, empty one);
 *		  the same as -t enospc
 *	  -t test run only that test: indirtrunc, names, bigfile, holes,
 *		  truncate, bigdir, concurrent or enospc
 *
 * File data is a byte pattern that depends on the offset and a seed, so
 * a block read from the wrong place, or another file's block, shows.
 * Block-size limits (12 direct blocks, then single and double indirect)
 * come from statfs, so the big file reaches the double indirect blocks
 * whatever the block size.  Each test checks its files before it removes
 * any, so no check depends on what a removal might disturb in the buffer
 * cache.  Data buffers are not on the stack: see badptrs.  The helpers
 * are in util.c.
 */
#include "fstests.h"

static void
test_names(long bsize)
{
	struct stat st;
	char got[16];
	ino_t f;
	int fd, old, n;

	mkdir(tpath("a"), 0755);
	mkdir(tpath("b"), 0755);
	fd = open(tpath("a/f"), O_CREAT | O_WRONLY, 0644);
	write(fd, "hello", 5);
	close(fd);
	f = inum(tpath("a/f"));
	check(link(tpath("a/f"), tpath("b/g")) == 0 && inum(tpath("b/g")) == f &&
	    nlinks(tpath("a/f")) == 2, "link across directories", "errno %d",
	    errno);
	check(rename(tpath("b/g"), tpath("a/h")) == 0 && inum(tpath("a/h")) == f &&
	    inum(tpath("b/g")) == 0 && nlinks(tpath("a/f")) == 2,
	    "rename a link back across", "errno %d", errno);
	fd = open(tpath("b/x"), O_CREAT | O_WRONLY, 0644);
	write(fd, "old", 3);
	close(fd);
	old = open(tpath("b/x"), O_RDONLY);
	check(rename(tpath("a/h"), tpath("b/x")) == 0 && inum(tpath("b/x")) == f,
	    "rename over an existing file", "errno %d", errno);
	fstat(old, &st);
	n = read(old, got, sizeof(got));
	check(n == 3 && memcmp(got, "old", 3) == 0 && st.st_nlink == 0,
	    "the replaced file lives on through an open descriptor",
	    "read %d, nlink %d", n, (int)st.st_nlink);
	close(old);
	check(rename(tpath("b/x"), tpath("b/x")) == 0 && inum(tpath("b/x")) == f,
	    "rename a file onto itself", "errno %d", errno);
	check(unlink(tpath("a/f")) == 0 && nlinks(tpath("b/x")) == 1,
	    "unlink one of two names", "nlink %d", (int)nlinks(tpath("b/x")));

	mkdir(tpath("a/sub"), 0755);
	check(nlinks(tpath("a")) == 3, "a subdirectory adds a link to its "
	    "parent", "nlink %d", (int)nlinks(tpath("a")));
	check(rename(tpath("a/sub"), tpath("b/sub")) == 0 &&
	    inum(tpath("b/sub/..")) == inum(tpath("b")) &&
	    nlinks(tpath("a")) == 2 && nlinks(tpath("b")) == 3,
	    "rename a directory across: .. and link counts follow",
	    "a %d, b %d links", (int)nlinks(tpath("a")), (int)nlinks(tpath("b")));
	mkdir(tpath("a/empty"), 0755);
	check(rename(tpath("a/empty"), tpath("b/sub")) == 0 &&
	    nlinks(tpath("b")) == 3 && nlinks(tpath("a")) == 2,
	    "rename a directory over an empty one", "errno %d", errno);

	fd = open(tpath("b/x"), O_RDONLY);
	unlink(tpath("b/x"));
	n = read(fd, got, sizeof(got));
	check(n == 5 && memcmp(got, "hello", 5) == 0, "an unlinked open file "
	    "is still readable", "read %d", n);
	close(fd);
	check(rmdir(tpath("b/sub")) == 0 && rmdir(tpath("a")) == 0 &&
	    rmdir(tpath("b")) == 0, "the directories empty out and go",
	    "errno %d", errno);
}

/*
 * Freeing an indirect block must write only inside it.  The kernel hands
 * out free pages lowest first, so heap pages we map just before a
 * truncation are the pages right below the one the truncation reads the
 * indirect block into; after it they must still hold what we put there.
 */
static void
test_indirtrunc(long bsize)
{
	unsigned char *heap;
	int k, i, fd, bad, hit = 0, first = -1, changed = 0;

	sbrk(PAGE - ((u_int32_t)sbrk(0) & (PAGE - 1)));
	for (k = 0; k < 8; k++) {
		fd = open(tpath("ind%d", k), O_CREAT | O_RDWR | O_TRUNC, 0644);
		write_pattern(fd, 0, (NDADDR + 1) * bsize, 4);
		fsync(fd);
		heap = sbrk(4 * PAGE);
		memset(heap, 0x5a, 4 * PAGE);
		ftruncate(fd, 0);
		for (i = 0, bad = 0; i < 4 * PAGE; i++)
			if (heap[i] != 0x5a && bad++ == 0 && hit == 0)
				first = i;
		if (bad && hit++ == 0)
			changed = bad;
		close(fd);
		unlink(tpath("ind%d", k));
	}
	check(hit == 0, "truncating a file with an indirect block writes "
	    "nowhere else", "%d of 8 truncations changed memory we mapped "
	    "just before; the first changed %d bytes from byte %d of %d",
	    hit, changed, first, 4 * PAGE);
}

/* A file through the direct, single and double indirect blocks. */
static void
test_bigfile(long bsize)
{
	off_t dbl = (off_t)(NDADDR + bsize / 4) * bsize;
	off_t size = dbl + 2 * 1024 * 1024 + 1000, bad;
	long before, after;
	struct stat st;
	int fd, wrote;
	char why[96];

	before = freeblocks();
	fd = open(tpath("big"), O_CREAT | O_RDWR | O_TRUNC, 0644);
	wrote = write_pattern(fd, 0, size, 1) == 0;
	check(wrote, "write a file into the double indirect blocks",
	    "errno %d", errno);
	fsync(fd);
	fstat(fd, &st);
	snprintf(why, sizeof(why), "size %ld, %ld blocks", (long)st.st_size,
	    (long)st.st_blocks);
	check(st.st_size == size && st.st_blocks >= size / 512 &&
	    st.st_blocks < size / 512 + size / 512 / 50, "its size and blocks",
	    why);
	bad = verify(fd, 0, size, 1);
	check(bad == -1, "read it all back", "wrong byte at %ld", (long)bad);
	bad = verify(fd, dbl - 10, 20, 1);
	check(bad == -1, "read across the single/double indirect boundary",
	    "wrong byte at %ld", (long)bad);
	close(fd);
	unlink(tpath("big"));
	after = freeblocks();
	check(after == before, "removing it frees every block",
	    "%ld free before, %ld after", before, after);
}

static void
test_holes(long bsize)
{
	off_t dbl = (off_t)(NDADDR + bsize / 4) * bsize;
	off_t at[3] = { 0, NDADDR * bsize + 100, dbl + 5000 }, bad;
	struct stat st;
	int fd, i;

	fd = open(tpath("holes"), O_CREAT | O_RDWR | O_TRUNC, 0644);
	for (i = 0; i < 3; i++)
		write_pattern(fd, at[i], 100, 2);
	fstat(fd, &st);
	check(st.st_size == at[2] + 100, "a sparse file's size", "%ld",
	    (long)st.st_size);
	check(st.st_blocks <= 8 * (bsize / 512), "holes take no space",
	    "%ld blocks", (long)st.st_blocks);
	bad = verify(fd, 100, at[1] - 100, -1);
	check(bad == -1, "a hole in the direct blocks reads as zeros",
	    "byte %ld not zero", (long)bad);
	bad = verify(fd, at[1] + 100, at[2] - at[1] - 100, -1);
	check(bad == -1, "a hole across the indirect blocks reads as zeros",
	    "byte %ld not zero", (long)bad);
	for (i = 0, bad = -1; i < 3 && bad == -1; i++)
		bad = verify(fd, at[i], 100, 2);
	check(bad == -1, "the data around the holes", "byte %ld wrong",
	    (long)bad);
	write_pattern(fd, dbl / 2, 3 * bsize, 2);
	bad = verify(fd, dbl / 2, 3 * bsize, 2);
	check(bad == -1 && verify(fd, dbl / 2 - 10, 10, -1) == -1,
	    "filling part of a hole", "byte %ld", (long)bad);
	ftruncate(fd, 10 * 1024 * 1024);
	bad = verify(fd, at[2] + 100, 10 * 1024 * 1024 - at[2] - 100, -1);
	check(bad == -1, "truncating up leaves a hole of zeros",
	    "byte %ld not zero", (long)bad);
	close(fd);
	unlink(tpath("holes"));
}

/* Truncate down through the block boundaries, re-reading each time. */
static void
test_truncate(long bsize)
{
	off_t sizes[] = { 200000, 150000, NDADDR * bsize + 1, NDADDR * bsize,
	    bsize + 1, bsize, bsize - 1, 1025, 1024, 1, 0 }, bad;
	struct stat st;
	long before;
	char what[64], c;
	unsigned i;
	int fd;

	fd = open(tpath("trunc"), O_CREAT | O_RDWR | O_TRUNC, 0644);
	before = freeblocks();
	write_pattern(fd, 0, sizes[0], 3);
	for (i = 1; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		ftruncate(fd, sizes[i]);
		fstat(fd, &st);
		bad = verify(fd, 0, sizes[i], 3);
		snprintf(what, sizeof(what), "truncate to %ld and re-read",
		    (long)sizes[i]);
		check(st.st_size == sizes[i] && bad == -1 &&
		    read(fd, &c, 1) == 0, what, "size %ld, wrong byte at %ld",
		    (long)st.st_size, (long)bad);
	}
	check(st.st_blocks == 0 && freeblocks() == before, "an empty file "
	    "holds no blocks", "%ld blocks, %ld free before, %ld after",
	    (long)st.st_blocks, before, freeblocks());
	write_pattern(fd, 0, 10000, 3);
	ftruncate(fd, 3000);
	ftruncate(fd, 9000);
	bad = verify(fd, 3000, 6000, -1);
	check(bad == -1 && verify(fd, 0, 3000, 3) == -1, "truncate down then "
	    "up: the old data does not come back", "byte %ld not zero",
	    (long)bad);
	write_pattern(fd, 20000, 1, 3);
	bad = verify(fd, 9000, 11000, -1);
	check(bad == -1, "writing past the end: the gap reads as zeros",
	    "byte %ld not zero", (long)bad);
	close(fd);
	unlink(tpath("trunc"));
}

/* Names in the big directory: fills seen[]; the count of other names. */
static int
listdir(const char *name, char *seen, int *dots)
{
	static char dbuf[4096];
	long base;
	int fd, n, k, others = 0;

	memset(seen, 0, NDIRFILES);
	*dots = 0;
	fd = open(name, O_RDONLY);
	while ((n = getdirentries(fd, dbuf, sizeof(dbuf), &base)) > 0) {
		char *cp = dbuf;

		while (cp < dbuf + n) {
			struct dirent *dp = (struct dirent *)cp;

			if (dp->d_reclen == 0)
				break;
			cp += dp->d_reclen;
			if (dp->d_fileno == 0)
				continue;
			if (strcmp(dp->d_name, ".") == 0 ||
			    strcmp(dp->d_name, "..") == 0)
				(*dots)++;
			else if (sscanf(dp->d_name, "f%d", &k) == 1 && k >= 0 &&
			    k < NDIRFILES)
				seen[k]++;
			else
				others++;
		}
	}
	close(fd);
	return n < 0 ? -1 : others;
}

static void
test_bigdir(long bsize)
{
	static char seen[NDIRFILES];
	int i, fd, made = 0, once = 0, others, dots, gone = 0;

	mkdir(tpath("dir"), 0755);
	for (i = 0; i < NDIRFILES; i++) {
		fd = open(tpath("dir/f%d", i), O_CREAT | O_EXCL | O_WRONLY,
		    0644);
		if (fd >= 0) {
			made++;
			close(fd);
		}
	}
	check(made == NDIRFILES, "create 2000 files in one directory",
	    "%d made, errno %d", made, errno);
	others = listdir(tpath("dir"), seen, &dots);
	for (i = 0; i < NDIRFILES; i++)
		once += seen[i] == 1;
	check(once == NDIRFILES && others == 0 && dots == 2,
	    "getdirentries lists each name once", "%d of 2000 once, %d "
	    "others, %d dots", once, others, dots);
	for (i = 0; i < NDIRFILES; i++)
		gone += unlink(tpath("dir/f%d", i)) == 0;
	check(gone == NDIRFILES, "remove them all", "%d removed", gone);
	others = listdir(tpath("dir"), seen, &dots);
	for (i = 0, once = 0; i < NDIRFILES; i++)
		once += seen[i];
	check(once == 0 && others == 0 && dots == 2, "the directory lists "
	    "empty again", "%d names left", once + others);
	check(rmdir(tpath("dir")) == 0, "and can be removed", "errno %d", errno);
}

/* Appender id: NRECORDS records "id seq" padded with the id's letter. */
static void
appender(int id)
{
	static char rec[RECLEN];
	int fd = open(tpath("shared"), O_WRONLY | O_APPEND), i;

	for (i = 0; i < NRECORDS; i++) {
		memset(rec, 'a' + id, RECLEN);
		snprintf(rec, 16, "%d %03d ", id, i);
		rec[RECLEN - 1] = '\n';
		if (write(fd, rec, RECLEN) != RECLEN)
			_exit(1);
	}
	_exit(0);
}

/* Check the shared file: every record whole, each appender's in order. */
static int
check_records(int fd, int *torn)
{
	static char rec[RECLEN];
	int next[NAPPENDERS] = { 0 }, id, seq, j, n = 0;

	*torn = 0;
	lseek(fd, 0, SEEK_SET);
	while (read(fd, rec, RECLEN) == RECLEN) {
		n++;
		if (sscanf(rec, "%d %d", &id, &seq) != 2 || id < 0 ||
		    id >= NAPPENDERS || seq != next[id]) {
			(*torn)++;
			continue;
		}
		next[id]++;
		for (j = 8; j < RECLEN - 1; j++)
			if (rec[j] != 'a' + id)
				break;
		if (j < RECLEN - 1)
			(*torn)++;
	}
	return n;
}

static void
test_concurrent(long bsize)
{
	struct stat st;
	pid_t pids[NWRITERS + NAPPENDERS];
	int i, fd, status, clean = 0, torn, n, good = 0;
	char why[96] = "";
	off_t bad;

	close(open(tpath("shared"), O_CREAT | O_WRONLY | O_TRUNC, 0644));
	for (i = 0; i < NWRITERS + NAPPENDERS; i++) {
		pids[i] = fork();
		if (pids[i] == 0 && i < NWRITERS) {
			fd = open(tpath("own%d", i), O_CREAT | O_WRONLY |
			    O_TRUNC, 0644);
			_exit(write_pattern(fd, 0, OWNSIZE, 10 + i) != 0);
		}
		if (pids[i] == 0)
			appender(i - NWRITERS);
	}
	for (i = 0; i < NWRITERS + NAPPENDERS; i++)
		if (waitpid(pids[i], &status, 0) == pids[i] &&
		    WIFEXITED(status) && WEXITSTATUS(status) == 0)
			clean++;
	check(clean == NWRITERS + NAPPENDERS, "8 concurrent writers finish",
	    "%d did", clean);
	/* Check everything before removing anything: see the top. */
	for (i = 0; i < NWRITERS; i++) {
		fd = open(tpath("own%d", i), O_RDONLY);
		fstat(fd, &st);
		bad = verify(fd, 0, OWNSIZE, 10 + i);
		if (st.st_size == OWNSIZE && bad == -1)
			good++;
		else if (!why[0])
			snprintf(why, sizeof(why), "writer %d: size %ld, wrong "
			    "byte at %ld", i, (long)st.st_size, (long)bad);
		close(fd);
	}
	check(good == NWRITERS, "each writer's file holds exactly its data",
	    "%d of %d good; %s", good, NWRITERS, why);
	fd = open(tpath("shared"), O_RDONLY);
	fstat(fd, &st);
	check(st.st_size == NAPPENDERS * NRECORDS * RECLEN, "O_APPEND: the "
	    "shared file's size is exact", "%ld, want %d", (long)st.st_size,
	    NAPPENDERS * NRECORDS * RECLEN);
	n = check_records(fd, &torn);
	check(n == NAPPENDERS * NRECORDS && torn == 0, "O_APPEND: no record "
	    "lost, torn or out of order", "%d records, %d bad", n, torn);
	close(fd);
	for (i = 0; i < NWRITERS; i++)
		unlink(tpath("own%d", i));
	unlink(tpath("shared"));
}

/* Fill the file system through four files until ENOSPC. */
static void
test_enospc(long bsize)
{
	struct statfs before, full, after;
	long long total = 0, written[4] = { 0 };
	int fds[4], i, n = 0, err = 0, intact = 1;
	char why[80];
	off_t bad;

	sync();
	statfs(check_dir, &before);
	for (i = 0; i < 4; i++)
		fds[i] = open(tpath("fill%d", i), O_CREAT | O_RDWR | O_TRUNC,
		    0644);
	for (i = 0; err == 0; i = (i + 1) % 4) {
		fill((unsigned char *)buf, written[i], 16384, 20 + i);
		n = write(fds[i], buf, 16384);
		if (n > 0) {
			written[i] += n;
			total += n;
		}
		if (n < 0)
			err = errno;
	}
	check(err == ENOSPC, "writes stop with ENOSPC", "errno %d (%s)", err,
	    strerror(err));
	check(total > before.f_bfree * before.f_bsize / 2, "most of the free "
	    "space was written", "%lld bytes of %ld free", total,
	    before.f_bfree * before.f_bsize);
	for (i = 0; i < 4 && intact; i++) {
		if (fsync(fds[i]) != 0) {
			snprintf(why, sizeof(why), "fsync of fill%d: %s", i,
			    strerror(errno));
			intact = 0;
		} else if ((bad = verify(fds[i], 0, written[i], 20 + i)) !=
		    -1) {
			snprintf(why, sizeof(why), "fill%d differs at byte "
			    "%ld of %lld", i, (long)bad, written[i]);
			intact = 0;
		}
	}
	check(intact, "a full file system still reads back what it took",
	    "%s", why);
	/* Nothing left for users: what is free is the layout's reserve
	 * (FFS's minfree, LFS's segments for the cleaner). */
	statfs(check_dir, &full);
	check(full.f_bavail < before.f_bfree / 20, "statfs says full",
	    "%ld of %ld available", full.f_bavail, before.f_bfree);
	for (i = 0; i < 4; i++) {
		close(fds[i]);
		unlink(tpath("fill%d", i));
	}
	sync();
	statfs(check_dir, &after);
	check(after.f_bfree == before.f_bfree, "removing the files gives every "
	    "block back", "%ld free before, %ld after", before.f_bfree,
	    after.f_bfree);
	check(after.f_ffree == before.f_ffree, "and every inode",
	    "%ld free before, %ld after", before.f_ffree, after.f_ffree);
}

static const struct test {
	const char *name;
	void	(*fn)(long bsize);
} tests[] = {
	{ "indirtrunc", test_indirtrunc }, { "names", test_names },
	{ "bigfile", test_bigfile },
	{ "holes", test_holes }, { "truncate", test_truncate },
	{ "bigdir", test_bigdir }, { "concurrent", test_concurrent },
	{ "enospc", test_enospc },	/* only when asked: it fills the disk */
};
#define NTESTS	(int)(sizeof(tests) / sizeof(tests[0]))

static void
usage(void)
{
	fprintf(stderr, "usage: fstests [-d dir] [-n] [-t test]\n");
	exit(64);
}

int
main(int argc, char **argv)
{
	struct statfs sfs;
	const char *only = NULL;
	int c, i;

	while ((c = getopt(argc, argv, "d:nt:")) != -1) {
		if (c == 'd')
			strncpy(check_dir, optarg, sizeof(check_dir) - 1);
		else if (c == 'n')
			only = "enospc";
		else if (c == 't')
			only = optarg;
		else
			usage();
	}
	for (i = 0; only && i < NTESTS; i++)
		if (strcmp(only, tests[i].name) == 0)
			break;
	if (optind != argc || i == NTESTS)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	check_prog = "fstests";
	snprintf(buf, sizeof(buf), "%s/fstests.d", check_dir);
	if (mkdir(buf, 0755) < 0 || statfs(buf, &sfs) < 0) {
		fprintf(stderr, "fstests: %s: %s\n", buf, strerror(errno));
		return 1;
	}
	for (i = 0; i < NTESTS; i++)
		if (only ? strcmp(only, tests[i].name) == 0 :
		    strcmp(tests[i].name, "enospc") != 0)
			tests[i].fn(sfs.f_iosize);
	snprintf(buf, sizeof(buf), "%s/fstests.d", check_dir);
	check(rmdir(buf) == 0, "everything removed", "rmdir: errno %d", errno);
	return check_done();
}
