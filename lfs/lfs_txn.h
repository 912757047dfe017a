/*
 * Kernel transactions embedded in BSD-LFS (thesis 5.2; Seltzer, ICDE
 * '93): the transaction state, the lock table and what the rest of LFS
 * calls.  The design is in lfs/lfs_txn.c's opening comment.
 *
 * The lock table (lfs_txnlock.c, thesis figure 5-4) hashes locked
 * objects by file and logical block; each object has the locks granted
 * on it and the requests waiting for it, and each lock is also chained
 * on its transaction, so commit and abort walk only their own.
 */
#ifndef _LFS_LFS_TXN_H_
#define _LFS_LFS_TXN_H_

#include <sys/types.h>
#include <sys/stat.h>
#include "kern/queue.h"

struct proc;
struct vnode;
struct inode;
struct uio;
struct ucred;
struct lfs;
struct buf;
struct txnstats;

/*
 * Is vp a transaction-protected file (chflags txn)?  Never, in a kernel
 * built with -DNOTXN (make build/kernel-notxn: bench/txn.py measures what
 * the transaction code costs programs that do not use it), where the
 * compiler drops every call behind this test and lfs/lfs_notxn.c stands
 * in for the rest.
 */
#ifdef NOTXN
#define TXN_PROTECTED(vp)	0
#else
#define TXN_PROTECTED(vp) ((vp)->v_type == VREG && (vp)->v_data != NULL && \
	(VTOI(vp)->i_flags & UF_TXN))
#endif

/* t_state, thesis 5.2.1.2 */
#define TXN_RUNNING	1
#define TXN_COMMITTING	2		/* queued for a group commit */
#define TXN_FORCING	3		/* its group's segment write has its
					 * pages (txn_release_pages) */
#define TXN_COMMITTED	4		/* on disk; its locks are gone */
#define TXN_ABORTED	5		/* a victim (or over its limit): undone,
					 * every call fails until it ends */

/* Internal to the read and write paths (never seen by a process). */
#define ETXNRETRY	(-3)		/* a page lock would wait: retry
					 * without the vnode lock */

/* t_flags */
#define TXN_IMPLICIT	0x01		/* one read or write of a process with
					 * no transaction (lfs_txn.c, top) */
#define TXN_UNDOING	0x02		/* txn_undo is at it (it may sleep) */
#define TXN_NEEDSIZE	0x04		/* a write found it must add a block:
					 * txn_lockrange waits for the size */
#define TXN_READONLY	0x08		/* this read's process may not write
					 * the file: its locks are weak */
#define TXN_BROKEN	0x10		/* a writer broke a weak lock of it
					 * (aborted; a plain read starts over) */
#define TXN_UNDONE	0x20		/* undone, and counted as aborted */
#define TXN_PRECOMMIT	0x40		/* queued with its DELTAs frozen and its
					 * locks gone (lfs_txndelta.c) */
#define TXN_UNPINNED	0x80		/* ... its group's write has its pages */

struct txn_lock;

/*
 * A page (or, p_lbn TXN_SIZE, the size) a pre-committed transaction
 * changed: pinned until its group's write is issued (lfs_txndelta.c).
 */
struct txn_pin {
	struct vnode *p_vp;		/* referenced */
	daddr_t	p_lbn;
	off_t	p_oldsize;		/* TXN_SIZE: the size before it */
	char	*p_snap;		/* the page before it */
};

struct txn {
	u_int32_t t_id;
	int	t_state;		/* TXN_* */
	int	t_flags;
	struct proc *t_proc;
	struct lfs *t_fs;		/* where its protected files are */
	LIST_HEAD(, txn_lock) t_locks;	/* held and waited for */
	struct txn_lock *t_wait;	/* the request it sleeps for */
	int	t_ndirty;		/* pages it holds dirty (NO-STEAL) */
	int	t_error;		/* its commit's, for the group */
	int64_t	t_commitstart;		/* when txn_commit was called (us) */
	TAILQ_ENTRY(txn) t_commitq;	/* the group commit queue */
	LIST_ENTRY(txn) t_all;		/* every transaction (GDB's "txn") */
	int	t_mark;			/* the deadlock detector's */
	u_int32_t t_seq;		/* its place in the commit queue */
	int	t_calls;		/* its calls inside the file system now
					 * (txn_callbegin) */
	struct txn_pin *t_pins;		/* TXN_PRECOMMIT: what it changed */
	int	t_npins;
	char	*t_recs;		/* ... its DELTAs, as the summary will */
	int	t_nrecs;		/* hold them (bytes) */
};

/* A locked object: a page of a file, or its size (TXN_SIZE). */
#define TXN_SIZE	((daddr_t)0x7fffffff)

struct txn_obj {
	LIST_ENTRY(txn_obj) o_hash;
	struct vnode *o_vp;		/* referenced while locked */
	daddr_t	o_lbn;
	LIST_HEAD(, txn_lock) o_granted;
	TAILQ_HEAD(, txn_lock) o_waiting;	/* in arrival order */
};

/* l_mode */
#define TXN_SHARED	1
#define TXN_EXCL	2

struct txn_lock {
	struct txn_obj *l_obj;
	struct txn *l_txn;
	int	l_mode;
	int	l_granted;
	int	l_flags;		/* TXL_* */
	off_t	l_oldsize;		/* TXN_SIZE: the size before the txn */
	LIST_ENTRY(txn_lock) l_olink;	/* on o_granted */
	TAILQ_ENTRY(txn_lock) l_wlink;	/* on o_waiting */
	LIST_ENTRY(txn_lock) l_tlink;	/* on t_locks */
};

#define TXL_CREATED	0x01		/* the page is new to the file: an
					 * abort takes it out again */
#define TXL_SIZESET	0x02		/* l_oldsize is set */
#define TXL_WEAK	0x04		/* shared, of a process that may not
					 * write the file: it blocks no one
					 * (lfs_txnlock.c) */

extern LIST_HEAD(txnlist, txn) txn_all;
extern struct txnstats txn_stats;

/* lfs_txnlock.c: the lock table */
#define TXN_WAIT	0x01		/* txn_lock: sleep if not granted */
#define TXN_WEAK	0x02		/* ... a shared lock that is TXL_WEAK */
int	txn_lock(struct txn *, struct vnode *, daddr_t lbn, int mode,
	    int flags, struct txn_lock **);
struct txn_lock *txn_held(struct txn *, struct vnode *, daddr_t lbn);
int	txn_file_release(struct vnode *);
void	txn_unlockall(struct txn *);
int	txn_detect_all(void);

/* lfs_txn.c: a transaction's life, the system calls */
void	txn_init(void);			/* its kernel arguments, at boot */

/* lfs_txnfile.c: a protected file's reads, writes and pages */
struct dinode;
int	txn_rdwr(struct vnode *, struct uio *, int ioflag, struct ucred *,
	    int rw);
int	txn_read_page(struct inode *, daddr_t lbn);
int	txn_write_page(struct inode *, daddr_t lbn, off_t end, int nnew);
void	txn_created(struct inode *, daddr_t lbn);
void	txn_page_dirty(struct inode *, struct buf *);
void	txn_page_gone(struct buf *);
void	txn_diskinode(struct inode *, struct dinode *);
void	txn_taken(struct buf *);
int	txn_truncate(struct vnode *, off_t length, struct ucred *);
int	txn_setflags(struct vnode *, u_int32_t flags);

/* lfs_txncommit.c: group commit */
void	txn_release_pages(struct lfs *);
void	txn_group_issued(struct lfs *);

/*
 * lfs_txndelta.c: delta commits.  A protected file's page carries one of
 * these (bp->b_fsdata) once a transaction changed it.
 */
#define TXN_MAXRUNS	8		/* DELTAs a page may take */
struct txn_page {
	u_int16_t tp_off, tp_end;	/* committed bytes the log holds and
					 * the disk does not: [off, end) */
	int	tp_delta;		/* the commit being written logs it */
	int	tp_nrun;		/* ... as these runs of changed bytes */
	u_int16_t tp_run[TXN_MAXRUNS][2];
	char	*tp_snap;		/* the page as committed, while a
					 * transaction changes it */
	int	tp_pins;		/* pre-committed transactions whose
					 * DELTAs of it are not yet issued */
};
struct segment;
int	txn_page_keep(struct buf *);
int	txn_page_logged(struct buf *);
void	txn_page_written(struct buf *);
int	txn_logdeltas(struct lfs *, struct segment *);
void	txn_deltas_done(struct lfs *);
int	txn_page_relog(struct buf *, int *lo, int *hi, const char **data,
	    u_int64_t *size);
int	txn_page_pinned(struct buf *);

/* lfs_txnundo.c: abort */
int	txn_unmount(struct lfs *, int force);
void	txn_exit(struct proc *);	/* abort the process's txn */

/*
 * What the lfs_txn*.c files share among themselves.  NO-STEAL's count
 * of pinned pages and its limits (txn_init), group commit's arguments:
 */
extern int txn_ndirty;			/* B_TXN pages, all transactions */
extern long txn_nbytes;			/* ... and their bytes */
extern int txn_gcwait, txn_gcmin, txn_maxdirty, txn_elr;
extern long txn_maxbytes;		/* what all may pin (txn_init) */
/* lfs_txn.c */
struct txn *txn_new(struct proc *, int flags);
void	txn_end(struct txn *);
int	txn_bind(struct txn *, struct vnode *);
struct lfs *txn_callbegin(struct txn *);
void	txn_callend(struct txn *, struct lfs *);
/* lfs_txncommit.c */
int	txn_commit(struct txn *);
void	txn_queue_wait(struct lfs *);
void	txn_page_forced(struct txn *, struct buf *);
/* lfs_txnundo.c */
void	txn_undo(struct txn *);
/* lfs_txndelta.c */
int	txn_delta_plan(struct lfs *, struct buf *, int *room);
int	txn_sumroom(struct lfs *);
int	txn_precommit(struct txn *);
void	txn_unpin(struct txn *, int release);
int	txn_pending_size(struct vnode *, off_t *);
int	txn_page_restore(struct buf *);
struct txn_lock *txn_sizeholder(struct vnode *);

#endif
