/*
 * The transaction manager's insides (thesis 5.1.4): the environment,
 * a transaction, the log's format, the lock table.
 *
 * The log file ("log" in the environment's directory) is a header
 * sector and then records.  Log sequence numbers (LSNs) are positions in
 * one endless stream of log bytes: the header says which LSN the byte
 * after it holds (base), so LSN l lives at file offset LOGHDR + l - base.
 * A checkpoint empties the log by moving base to the end; LSNs keep
 * growing, so a page's lsn stays comparable with every later record.
 * Each record says its own LSN and carries a CRC, so the scan that finds
 * the end of the log stops at the first record that is torn, stale (left
 * from before the last checkpoint), or never written.
 *
 *	record	len:32 cksum:32 lsn:64 prev:64 txnid:32 type:16 flags:16
 *	UPDATE	fileid:32 pgno:32 off:16 n:16 pad:32 before[n] after[n]
 *		(before absent with LRF_ZEROBEFORE: a page made new)
 *	CLR	the same with only after[n]: an undo done at abort
 *	FILE	fileid:32 psize:32 name: a file opened in the environment
 *	COMMIT, ABORT: the end of a transaction; no body
 *
 * prev chains a transaction's records backward (log_unroll follows it).
 */
#ifndef _LIBDB_TXNINT_H_
#define _LIBDB_TXNINT_H_

#include "lib/libdb/dbint.h"

#define LOG_MAGIC	0x4c4f4731	/* "LOG1" */
#define LOGHDR		512		/* one sector: rewritten whole */
#define LOGBUF		(128 * 1024)	/* the log buffer */
#define LOGPAGE		4096		/* for logdelay's dirty log pages */
#define MAXREC		(LRHDR + 16 + 2 * MAX_PSIZE)
#define MAXFILES	16
#define MAXNAME		64

struct loghdr {
	u_int32_t magic;
	u_int32_t version;
	u_int64_t base;		/* the LSN at file offset LOGHDR */
	u_int32_t cksum;	/* CRC-32 of the fields before it */
};

struct lrec {
	u_int32_t len;		/* the whole record, a multiple of 4 */
	u_int32_t cksum;	/* CRC-32 of the record, this field zero */
	u_int64_t lsn;
	u_int64_t prev;		/* this transaction's previous record */
	u_int32_t txnid;	/* 0: FILE */
	u_int16_t type;
	u_int16_t flags;
};
#define LRHDR		32

#define LR_UPDATE	1
#define LR_CLR		2
#define LR_FILE		3
#define LR_COMMIT	4
#define LR_ABORT	5
#define LRF_ZEROBEFORE	0x01

/* The body of an UPDATE or CLR, after the header. */
struct lrupdate {
	u_int32_t fileid;
	u_int32_t pgno;
	u_int16_t off;
	u_int16_t n;
	u_int32_t pad;
};

struct lrfile {
	u_int32_t fileid;
	u_int32_t psize;
};

/* Lock table: locked pages hashed, their locks chained by page and by txn. */
#define LOCK_READ	1
#define LOCK_WRITE	2
#define LOCKHASH	1024

struct lock;
struct lockobj {
	struct lockobj *hnext;
	u_int32_t fileid, pgno;
	struct lock *holders;	/* chained through onext */
};
struct lock {
	struct lock *onext;	/* the page's next holder */
	struct lock *tnext;	/* the transaction's next lock */
	struct lockobj *obj;
	struct tp_txn *txn;
	int	  mode;
};

struct tp_txn {
	u_int32_t id;
	u_int64_t lastlsn;	/* its last record (0: none yet) */
	struct lock *locks;
	struct tp_env *env;
};

struct dbfile {
	struct mpool *mp;	/* NULL: slot free */
	char	  name[MAXNAME];
};

struct tp_env {
	char	 *dir;
	struct tp_info info;
	int	  logfd;
	/* the log manager */
	u_int64_t base;		/* the LSN after the header */
	u_int64_t end;		/* the next record's LSN */
	u_int64_t written;	/* LSNs below are in the file */
	u_int64_t durable;	/* ... and fsync'd */
	u_int8_t *buf;		/* the records from bufstart to end */
	u_int64_t bufstart;
	/* the transaction manager */
	u_int32_t nextid;
	struct tp_txn *cur;	/* the running transaction */
	u_int32_t nwait;	/* commits not yet durable */
	u_int64_t waitsince;	/* microseconds: the oldest one's commit */
	u_int64_t durable_commits;
	/* the lock manager */
	struct lockobj **lockhash;
	/* the files */
	struct dbfile files[MAXFILES];
	struct tp_stat st;
};

/* txn_log.c: the log manager (thesis 5.1.4.1) */
int	 log_open(struct tp_env *, int *);
void	 log_close(struct tp_env *);
u_int64_t log_put(struct tp_env *, struct tp_txn *, int, int, const void *,
	    u_int32_t, const void *, u_int32_t, const void *, u_int32_t);
int	 log_flush(struct tp_env *);
int	 log_read(struct tp_env *, u_int64_t, u_int8_t *);
int	 log_reset(struct tp_env *);
u_int32_t log_dirtypages(struct tp_env *);

struct logscan {
	struct tp_env *env;
	u_int64_t lsn;		/* the next record's */
	u_int8_t *buf;		/* file bytes from bufpos */
	u_int64_t bufpos;	/* the LSN of buf[0] */
	u_int32_t buflen;
};
int	 log_scanstart(struct tp_env *, struct logscan *);
int	 log_scan(struct logscan *, u_int8_t *);
void	 log_scanend(struct logscan *);
int	 log_recok(const u_int8_t *, u_int64_t);

/* txn_lock.c: the lock manager (thesis 5.1.4.3) */
int	 lock_init(struct tp_env *);
int	 lock_get(struct tp_env *, struct tp_txn *, u_int32_t, u_int32_t, int);
void	 lock_unlock_all(struct tp_env *, struct tp_txn *);
void	 lock_free(struct tp_env *);

/* txn_recover.c: log_unroll (abort) and log_roll (recovery) */
int	 log_unroll(struct tp_env *, struct tp_txn *);

#endif
