/*
 * Kernel transactions in BSD-LFS (thesis 5.2): the four calls and the
 * counters txnstat prints.  A process has at most one transaction; its
 * reads and writes of transaction-protected files (chflags txn) between
 * txn_begin and txn_commit or txn_abort are page-locked, isolated and
 * atomic, and durable when txn_commit returns.  A deadlock victim's read
 * or write fails with ETXNABORT, as does every later call of its
 * transaction until it is ended.  The design: lfs/lfs_txn.c.
 */
#ifndef _SYS_TXN_H_
#define _SYS_TXN_H_

#include <sys/types.h>

struct txnstats {
	u_int32_t begins;		/* txn_begin calls that began one */
	u_int32_t implicit;		/* reads, writes and truncates of a
					 * protected file outside one */
	u_int32_t commits;
	u_int32_t aborts;		/* undone: txn_abort, exit, victim,
					 * over the dirty-page limit */
	u_int32_t victims;		/* deadlock victims */
	u_int32_t waits;		/* lock requests that had to wait */
	u_int32_t groups;		/* commits' segment writes */
	u_int32_t group_txns;		/* the transactions they committed */
	u_int32_t pages_forced;		/* pages those wrote */
	u_int32_t steals;		/* pages of a running transaction the
					 * writer took: NO-STEAL says 0 */
	u_int64_t commit_us;		/* txn_commit's latency, in all */
	u_int64_t commit_us_max;
	/* as they stand now */
	u_int32_t running;		/* transactions */
	u_int32_t dirty;		/* pages they hold dirty */
	u_int32_t gcwait;		/* group commit: ms a committer waits */
	u_int32_t gcmin;		/* ... or until this many are queued */
	u_int32_t maxdirty;		/* NO-STEAL's limit, in pages */
	/* since boot, as those above */
	u_int32_t broken;		/* read locks of those who may not
					 * write the file that writers broke */
	u_int32_t elr;			/* now: a group's locks go when its
					 * write is issued (txn_elr) */
	u_int32_t precommits;		/* since boot: commits whose locks went
					 * when they were queued */
};

#ifndef KERNEL
int	txn_begin(void);
int	txn_commit(void);
int	txn_abort(void);
int	txn_detect(void);
int	txnstats(struct txnstats *, int reset);
#endif

#endif
