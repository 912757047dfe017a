/*
 * Kernel transactions in BSD-LFS (thesis 5.2; Seltzer, ICDE '93):
 * txn_begin, txn_commit, txn_abort and txn_detect, for the files marked
 * transaction-protected (chflags txn: UF_TXN in the inode's flags).
 *
 * There is no log.  LFS never overwrites, so the committed copy of a
 * page stays where it is on the disk, the before-image, until the page
 * is written again; a running transaction's dirty pages stay in the
 * cache (NO-STEAL: B_TXN, which the segment writer, sync, the update
 * daemon and the cleaner leave alone), and commit writes them with their
 * indirect blocks and inodes in one segment write (FORCE), so the
 * after-image is on the disk when txn_commit returns; of a page the disk
 * holds, only the bytes changed, as DELTAs (lfs_txndelta.c).  Abort
 * throws the pages away.  Isolation is strict two-phase page locking
 * (lfs_txnlock.c): a read locks each page shared before the buffer
 * lookup (lfs_blkatoff), a write exclusive (lfs_balloc), and all locks
 * go when the transaction ends: at an abort, or once its commit is
 * queued or its write issued, since every later commit is behind it in
 * the log.
 *
 * The pieces: a transaction's life and the system calls are here; a
 * protected file's reads, writes and pinned pages in lfs_txnfile.c; the
 * commit in lfs_txncommit.c, its DELTAs in lfs_txndelta.c; the abort in
 * lfs_txnundo.c; the lock table in lfs_txnlock.c.
 *
 * The thesis leaves these open; here is what this kernel does.
 *   Commit atomicity.  A commit's segment write (SEGM_TXN) marks every
 *	partial segment but its last SS_TXN | SS_CONT, as a dirop's are
 *	(thesis 6.3.3), and roll-forward applies a run only when the
 *	partial segment without SS_CONT that ends it reached the disk: a
 *	commit is all there after a crash, or not at all.
 *   Size and new blocks.  One transaction at a time may change a file's
 *	size or add blocks to it: it holds the file's TXN_SIZE lock
 *	exclusive, which remembers the size before.  Until it commits, the
 *	inode the writer logs carries that size and not the new blocks'
 *	count (txn_diskinode), so a crash leaves the file as it was; abort
 *	gives the size back and takes the new blocks out again, so the file
 *	reads as before (the thesis left holes).
 *   Access outside a transaction.  A read or write of a protected file by
 *	a process with no transaction is a transaction of its own
 *	(TXN_IMPLICIT, Valor's choice): it waits for the locks it needs, so
 *	it can neither see nor break another's pages, and a write is forced
 *	before write(2) returns; it never fails with ETXNABORT.  So cat, cp
 *	and ls work, and every dirty page of a protected file belongs to a
 *	transaction.  truncate of a protected file is one too outside a
 *	transaction, and refused inside one (EOPNOTSUPP: its freed blocks
 *	could not come back).
 *   One file system per transaction (EXDEV): one segment write, one
 *	commit.
 *   NO-STEAL's limit.  A transaction may keep txn_maxdirty pages dirty
 *	(kernel argument; an eighth of the buffers by default), and all
 *	together as many, and never more bytes than a quarter of the cache
 *	(txn_init): ENOBUFS beyond, and the transaction is aborted.
 *   Group commit (thesis 5.2.4).  A committer waits until txn_gcwait
 *	milliseconds pass (rounded up to clock ticks, 10 ms) or txn_gcmin
 *	committers are queued (50 ms and 8 by default), but only
 *	while another transaction on the file system could join soon (at
 *	work in a call, not waiting for a lock), and one that keeps its
 *	locks at most 10 ms (TXN_GCWAIT_HELD); whoever stops waiting writes for every one queued, and those
 *	that come while it writes form the next group.  The group's locks
 *	go as soon as its write is issued, before the disk is done (early
 *	lock release, txn_group_issued; txn_elr=0 keeps them to the end):
 *	the next transaction can take the pages this one changed while
 *	the disk writes them.  A committer that would wait for a group
 *	lets them go sooner, as it joins the queue, its DELTAs frozen and
 *	its pages pinned until its group's write (txn_precommit,
 *	lfs_txndelta.c): then transactions that all change one page (TPC-B's
 *	branch) commit together instead of one group each.
 *   Deadlock.  Looked for whenever a wait begins (lfs_txnlock.c), the
 *	requester the victim, unless it is a plain call's: then a
 *	transaction in the cycle; txn_detect looks too.  A victim's read or
 *	write returns ETXNABORT, and so does every later call of its
 *	transaction until txn_commit or txn_abort ends it.
 *   Who may block whom.  Only a process that may write a file takes
 *	locks on it that make others wait.  A read by one that may not
 *	(ufs_access VWRITE, judged at each read) takes weak locks: they
 *	wait for writers, but a writer takes the page at once and breaks
 *	them (lfs_txnlock.c), aborting the reader's transaction, or making
 *	a plain read start over.  So no one who may only read a file can
 *	stall its writers, or the readers behind them.
 *   Exit or kill inside a transaction aborts it.
 *   A forced unmount ends the transactions on the file system
 *	(txn_unmount): commits under way finish, running ones are aborted
 *	and undone, and their later calls fail with ETXNABORT (a read or
 *	write outside a transaction with EIO).  An unforced one says EBUSY
 *	while a transaction holds a lock there.
 *   The cleaner never moves a page a running transaction holds dirty:
 *	lfs_markv says EBUSY and the segment stays dirty.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/malloc.h"
#include "kern/proc.h"
#include "kern/uio.h"
#include "kern/syscallargs.h"
#include "kern/i386/cpu.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"
#include "lfs/lfs_txn.h"
#include <sys/time.h>
#include <sys/txn.h>

struct txnlist txn_all;			/* every transaction */
struct txnstats txn_stats;
static u_int32_t txn_nextid = 1;
int txn_ndirty;			/* B_TXN pages, all transactions */
long txn_nbytes;			/* ... and their bytes */
int txn_gcwait, txn_gcmin, txn_maxdirty, txn_elr;
long txn_maxbytes;		/* what all may pin (txn_init) */

/*
 * The kernel arguments, read at boot once the buffer cache is sized.
 * NO-STEAL pins dirty pages on the LOCKED queue, which the cache never
 * reclaims: pages pinned past the cache's size would leave no buffer to
 * anyone, and the whole system would wait for one.  So all transactions
 * together pin at most half LFS's start-write threshold, a quarter of
 * the cache (lfs_bio.c): a segment write that start write sets off always
 * has as much again to free, and what lies up to stop access is every
 * other writer's.  A txn_maxdirty of more pages (of LFS's smallest
 * block, 4 KB) is cut down to that, and the console says so.
 */
void
txn_init(void)
{
	const char *v = getkarg("txn_maxdirty");
	long startb, stopb, n;
	int startn, stopn, cap;
	char *end;

	/*
	 * bench/txn.py --sweep: txnbench at 4 and 16 processes does the same
	 * from 10 ms up; multi-user TPC-B with pre-commit took 10, 50 and 100
	 * ms to 27.2, 33.2 and 31.6 TPS at 4 processes, 27.6, 33.4 and 37.2
	 * at 8: 50 ms, the waits half as long as 100's.
	 */
	txn_gcwait = getkarg_int("txn_gcwait", 50);
	txn_gcmin = getkarg_int("txn_gcmin", 8);
	if (txn_gcwait < 0)
		txn_gcwait = 0;
	txn_elr = getkarg_int("txn_elr", 1) != 0;
	lfs_thresholds(&startb, &stopb, &startn, &stopn);
	txn_maxbytes = startb / 2;
	cap = txn_maxbytes / LFS_DEFBSIZE;
	txn_maxdirty = cap;		/* an eighth of the buffers (2 KB each) */
	if (v == NULL)
		return;
	n = strtol(v, &end, 0);
	if (end == v || *end != '\0' || n < 1)
		printf("txn: txn_maxdirty=%s is not a number of pages; "
		    "using %d\n", v, cap);
	else if (n > cap)
		printf("txn: txn_maxdirty=%s is more than the buffer cache can "
		    "pin below LFS's stop-access threshold; "
		    "using %d (%ld KB)\n", v, cap, txn_maxbytes / 1024);
	else {
		txn_maxdirty = n;
		printf("txn: txn_maxdirty=%d pages\n", txn_maxdirty);
	}
}

struct txn *
txn_new(struct proc *p, int flags)
{
	struct txn *t = malloc(sizeof(*t), M_WAITOK | M_ZERO);

	t->t_id = txn_nextid++;
	t->t_state = TXN_RUNNING;
	t->t_flags = flags;
	t->t_proc = p;
	LIST_INIT(&t->t_locks);
	LIST_INSERT_HEAD(&txn_all, t, t_all);
	if (flags & TXN_IMPLICIT)
		txn_stats.implicit++;
	else
		txn_stats.begins++;
	LFS_PROC(p)->lp_txn = t;	/* lfs_blkatoff's and lfs_balloc's checks */
	return t;
}

void
txn_end(struct txn *t)
{
	KASSERT(LIST_EMPTY(&t->t_locks) && t->t_ndirty == 0);
	LIST_REMOVE(t, t_all);
	if (LFS_PROC(t->t_proc)->lp_txn == t)
		LFS_PROC(t->t_proc)->lp_txn = NULL;
	free(t);
}

/* A transaction's files are on one file system. */
int
txn_bind(struct txn *t, struct vnode *vp)
{
	struct lfs *fs = VFSTOLFS(vp->v_mount);

	if (fs->lfs_txngone)
		return EIO;		/* being unmounted by force */
	if (t->t_fs == NULL)
		t->t_fs = fs;
	return t->t_fs == fs ? 0 : EXDEV;
}

/*
 * A call that works on t's file system (its locks, pages, commit) is
 * counted there, so that a forced unmount waits for it to return before
 * it undoes what is left (txn_unmount), and on t, so that group commit
 * waits only for transactions at work (lfs_txncommit.c).  The file
 * system, or NULL.  txn_callend's t is NULL if the call ended it.
 */
struct lfs *
txn_callbegin(struct txn *t)
{
	t->t_calls++;
	if (t->t_fs != NULL)
		t->t_fs->lfs_txncalls++;
	return t->t_fs;
}

void
txn_callend(struct txn *t, struct lfs *fs)
{
	if (t != NULL)
		t->t_calls--;
	if (fs != NULL && --fs->lfs_txncalls == 0)
		wakeup(&fs->lfs_txncalls);
}

int
sys_txn_begin(struct proc *p, void *uap, int *retval)
{
	if (LFS_PROC(p)->lp_txn != NULL)
		return EALREADY;
	*retval = txn_new(p, 0)->t_id;
	return 0;
}

int
sys_txn_commit(struct proc *p, void *uap, int *retval)
{
	struct txn *t = LFS_PROC(p)->lp_txn;
	struct lfs *fs;
	int error;

	if (t == NULL)
		return EINVAL;
	fs = txn_callbegin(t);
	if (t->t_state == TXN_ABORTED) {
		txn_undo(t);		/* if its unmount left that to it */
		error = ETXNABORT;	/* undone: this ends it */
	} else
		error = txn_commit(t);
	txn_end(t);
	txn_callend(NULL, fs);
	return error;
}

int
sys_txn_abort(struct proc *p, void *uap, int *retval)
{
	struct txn *t = LFS_PROC(p)->lp_txn;
	struct lfs *fs;

	if (t == NULL)
		return EINVAL;
	fs = txn_callbegin(t);
	txn_undo(t);
	txn_end(t);
	txn_callend(NULL, fs);
	return 0;
}

int
sys_txn_detect(struct proc *p, void *uap, int *retval)
{
	*retval = txn_detect_all();
	return 0;
}

int
sys_txnstats(struct proc *p, struct txnstats_args *uap, int *retval)
{
	struct txn *t;
	int error;

	txn_stats.running = 0;
	LIST_FOREACH(t, &txn_all, t_all)
		txn_stats.running++;
	txn_stats.dirty = txn_ndirty;
	txn_stats.gcwait = txn_gcwait;
	txn_stats.gcmin = txn_gcmin;
	txn_stats.maxdirty = txn_maxdirty;
	txn_stats.elr = txn_elr;
	if ((error = copyout(&txn_stats, uap->buf, sizeof(txn_stats))) != 0)
		return error;
	if (uap->reset) {
		if ((error = suser(p)) != 0)
			return error;
		memset(&txn_stats, 0, sizeof(txn_stats));
	}
	return 0;
}
