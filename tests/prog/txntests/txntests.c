/*
 * txntests: kernel transactions on BSD-LFS (thesis 5.2), from the
 * outside.  Run in a directory of a mounted LFS:
 *	txntests -d dir [-t test]
 * Each test makes its own files in dir/txntests.d and checks what a
 * user of txn_begin, txn_commit, txn_abort and txn_detect is promised:
 *
 *   misuse	commit or abort with none, begin twice: errors, not panics
 *   flags	chflags txn on files, not directories; notxn clears it
 *   abort	each operation (overwrite a page, part of a page, an
 *		append of a new block, two files) then txn_abort: the
 *		files read exactly as before, sizes included
 *   commit	the same then txn_commit: the files read as written
 *   holes	filling a hole then aborting: a hole again, blocks too
 *   isolation	writers overwrite a file with one letter per transaction,
 *		readers read it twice in theirs: one letter, both times
 *   ring	n = 2, 4, 10 processes each lock page i and then want page
 *		(i + 1) mod n: exactly one victim, ETXNABORT
 *   clump	n read one page and then all write it: n - 1 victims
 *   nocycle	a waiter with no cycle: txn_detect finds nothing
 *   kill	kill -9 inside a transaction: its lock goes, the waiter
 *		goes on, nothing of it stays
 *   exit	exit inside one: aborted
 *   implicit	a read outside a transaction waits for a writer's commit
 *		and sees all of it; a write outside one is its own
 *   truncate	refused inside a transaction, a transaction outside one;
 *		txnstat counts that one, and an abort that locked nothing
 *   limit	a transaction dirtying more than txn_maxdirty pages (or
 *		more bytes than the cache can pin) gets ENOBUFS and is
 *		aborted; the file is as before
 *   nosteal	sync while a transaction holds dirty pages, then abort:
 *		as before, and txnstat's steals stay 0
 *   cleaner	the cleaner cleaning every segment while a transaction
 *		holds a page dirty: after the abort the page is as before
 *   aborted	a victim's later calls fail with ETXNABORT until it ends
 *   plaincycle	a plain read, and a plain write, that close a cycle of
 *		waiters: the transaction in the cycle is the victim
 *   victims	rings and a clump whose members ask in a given order:
 *		the one whose request closes the cycle is the victim,
 *		old or young, and txnstat counts it once
 *   youngest	a plain write that closes a cycle of two transactions:
 *		the younger is the victim, wherever it is in the cycle
 *   holefill	filling a hole while another transaction holds the size
 *		(it appended): the filler waits for it, and both commit
 *   dos	a user who may only read a file (uid 1000; root owns it)
 *		holds its pages in a transaction, or stops inside a plain
 *		read: the owner's writers and plain readers do not wait;
 *		a reader who may write does make the writer wait; and
 *		plainload with the plain reader as that user
 *   plainload	plain 64 KB reads and 16 KB writes among eight deadlocking
 *		transactions: none fails, every read sees a committed state
 *   forceumount (only when asked, -d naming the mount point) umount -f
 *		with transactions open: each ends, none reaches the disk
 *   readhold	(only when asked) read every page of ledger in a
 *		transaction and hold them until SIGUSR1, then commit
 */
#include <sys/types.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/txn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/lib/check.h"

#define PAGE	4096		/* the LFS block size newfs_lfs gives */
#define VICTIM	2		/* a child's exit code: it was the victim */

static char buf[64 * 1024], buf2[64 * 1024];

/* A protected file of npages pages, page i all letter 'a' + i % 26. */
static int
mkfile(const char *name, int npages)
{
	int fd, i;

	unlink(name);
	if ((fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0644)) < 0)
		return -1;
	for (i = 0; i < npages; i++) {
		memset(buf, 'a' + i % 26, PAGE);
		if (write(fd, buf, PAGE) != PAGE)
			return -1;
	}
	fsync(fd);
	if (chflags(name, UF_TXN) < 0)
		return -1;
	return fd;
}

/* The whole file into buf2; its size, or -1. */
static int
slurp(const char *name)
{
	int fd = open(name, O_RDONLY), n, total = 0;

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf2 + total, sizeof(buf2) - total)) > 0)
		total += n;
	close(fd);
	return n < 0 ? -1 : total;
}

/* Does name hold npages pages as mkfile made them, and nothing more? */
static int
pristine(const char *name, int npages)
{
	int i, j;

	if (slurp(name) != npages * PAGE)
		return 0;
	for (i = 0; i < npages; i++)
		for (j = 0; j < PAGE; j++)
			if (buf2[i * PAGE + j] != 'a' + i % 26)
				return 0;
	return 1;
}

static int
pwrite_at(int fd, off_t off, const void *p, int n)
{
	if (lseek(fd, off, SEEK_SET) != off)
		return -1;
	return write(fd, p, n);
}

static int
pread_at(int fd, off_t off, void *p, int n)
{
	if (lseek(fd, off, SEEK_SET) != off)
		return -1;
	return read(fd, p, n);
}

/* One byte through a pipe: the children's barriers. */
static void
post(int fd)
{
	char c = 1;

	write(fd, &c, 1);
}

static void
await(int fd, int n)
{
	char c;

	while (n-- > 0)
		read(fd, &c, 1);
}

/* Drop to student (uid 1000), who may read root's files of mode 644. */
#define STUDENT		1000

static int
become_student(void)
{
	return setgid(STUDENT) == 0 && setuid(STUDENT) == 0 ? 0 : -1;
}

static void
test_misuse(void)
{
	int r, e;

	r = txn_commit();
	e = errno;
	check(r < 0 && e == EINVAL, "txn_commit with no transaction: EINVAL",
	    "%d errno %d", r, e);
	r = txn_abort();
	e = errno;
	check(r < 0 && e == EINVAL, "txn_abort with no transaction: EINVAL",
	    "%d errno %d", r, e);
	check(txn_begin() > 0, "txn_begin gives an identifier", "errno %d",
	    errno);
	r = txn_begin();
	e = errno;
	check(r < 0 && e == EALREADY, "txn_begin twice: EALREADY",
	    "%d errno %d", r, e);
	check(txn_commit() == 0, "an empty transaction commits", "errno %d",
	    errno);
	check(txn_detect() == 0, "txn_detect with no waiter finds nothing",
	    "errno %d", errno);
	check(strcmp(strerror(ETXNABORT), "Transaction aborted") == 0,
	    "ETXNABORT has its message", "%s", strerror(ETXNABORT));
}

static void
test_flags(void)
{
	struct stat st;
	int fd = mkfile(tpath("f"), 1), r, e;

	check(fd >= 0 && stat(tpath("f"), &st) == 0 && (st.st_flags & UF_TXN),
	    "chflags txn: stat shows UF_TXN", "flags %x errno %d",
	    (unsigned)st.st_flags, errno);
	close(fd);
	mkdir(tpath("sub"), 0755);
	r = chflags(tpath("sub"), UF_TXN);
	e = errno;
	check(r < 0 && e == EFTYPE, "chflags txn on a directory: EFTYPE",
	    "%d errno %d", r, e);
	r = chflags(tpath("f"), 0x4);
	e = errno;
	check(r < 0 && e == EOPNOTSUPP, "an unknown flag: EOPNOTSUPP",
	    "%d errno %d", r, e);
	check(chflags(tpath("f"), 0) == 0 && stat(tpath("f"), &st) == 0 &&
	    !(st.st_flags & UF_TXN), "chflags notxn clears it",
	    "flags %x errno %d", (unsigned)st.st_flags, errno);
	unlink(tpath("f"));
	rmdir(tpath("sub"));
}

/* The operations of abort and commit: 0, or -1. */
static int
operation(int op, int fd, int fd2)
{
	memset(buf, 'X', 2 * PAGE);
	switch (op) {
	case 0:				/* overwrite a page */
		return pwrite_at(fd, PAGE, buf, PAGE) == PAGE ? 0 : -1;
	case 1:				/* part of a page */
		return pwrite_at(fd, 100, buf, 300) == 300 ? 0 : -1;
	case 2:				/* append a new block */
		return pwrite_at(fd, 3 * PAGE, buf, PAGE + 10) == PAGE + 10 ?
		    0 : -1;
	default:			/* two files */
		return pwrite_at(fd, 0, buf, PAGE) == PAGE &&
		    pwrite_at(fd2, 2 * PAGE, buf, 10) == 10 ? 0 : -1;
	}
}

static const char *opname[] = { "overwrite a page", "write part of a page",
    "append a new block", "write two files" };

static char why[96];		/* what afterimage found wrong */

/* What the file reads after operation op committed: 1 if so. */
static int
afterimage(int op, const char *name, int second)
{
	int n, i, want;

	if (second && op != 3)
		return pristine(name, 3);	/* untouched */
	n = slurp(name);
	if (op == 3 && second)
		return n == 3 * PAGE && memcmp(buf2 + 2 * PAGE, "XXXXXXXXXX",
		    10) == 0 && buf2[2 * PAGE + 10] == 'c';
	want = op == 2 ? 4 * PAGE + 10 : 3 * PAGE;
	if (n != want) {
		snprintf(why, sizeof(why), "size %d, not %d", n, want);
		return 0;
	}
	for (i = 0; i < n; i++) {
		int x = (op == 0 && i >= PAGE && i < 2 * PAGE) ||
		    (op == 1 && i >= 100 && i < 400) || (op == 2 && i >= 3 * PAGE) ||
		    (op == 3 && i < PAGE);

		if (buf2[i] != (x ? 'X' : 'a' + (i / PAGE) % 26)) {
			snprintf(why, sizeof(why), "byte %d is %d", i,
			    buf2[i]);
			return 0;
		}
	}
	return 1;
}

static void
test_abort_commit(int commit)
{
	char what[96];
	int op, fd, fd2, ok;

	for (op = 0; op < 4; op++) {
		fd = mkfile(tpath("f"), 3);
		fd2 = mkfile(tpath("g"), 3);
		ok = fd >= 0 && fd2 >= 0 && txn_begin() > 0 &&
		    operation(op, fd, fd2) == 0;
		ok = ok && (commit ? txn_commit() : txn_abort()) == 0;
		snprintf(what, sizeof(what), "%s, then %s: the %s-image", opname[op],
		    commit ? "commit" : "abort", commit ? "after" : "before");
		if (commit)
			check(ok && afterimage(op, tpath("f"), 0) &&
			    afterimage(op, tpath("g"), 1), what, "errno %d, %s",
			    errno, why);
		else
			check(ok && pristine(tpath("f"), 3) &&
			    pristine(tpath("g"), 3), what, "errno %d, size %d",
			    errno, slurp(tpath("f")));
		close(fd);
		close(fd2);
	}
}

static void
test_holes(void)
{
	struct stat before, after;
	int fd;

	unlink(tpath("h"));
	fd = open(tpath("h"), O_RDWR | O_CREAT, 0644);
	memset(buf, 'q', PAGE);
	pwrite_at(fd, 20 * PAGE, buf, PAGE);	/* pages 0-19 a hole */
	fsync(fd);
	chflags(tpath("h"), UF_TXN);
	fstat(fd, &before);
	txn_begin();
	memset(buf, 'X', PAGE);
	pwrite_at(fd, 15 * PAGE, buf, PAGE);	/* fills a hole (indirect) */
	pwrite_at(fd, 2 * PAGE, buf, PAGE);	/* and a direct one */
	txn_abort();
	fstat(fd, &after);
	check(pread_at(fd, 15 * PAGE, buf2, PAGE) == PAGE && buf2[0] == 0 &&
	    buf2[PAGE - 1] == 0 && pread_at(fd, 2 * PAGE, buf2, PAGE) == PAGE &&
	    buf2[0] == 0, "a filled hole, aborted, reads as zeros",
	    "byte %d", buf2[0]);
	check(after.st_size == before.st_size &&
	    after.st_blocks == before.st_blocks,
	    "... with the size and the block count as before",
	    "size %lld/%lld blocks %lld/%lld", (long long)after.st_size,
	    (long long)before.st_size, (long long)after.st_blocks,
	    (long long)before.st_blocks);
	close(fd);
	unlink(tpath("h"));
}

static void
test_isolation(void)
{
	int fd = mkfile(tpath("iso"), 1), i, k, bad = 0, status;
	pid_t pids[6];

	close(fd);
	for (i = 0; i < 6; i++) {
		if ((pids[i] = fork()) != 0)
			continue;
		fd = open(tpath("iso"), O_RDWR);
		for (k = 0; k < 40; k++) {
			char a[64], b[64];
			int j, err = 0;

			if (txn_begin() < 0)
				_exit(3);
			if (i < 3) {		/* writers: one letter */
				memset(a, 'A' + (i * 40 + k) % 26, 64);
				if (pwrite_at(fd, 0, a, 64) != 64)
					err = 1;
			} else if (pread_at(fd, 0, a, 64) != 64 ||
			    pread_at(fd, 0, b, 64) != 64)
				err = 1;
			else
				for (j = 1; j < 64; j++)
					if (a[j] != a[0] || b[j] != a[0])
						_exit(1);	/* torn */
			if (err && errno == ETXNABORT) {
				txn_abort();
				continue;
			}
			if (err || txn_commit() < 0)
				_exit(4);
		}
		_exit(0);
	}
	for (i = 0; i < 6; i++)
		if (!exited_with(status = reap(pids[i]), 0))
			bad++;
	check(bad == 0, "3 writers and 3 readers: every read sees one letter, "
	    "twice the same", "%d processes failed", bad);
	unlink(tpath("iso"));
}

/*
 * n children in transactions on file name: each does its first step (to
 * take a lock), waits until all have, then its second (to want another's
 * lock) and commits, or is the victim.  How many of each, in *victims and
 * *done.
 */
static void
contend(const char *name, int n, int (*first)(int fd, int i, int n),
    int (*second)(int fd, int i, int n), int *victims, int *done)
{
	int p1[2], p2[2], i, fd, status;
	pid_t pids[10];

	*victims = *done = 0;
	pipe(p1);
	pipe(p2);
	for (i = 0; i < n; i++) {
		if ((pids[i] = fork()) != 0)
			continue;
		fd = open(name, O_RDWR);
		txn_begin();
		if (first(fd, i, n) < 0)
			_exit(3);
		post(p1[1]);
		await(p2[0], 1);
		if (second(fd, i, n) < 0) {
			int e = errno;

			txn_abort();
			_exit(e == ETXNABORT ? VICTIM : 4);
		}
		_exit(txn_commit() == 0 ? 0 : 5);
	}
	await(p1[0], n);
	for (i = 0; i < n; i++)
		post(p2[1]);
	for (i = 0; i < n; i++) {
		status = reap(pids[i]);
		if (exited_with(status, VICTIM))
			(*victims)++;
		else if (exited_with(status, 0))
			(*done)++;
	}
	close(p1[0]), close(p1[1]), close(p2[0]), close(p2[1]);
}

/* ring: child i writes page i, then (all have) page i + 1. */
static int
ring_first(int fd, int i, int n)
{
	memset(buf, 'R', PAGE);
	return pwrite_at(fd, i * PAGE, buf, PAGE) == PAGE ? 0 : -1;
}

static int
ring_second(int fd, int i, int n)
{
	return pwrite_at(fd, (i + 1) % n * PAGE, buf, PAGE) == PAGE ? 0 : -1;
}

static void
test_ring(int n)
{
	int fd = mkfile(tpath("ring"), n), victims, done;
	char what[64];

	close(fd);
	contend(tpath("ring"), n, ring_first, ring_second, &victims, &done);
	snprintf(what, sizeof(what), "a ring of %d: one victim, the rest "
	    "commit", n);
	check(victims == 1 && done == n - 1, what, "%d victims, %d committed",
	    victims, done);
	unlink(tpath("ring"));
}

/* clump: all read page 0, then (all have) write it. */
static int
clump_first(int fd, int i, int n)
{
	return pread_at(fd, 0, buf, 10) == 10 ? 0 : -1;
}

static int
clump_second(int fd, int i, int n)
{
	memset(buf, 'C', 10);
	return pwrite_at(fd, 0, buf, 10) == 10 ? 0 : -1;
}

static void
test_clump(int n)
{
	int fd = mkfile(tpath("clump"), 1), victims, done;
	char what[64];

	close(fd);
	contend(tpath("clump"), n, clump_first, clump_second, &victims, &done);
	snprintf(what, sizeof(what), "%d readers all upgrading: %d victims",
	    n, n - 1);
	check(victims == n - 1 && done == 1, what, "%d victims, %d committed",
	    victims, done);
	unlink(tpath("clump"));
}

/* The child that holds a page: holds page 0 until told, then commits. */
static pid_t
holder(const char *name, int ready, int go, int commit)
{
	pid_t pid = fork();
	int fd;

	if (pid != 0)
		return pid;
	fd = open(name, O_RDWR);
	memset(buf, 'H', PAGE);
	txn_begin();
	if (pwrite_at(fd, 0, buf, PAGE) != PAGE)
		_exit(3);
	post(ready);
	await(go, 1);
	if (!commit)
		for (;;)
			sleep(1000);
	_exit(txn_commit() == 0 ? 0 : 4);
}

/* The child that wants the page: reads it in a transaction. */
static pid_t
waiter(const char *name, int ready)
{
	pid_t pid = fork();
	int fd;

	if (pid != 0)
		return pid;
	fd = open(name, O_RDWR);
	txn_begin();
	post(ready);
	if (pread_at(fd, 0, buf, PAGE) != PAGE)
		_exit(3);
	txn_commit();
	_exit(buf[0] == 'a' ? 0 : buf[0] == 'H' ? 1 : 2);
}

static void
test_nocycle(void)
{
	int fd = mkfile(tpath("nc"), 1), p1[2], p2[2];
	pid_t h, w;

	close(fd);
	pipe(p1);
	pipe(p2);
	h = holder(tpath("nc"), p1[1], p2[0], 1);
	await(p1[0], 1);
	w = waiter(tpath("nc"), p1[1]);
	await(p1[0], 1);
	check(txn_detect() == 0, "a waiter with no cycle: txn_detect aborts "
	    "nobody", "errno %d", errno);
	post(p2[1]);
	check(exited_with(reap(h), 0) && exited_with(reap(w), 1),
	    "... the holder commits and the waiter then reads its page",
	    "the waiter read something else");
	close(p1[0]), close(p1[1]), close(p2[0]), close(p2[1]);
	unlink(tpath("nc"));
}

static void
test_kill(void)
{
	int fd = mkfile(tpath("k"), 1), p1[2], p2[2];
	pid_t h, w;

	close(fd);
	pipe(p1);
	pipe(p2);
	h = holder(tpath("k"), p1[1], p2[0], 0);
	await(p1[0], 1);
	w = waiter(tpath("k"), p1[1]);
	await(p1[0], 1);
	kill(h, SIGKILL);
	reap(h);
	check(exited_with(reap(w), 0), "kill -9 inside a transaction: the "
	    "waiter goes on and reads the page as it was", "it did not");
	check(pristine(tpath("k"), 1), "... and nothing of the killed one "
	    "stays", "size %d", slurp(tpath("k")));
	close(p1[0]), close(p1[1]), close(p2[0]), close(p2[1]);
	unlink(tpath("k"));
}

static void
test_exit(void)
{
	int fd = mkfile(tpath("x"), 2);
	pid_t pid;

	close(fd);
	if ((pid = fork()) == 0) {
		fd = open(tpath("x"), O_RDWR);
		txn_begin();
		memset(buf, 'E', PAGE);
		pwrite_at(fd, 0, buf, PAGE);
		pwrite_at(fd, 2 * PAGE, buf, PAGE);
		_exit(0);
	}
	reap(pid);
	check(pristine(tpath("x"), 2), "exit inside a transaction aborts it",
	    "size %d", slurp(tpath("x")));
	unlink(tpath("x"));
}

static void
test_implicit(void)
{
	int fd = mkfile(tpath("im"), 1), p1[2], status;
	pid_t pid;

	pipe(p1);
	txn_begin();
	memset(buf, 'T', PAGE);
	pwrite_at(fd, 0, buf, PAGE);
	if ((pid = fork()) == 0) {
		int rfd = open(tpath("im"), O_RDONLY);

		post(p1[1]);
		_exit(pread_at(rfd, 0, buf, PAGE) == PAGE && buf[0] == 'T' &&
		    buf[PAGE - 1] == 'T' ? 0 : 1);
	}
	await(p1[0], 1);
	txn_commit();
	status = reap(pid);
	check(exited_with(status, 0), "a read outside a transaction waits for "
	    "the writer's commit and sees it whole", "status %x", status);
	memset(buf, 'O', PAGE);
	check(pwrite_at(fd, 0, buf, PAGE) == PAGE && slurp(tpath("im")) == PAGE &&
	    buf2[0] == 'O', "a write outside a transaction is one of its own",
	    "errno %d", errno);
	close(fd);
	close(p1[0]), close(p1[1]);
	unlink(tpath("im"));
}

static void
test_truncate(void)
{
	int fd = mkfile(tpath("t"), 3), r, e;
	struct txnstats a, b;
	struct stat st;

	txnstats(&a, 0);
	txn_begin();
	r = ftruncate(fd, PAGE);
	e = errno;
	txn_abort();
	check(r < 0 && e == EOPNOTSUPP, "ftruncate inside a transaction: "
	    "EOPNOTSUPP", "%d errno %d", r, e);
	check(ftruncate(fd, PAGE + 7) == 0 && fstat(fd, &st) == 0 &&
	    st.st_size == PAGE + 7, "ftruncate outside one shrinks it",
	    "size %lld errno %d", (long long)st.st_size, errno);
	txnstats(&b, 0);
	/* The aborted one locked nothing; the truncate was its own. */
	check(b.aborts - a.aborts == 1 && b.commits - a.commits == 1 &&
	    b.begins - a.begins == 1 && b.implicit - a.implicit == 1,
	    "an abort that locked nothing and a truncate are counted",
	    "begins %u implicit %u commits %u aborts %u",
	    b.begins - a.begins, b.implicit - a.implicit,
	    b.commits - a.commits, b.aborts - a.aborts);
	close(fd);
	unlink(tpath("t"));
}

/*
 * Pages of the file system's own block size (newfs_lfs -b): with 64 KB
 * blocks an eighth of the buffers is more than the whole cache, and the
 * bytes the cache can pin must stop the transaction first.
 */
static void
test_limit(void)
{
	struct txnstats s;
	struct stat st;
	int fd, i, r = 0, e = 0, max, bs;

	txnstats(&s, 0);
	max = s.maxdirty;
	fd = mkfile(tpath("big"), 2);
	fstat(fd, &st);
	bs = st.st_blksize;
	txn_begin();
	memset(buf, 'L', bs);
	for (i = 0; i <= max + 1; i++)
		if ((r = pwrite_at(fd, (off_t)i * bs, buf, bs)) != bs) {
			e = errno;
			break;
		}
	check(r < 0 && e == ENOBUFS, "more dirty pages than txn_maxdirty, or "
	    "than the cache can pin: ENOBUFS", "page %d of %d (%d bytes): %d "
	    "errno %d", i, max, bs, r, e);
	r = pwrite_at(fd, 0, buf, 1);
	e = errno;
	check(r < 0 && e == ETXNABORT, "... and it is aborted: the next write "
	    "says ETXNABORT", "%d errno %d", r, e);
	r = txn_commit();
	e = errno;
	check(r < 0 && e == ETXNABORT, "... and its commit too, which ends it",
	    "%d errno %d", r, e);
	check(pristine(tpath("big"), 2), "... leaving the file as it was",
	    "size %d", slurp(tpath("big")));
	close(fd);
	unlink(tpath("big"));
}

static void
test_nosteal(void)
{
	struct txnstats s;
	int fd = mkfile(tpath("ns"), 8), i;

	txnstats(&s, 0);
	txn_begin();
	memset(buf, 'S', PAGE);
	for (i = 0; i < 8; i++)
		pwrite_at(fd, (off_t)i * PAGE, buf, PAGE);
	pwrite_at(fd, 8 * PAGE, buf, PAGE);
	sync();
	sync();
	fsync(fd);
	txn_abort();
	check(pristine(tpath("ns"), 8), "sync and fsync inside a transaction, "
	    "then abort: the file as before", "size %d", slurp(tpath("ns")));
	i = s.steals;
	txnstats(&s, 0);
	check(s.steals == (u_int32_t)i, "no page of a running transaction was "
	    "written (txnstat steals)", "%u, was %d", s.steals, i);
	close(fd);
	unlink(tpath("ns"));
}

static void
test_cleaner(void)
{
	int fd = mkfile(tpath("cl"), 4), status;
	char cmd[600];

	txn_begin();
	memset(buf, 'Z', PAGE);
	pwrite_at(fd, PAGE, buf, PAGE);
	snprintf(cmd, sizeof(cmd), "/usr/libexec/lfs_cleanerd -c 1000 %s "
	    ">/dev/null 2>&1", check_dir);
	status = system(cmd);
	txn_abort();
	check(status != -1 && pristine(tpath("cl"), 4), "the cleaner cleaning "
	    "while a transaction holds a page: the abort finds it as before",
	    "status %x size %d", status, slurp(tpath("cl")));
	close(fd);
	unlink(tpath("cl"));
}

/*
 * A victim's calls after the one that failed: its read fails too, begin
 * says one is still there, abort ends it.  0 if all as promised.
 */
static int
victim_after(int fd)
{
	int r = pread_at(fd, 0, buf, 1);

	if (r >= 0 || errno != ETXNABORT)
		return 1;
	if (txn_begin() >= 0 || errno != EALREADY)
		return 2;
	if (txn_abort() != 0 || txn_begin() <= 0 || txn_commit() != 0)
		return 3;
	return 0;
}

/*
 * Two transactions each take one page and want the other's: whoever
 * asks second closes the cycle and is the victim (ETXNABORT), and its
 * later calls fail until it ends; the other commits.
 */
static void
test_aborted(void)
{
	int fd = mkfile(tpath("ab"), 2), p1[2], p2[2], r, e, status, mine = 0;
	pid_t child;

	close(fd);
	pipe(p1);
	pipe(p2);
	if ((child = fork()) == 0) {
		fd = open(tpath("ab"), O_RDWR);
		txn_begin();
		pwrite_at(fd, PAGE, "c", 1);
		post(p1[1]);
		await(p2[0], 1);
		if (pwrite_at(fd, 0, "c", 1) == 1)
			_exit(txn_commit() == 0 ? 0 : 9);
		if (errno != ETXNABORT)
			_exit(8);
		_exit(VICTIM + 10 * victim_after(fd));
	}
	fd = open(tpath("ab"), O_RDWR);
	txn_begin();
	pwrite_at(fd, 0, "p", 1);
	await(p1[0], 1);
	post(p2[1]);
	r = pwrite_at(fd, PAGE, "p", 1);
	e = errno;
	if (r == 1)
		txn_commit();
	else if (e == ETXNABORT)
		mine = 10 * victim_after(fd) + VICTIM;
	else
		mine = -1;
	status = reap(child);
	check(mine >= 0 && ((mine == VICTIM && exited_with(status, 0)) ||
	    (mine == 0 && exited_with(status, VICTIM))), "two transactions "
	    "wanting each other's page: one victim, whose later calls fail "
	    "with ETXNABORT until txn_abort, and one commit",
	    "parent %d (errno %d), child status %x", mine, e, status);
	close(fd);
	close(p1[0]), close(p1[1]), close(p2[0]), close(p2[1]);
	unlink(tpath("ab"));
}

/* Wait (a watchdog's while) until n more lock requests have waited. */
static int
waits_reach(u_int32_t n)
{
	struct txnstats st;
	int i;

	for (i = 0; i < 500; i++) {
		if (txnstats(&st, 0) == 0 && st.waits >= n)
			return 1;
		usleep(10000);
	}
	return 0;
}

/*
 * umount -f of the LFS with transactions open (run with -d naming the
 * mount point itself).  Each kind of transaction the unmount can meet:
 * one holding dirty pages, asleep in user space; one holding a page
 * shared; one asleep waiting for the first's page; and a plain read
 * waiting for it (a transaction of its own).  The unmount ends them all:
 * the waiters wake with ETXNABORT (the plain read with EIO: a program
 * that asked for no transaction sees none of their errors), the commits
 * of the others fail with ETXNABORT, and a new transaction can begin.  The committing one used to fault in
 * lfs_segwrite_vnodes on the freed file system (issue 21).  The pytest
 * file mounts it again: the uncommitted pages never reached the disk.
 */
static void
test_forceumount(void)
{
	int fd = mkfile(tpath("fa"), 2), ready[2], go[2], st[4], r, e;
	struct txnstats ts;
	pid_t pid[4];

	close(fd);
	close(mkfile(tpath("fb"), 1));
	pipe(ready);
	pipe(go);
	if ((pid[0] = fork()) == 0) {		/* dirty pages, then commit */
		fd = open(tpath("fa"), O_RDWR);
		memset(buf, 'W', PAGE);
		if (txn_begin() < 0 || pwrite_at(fd, 0, buf, PAGE) != PAGE ||
		    pwrite_at(fd, PAGE, buf, PAGE) != PAGE)
			_exit(10);
		post(ready[1]);
		await(go[0], 1);
		r = txn_commit();
		e = errno;
		if (r != -1 || e != ETXNABORT)
			_exit(11);
		if (txn_begin() < 0 || txn_abort() < 0)
			_exit(12);		/* a new one begins and ends */
		_exit(0);
	}
	await(ready[0], 1);
	if ((pid[1] = fork()) == 0) {		/* a page shared */
		fd = open(tpath("fb"), O_RDONLY);
		if (txn_begin() < 0 || pread_at(fd, 0, buf, PAGE) != PAGE)
			_exit(10);
		post(ready[1]);
		await(go[0], 1);
		if (pread_at(fd, 0, buf, PAGE) > 0)
			_exit(11);	/* the file is gone with its mount */
		r = txn_commit();
		_exit(r == -1 && errno == ETXNABORT ? 0 : 12);
	}
	await(ready[0], 1);
	txnstats(&ts, 0);
	if ((pid[2] = fork()) == 0) {		/* waits for the dirty page */
		fd = open(tpath("fa"), O_RDWR);
		if (txn_begin() < 0)
			_exit(10);
		r = pwrite_at(fd, 0, "X", 1);
		e = errno;
		if (r != -1 || e != ETXNABORT)
			_exit(11);
		r = txn_commit();
		_exit(r == -1 && errno == ETXNABORT ? 0 : 12);
	}
	check(waits_reach(ts.waits + 1), "a transaction waits for another's "
	    "page", "no wait seen");
	if ((pid[3] = fork()) == 0) {		/* a plain read waits too */
		fd = open(tpath("fa"), O_RDONLY);
		r = pread_at(fd, 0, buf, PAGE);
		_exit(r == -1 && errno == EIO ? 0 : r == -1 ? errno : 99);
	}
	check(waits_reach(ts.waits + 2), "a plain read waits for it too",
	    "no wait seen");
	r = unmount(check_dir, 0);
	check(r == -1 && errno == EBUSY, "umount without -f: EBUSY",
	    "returned %d, errno %d", r, errno);
	r = unmount(check_dir, MNT_FORCE);
	check(r == 0, "umount -f with four transactions open", "errno %d",
	    errno);
	post(go[1]);
	post(go[1]);
	for (r = 0; r < 4; r++)
		st[r] = reap(pid[r]);
	check(exited_with(st[0], 0), "the one with dirty pages: its commit "
	    "fails with ETXNABORT, and a new one begins", "status %#x", st[0]);
	check(exited_with(st[1], 0), "the one reading: its file reads no more, "
	    "its commit fails with ETXNABORT", "status %#x", st[1]);
	check(exited_with(st[2], 0), "the one waiting: its write fails with "
	    "ETXNABORT, and its commit", "status %#x", st[2]);
	check(exited_with(st[3], 0), "the plain read waiting: EIO, never "
	    "ETXNABORT", "status %#x", st[3]);
	check(txnstats(&ts, 0) == 0 && ts.running == 0 && ts.dirty == 0,
	    "no transaction and no pinned page left", "%u running, %u dirty",
	    ts.running, ts.dirty);
	close(ready[0]), close(ready[1]), close(go[0]), close(go[1]);
}

/*
 * A plain read or write (no transaction) that closes a cycle of waiters:
 * T2 holds page 0 and the plain call waits for it; T holds page 1 and
 * wants page 0, behind the plain call; T2 commits, the plain call gets
 * page 0 and wants page 1, which closes the cycle.  It used to be the
 * victim and fail with ETXNABORT; T, which asked for a transaction, must
 * be, and the plain call sees T2's page and not T's.
 */
static void
plain_cycle(int write)
{
	int fd = mkfile(tpath("pc"), 2), ready[2], go1[2], go2[2], r, e;
	struct txnstats ts;
	pid_t t2, t, p;
	char what[128];
	int st2, st, stp;

	close(fd);
	pipe(ready), pipe(go1), pipe(go2);
	if ((t2 = fork()) == 0) {		/* page 0, then commits */
		fd = open(tpath("pc"), O_RDWR);
		memset(buf, 'B', PAGE);
		if (txn_begin() < 0 || pwrite_at(fd, 0, buf, PAGE) != PAGE)
			_exit(10);
		post(ready[1]);
		await(go2[0], 1);
		_exit(txn_commit() == 0 ? 0 : 11);
	}
	await(ready[0], 1);
	if ((t = fork()) == 0) {		/* page 1, then page 0 */
		fd = open(tpath("pc"), O_RDWR);
		memset(buf, 'T', PAGE);
		if (txn_begin() < 0 || pwrite_at(fd, PAGE, buf, PAGE) != PAGE)
			_exit(10);
		post(ready[1]);
		await(go1[0], 1);
		if (pwrite_at(fd, 0, buf, PAGE) == PAGE)
			_exit(txn_commit() == 0 ? 0 : 11);
		e = errno;
		txn_abort();
		_exit(e == ETXNABORT ? VICTIM : 12);
	}
	await(ready[0], 1);
	txnstats(&ts, 0);
	if ((p = fork()) == 0) {		/* the plain call, both pages */
		fd = open(tpath("pc"), O_RDWR);
		memset(buf, 'P', 2 * PAGE);
		r = write ? pwrite_at(fd, 0, buf, 2 * PAGE) :
		    pread_at(fd, 0, buf, 2 * PAGE);
		if (r < 0)
			_exit(errno == ETXNABORT ? 1 : 2);
		if (r != 2 * PAGE)
			_exit(3);
		if (!write && (buf[0] != 'B' || buf[PAGE - 1] != 'B' ||
		    buf[PAGE] != 'b' || buf[2 * PAGE - 1] != 'b'))
			_exit(4);		/* not T2's page 0, T's page 1 */
		_exit(0);
	}
	check(waits_reach(ts.waits + 1), write ? "a plain write waits for a "
	    "transaction's page" : "a plain read waits for a transaction's "
	    "page", "no wait seen");
	post(go1[1]);
	check(waits_reach(ts.waits + 2), write ? "... and a transaction "
	    "waits behind the write" : "... and a transaction waits behind the "
	    "read", "no wait seen");
	post(go2[1]);
	st2 = reap(t2);
	st = reap(t);
	stp = reap(p);
	snprintf(what, sizeof(what), "a plain %s that closes a cycle is never "
	    "its victim: the transaction in it is, and the %s goes through",
	    write ? "write" : "read", write ? "write" : "read");
	check(exited_with(stp, 0) && exited_with(st, VICTIM) &&
	    exited_with(st2, 0), what, "plain call %#x (1: ETXNABORT, 4: "
	    "wrong data), transaction %#x, holder %#x", stp, st, st2);
	if (write)
		check(slurp(tpath("pc")) == 2 * PAGE && buf2[0] == 'P' &&
		    buf2[2 * PAGE - 1] == 'P', "... and the plain write is "
		    "there whole", "size %d, %c", slurp(tpath("pc")), buf2[0]);
	close(ready[0]), close(ready[1]), close(go1[0]), close(go1[1]);
	close(go2[0]), close(go2[1]);
	unlink(tpath("pc"));
}

static void
test_plaincycle(void)
{
	plain_cycle(0);
	plain_cycle(1);
}

/*
 * Until n lock requests in all have waited, and a clock tick more: the
 * next wait begins later, so that even a detector that goes by how long
 * a wait has lasted sees the waits in the order they began.
 */
static int
waited(u_int32_t n)
{
	if (!waits_reach(n))
		return 0;
	usleep(20000);
	return 1;
}

/*
 * Like contend, but in order: child i begins its transaction after
 * child i - 1 (its t_id is larger: it is younger) and does its first
 * step, and the children do their second steps one at a time, child
 * ask[0] first, each once the one before waits.  The last to ask closes
 * the cycle.  Each child's exit status in st[i].  How many waits and
 * victims txnstat counted, in *waits and *victims.
 */
static void
contend_ordered(const char *name, int n, int (*first)(int fd, int i, int n),
    int (*second)(int fd, int i, int n), const int *ask, int *st,
    int *waits, int *victims)
{
	int ready[2], go[10][2], i, fd, late;
	struct txnstats before, after;
	pid_t pids[10];

	pipe(ready);
	for (i = 0; i < n; i++) {
		pipe(go[i]);
		if ((pids[i] = fork()) == 0) {
			fd = open(name, O_RDWR);
			if (txn_begin() < 0 || first(fd, i, n) < 0)
				_exit(3);
			post(ready[1]);
			await(go[i][0], 1);
			if (second(fd, i, n) < 0) {
				int e = errno;

				txn_abort();
				_exit(e == ETXNABORT ? VICTIM : 4);
			}
			_exit(txn_commit() == 0 ? 0 : 5);
		}
		await(ready[0], 1);
	}
	txnstats(&before, 0);
	for (i = 0, late = 0; i < n; i++) {
		post(go[ask[i]][1]);
		/* A wait that never comes: the rest go at once, and fail. */
		if (i < n - 1 && !late)
			late = !waited(before.waits + i + 1);
	}
	for (i = 0; i < n; i++) {
		st[i] = reap(pids[i]);
		close(go[i][0]), close(go[i][1]);
	}
	txnstats(&after, 0);
	*waits = after.waits - before.waits;
	*victims = after.victims - before.victims;
	close(ready[0]), close(ready[1]);
}

/* "child 3 the victim, the others commit", or what went otherwise. */
static int
victims_are(int n, const int *st, const int *victim, char *why, int len)
{
	int i, k = 0, bad = 0;

	for (i = 0; i < n && k < len - 24; i++) {
		if (exited_with(st[i], victim[i] ? VICTIM : 0))
			continue;
		bad++;
		k += snprintf(why + k, len - k, "%schild %d %s", bad > 1 ?
		    ", " : "", i, exited_with(st[i], VICTIM) ? "a victim" :
		    exited_with(st[i], 0) ? "committed" : "failed");
	}
	return bad == 0;
}

/*
 * Who the victim is (thesis 5.2.3): the transaction whose request
 * closes the cycle, found the moment it begins to wait, whatever its
 * age; in a ring there is one.  A ring of 2 in the order the children
 * began (the youngest closes it), a ring of 4 the other way round (the
 * oldest does), and a ring of 10 that child 4 closes.
 */
static void
ring_ordered(int n, const int *ask)
{
	int fd = mkfile(tpath("ro"), n), st[10], victim[10] = { 0 };
	int waits, victims;
	char what[128], why[160] = "";

	close(fd);
	contend_ordered(tpath("ro"), n, ring_first, ring_second, ask, st,
	    &waits, &victims);
	victim[ask[n - 1]] = 1;
	snprintf(what, sizeof(what), "a ring of %d asked for in turn: child "
	    "%d, the last to ask, is the one victim, the others commit", n,
	    ask[n - 1]);
	check(victims_are(n, st, victim, why, sizeof(why)), what, "%s", why);
	snprintf(what, sizeof(what), "... and txnstat counts %d waits and 1 "
	    "victim", n);
	check(waits == n && victims == 1, what, "%d waits, %d victims", waits,
	    victims);
	unlink(tpath("ro"));
}

/*
 * Four readers of a page upgrade to write it in the order 2, 0, 3, 1:
 * each after the first closes a cycle with it (both hold the page
 * shared and want it alone), so 0, 3 and 1 are the victims, older and
 * younger than 2, which commits.
 */
static void
clump_ordered(void)
{
	static const int ask[] = { 2, 0, 3, 1 }, victim[] = { 1, 1, 0, 1 };
	int fd = mkfile(tpath("co"), 1), st[4], waits, victims;
	char why[160] = "";

	close(fd);
	contend_ordered(tpath("co"), 4, clump_first, clump_second, ask, st,
	    &waits, &victims);
	check(victims_are(4, st, victim, why, sizeof(why)), "4 readers "
	    "upgrading in the order 2, 0, 3, 1: each after the first closes "
	    "a cycle with it and is the victim, child 2 commits", "%s", why);
	check(waits == 4 && victims == 3, "... and txnstat counts 4 waits "
	    "and 3 victims", "%d waits, %d victims", waits, victims);
	unlink(tpath("co"));
}

static void
test_victims(void)
{
	static const int two[] = { 0, 1 }, four[] = { 3, 2, 1, 0 },
	    ten[] = { 5, 6, 7, 8, 9, 0, 1, 2, 3, 4 };

	ring_ordered(2, two);
	ring_ordered(4, four);
	ring_ordered(10, ten);
	clump_ordered();
}

/*
 * A transaction of the cycle-closing test below: begins, writes page
 * hold, and when told page want; commits, or is the victim (VICTIM).
 */
static pid_t
cycler(const char *name, int hold, int want, int letter, int ready, int go)
{
	pid_t pid = fork();
	int fd;

	if (pid != 0)
		return pid;
	fd = open(name, O_RDWR);
	memset(buf, letter, PAGE);
	if (txn_begin() < 0 || pwrite_at(fd, (off_t)hold * PAGE, buf, PAGE) !=
	    PAGE)
		_exit(10);
	post(ready);
	await(go, 1);
	if (pwrite_at(fd, (off_t)want * PAGE, buf, PAGE) == PAGE)
		_exit(txn_commit() == 0 ? 0 : 11);
	if (errno != ETXNABORT)
		_exit(12);
	txn_abort();
	_exit(VICTIM);
}

/*
 * A plain write of pages 0 and 1 closes a cycle of two transactions: it
 * holds page 0 and wants page 1, which A holds; A wants page 2, which B
 * holds; B wants page 0, and waits behind the write.  (H holds page 0
 * first, so that the write waits for it and B queues behind; H commits
 * last.)  The plain write is no victim: the younger of A and B is,
 * whether it is A, whom the write waits for, or B, who waits for it.
 */
static void
plain_closes(int a_younger)
{
	int fd = mkfile(tpath("pw"), 3), ready[2], goa[2], gob[2], goh[2];
	int sa, sb, sh, sp;
	struct txnstats before, after;
	pid_t a, b, h, p;
	char what[160];

	close(fd);
	pipe(ready), pipe(goa), pipe(gob), pipe(goh);
	h = cycler(tpath("pw"), 0, 0, 'H', ready[1], goh[0]);
	await(ready[0], 1);
	if (a_younger) {
		b = cycler(tpath("pw"), 2, 0, 'B', ready[1], gob[0]);
		await(ready[0], 1);
		a = cycler(tpath("pw"), 1, 2, 'A', ready[1], goa[0]);
	} else {
		a = cycler(tpath("pw"), 1, 2, 'A', ready[1], goa[0]);
		await(ready[0], 1);
		b = cycler(tpath("pw"), 2, 0, 'B', ready[1], gob[0]);
	}
	await(ready[0], 1);
	txnstats(&before, 0);
	if ((p = fork()) == 0) {
		fd = open(tpath("pw"), O_RDWR);
		memset(buf, 'P', 2 * PAGE);
		if (pwrite_at(fd, 0, buf, 2 * PAGE) == 2 * PAGE)
			_exit(0);
		_exit(errno == ETXNABORT ? 1 : 2);
	}
	waited(before.waits + 1);		/* the write, for H */
	post(goa[1]);
	waited(before.waits + 2);		/* A, for B */
	post(gob[1]);
	waited(before.waits + 3);		/* B, behind the write */
	post(goh[1]);				/* the write closes it */
	sh = reap(h);
	sp = reap(p);
	sa = reap(a);
	sb = reap(b);
	txnstats(&after, 0);
	snprintf(what, sizeof(what), "a plain write closes a cycle of two "
	    "transactions: the younger, %s, is the victim, the older commits "
	    "and the write goes through", a_younger ? "the one it waits for" :
	    "the one waiting for it");
	check(exited_with(sp, 0) && exited_with(sh, 0) &&
	    exited_with(a_younger ? sa : sb, VICTIM) &&
	    exited_with(a_younger ? sb : sa, 0), what, "younger %#x, older "
	    "%#x (%d: the victim), write %#x (1: ETXNABORT), holder %#x",
	    a_younger ? sa : sb, a_younger ? sb : sa, VICTIM, sp, sh);
	snprintf(what, sizeof(what), "... and txnstat counts one victim "
	    "(the younger %s)", a_younger ? "waited for" : "waiting");
	check(after.victims - before.victims == 1, what, "%u",
	    after.victims - before.victims);
	close(ready[0]), close(ready[1]), close(goa[0]), close(goa[1]);
	close(gob[0]), close(gob[1]), close(goh[0]), close(goh[1]);
	unlink(tpath("pw"));
}

static void
test_youngest(void)
{
	plain_closes(0);
	plain_closes(1);
}

/*
 * The load of issue 21: eight transactions at a time move units between
 * the 16 pages of a file (read two, write both: upgrades, deadlocks) and
 * read one of four more pages, while a plain reader reads the 16 pages,
 * 64 KB at a time, and a plain writer rewrites the four others, 16 KB at
 * a time.  No plain call may fail (15% of the reads failed with
 * ETXNABORT), every plain read sees the units all there, and every
 * transaction that commits keeps them all there.
 */
#define LOAD_PAGES	16
#define LOAD_UNITS	100		/* per page, at first */
#define LOAD_WRITERS	8
#define LOAD_TXNS	25

struct plainres {
	int	write, calls, aborted, bad, errors;
};

static void
load_page(int v)
{
	memset(buf, v & 0x7f, PAGE);
	memcpy(buf, &v, sizeof(v));
}

static int
load_value(const char *page, int *v)
{
	int j;

	memcpy(v, page, sizeof(*v));
	for (j = sizeof(*v); j < PAGE; j++)
		if (page[j] != (*v & 0x7f))
			return -1;		/* torn */
	return 0;
}

static void
load_writer(int i)
{
	int fd = open(tpath("load"), O_RDWR), k, a, b, va, vb, c;
	unsigned seed = 7 * i + 1;

	for (k = 0; k < LOAD_TXNS; ) {
		seed = seed * 1103515245 + 12345;
		a = (seed >> 8) % LOAD_PAGES;
		b = (a + 1 + (seed >> 16) % (LOAD_PAGES - 1)) % LOAD_PAGES;
		c = LOAD_PAGES + (seed >> 4) % 4;
		txn_begin();
		if (pread_at(fd, (off_t)a * PAGE, buf2, PAGE) != PAGE ||
		    load_value(buf2, &va) < 0 ||
		    pread_at(fd, (off_t)c * PAGE, buf2, PAGE) != PAGE ||
		    pread_at(fd, (off_t)b * PAGE, buf2, PAGE) != PAGE ||
		    load_value(buf2, &vb) < 0)
			goto failed;
		load_page(va - 1);
		if (pwrite_at(fd, (off_t)a * PAGE, buf, PAGE) != PAGE)
			goto failed;
		load_page(vb + 1);
		if (pwrite_at(fd, (off_t)b * PAGE, buf, PAGE) != PAGE)
			goto failed;
		if (txn_commit() == 0)
			k++;
		else if (errno != ETXNABORT)
			_exit(5);
		continue;
failed:
		if (errno != ETXNABORT)
			_exit(4);
		txn_abort();
	}
	_exit(0);
}

/*
 * Plain calls until stop reads end-of-file; the tally into res.  A
 * reader as student, who may not write the file, if ro: its weak locks
 * break under the writers, and its reads start over.
 */
static void
load_plain(int writer, int ro, int stop, int res)
{
	struct plainres pr = { writer, 0, 0, 0, 0 };
	int fd, r, i, v, sum, n = 0;
	char c;

	if (ro && become_student() < 0)
		_exit(10);
	fd = open(tpath("load"), writer ? O_RDWR : O_RDONLY);

	fcntl(stop, F_SETFL, O_NONBLOCK);
	while (read(stop, &c, 1) != 0) {
		if (writer) {
			for (i = 0; i < 4; i++) {
				memset(buf + i * PAGE, 'A' + n % 26, PAGE);
				memcpy(buf + i * PAGE, &n, sizeof(n));
			}
			r = pwrite_at(fd, (off_t)LOAD_PAGES * PAGE, buf,
			    4 * PAGE);
			n++;
		} else
			r = pread_at(fd, 0, buf, LOAD_PAGES * PAGE);
		pr.calls++;
		if (r < 0 && errno == ETXNABORT)
			pr.aborted++;
		else if (r != (writer ? 4 : LOAD_PAGES) * PAGE)
			pr.errors++;
		else if (!writer) {
			for (i = sum = 0; i < LOAD_PAGES; i++) {
				if (load_value(buf + i * PAGE, &v) < 0)
					break;
				sum += v;
			}
			if (i < LOAD_PAGES || sum != LOAD_PAGES * LOAD_UNITS)
				pr.bad++;
		}
	}
	write(res, &pr, sizeof(pr));
	_exit(0);
}

static void
plain_load(int ro)
{
	const char *who = ro ? " (the reader as student, who may not write)" :
	    "";
	int fd, i, stop[2], res[2], bad = 0, v, sum;
	struct plainres rd, wr;
	struct txnstats before, after;
	pid_t w[LOAD_WRITERS], pr, pw;
	char what[160];

	unlink(tpath("load"));
	fd = open(tpath("load"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	for (i = 0; i < LOAD_PAGES + 4; i++) {
		load_page(i < LOAD_PAGES ? LOAD_UNITS : 0);
		write(fd, buf, PAGE);
	}
	fsync(fd);
	close(fd);
	chflags(tpath("load"), UF_TXN);
	txnstats(&before, 0);
	pipe(stop), pipe(res);
	if ((pr = fork()) == 0) {
		close(stop[1]);
		load_plain(0, ro, stop[0], res[1]);
	}
	if ((pw = fork()) == 0) {
		close(stop[1]);
		load_plain(1, 0, stop[0], res[1]);
	}
	for (i = 0; i < LOAD_WRITERS; i++)
		if ((w[i] = fork()) == 0) {
			close(stop[1]);
			load_writer(i);
		}
	for (i = 0; i < LOAD_WRITERS; i++)
		if (!exited_with(reap(w[i]), 0))
			bad++;
	close(stop[1]);
	reap(pr);
	reap(pw);
	read(res[0], &rd, sizeof(rd));
	read(res[0], &wr, sizeof(wr));
	if (rd.write) {
		struct plainres x = rd;

		rd = wr;
		wr = x;
	}
	txnstats(&after, 0);
	snprintf(what, sizeof(what), "8 transactions at a time moving units "
	    "between pages, with deadlocks, each commit 25 times%s", who);
	check(bad == 0, what, "%d failed (victims %u)", bad,
	    after.victims - before.victims);
	snprintf(what, sizeof(what), "... and some of them were deadlock "
	    "victims%s", who);
	check(after.victims > before.victims, what, "none were");
	snprintf(what, sizeof(what), "plain reads and writes among them never "
	    "fail (no ETXNABORT)%s", who);
	check(rd.aborted + wr.aborted == 0 && rd.errors + wr.errors == 0,
	    what, "%d reads: %d ETXNABORT, %d other errors; %d writes: %d "
	    "ETXNABORT, %d other errors", rd.calls, rd.aborted, rd.errors,
	    wr.calls, wr.aborted, wr.errors);
	snprintf(what, sizeof(what), "every plain read sees all the units "
	    "(each a committed state)%s", who);
	check(rd.calls > 0 && wr.calls > 0 && rd.bad == 0, what, "%d of %d "
	    "reads saw a torn page or a wrong sum", rd.bad, rd.calls);
	fd = open(tpath("load"), O_RDONLY);
	for (i = sum = 0; i < LOAD_PAGES; i++)
		if (pread_at(fd, (off_t)i * PAGE, buf, PAGE) == PAGE &&
		    load_value(buf, &v) == 0)
			sum += v;
	close(fd);
	snprintf(what, sizeof(what), "... and so does the file at the end%s",
	    who);
	check(sum == LOAD_PAGES * LOAD_UNITS, what, "%d units, not %d", sum,
	    LOAD_PAGES * LOAD_UNITS);
	close(stop[0]), close(res[0]), close(res[1]);
	unlink(tpath("load"));
}

static void
test_plainload(void)
{
	plain_load(0);
}

/*
 * Filling a hole adds a block, so it needs the file's size lock, which
 * a transaction that appended holds: the write must wait for it (it
 * spun in the kernel, asking again and again, and nothing else ran).
 * In a transaction, and as a plain write.
 */
static void
hole_fill(int plain)
{
	int fd, ready[2], go[2], r, e, st;
	struct txnstats ts;
	pid_t app, fill;
	char what[128];

	unlink(tpath("hf"));
	fd = open(tpath("hf"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	memset(buf, 'a', PAGE);
	pwrite_at(fd, 0, buf, PAGE);
	pwrite_at(fd, 3 * PAGE, buf, PAGE);	/* pages 1 and 2 a hole */
	fsync(fd);
	close(fd);
	chflags(tpath("hf"), UF_TXN);
	pipe(ready), pipe(go);
	if ((app = fork()) == 0) {		/* appends, holds the size */
		fd = open(tpath("hf"), O_RDWR);
		memset(buf, 'A', PAGE);
		if (txn_begin() < 0 || pwrite_at(fd, 4 * PAGE, buf, PAGE) != PAGE)
			_exit(10);
		post(ready[1]);
		await(go[0], 1);
		_exit(txn_commit() == 0 ? 0 : 11);
	}
	await(ready[0], 1);
	txnstats(&ts, 0);
	if ((fill = fork()) == 0) {		/* fills page 1 */
		fd = open(tpath("hf"), O_RDWR);
		memset(buf, 'F', PAGE);
		if (!plain && txn_begin() < 0)
			_exit(10);
		r = pwrite_at(fd, PAGE, buf, PAGE);
		e = errno;
		if (r != PAGE)
			_exit(e == ETXNABORT ? 12 : 13);
		_exit(plain || txn_commit() == 0 ? 0 : 14);
	}
	snprintf(what, sizeof(what), "a %s filling a hole waits for the size "
	    "lock a transaction that appended holds", plain ? "plain write" :
	    "transaction");
	check(waits_reach(ts.waits + 1), what, "no wait seen");
	post(go[1]);
	st = reap(app);
	r = reap(fill);
	snprintf(what, sizeof(what), "... and both commit: the %s's hole "
	    "filled, the file grown", plain ? "plain write" : "transaction");
	check(exited_with(st, 0) && exited_with(r, 0) && slurp(tpath("hf")) ==
	    5 * PAGE && buf2[PAGE] == 'F' && buf2[2 * PAGE] == 0 &&
	    buf2[4 * PAGE] == 'A', what, "appender %#x filler %#x, size %d",
	    st, r, slurp(tpath("hf")));
	close(ready[0]), close(ready[1]), close(go[0]), close(go[1]);
	unlink(tpath("hf"));
}

static void
test_holefill(void)
{
	hole_fill(0);
	hole_fill(1);
}

/*
 * Who may block whom (issue 21): the protected file belongs to root; a
 * process of student (uid 1000) may read it, and write it only if mode
 * says so.  A lock of a process that may not write the file makes no
 * one wait: a writer breaks it.  The owner's calls run under a watchdog
 * (reap_within): before, they waited as long as the reader's process
 * lived.
 */
#define WATCHDOG	20		/* seconds: far more than any step */

/* Reap pid, killing it if it is not done within WATCHDOG seconds. */
static int
reap_within(pid_t pid)
{
	int i, status;

	for (i = 0; i < WATCHDOG * 100; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	return reap(pid);
}

/* A protected file of root's, npages as mkfile makes them, in mode. */
static void
mkshared(const char *name, int npages, mode_t mode)
{
	close(mkfile(name, npages));
	chmod(name, mode);
}

/* The owner (root) writes a page, in a transaction or not: a child. */
static pid_t
owner_write(const char *name, int page, int letter, int intxn)
{
	pid_t pid = fork();
	int fd;

	if (pid != 0)
		return pid;
	fd = open(name, O_RDWR);
	memset(buf, letter, PAGE);
	if (intxn && txn_begin() < 0)
		_exit(10);
	if (pwrite_at(fd, (off_t)page * PAGE, buf, PAGE) != PAGE)
		_exit(errno == ETXNABORT ? 11 : 12);
	_exit(!intxn || txn_commit() == 0 ? 0 : 13);
}

/* A plain read of the whole file as student: a child, 0 if it read it. */
static pid_t
student_read(const char *name, int npages)
{
	pid_t pid = fork();
	int fd;

	if (pid != 0)
		return pid;
	if (become_student() < 0 || (fd = open(name, O_RDONLY)) < 0)
		_exit(10);
	_exit(pread_at(fd, 0, buf, npages * PAGE) == npages * PAGE ? 0 :
	    errno == ETXNABORT ? 11 : 12);
}

/*
 * student begins a transaction, reads every page of root's file, and
 * sleeps.  The owner's transaction and plain write of those pages, and
 * a plain read, go through without waiting; the reader's transaction
 * pays: its next read and its commit fail with ETXNABORT, and the one
 * it begins then reads what the owner wrote.
 */
static void
test_dosread(void)
{
	const char *f = tpath("dos");
	int ready[2], go[2], st, r;
	pid_t rd, w, pr;

	mkshared(f, 8, 0644);
	pipe(ready), pipe(go);
	if ((rd = fork()) == 0) {
		int fd;

		if (become_student() < 0 || (fd = open(f, O_RDONLY)) < 0)
			_exit(10);
		if (txn_begin() < 0 || pread_at(fd, 0, buf, 8 * PAGE) != 8 * PAGE)
			_exit(11);
		post(ready[1]);
		await(go[0], 1);
		if (pread_at(fd, 0, buf, PAGE) >= 0 || errno != ETXNABORT)
			_exit(12);
		if (txn_commit() >= 0 || errno != ETXNABORT)
			_exit(13);
		if (txn_begin() < 0 || pread_at(fd, 0, buf, 8 * PAGE) !=
		    8 * PAGE || txn_commit() < 0)
			_exit(14);
		_exit(buf[3 * PAGE] == 'W' && buf[5 * PAGE] == 'O' ? 0 : 15);
	}
	await(ready[0], 1);
	w = owner_write(f, 3, 'W', 1);
	pr = student_read(f, 8);	/* it queued behind the writer */
	r = reap_within(pr);
	st = reap_within(w);
	check(exited_with(st, 0), "a reader that may not write holds every "
	    "page in a transaction: the owner's transaction writes one anyway",
	    "status %#x (a signal: it waited)", st);
	check(exited_with(r, 0), "... and a plain read of them all does not "
	    "wait either", "status %#x (a signal: it waited)", r);
	st = reap_within(owner_write(f, 5, 'O', 0));
	check(exited_with(st, 0), "... nor the owner's plain write of another",
	    "status %#x (a signal: it waited)", st);
	post(go[1]);
	r = reap(rd);
	check(exited_with(r, 0), "... the reader's transaction pays: its next "
	    "read and its commit fail with ETXNABORT, a new one reads the "
	    "owner's pages", "status %#x (12: read, 13: commit, 15: data)", r);
	close(ready[0]), close(ready[1]), close(go[0]), close(go[1]);
	unlink(f);
}

/*
 * A plain read by student waits for a page the owner's transaction
 * holds, holding the pages before it, and is stopped there (SIGSTOP).
 * The owner's second transaction writes one of those pages without
 * waiting for the stopped reader; continued, the read starts over and
 * returns a committed state, never ETXNABORT.
 */
static void
test_dosstop(void)
{
	const char *f = tpath("dosstop");
	int ready[2], go[2], st, r;
	struct txnstats ts;
	pid_t o1, rd;

	mkshared(f, 16, 0644);
	pipe(ready), pipe(go);
	if ((o1 = fork()) == 0) {
		int fd = open(f, O_RDWR);

		memset(buf, 'P', PAGE);
		if (txn_begin() < 0 || pwrite_at(fd, 8 * PAGE, buf, PAGE) != PAGE)
			_exit(10);
		post(ready[1]);
		await(go[0], 1);
		_exit(txn_commit() == 0 ? 0 : 11);
	}
	await(ready[0], 1);
	txnstats(&ts, 0);
	if ((rd = fork()) == 0) {
		int fd;

		if (become_student() < 0 || (fd = open(f, O_RDONLY)) < 0)
			_exit(10);
		if (pread_at(fd, 0, buf, 16 * PAGE) != 16 * PAGE)
			_exit(errno == ETXNABORT ? 11 : 12);
		_exit(buf[2 * PAGE] == 'Q' && buf[8 * PAGE] == 'P' &&
		    buf[9 * PAGE] == 'a' + 9 ? 0 : 13);
	}
	check(waits_reach(ts.waits + 1), "a plain read by a user who may not "
	    "write waits for the owner's page", "no wait seen");
	kill(rd, SIGSTOP);
	st = reap_within(owner_write(f, 2, 'Q', 1));
	check(exited_with(st, 0), "... stopped there, it keeps no page it "
	    "read from the owner's next transaction", "status %#x (a signal: "
	    "it waited)", st);
	post(go[1]);
	st = reap(o1);
	kill(rd, SIGCONT);
	r = reap(rd);
	check(exited_with(st, 0) && exited_with(r, 0), "... continued, the "
	    "read starts over unseen and returns both commits, whole",
	    "owner %#x, reader %#x (11: ETXNABORT, 13: data)", st, r);
	close(ready[0]), close(ready[1]), close(go[0]), close(go[1]);
	unlink(f);
}

/*
 * The rule's other side: a reader who may write the file (mode 0666)
 * holds its read locks as strict two-phase locking says, and the
 * owner's writer waits for its commit.
 */
static void
test_doswriter(void)
{
	const char *f = tpath("doswr");
	int ready[2], go[2], st, r;
	struct txnstats ts;
	pid_t rd, w;

	mkshared(f, 2, 0666);
	pipe(ready), pipe(go);
	if ((rd = fork()) == 0) {
		int fd;

		if (become_student() < 0 || (fd = open(f, O_RDONLY)) < 0)
			_exit(10);
		if (txn_begin() < 0 || pread_at(fd, 0, buf, PAGE) != PAGE)
			_exit(11);
		post(ready[1]);
		await(go[0], 1);
		if (pread_at(fd, 0, buf2, PAGE) != PAGE ||
		    memcmp(buf, buf2, PAGE) != 0)
			_exit(12);		/* not repeatable */
		_exit(txn_commit() == 0 ? 0 : 13);
	}
	await(ready[0], 1);
	txnstats(&ts, 0);
	w = owner_write(f, 0, 'W', 1);
	check(waits_reach(ts.waits + 1), "a reader who may write the file "
	    "keeps its read lock: the owner's writer waits", "no wait seen");
	post(go[1]);
	r = reap(rd);
	st = reap(w);
	check(exited_with(r, 0) && exited_with(st, 0), "... the reader reads "
	    "the page again unchanged and commits, then the writer",
	    "reader %#x writer %#x", r, st);
	close(ready[0]), close(ready[1]), close(go[0]), close(go[1]);
	unlink(f);
}

/*
 * A reader who may not write holds pages in a transaction: the owner
 * can still take the protection off (it said EBUSY as long as the
 * reader lived), and the reader's transaction is aborted.
 */
static void
test_dosflags(void)
{
	const char *f = tpath("dosfl");
	int ready[2], go[2], r, e, st;
	pid_t rd;

	mkshared(f, 2, 0644);
	pipe(ready), pipe(go);
	if ((rd = fork()) == 0) {
		int fd;

		if (become_student() < 0 || (fd = open(f, O_RDONLY)) < 0)
			_exit(10);
		if (txn_begin() < 0 || pread_at(fd, 0, buf, 2 * PAGE) != 2 * PAGE)
			_exit(11);
		post(ready[1]);
		await(go[0], 1);
		_exit(txn_commit() < 0 && errno == ETXNABORT ? 0 : 12);
	}
	await(ready[0], 1);
	r = chflags(f, 0);
	e = errno;
	check(r == 0, "a reader who may not write holds pages: the owner takes "
	    "the protection off all the same", "%d errno %d", r, e);
	post(go[1]);
	st = reap(rd);
	check(exited_with(st, 0), "... and the reader's commit fails with "
	    "ETXNABORT", "status %#x", st);
	close(ready[0]), close(ready[1]), close(go[0]), close(go[1]);
	unlink(f);
}

static void
test_dos(void)
{
	test_dosread();
	test_dosstop();
	test_doswriter();
	test_dosflags();
	plain_load(1);
}

static volatile sig_atomic_t usr1;

static void
on_usr1(int sig)
{
	usr1 = 1;
}

/*
 * readhold (only when asked: tests/test_txn.py runs it as student, in
 * the background): a transaction reads every page of dir/txntests.d/
 * ledger, says so with its pid, and holds them until SIGUSR1; then its
 * commit must fail with ETXNABORT, the owner having written meanwhile.
 */
static void
test_readhold(void)
{
	int fd = open(tpath("ledger"), O_RDONLY), n = 0, r, e;
	sigset_t block, old;

	signal(SIGUSR1, on_usr1);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (fd < 0 || txn_begin() < 0) {
		check(0, "a transaction reads ledger", "errno %d", errno);
		return;
	}
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		n += r;
	check(r == 0 && n > 0, "a transaction reads every page of ledger",
	    "%d bytes, errno %d", n, errno);
	printf("readhold: pid %d holds %d pages\n", (int)getpid(), n / PAGE);
	fflush(stdout);
	while (!usr1)
		sigsuspend(&old);
	r = txn_commit();
	e = errno;
	check(r < 0 && e == ETXNABORT, "... and, the owner having written, its "
	    "commit fails with ETXNABORT", "%d errno %d", r, e);
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "misuse", test_misuse },
	{ "flags", test_flags },
	{ "holes", test_holes },
	{ "isolation", test_isolation },
	{ "nocycle", test_nocycle },
	{ "kill", test_kill },
	{ "exit", test_exit },
	{ "implicit", test_implicit },
	{ "truncate", test_truncate },
	{ "limit", test_limit },
	{ "nosteal", test_nosteal },
	{ "cleaner", test_cleaner },
	{ "aborted", test_aborted },
	{ "forceumount", test_forceumount },
	{ "plaincycle", test_plaincycle },
	{ "victims", test_victims },
	{ "youngest", test_youngest },
	{ "plainload", test_plainload },
	{ "holefill", test_holefill },
	{ "dos", test_dos },
	{ "readhold", test_readhold },
};

static void
run(const char *name)
{
	unsigned i;

	if (strcmp(name, "abort") == 0)
		test_abort_commit(0);
	else if (strcmp(name, "commit") == 0)
		test_abort_commit(1);
	else if (strcmp(name, "ring") == 0) {
		test_ring(2);
		test_ring(4);
		test_ring(10);
	} else if (strcmp(name, "clump") == 0) {
		test_clump(2);
		test_clump(4);
		test_clump(10);
	} else {
		for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
			if (strcmp(name, tests[i].name) == 0) {
				tests[i].fn();
				return;
			}
		fprintf(stderr, "txntests: no test %s\n", name);
		exit(2);
	}
}

int
main(int argc, char *argv[])
{
	static const char *all[] = { "misuse", "flags", "abort", "commit",
	    "holes", "isolation", "ring", "clump", "nocycle", "kill", "exit",
	    "implicit", "truncate", "limit", "nosteal", "aborted", "cleaner",
	    "plaincycle", "victims", "youngest", "plainload", "holefill",
	    "dos" };
	const char *only = NULL;
	unsigned i;
	int ch;

	check_prog = "txntests";
	while ((ch = getopt(argc, argv, "d:t:")) != -1) {
		switch (ch) {
		case 'd':
			strncpy(check_dir, optarg, sizeof(check_dir) - 1);
			break;
		case 't':
			only = optarg;
			break;
		default:
			fprintf(stderr, "usage: txntests [-d dir] [-t test]\n");
			return 2;
		}
	}
	mkdir(tpath("%s", ""), 0755);
	if (only)
		run(only);
	else
		for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
			run(all[i]);
	return check_done();
}
