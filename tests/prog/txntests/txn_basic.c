/*
 * txntests: the four calls and what they promise one transaction at a
 * time (thesis 5.2): misuse gives errors, chflags txn, the before-image
 * after an abort and the after-image after a commit, holes, isolation
 * of concurrent readers and writers, plain reads and writes outside a
 * transaction, truncate.
 */
#include "txntests.h"

void
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

void
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

void
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

void
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

void
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

void
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

void
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
