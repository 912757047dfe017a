/*
 * txntests: NO-STEAL.  A running transaction's dirty pages stay in the
 * cache: past its limit the transaction is aborted (ENOBUFS), and
 * neither sync, fsync nor the cleaner writes one of them.
 */
#include "txntests.h"

/*
 * Pages of the file system's own block size (newfs_lfs -b): with 64 KB
 * blocks an eighth of the buffers is more than the whole cache, and the
 * bytes the cache can pin must stop the transaction first.
 */
void
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

void
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

void
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
