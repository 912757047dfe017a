/*
 * libdb: the record library and the user-level transaction manager of
 * thesis 5.1.4, in the spirit of 4.4BSD db(3) and LIBTP [SELT92].
 *
 *	mpool.c		the page cache (LRU, size set by the caller) that
 *			both access methods read and write through
 *	btree.c		primary B-tree: records in the leaves, ordered keys,
 *	bt_page.c	get, put (insert or replace), delete; bt_page.c is
 *	bt_cursor.c	the page format and its checks, bt_cursor.c the
 *			cursor in key order and the bulk load
 *	recno.c		fixed-length record file, by record number
 *	txn.c		transaction manager: begin, commit, abort,
 *			group commit, checkpoints
 *	txn_log.c	log manager: write-ahead log of before- and
 *			after-images, forced at commit
 *	txn_lock.c	lock manager: strict two-phase page locks
 *	txn_recover.c	log_roll and log_unroll: abort, and recovery after
 *			a crash (redo the committed, undo the rest)
 *
 * One source, two builds: for the guest (build/lib/libdb.a, linked by
 * the programs the Makefile lists in DBPROGS) and for the host tests
 * (tests/libdb, under ASan and UBSan).  Only open, pread, pwrite, read,
 * write, lseek, fsync, fstat and close reach the kernel.  The manual's
 * section 3 has its calls (btree(3), recno(3), mpool(3), tp_open(3)).
 *
 * Return values follow db(3): 0 for success, DB_NOTFOUND (1) when a key
 * or record is not there, -1 with errno set for an error.  A damaged page
 * (bad checksum or an impossible layout) is EFTYPE, never a crash.
 *
 * Transactions are per process, like the kernel's (thesis 5.2): between
 * tp_begin and tp_commit or tp_abort every access to a file opened
 * with the environment is part of the running transaction: pages are
 * locked (read or write, held to the end: strict 2PL) and every change
 * to a page is logged as the before- and after-image of the bytes that
 * changed.  Outside a transaction access is neither locked nor logged.
 * The calls are tp_* (LIBTP's "transaction processing") because txn_*
 * are the kernel's transactions (sys/txn.h, thesis 5.2), which a
 * program may use instead: tpcb -m kernel opens its files with no
 * environment and brackets them with txn_begin(2) and txn_commit(2).
 */
#ifndef _LIBDB_DB_H_
#define _LIBDB_DB_H_

#include <sys/types.h>

#define DB_NOTFOUND	1	/* key or record not there */
#define DB_KEYEXIST	2	/* bt_put with BT_NOOVERWRITE: key there */

/* A key or a record: db(3)'s DBT. */
typedef struct {
	void	*data;
	size_t	 size;
} DBT;

struct mpool;
struct btree;
struct btcursor;
struct recno;
struct tp_env;
struct tp_txn;

/* Counters of one page cache (mpool_stat). */
struct mpool_stat {
	u_int64_t gets;		/* pages asked for */
	u_int64_t hits;		/* ... found in the cache */
	u_int64_t reads;	/* pages read from the file */
	u_int64_t writes;	/* pages written to the file */
	u_int32_t cached;	/* pages in the cache now */
	u_int32_t max;		/* the size the caller set */
};

/*
 * B-tree.  psize 0: the file system's block size (st_blksize); cache:
 * pages in its page cache (0: 64); fill: how full bt_load makes each page
 * (percent, 0: 100); nosync: the file is never fsync'd (not when
 * bt_open makes it, nor by bt_close or bt_sync, which write the dirty
 * pages to it): they are left to the kernel's write policy, as a
 * temporary relation's are, or a reader's, whose fsync would only write
 * the access time.  Keys compare as unsigned bytes (memcmp,
 * shorter first), so big-endian integers sort in numeric order.  No
 * overflow pages: a key and record together must fit in a quarter of a
 * page.
 */
struct btreeinfo {
	u_int32_t psize;
	u_int32_t cache;
	u_int32_t fill;
	u_int32_t nosync;
};

#define BT_NOOVERWRITE	0x01	/* bt_put: do not replace an existing key */

struct btree *bt_open(const char *, int, int, const struct btreeinfo *,
	    struct tp_env *);
int	 bt_close(struct btree *);
int	 bt_get(struct btree *, const DBT *, DBT *);
int	 bt_put(struct btree *, const DBT *, const DBT *, int);
int	 bt_del(struct btree *, const DBT *);
int	 bt_sync(struct btree *);
int	 bt_load(struct btree *, int (*)(void *, DBT *, DBT *), void *);
u_int32_t bt_psize(struct btree *);
u_int32_t bt_npages(struct btree *);
struct mpool *bt_mpool(struct btree *);

#define BT_FIRST	1	/* bt_cget: the smallest key */
#define BT_NEXT		2	/* the next key (BT_FIRST on a new cursor) */
#define BT_SET		3	/* the smallest key >= the one given */

struct btcursor *bt_cursor(struct btree *);
int	 bt_cget(struct btcursor *, DBT *, DBT *, int);
void	 bt_cclose(struct btcursor *);

/*
 * Fixed-length record file (db(3)'s recno with R_FIXEDLEN).  Records are
 * numbered from 1; putting past the end makes the records between empty
 * (zero bytes).
 */
struct recnoinfo {
	u_int32_t psize;
	u_int32_t cache;
	u_int32_t reclen;	/* needed to create the file; else checked */
};

struct recno *rec_open(const char *, int, int, const struct recnoinfo *,
	    struct tp_env *);
int	 rec_close(struct recno *);
int	 rec_get(struct recno *, u_int32_t, void *);
int	 rec_put(struct recno *, u_int32_t, const void *);
int	 rec_append(struct recno *, const void *, u_int32_t *);
int	 rec_count(struct recno *, u_int32_t *);
int	 rec_sync(struct recno *);
u_int32_t rec_reclen(struct recno *);
struct mpool *rec_mpool(struct recno *);

void	 mpool_stat(struct mpool *, struct mpool_stat *);

/*
 * For a caller whose transactions are the kernel's (figure 5-3): at
 * commit every dirty page must be in the file before txn_commit(2)
 * forces it, so mpool_sync writes them (write(2), no fsync); after
 * txn_abort(2) the cache may hold what the kernel threw away, and after
 * a commit other processes may change the pages, so mpool_discard drops
 * every unpinned page, dirty or not.
 */
int	 mpool_sync(struct mpool *);
void	 mpool_discard(struct mpool *);

/*
 * The transaction environment: a directory holding the log ("log") and
 * the files opened with it.
 *
 * Group commit (LIBTP's thresholds, thesis 5.1.4.1).  A commit writes its
 * commit record to the log buffer and releases its locks; the log is
 * forced when
 *	group		this many commits are waiting for the force (0 or 1:
 *			every commit forces, as the thesis' MPL-1 runs did);
 *	logdelay	this many log pages are dirty, whatever group says;
 *	wait_ms		the oldest waiting commit has waited this long
 *			(checked at every commit; 0: no limit).
 * LIBTP's wait threshold is a percentage of the active transactions
 * waiting to commit; with one process there are no others to wait for,
 * so here it is a bound on the wait.  A commit that did not force is not
 * durable yet: tp_durable says up to which commit the log is on disk.
 *
 * ckpt_kb: a checkpoint (every dirty page written and fsync'd, the log
 * emptied) once the log holds this much (0: 1024 KB).
 */
struct tp_info {
	u_int32_t group;
	u_int32_t logdelay;
	u_int32_t wait_ms;
	u_int32_t ckpt_kb;
};

#define TP_RECOVER	0x01	/* tp_open: run recovery if the log needs it */

/* Counters of an environment (tp_stat). */
struct tp_stat {
	u_int64_t begins, commits, aborts;
	u_int64_t forces;	/* log forces (write and fsync) */
	u_int64_t records;	/* log records written */
	u_int64_t logbytes;	/* ... their bytes */
	u_int64_t ckpts;	/* checkpoints */
	u_int64_t walforces;	/* forces a page write needed (WAL) */
	u_int32_t locks;	/* locks held now */
};

/* What a recovery did (tp_recover). */
struct tp_recover_stat {
	u_int32_t records;	/* log records after the checkpoint */
	u_int32_t committed;	/* transactions redone */
	u_int32_t aborted;	/* ... aborted before the crash, redone too */
	u_int32_t losers;	/* ... unfinished, undone */
	u_int32_t redone;	/* page changes applied forward */
	u_int32_t undone;	/* ... backward */
};

struct tp_env *tp_open(const char *, const struct tp_info *, int);
int	 tp_close(struct tp_env *);
struct tp_txn *tp_begin(struct tp_env *);
int	 tp_commit(struct tp_txn *);
int	 tp_abort(struct tp_txn *);
u_int32_t tp_id(struct tp_txn *);
int	 tp_flush(struct tp_env *);
int	 tp_checkpoint(struct tp_env *);
u_int64_t tp_durable(struct tp_env *);
void	 tp_stat(struct tp_env *, struct tp_stat *);
int	 tp_recover(const char *, struct tp_recover_stat *);

#endif
