/*
 * txntests: delta commits (lfs/lfs_txndelta.c).  A commit that changes a
 * few bytes of pages the disk holds writes only those bytes, as DELTAs
 * in its summary; the pages stay dirty in the cache, committed.
 *
 *   delta	a commit of a few bytes of two pages logs DELTAs (the
 *		kernel's counters say so), and the file reads as written;
 *		a transaction that changes those pages again and aborts
 *		leaves the committed bytes, not the disk's older pages;
 *		after sync, the same
 *   deltahold	(only when asked: tests/test_txn.py cuts the power after
 *		it) commits bytes of pages 1 and 2 of hold; a child changes
 *		page 1 in a transaction and holds it while sync writes a
 *		checkpoint, which must log page 1's committed bytes again
 *		(the page cannot go to the disk); then a commit of page 3;
 *		prints "deltahold: ready" and waits
 *   deltacheck	(only when asked, after the power cut) hold reads as the
 *		three commits left it
 *   precommit	a commit that would wait for a group (another transaction
 *		runs) is pre-committed: its lock goes as it is queued, so
 *		a second transaction takes its page at once; that one's
 *		abort leaves the first's bytes, not the disk's page; a
 *		sync meanwhile (a checkpoint) changes nothing of it; a
 *		third that only reads sees the bytes, and once its commit
 *		returns so has the first's (tests/test_txn.py runs it with
 *		a long txn_gcwait, the window wide open)
 */
#include "txntests.h"
#include "sys/ufs/lfs.h"

/* The kernel's LFS counters for the file system of check_dir. */
static void
lfsstat(struct lfs_stats *st)
{
	struct statfs sfs;

	memset(st, 0, sizeof(*st));
	if (statfs(check_dir, &sfs) < 0 || lfsstats(&sfs.f_fsid, st, 0) < 0)
		fprintf(stderr, "txntests: lfsstats: %s\n", strerror(errno));
}

/* Pages as mkfile made them, but for bytes s at offset off of each page. */
struct patch {
	int	page, off;
	const char *s;
};

static int
patched(const char *name, int npages, const struct patch *p, int np)
{
	int i, k;

	if (slurp(name) != npages * PAGE)
		return 0;
	for (i = 0; i < npages; i++)
		memset(buf + i * PAGE, 'a' + i % 26, PAGE);
	for (k = 0; k < np; k++)
		memcpy(buf + p[k].page * PAGE + p[k].off, p[k].s,
		    strlen(p[k].s));
	return memcmp(buf, buf2, npages * PAGE) == 0;
}

static int
commit_patches(int fd, const struct patch *p, int np)
{
	int k;

	if (txn_begin() < 0)
		return -1;
	for (k = 0; k < np; k++)
		if (pwrite_at(fd, (off_t)p[k].page * PAGE + p[k].off, p[k].s,
		    strlen(p[k].s)) != (int)strlen(p[k].s))
			return -1;
	return txn_commit();
}

void
test_delta(void)
{
	static const struct patch two[] = {
		{ 1, 100, "one" }, { 2, 4000, "two" } };
	struct lfs_stats a, b;
	int fd = mkfile(tpath("dl"), 4), r;

	sync();				/* the pages on the disk */
	lfsstat(&a);
	r = commit_patches(fd, two, 2);
	lfsstat(&b);
	check(r == 0 && b.deltas >= a.deltas + 2 &&
	    b.delta_bytes - a.delta_bytes < 64, "a commit of a few bytes of "
	    "two pages writes them as DELTAs", "commit %d, deltas %llu, "
	    "%llu bytes", r, (unsigned long long)(b.deltas - a.deltas),
	    (unsigned long long)(b.delta_bytes - a.delta_bytes));
	check(patched(tpath("dl"), 4, two, 2), "... and the file reads as "
	    "committed", "size %d", slurp(tpath("dl")));

	txn_begin();
	pwrite_at(fd, PAGE + 100, "XXX", 3);
	memset(buf, 'Z', PAGE);
	pwrite_at(fd, 2 * PAGE, buf, PAGE);
	txn_abort();
	check(patched(tpath("dl"), 4, two, 2), "a transaction over those "
	    "pages aborts: the committed bytes stay", "size %d",
	    slurp(tpath("dl")));
	sync();
	check(patched(tpath("dl"), 4, two, 2), "... and after sync writes "
	    "the pages", "size %d", slurp(tpath("dl")));
	close(fd);
	unlink(tpath("dl"));
}

static const struct patch held[] = {
	{ 1, 10, "first" }, { 2, 20, "second" }, { 3, 30, "third" } };

void
test_deltahold(void)
{
	struct lfs_stats a, b;
	int fd = mkfile(tpath("hold"), 4), ready[2], r;
	pid_t pid;

	sync();
	r = commit_patches(fd, held, 2);
	check(r == 0, "commit of pages 1 and 2", "errno %d", errno);
	pipe(ready);
	if ((pid = fork()) == 0) {
		txn_begin();
		pwrite_at(fd, PAGE + 10, "XXXXX", 5);
		post(ready[1]);
		for (;;)
			sleep(60);	/* holding page 1, dirty */
		_exit(0);
	}
	await(ready[0], 1);
	lfsstat(&a);
	sync();				/* a checkpoint */
	lfsstat(&b);
	check(b.deltas > a.deltas, "a checkpoint while a transaction holds a "
	    "page whose last commit is a DELTA logs it again", "%llu DELTAs",
	    (unsigned long long)(b.deltas - a.deltas));
	r = commit_patches(fd, held + 2, 1);
	check(r == 0, "commit of page 3 after the checkpoint", "errno %d",
	    errno);
	printf("deltahold: ready\n");
	fflush(stdout);
	for (;;)
		sleep(60);		/* the power goes */
}

void
test_deltacheck(void)
{
	check(patched(tpath("hold"), 4, held, 3), "after the power cut, hold "
	    "reads as its three commits left it", "size %d",
	    slurp(tpath("hold")));
}

void
test_precommit(void)
{
	static const struct patch first[] = { { 1, 50, "first" } };
	struct txnstats a, b;
	int fd = mkfile(tpath("pre"), 4), ready[2], go[2], aready[2];
	int status, same;
	pid_t h, pid;

	close(mkfile(tpath("prehold"), 1));
	sync();				/* the pages on the disk: DELTAs */
	pipe(ready);
	pipe(go);
	pipe(aready);
	h = holder(tpath("prehold"), ready[1], go[0], 1);
	await(ready[0], 1);		/* a transaction runs: groups wait */
	txnstats(&a, 0);
	if ((pid = fork()) == 0) {
		txn_begin();
		if (pwrite_at(fd, PAGE + 50, "first", 5) != 5)
			_exit(3);
		post(aready[1]);
		_exit(txn_commit() == 0 ? 0 : 4);
	}
	await(aready[0], 1);
	txn_begin();			/* waits for the page until it goes */
	same = pwrite_at(fd, PAGE + 50, "SECOND", 6) == 6;
	txn_abort();
	sync();
	txnstats(&b, 0);
	check(same && b.precommits > a.precommits, "a commit that would wait "
	    "for its group lets its page lock go as it is queued",
	    "%u pre-committed", b.precommits - a.precommits);
	txn_begin();
	pread_at(fd, PAGE + 50, buf, 5);
	check(txn_commit() == 0 && memcmp(buf, "first", 5) == 0,
	    "... a second transaction's abort over it leaves its bytes", "%.5s",
	    buf);
	txnstats(&b, 0);		/* its commit, and the reader's */
	check(b.commits >= a.commits + 2, "... and once a reader's commit "
	    "returns, its group is on the disk too", "%u commits",
	    b.commits - a.commits);
	post(go[1]);
	status = reap(pid);
	check(exited_with(reap(h), 0) && exited_with(status, 0) &&
	    patched(tpath("pre"), 4, first, 1), "... and the file reads as "
	    "it committed", "size %d", slurp(tpath("pre")));
	close(fd);
}
