/*
 * tpcb: the modified TPC-B of thesis 5.3.1 and 7.8, its consistency
 * check, and SCAN (5.3.3).
 *
 *	tpcb -i [-s tps] [-A accounts] [-T tellers] [-B branches]
 *	     [-f fill] [-p psize] [-m kernel] DIR	make and load the database
 *	tpcb [-m none|user|kernel] [-n txns] [-r runs] [-w warmup] [-S seed]
 *	     [-C pages] [-g group] [-L logdelay] [-W wait_ms] [-k ckpt_kb]
 *	     [-a every] [-u segs] [-P procs] [-H] [-v] DIR	run transactions
 *	tpcb -c DIR				check consistency
 *	tpcb -x [-C pages] DIR			SCAN: read account in key order
 *
 * Scale (TPC-B's rules, per TPS: 1 branch, 10 tellers, 100,000
 * accounts): -s 10 is the thesis' 1,000,000 accounts, 100 tellers and 10
 * branches; -A, -T, -B set one relation's size.  -f: how full the loader
 * leaves account's leaves (percent, default 50; see load.c).
 *
 * A transaction: a teller chosen at random, its branch, an account of
 * that branch at random (no remote branches: the thesis ran on one
 * machine), a delta of up to six digits either way; the account, teller
 * and branch balances each get the delta, and a history record (account,
 * teller, branch, delta, time, and the transaction's number: one more
 * than the last record's) is appended.  Modes (-m):
 *
 *	none	no transactions: the four updates and nothing else; pages go
 *		to the file system as the page cache replaces them, and at
 *		exit.  A crash may leave the relations inconsistent.
 *	user	the user-level transaction manager (lib/libdb): page locks,
 *		the log forced at commit (-g, -L, -W: group commit; -k:
 *		checkpoint interval), abort by undo; db_recover after a crash.
 *	kernel	the kernel's transactions on BSD-LFS (thesis 5.2, figure
 *		5-3): the same access methods on files marked chflags txn
 *		(tpcb -i -m kernel marks them; a run marks any that are
 *		not), with no log and no locks here.  txn_begin(2); the
 *		updates; every dirty page written to the kernel (mpool_sync),
 *		then txn_commit(2) forces them; the page caches are emptied
 *		as every transaction begins and after it ends, so the
 *		kernel's buffer cache is the only one between transactions
 *		and every read takes the kernel's page lock.  Each page goes to the kernel as soon as
 *		it is changed, so its write lock follows its read lock at
 *		once: two transactions that both read a teller or the branch
 *		and waited until commit to upgrade would be a deadlock.  A
 *		deadlock victim (ETXNABORT) is aborted and tried again.
 *		Nothing to recover after a crash: the LFS roll-forward is the
 *		recovery.
 *
 * A run first warms up: transactions, uncounted, until the account page
 * cache (-C pages, default 256) is full (kernel mode: -C transactions,
 * each of which brings about one account page into the kernel's cache),
 * then -w more, then with -u segs
 * until the file system's LFS cleaner has cleaned that many segments (its
 * steady state: three times the segments of the disk, say) and two
 * windows of WINDOW transactions in a row agree on the rate within 10%
 * (at most WINDOWS of them); then -r runs of -n transactions, each timed:
 *
 *	tpcb run R txns N usecs U tps X.XX
 *
 * -P procs (kernel mode): each run is procs processes at once, forked
 * after the warm-up, each with its own seed and its share of the -n
 * transactions, meeting only at the kernel's page locks and its group
 * commit: the multi-user TPC-B the thesis left to [SELT92].  The
 * user-level manager's locks and log are one process's, so -m user
 * (and -m none, which has no locks) run alone.
 *
 * On an LFS the kernel's counters (and lfs_cleanerd's, when it runs)
 * are printed before the first run and after each run ("tpcb lfs ...").
 * -a every: every such transaction is aborted after its account and
 * teller updates (user and kernel mode).  -H: after each commit the log
 * (kernel mode: txn_commit) makes durable, print "ACK n" (n: commits
 * durable so far) and wait for a line on the standard input (the crash
 * tests' handshake); with -P, every process prints "ACK+" for each of
 * its commits once it is durable, and none waits (the count of writes
 * the host takes when it reads the line can only come later).  -v: a line every 100 transactions, as the thesis'
 * benchmark printed.  The last line is "tpcb done: C committed, A
 * aborted, D durable, R retried" (R: deadlock victims tried again).
 */
#include <sys/types.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/txn.h>
#include <sys/wait.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sys/ufs/lfs.h"
#include "bin/tpcb/tpcb.h"

struct opts {
	u_int32_t txns, runs, warmup, seed, cache, abortevery, cleaner, procs;
	int	  handshake, verbose;
	struct tp_info ti;
};

/* A mode: how transactions begin and end (see the header comment). */
struct mode {
	const char *name;
	int	(*open)(struct tpcb *, const struct opts *);
	int	(*begin)(struct tpcb *);
	int	(*commit)(struct tpcb *);
	int	(*abort)(struct tpcb *);
	u_int64_t (*durable)(struct tpcb *);
	int	(*close)(struct tpcb *);
	void	(*stats)(struct tpcb *);	/* at the end of a run */
	int	keepcache;	/* the page caches outlive a transaction */
	int	(*changed)(struct tpcb *);	/* after each row's update */
};

#define WINDOW	100		/* warm-up: transactions a window */
#define WINDOWS	20		/* ... at most so many windows */

static struct tp_txn *cur;		/* user mode: the running transaction */
static int kintxn;			/* kernel mode: txn_begin'd, not ended */
static u_int64_t committed, retried;
static const char *const files[] = { "account", "teller", "branch",
	"history" };

static int
none_open(struct tpcb *db, const struct opts *o)
{
	(void)db;
	(void)o;
	return 0;
}

static int
none_nop(struct tpcb *db)
{
	(void)db;
	return 0;
}

static u_int64_t
none_durable(struct tpcb *db)
{
	(void)db;
	return committed;
}

static int
user_open(struct tpcb *db, const struct opts *o)
{
	db->env = tp_open(db->dir, &o->ti, 0);
	if (db->env == NULL && errno == EBUSY)
		fprintf(stderr, "tpcb: %s: the log holds unfinished work: "
		    "run db_recover %s\n", db->dir, db->dir);
	return db->env == NULL ? -1 : 0;
}

static int
user_begin(struct tpcb *db)
{
	return (cur = tp_begin(db->env)) == NULL ? -1 : 0;
}

static int
user_commit(struct tpcb *db)
{
	(void)db;
	return tp_commit(cur);
}

static int
user_abort(struct tpcb *db)
{
	(void)db;
	return tp_abort(cur);
}

static u_int64_t
user_durable(struct tpcb *db)
{
	return tp_durable(db->env);
}

static int
user_close(struct tpcb *db)
{
	return db->env != NULL ? tp_close(db->env) : 0;
}

static void
user_stats(struct tpcb *db)
{
	struct tp_stat ts;

	tp_stat(db->env, &ts);
	printf("tpcb log: %llu forces, %llu records, %llu KB, %llu "
	    "checkpoints, %llu forced by page writes\n",
	    (unsigned long long)ts.forces, (unsigned long long)ts.records,
	    (unsigned long long)ts.logbytes / 1024,
	    (unsigned long long)ts.ckpts, (unsigned long long)ts.walforces);
}

/* Mark the database's files transaction-protected (chflags txn). */
static int
protect(const char *dir)
{
	char path[1024];
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		if (stat(path, &st) < 0)
			return -1;
		if ((st.st_flags & UF_TXN) == 0 &&
		    chflags(path, st.st_flags | UF_TXN) < 0) {
			if (errno == EOPNOTSUPP)
				fprintf(stderr, "tpcb: %s: kernel transactions "
				    "need BSD-LFS (chflags txn is not supported "
				    "on this file system)\n", path);
			return -1;
		}
	}
	return 0;
}

/* The page caches of the four files. */
static int
caches(struct tpcb *db, struct mpool **mp)
{
	mp[0] = bt_mpool(db->account);
	mp[1] = bt_mpool(db->teller);
	mp[2] = bt_mpool(db->branch);
	mp[3] = rec_mpool(db->history);
	return 4;
}

/* FORCE: every page the transaction changed goes to the kernel. */
static int
caches_write(struct tpcb *db)
{
	struct mpool *mp[4];
	int i, n = caches(db, mp);

	for (i = 0; i < n; i++)
		if (mpool_sync(mp[i]) < 0)
			return -1;
	return 0;
}

static void
caches_empty(struct tpcb *db)
{
	struct mpool *mp[4];
	int i, n = caches(db, mp);

	for (i = 0; i < n; i++)
		mpool_discard(mp[i]);
}

static int
kernel_open(struct tpcb *db, const struct opts *o)
{
	(void)o;
	return protect(db->dir);
}

/*
 * What the page caches hold from before the transaction (the run's first
 * lasttxn, say) was read without its locks: others may have changed it.
 */
static int
kernel_begin(struct tpcb *db)
{
	caches_empty(db);
	if (txn_begin() < 0)
		return -1;
	kintxn = 1;
	return 0;
}

/*
 * The pages must be in the kernel before txn_commit(2), which forces
 * what the transaction wrote and nothing else.  A failed write leaves
 * the transaction running (the caller aborts it); txn_commit ends it
 * either way.
 */
static int
kernel_commit(struct tpcb *db)
{
	int rv;

	if (caches_write(db) < 0)
		return -1;
	kintxn = 0;
	rv = txn_commit();	/* COMMIT POINT: returns when it is on disk */
	caches_empty(db);
	return rv;
}

/*
 * The changes go to the kernel first, so that txn_abort(2) has pages of
 * its own to throw away (-a tests the kernel's undo, not our cache); a
 * deadlock victim's writes fail, and it has been undone already.  Our
 * pages may hold what was thrown away: they go too.
 */
static int
kernel_abort(struct tpcb *db)
{
	int rv = 0;

	if (kintxn) {
		if (caches_write(db) < 0 && errno != ETXNABORT)
			rv = -1;
		if (txn_abort() < 0)
			rv = -1;
		kintxn = 0;
	}
	caches_empty(db);
	return rv;
}

/* The kernel's counters (txnstat): for all processes, since boot. */
static void
kernel_stats(struct tpcb *db)
{
	struct txnstats ks;

	(void)db;
	if (txnstats(&ks, 0) < 0)
		return;
	printf("tpcb kernel txns: %u commits, %u aborts, %u victims, %u lock "
	    "waits, %u group commits, %u pages forced, %u steals\n",
	    ks.commits, ks.aborts, ks.victims, ks.waits, ks.groups,
	    ks.pages_forced, ks.steals);
}

static const struct mode modes[] = {
	{ "none", none_open, none_nop, none_nop, NULL, none_durable,
	    none_nop, NULL, 1 },
	{ "user", user_open, user_begin, user_commit, user_abort,
	    user_durable, user_close, user_stats, 1 },
	{ "kernel", kernel_open, kernel_begin, kernel_commit, kernel_abort,
	    none_durable, none_nop, kernel_stats, 0, caches_write },
};

long long
now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

/* "what N per second X.XX" without floating point in printf. */
void
pr_rate(const char *what, unsigned long long n, long long us)
{
	unsigned long long c = us > 0 ? n * 100000000ULL / us : 0;

	printf("%s %llu usecs %lld tps %llu.%02llu\n", what, n, us, c / 100,
	    c % 100);
}

static u_int32_t rngstate;

static u_int32_t
rnd(u_int32_t n)
{
	rngstate ^= rngstate << 13;
	rngstate ^= rngstate >> 17;
	rngstate ^= rngstate << 5;
	return rngstate % n;
}

static void
usage(void)
{
	fprintf(stderr, "usage: tpcb -i [-s tps] [-A accounts] [-T tellers] "
	    "[-B branches] [-f fill] [-p psize] [-m kernel] dir\n"
	    "       tpcb [-m none|user|kernel] [-n txns] [-r runs] [-w warmup] "
	    "[-S seed] [-C pages]\n"
	    "            [-g group] [-L logdelay] [-W wait_ms] [-k ckpt_kb] "
	    "[-a every] [-u segs] [-P procs] [-Hv] dir\n"
	    "       tpcb -c dir\n"
	    "       tpcb -x [-C pages] dir\n");
	exit(2);
}

static int
opendb(struct tpcb *db, const struct mode *m, const struct opts *o)
{
	struct btreeinfo bi;
	struct recnoinfo ri;
	char path[1024];

	if (readscale(db->dir, &db->sc) < 0 || m->open(db, o) < 0)
		return -1;
	memset(&bi, 0, sizeof(bi));
	bi.cache = o->cache;
	snprintf(path, sizeof(path), "%s/account", db->dir);
	if ((db->account = bt_open(path, O_RDWR, 0, &bi, db->env)) == NULL)
		return -1;
	bi.cache = 16;
	snprintf(path, sizeof(path), "%s/teller", db->dir);
	if ((db->teller = bt_open(path, O_RDWR, 0, &bi, db->env)) == NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/branch", db->dir);
	if ((db->branch = bt_open(path, O_RDWR, 0, &bi, db->env)) == NULL)
		return -1;
	memset(&ri, 0, sizeof(ri));
	ri.cache = 16;
	snprintf(path, sizeof(path), "%s/history", db->dir);
	if ((db->history = rec_open(path, O_RDWR, 0, &ri, db->env)) == NULL)
		return -1;
	return 0;
}

/* Add delta to row id's balance; then the mode's word on the change. */
static int
update(struct tpcb *db, const struct mode *m, struct btree *bt, u_int32_t id,
    int32_t delta)
{
	u_int8_t key[4];
	struct row r;
	DBT k, d;
	int rv;

	idkey(id, key);
	k.data = key;
	k.size = 4;
	if ((rv = bt_get(bt, &k, &d)) != 0 || d.size != ROWLEN) {
		if (rv >= 0)
			errno = EFTYPE;
		return -1;
	}
	memcpy(&r, d.data, ROWLEN);
	r.balance += delta;
	d.data = &r;
	if (bt_put(bt, &k, &d, 0) < 0)
		return -1;
	return m->changed != NULL ? m->changed(db) : 0;
}

/* The last history record's transaction number (0: none yet). */
static int
lasttxn(struct tpcb *db, u_int32_t *n)
{
	struct hist h;
	u_int32_t nh;

	*n = 0;
	if (rec_count(db->history, &nh) < 0 ||
	    (nh > 0 && rec_get(db->history, nh, &h) != 0))
		return -1;
	if (nh > 0)
		*n = h.txn;
	return 0;
}

/*
 * One try at transaction n, whose rows and delta h holds: 1 if it
 * committed, 0 if it was aborted (-a), -1 on an error.  Its number in
 * the history is the last record's plus one, read in the transaction,
 * so that the history is in commit order whoever else is running.
 */
static int
attempt(struct tpcb *db, const struct mode *m, const struct opts *o,
    u_int32_t n, struct hist *h)
{
	if (m->begin(db) < 0 ||
	    update(db, m, db->account, h->account, h->delta) < 0 ||
	    update(db, m, db->teller, h->teller, h->delta) < 0)
		return -1;
	if (o->abortevery && n % o->abortevery == 0)
		return m->abort(db) < 0 ? -1 : 0;
	if (update(db, m, db->branch, h->branch, h->delta) < 0 ||
	    lasttxn(db, &h->txn) < 0)
		return -1;
	h->txn++;
	h->time = (u_int32_t)time(NULL);
	if (rec_append(db->history, h, NULL) < 0 || m->commit(db) < 0)
		return -1;
	return 1;
}

/*
 * Transaction n: a teller, its branch, an account of the branch and a
 * delta at random.  A deadlock victim (ETXNABORT: kernel mode with
 * other processes) is ended and tried again with the same rows.
 */
static int
transaction(struct tpcb *db, const struct mode *m, const struct opts *o,
    u_int32_t n)
{
	const struct scale *sc = &db->sc;
	u_int32_t lo, hi;
	struct hist h;
	int rv;

	memset(&h, 0, sizeof(h));
	h.teller = rnd(sc->tellers);
	h.delta = (int32_t)rnd(1999999) - 999999;
	h.branch = (u_int32_t)((u_int64_t)h.teller * sc->branches /
	    sc->tellers);
	lo = (u_int32_t)(((u_int64_t)h.branch * sc->accounts +
	    sc->branches - 1) / sc->branches);
	hi = (u_int32_t)(((u_int64_t)(h.branch + 1) * sc->accounts +
	    sc->branches - 1) / sc->branches);
	h.account = lo + rnd(hi - lo);
	memset(h.filler, 'h', sizeof(h.filler));
	while ((rv = attempt(db, m, o, n, &h)) < 0 && errno == ETXNABORT &&
	    m->abort != NULL) {
		retried++;
		if (m->abort(db) < 0)
			return -1;
	}
	committed += rv == 1;
	return rv;
}

/* What a process of a -P run did, for its parent's totals. */
struct share {
	u_int64_t committed, retried;
	u_int32_t aborted, failed;
};

/* -H with -P: one more commit of this process is durable. */
static void
ackone(void)
{
	printf("ACK+\n");
	fflush(stdout);
}

/*
 * One -P run: o->procs processes at once, forked here, each with its own
 * seed and every o->procs'th of the numbers after *n; the parent waits
 * for all and adds up what each did.  -1 if any failed.
 */
static int
forkrun(struct tpcb *db, const struct mode *m, const struct opts *o,
    u_int32_t run, u_int32_t *n, u_int32_t *aborted)
{
	struct share sh;
	u_int32_t c, i, bad = 0;
	int fd[2], r, status;
	pid_t pid;

	if (pipe(fd) < 0)
		return -1;
	fflush(stdout);
	for (c = 0; c < o->procs; c++) {
		if ((pid = fork()) < 0) {
			bad++;
			break;
		}
		if (pid > 0)
			continue;
		close(fd[0]);
		rngstate = (o->seed + run * 7919 + c * 104729) * 2654435761u + 1;
		memset(&sh, 0, sizeof(sh));
		committed = retried = 0;
		for (i = *n + 1 + c; i <= *n + o->txns; i += o->procs) {
			if ((r = transaction(db, m, o, i)) < 0) {
				fprintf(stderr, "tpcb: process %u, transaction "
				    "%u: %s\n", c, i, strerror(errno));
				sh.failed = 1;
				break;
			}
			sh.aborted += r == 0;
			if (r == 1 && o->handshake)
				ackone();	/* txn_commit returned */
		}
		sh.committed = committed;
		sh.retried = retried;
		write(fd[1], &sh, sizeof(sh));
		_exit(sh.failed);
	}
	close(fd[1]);
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			bad++;
	while (read(fd[0], &sh, sizeof(sh)) == (ssize_t)sizeof(sh)) {
		committed += sh.committed;
		retried += sh.retried;
		*aborted += sh.aborted;
	}
	close(fd[0]);
	*n += o->txns;
	return bad ? -1 : 0;
}

static int
runtxns(struct tpcb *db, const struct mode *m, const struct opts *o)
{
	struct mpool_stat ms;
	u_int32_t n, n0, aborted = 0, warm, run, i, cleaned0, full;
	double prev, rate = 0;
	long long t1;
	struct lfs_stats ls;
	u_int64_t acked = 0;
	long long t0;
	char line[16];
	int r;

#define ONE() do {							\
	if ((r = transaction(db, m, o, ++n)) < 0)			\
		goto fail;						\
	aborted += r == 0;						\
	if (o->handshake && o->procs > 1)				\
		for (; acked < m->durable(db); acked++)			\
			ackone();					\
	else if (o->handshake && m->durable(db) > acked) {		\
		acked = m->durable(db);					\
		printf("ACK %llu\n", (unsigned long long)acked);	\
		fflush(stdout);						\
		if (fgets(line, sizeof(line), stdin) == NULL)		\
			return -1;					\
	}								\
	if (o->verbose && n % 100 == 0) {				\
		printf("tpcb: %u transactions\n", n);			\
		fflush(stdout);						\
	}								\
} while (0)

	if (lasttxn(db, &n) < 0)
		goto fail;
	n0 = n;
	/*
	 * Warm up: the account page cache full (or holding the whole file;
	 * kernel mode: as many transactions as it has pages, for the
	 * kernel's cache), -w more, then the cleaner.
	 */
	t0 = now_us();
	for (full = bt_npages(db->account);; ) {
		mpool_stat(bt_mpool(db->account), &ms);
		if (m->keepcache ? ms.cached >= ms.max || ms.cached >= full ||
		    n - n0 >= 4 * ms.max : n - n0 >= ms.max)
			break;
		ONE();
	}
	for (warm = 0; warm < o->warmup; warm++)
		ONE();
	/* The cleaner's steady state: -u segments cleaned. */
	if (o->cleaner > 0 && lfsnow(db->dir, &ls)) {
		cleaned0 = (u_int32_t)ls.segs_cleaned;
		while (lfsnow(db->dir, &ls) && ls.segs_cleaned - cleaned0 <
		    o->cleaner && n - n0 < 1000000)
			for (i = 0; i < 50; i++)
				ONE();
		/* ... and until two windows in a row agree within 10%. */
		for (prev = 0, run = 0; run < WINDOWS; run++, prev = rate) {
			t1 = now_us();
			for (i = 0; i < WINDOW; i++)
				ONE();
			rate = WINDOW * 1e6 / (double)(now_us() - t1 + 1);
			if (rate < prev * 1.1 && rate * 1.1 > prev)
				break;
		}
	}
	if (n > n0) {
		printf("tpcb warm %u transactions in %lld ms, account cache "
		    "%u of %u pages\n", n - n0, (now_us() - t0) / 1000,
		    ms.cached, ms.max);
		lfscounters(db->dir);
	}
	for (run = 1; run <= o->runs; run++) {
		char what[64];

		t0 = now_us();
		if (o->procs > 1) {
			if (forkrun(db, m, o, run, &n, &aborted) < 0)
				goto fail;
		} else
			for (i = 0; i < o->txns; i++)
				ONE();
		snprintf(what, sizeof(what), "tpcb run %u txns", run);
		pr_rate(what, o->txns, now_us() - t0);
		lfscounters(db->dir);
		fflush(stdout);
	}
#undef ONE
	if (m->stats != NULL)
		m->stats(db);
	mpool_stat(bt_mpool(db->account), &ms);
	printf("tpcb account cache: %llu gets, %llu hits, %llu reads, %llu "
	    "writes\n", (unsigned long long)ms.gets,
	    (unsigned long long)ms.hits, (unsigned long long)ms.reads,
	    (unsigned long long)ms.writes);
	printf("tpcb done: %llu committed, %u aborted, %llu durable, %llu "
	    "retried\n", (unsigned long long)committed, aborted,
	    (unsigned long long)m->durable(db), (unsigned long long)retried);
	return 0;
fail:
	fprintf(stderr, "tpcb: transaction %u: %s\n", n, strerror(errno));
	return -1;
}

static int
closedb(struct tpcb *db, const struct mode *m)
{
	int rv = 0;

	if (db->account != NULL && bt_close(db->account) < 0)
		rv = -1;
	if (db->teller != NULL && bt_close(db->teller) < 0)
		rv = -1;
	if (db->branch != NULL && bt_close(db->branch) < 0)
		rv = -1;
	if (db->history != NULL && rec_close(db->history) < 0)
		rv = -1;
	if (m->close(db) < 0)
		rv = -1;
	return rv;
}

int
main(int argc, char *argv[])
{
	struct opts o;
	struct scale sc;
	struct tpcb db;
	const struct mode *m = &modes[1];
	u_int32_t fill = 50, psize = 0, i;
	int ch, op = 0, rv;

	memset(&o, 0, sizeof(o));
	memset(&sc, 0, sizeof(sc));
	o.txns = 1000;
	o.runs = 1;
	o.seed = 1;
	o.cache = 256;
	sc.branches = 1;
	while ((ch = getopt(argc, argv, "icxs:A:T:B:f:p:m:n:r:w:S:C:g:L:W:k:"
	    "a:u:P:Hv")) != -1) {
		switch (ch) {
		case 'i':
		case 'c':
		case 'x':
			op = ch;
			break;
		case 's':
			sc.branches = (u_int32_t)atoi(optarg);
			break;
		case 'A':
			sc.accounts = (u_int32_t)atoi(optarg);
			break;
		case 'T':
			sc.tellers = (u_int32_t)atoi(optarg);
			break;
		case 'B':
			sc.branches = (u_int32_t)atoi(optarg);
			break;
		case 'f':
			fill = (u_int32_t)atoi(optarg);
			break;
		case 'p':
			psize = (u_int32_t)atoi(optarg);
			break;
		case 'm':
			for (m = NULL, i = 0; i < sizeof(modes) /
			    sizeof(modes[0]); i++)
				if (strcmp(optarg, modes[i].name) == 0)
					m = &modes[i];
			if (m == NULL)
				usage();
			break;
		case 'n':
			o.txns = (u_int32_t)atoi(optarg);
			break;
		case 'r':
			o.runs = (u_int32_t)atoi(optarg);
			break;
		case 'w':
			o.warmup = (u_int32_t)atoi(optarg);
			break;
		case 'S':
			o.seed = (u_int32_t)atoi(optarg);
			break;
		case 'C':
			o.cache = (u_int32_t)atoi(optarg);
			break;
		case 'g':
			o.ti.group = (u_int32_t)atoi(optarg);
			break;
		case 'L':
			o.ti.logdelay = (u_int32_t)atoi(optarg);
			break;
		case 'W':
			o.ti.wait_ms = (u_int32_t)atoi(optarg);
			break;
		case 'k':
			o.ti.ckpt_kb = (u_int32_t)atoi(optarg);
			break;
		case 'a':
			o.abortevery = (u_int32_t)atoi(optarg);
			break;
		case 'u':
			o.cleaner = (u_int32_t)atoi(optarg);
			break;
		case 'P':
			o.procs = (u_int32_t)atoi(optarg);
			if (o.procs < 1 || o.procs > 64) {
				fprintf(stderr, "tpcb: -P %s: from 1 to 64 "
				    "processes\n", optarg);
				return 2;
			}
			break;
		case 'H':
			o.handshake = 1;
			break;
		case 'v':
			o.verbose = 1;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1)
		usage();
	memset(&db, 0, sizeof(db));
	db.dir = argv[optind];
	switch (op) {
	case 'i':
		if (sc.tellers == 0)
			sc.tellers = 10 * sc.branches;
		if (sc.accounts == 0)
			sc.accounts = 100000 * sc.branches;
		if (sc.branches == 0 || sc.tellers < sc.branches ||
		    sc.accounts < sc.branches || fill < 1 || fill > 100)
			usage();
		rv = load(db.dir, &sc, fill, psize);
		if (rv == 0 && m->open == kernel_open &&
		    (rv = protect(db.dir)) == 0)
			printf("tpcb: the files are transaction-protected "
			    "(chflags txn)\n");
		break;
	case 'c':
		rv = check(db.dir);
		if (rv == 1)
			return 1;
		break;
	case 'x':
		rv = scan(db.dir, o.cache);
		break;
	default:
		if ((o.abortevery || o.handshake) && m->abort == NULL) {
			fprintf(stderr, "tpcb: -a and -H need transactions "
			    "(-m user or -m kernel)\n");
			return 2;
		}
		if (o.procs > 1 && m->open != kernel_open) {
			fprintf(stderr, "tpcb: -P needs -m kernel: the "
			    "user-level manager's locks and log are one "
			    "process's\n");
			return 2;
		}
		rngstate = o.seed * 2654435761u + 1;
		printf("tpcb mode %s\n", m->name);
		rv = opendb(&db, m, &o);
		if (rv == 0)
			rv = runtxns(&db, m, &o);
		if (closedb(&db, m) < 0)
			rv = -1;
		break;
	}
	if (rv < 0) {
		fprintf(stderr, "tpcb: %s: %s\n", db.dir, strerror(errno));
		return 1;
	}
	return 0;
}
