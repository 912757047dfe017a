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
 * after-image is on the disk when txn_commit returns.  Abort throws the
 * pages away.  Isolation is strict two-phase page locking
 * (lfs_txnlock.c): a read locks each page shared before the buffer
 * lookup (lfs_blkatoff), a write exclusive (lfs_balloc), and all locks
 * go when the transaction ends.
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
 *	committers are queued (10 ms and 8 by default), but only
 *	while another transaction on the file system is running and could
 *	join; whoever stops waiting writes for every one queued, and those
 *	that come while it writes form the next group.
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
static int txn_ndirty;			/* B_TXN pages, all transactions */
static long txn_nbytes;			/* ... and their bytes */
static int txn_gcwait, txn_gcmin, txn_maxdirty;
static long txn_maxbytes;		/* what all may pin (txn_init) */

/*
 * The kernel arguments, read at boot once the buffer cache is sized.
 * NO-STEAL pins dirty pages on the LOCKED queue, which the cache never
 * reclaims: pages pinned past the cache's size would leave no buffer to
 * anyone, and the whole system would wait for one.  So all transactions
 * together pin at most LFS's start-write threshold, a quarter of the
 * cache (lfs_bio.c), and leave what lies between it and stop access to
 * every other writer.  A txn_maxdirty of more pages (of LFS's smallest
 * block, 4 KB) is cut down to that, and the console says so.
 */
void
txn_init(void)
{
	const char *v = getkarg("txn_maxdirty");
	long startb, stopb, n;
	int startn, stopn, cap;
	char *end;

	/* bench/txn.py --sweep: 10 ms and 8 did best at 4 and 16 processes. */
	txn_gcwait = getkarg_int("txn_gcwait", 10);
	txn_gcmin = getkarg_int("txn_gcmin", 8);
	if (txn_gcwait < 0)
		txn_gcwait = 0;
	lfs_thresholds(&startb, &stopb, &startn, &stopn);
	txn_maxbytes = startb;
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

static int64_t
txn_usec(void)
{
	struct timeval tv;

	microtime(&tv);
	return (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
}

static struct txn *
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

static void
txn_end(struct txn *t)
{
	KASSERT(LIST_EMPTY(&t->t_locks) && t->t_ndirty == 0);
	LIST_REMOVE(t, t_all);
	if (LFS_PROC(t->t_proc)->lp_txn == t)
		LFS_PROC(t->t_proc)->lp_txn = NULL;
	free(t);
}

/* A transaction's files are on one file system. */
static int
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
 * it undoes what is left (txn_unmount).  The file system, or NULL.
 */
static struct lfs *
txn_callbegin(struct txn *t)
{
	if (t->t_fs != NULL)
		t->t_fs->lfs_txncalls++;
	return t->t_fs;
}

static void
txn_callend(struct lfs *fs)
{
	if (fs != NULL && --fs->lfs_txncalls == 0)
		wakeup(&fs->lfs_txncalls);
}

/* Are t's read locks, for the call it is in, weak (TXN_READONLY)? */
static int
txn_weak(struct txn *t)
{
	return (t->t_flags & TXN_READONLY) ? TXN_WEAK : 0;
}

/* The size lock t holds on vp's file, or NULL. */
static struct txn_lock *
txn_sizelock(struct txn *t, struct vnode *vp)
{
	return txn_held(t, vp, TXN_SIZE);
}

/* Take vp's size lock; the first time, remember the size before. */
static int
txn_lock_size(struct txn *t, struct vnode *vp, int flags)
{
	struct txn_lock *l;
	int error;

	if ((error = txn_lock(t, vp, TXN_SIZE, TXN_EXCL, flags, &l)) != 0)
		return error;
	if (!(l->l_flags & TXL_SIZESET)) {
		l->l_oldsize = VTOI(vp)->i_size;
		l->l_flags |= TXL_SIZESET;
	}
	return 0;
}

/*
 * The locks a read or write of uio will need, taken before the vnode
 * lock (a conflict sleeps here, holding nothing else).  The pages past
 * the end of the file a read will not read, the size of a write that
 * grows the file or found it must fill a hole (TXN_NEEDSIZE).  A plain
 * write takes the size first, whatever it does: then every implicit
 * transaction locks in one order, the size and then the pages upward,
 * and no cycle of waiters is made of them alone (lfs_txnlock.c).
 */
static int
txn_lockrange(struct txn *t, struct vnode *vp, struct uio *uio, int ioflag,
    int rw)
{
	struct inode *ip = VTOI(vp);
	int bshift = ip->i_ump->um_bshift, error;
	off_t off = uio->uio_offset, end;
	daddr_t lbn;

	if (rw == UIO_WRITE && (t->t_flags & (TXN_IMPLICIT | TXN_NEEDSIZE)) &&
	    (error = txn_lock_size(t, vp, TXN_WAIT)) != 0)
		return error;
	t->t_flags &= ~TXN_NEEDSIZE;
	if (rw == UIO_WRITE && (ioflag & IO_APPEND))
		off = ip->i_size;
	end = off + uio->uio_resid;
	if (rw == UIO_READ && end > (off_t)ip->i_size)
		end = ip->i_size;
	if (rw == UIO_WRITE && end > (off_t)ip->i_size &&
	    (error = txn_lock_size(t, vp, TXN_WAIT)) != 0)
		return error;
	for (lbn = off >> bshift; off < end && lbn <= (end - 1) >> bshift;
	    lbn++)
		if ((error = txn_lock(t, vp, lbn, rw == UIO_READ ? TXN_SHARED :
		    TXN_EXCL, TXN_WAIT | txn_weak(t), NULL)) != 0)
			return error;
	return 0;
}

static int txn_commit(struct txn *);
static void txn_undo(struct txn *);

/*
 * Where a read began, so that it can start over (txn_rdwr): the uio and
 * the iovecs uiomove shortens as it goes.
 */
struct txn_uiomark {
	struct iovec *iov, *saved;
	int	iovcnt, resid;
	off_t	offset;
};

static void
txn_uiomark(struct uio *uio, struct txn_uiomark *m)
{
	m->iov = uio->uio_iov;
	m->iovcnt = uio->uio_iovcnt;
	m->resid = uio->uio_resid;
	m->offset = uio->uio_offset;
	m->saved = malloc(m->iovcnt * sizeof(*m->saved), M_WAITOK);
	memcpy(m->saved, m->iov, m->iovcnt * sizeof(*m->saved));
}

static void
txn_uiorewind(struct uio *uio, struct txn_uiomark *m)
{
	uio->uio_iov = m->iov;
	uio->uio_iovcnt = m->iovcnt;
	uio->uio_resid = m->resid;
	uio->uio_offset = m->offset;
	memcpy(m->iov, m->saved, m->iovcnt * sizeof(*m->saved));
}

/*
 * read and write of a protected file (lfs_read, lfs_write): in the
 * caller's transaction, or in one of its own.  The locks are taken
 * first; a page the range did not foresee (the file grew meanwhile)
 * makes ufs_read or ufs_write give up with ETXNRETRY, and the locks are
 * taken again from where it stopped.  A read by a process that may not
 * write the file takes weak locks (lfs_txnlock.c); if a writer breaks
 * them while a plain read is at it, the read starts over.
 */
int
txn_rdwr(struct vnode *vp, struct uio *uio, int ioflag, struct ucred *cred,
    int rw)
{
	struct proc *p = curproc;
	struct txn *t = LFS_PROC(p)->lp_txn;
	int implicit = t == NULL, resid = uio->uio_resid, restartable, error;
	struct txn_uiomark mark = { NULL };
	struct lfs *fs;

	if (t != NULL && t->t_state != TXN_RUNNING)
		return ETXNABORT;
	if (implicit)
		t = txn_new(p, TXN_IMPLICIT);
	if ((error = txn_bind(t, vp)) != 0) {
		if (implicit)
			txn_end(t);
		return error;
	}
	fs = txn_callbegin(t);
	/* Who may block whom: only those who may write the file. */
	if (rw == UIO_READ && cred != NULL && ufs_access(vp, VWRITE, cred) != 0)
		t->t_flags |= TXN_READONLY;
	if ((restartable = implicit && (t->t_flags & TXN_READONLY)))
		txn_uiomark(uio, &mark);
	for (;;) {
		error = txn_lockrange(t, vp, uio, ioflag, rw);
		if (error == 0)
			error = rw == UIO_READ ? ufs_read(vp, uio, ioflag, cred) :
			    ufs_write(vp, uio, ioflag, cred);
		if (error == ETXNRETRY)
			continue;
		if (!restartable || !(t->t_flags & TXN_BROKEN) ||
		    fs->lfs_txngone)
			break;
		/*
		 * A writer broke the weak locks of this plain read.  What it
		 * read before is whole (the writer waits for the vnode lock
		 * to change a page); if the break cut it short, it begins
		 * again, and its caller never knows.
		 */
		t->t_state = TXN_RUNNING;
		t->t_flags &= ~TXN_BROKEN;
		if (error == 0)
			break;
		txn_unlockall(t);
		txn_uiorewind(uio, &mark);
	}
	if (restartable)
		free(mark.saved);
	t->t_flags &= ~TXN_READONLY;
	if (error == ETXNABORT || error == ENOBUFS ||
	    t->t_state == TXN_ABORTED) {
		/* A victim, over the limit, or its file system going. */
		txn_undo(t);
		t->t_state = TXN_ABORTED;
	}
	if (implicit) {
		/* A write that moved data is forced, whatever came after. */
		if (t->t_state == TXN_RUNNING && (error == 0 ||
		    uio->uio_resid < resid)) {
			int e = txn_commit(t);

			if (error == 0)
				error = e;
		} else if (t->t_state == TXN_RUNNING)
			txn_undo(t);
		else if (fs->lfs_txngone)
			error = EIO;	/* no transaction's error for it */
		txn_end(t);
	}
	txn_callend(fs);
	return error;
}

/*
 * lfs_blkatoff's check, the vnode lock held: the caller's transaction
 * must hold page lbn of a protected file shared.  ETXNRETRY if it does
 * not and cannot have it without waiting.
 */
int
txn_read_page(struct inode *ip, daddr_t lbn)
{
	struct txn *t = LFS_PROC(curproc)->lp_txn;
	int error;

	if (t == NULL)
		return 0;		/* the kernel's own reads (exec) */
	if (t->t_state == TXN_ABORTED)
		return ETXNABORT;
	error = txn_lock(t, ITOV(ip), lbn, TXN_SHARED, txn_weak(t), NULL);
	return error == EWOULDBLOCK ? ETXNRETRY : error;
}

/*
 * lfs_balloc's check, the vnode lock held, before page lbn of a
 * protected file is written up to byte end: its exclusive lock, the
 * size lock if the write adds blocks (nnew) or grows the file, and room
 * for one more dirty page (NO-STEAL).
 */
int
txn_write_page(struct inode *ip, daddr_t lbn, off_t end, int nnew)
{
	struct vnode *vp = ITOV(ip);
	struct txn *t = LFS_PROC(curproc)->lp_txn;
	struct buf *bp;
	int error;

	if (t == NULL)
		return 0;
	if (t->t_state == TXN_ABORTED)
		return ETXNABORT;
	error = txn_lock(t, vp, lbn, TXN_EXCL, 0, NULL);
	if (error == 0 && (nnew > 0 || end > (off_t)ip->i_size) &&
	    (error = txn_lock_size(t, vp, 0)) == EWOULDBLOCK)
		t->t_flags |= TXN_NEEDSIZE;	/* or it would ask forever */
	if (error == EWOULDBLOCK)
		return ETXNRETRY;
	if (error)
		return error;
	bp = incore(vp, lbn);
	if ((bp == NULL || !(bp->b_flags & B_TXN)) &&
	    (t->t_ndirty >= txn_maxdirty || txn_ndirty >= txn_maxdirty ||
	    txn_nbytes + ip->i_ump->um_bsize > txn_maxbytes))
		return ENOBUFS;		/* NO-STEAL's limit (txn_init) */
	return 0;
}

/* lfs_balloc made page lbn for t: an abort takes it out again. */
void
txn_created(struct inode *ip, daddr_t lbn)
{
	struct txn_lock *l;

	if (LFS_PROC(curproc)->lp_txn != NULL &&
	    (l = txn_held(LFS_PROC(curproc)->lp_txn, ITOV(ip), lbn)) != NULL)
		l->l_flags |= TXL_CREATED;
}

/* A page of a protected file was written in the cache: t's, pinned. */
void
txn_page_dirty(struct inode *ip, struct buf *bp)
{
	struct txn *t = LFS_PROC(curproc)->lp_txn;

	if (t == NULL || (bp->b_flags & B_TXN))
		return;
	bp->b_flags |= B_TXN;
	t->t_ndirty++;
	txn_ndirty++;
	txn_nbytes += bp->b_bufsize;
}

/* Which transaction's is the B_TXN page bp?  Its exclusive lock says. */
static struct txn *
txn_owner(struct buf *bp)
{
	struct txn *t;
	struct txn_lock *l;

	LIST_FOREACH(t, &txn_all, t_all)
		if ((l = txn_held(t, bp->b_vp, bp->b_lblkno)) != NULL &&
		    l->l_mode == TXN_EXCL)
			return t;
	return NULL;
}

/* A B_TXN page is dropped (truncation, abort): no longer pinned. */
void
txn_page_gone(struct buf *bp)
{
	struct txn *t = txn_owner(bp);

	bp->b_flags &= ~B_TXN;
	txn_ndirty--;
	txn_nbytes -= bp->b_bufsize;
	if (t != NULL)
		t->t_ndirty--;
}

/*
 * The inode the writer logs for a protected file: while a running
 * transaction holds its size, the size before it and not the blocks it
 * added (they are not on the disk: their pointers go there as 0).
 */
void
txn_diskinode(struct inode *ip, struct dinode *dp)
{
	struct vnode *vp = ITOV(ip);
	struct txn_lock *l, *sl = NULL;
	struct txn *t;
	struct buf *bp;
	int32_t blocks = dp->di_blocks;

	LIST_FOREACH(t, &txn_all, t_all)
		if (t->t_state != TXN_FORCING &&
		    (sl = txn_sizelock(t, vp)) != NULL)
			break;
	if (sl == NULL)
		return;
	dp->di_size = sl->l_oldsize;
	LIST_FOREACH(l, &t->t_locks, l_tlink)
		if (l->l_granted && (l->l_flags & TXL_CREATED) &&
		    l->l_obj->o_vp == vp &&
		    (bp = incore(vp, l->l_obj->o_lbn)) != NULL &&
		    (bp->b_flags & B_TXN))
			blocks -= btodb(ip->i_ump->um_bsize);
	dp->di_blocks = blocks < 0 ? 0 : blocks;
}

/*
 * The writer took a page of a protected file: it must not hold a running
 * transaction's data (B_TXN; lfs_cantake leaves those).  Counted, for the
 * tests: NO-STEAL says 0.  A page the transaction has only locked holds
 * committed data (the cleaner's copy, say) and may go.
 */
void
txn_taken(struct buf *bp)
{
	struct txn *t;

	if ((bp->b_flags & B_TXN) && (t = txn_owner(bp)) != NULL &&
	    t->t_state != TXN_FORCING)
		txn_stats.steals++;
}

/* Take page lbn's pointer out of the file if it is still only in core. */
static void
txn_unassign(struct inode *ip, daddr_t lbn)
{
	struct ufsmount *ump = ip->i_ump;
	struct indir a[NIADDR + 2];
	struct buf *bp = NULL;
	int32_t *ptr;
	int num, k;

	if (ufs_getlbns(ump, lbn, a, &num) != 0)
		return;
	ptr = num == 0 ? &ip->i_db[lbn] : &ip->i_ib[a[0].in_off];
	for (k = 1; k < num; k++) {
		if (*ptr == 0)
			break;
		if (bp != NULL)
			brelse(bp);
		if (ufs_getindir(ITOV(ip), a[k].in_lbn,
		    (daddr_t)*ptr << ump->um_bptrtodb, &bp) != 0)
			return;
		ptr = &((int32_t *)bp->b_data)[a[k].in_off];
	}
	if (*ptr == LFS_UNASSIGNED) {
		lfs_blkfree(ip, ptr);
		if (bp != NULL) {
			lfs_bwrite(bp);
			bp = NULL;
		}
	}
	if (bp != NULL)
		brelse(bp);
}

/*
 * Undo t: throw its dirty pages away, take out the blocks it added and
 * give back the sizes it changed, then release its locks.  The pages
 * read again come from the disk, as committed.
 */
static void
txn_undo(struct txn *t)
{
	struct txn_lock *l;
	struct vnode *vp;
	struct inode *ip;
	struct buf *bp;
	int s;

	while (t->t_flags & TXN_UNDOING)	/* by a forced unmount */
		tsleep(t, 0, "txnundo", 0);
	if (t->t_flags & TXN_UNDONE)
		return;			/* undone (and counted) already */
	t->t_flags |= TXN_UNDOING;
	LIST_FOREACH(l, &t->t_locks, l_tlink) {
		if (!l->l_granted || l->l_mode != TXN_EXCL ||
		    l->l_obj->o_lbn == TXN_SIZE)
			continue;
		vp = l->l_obj->o_vp;
		for (;;) {
			s = splbio();
			bp = incore(vp, l->l_obj->o_lbn);
			if (bp == NULL || !(bp->b_flags & B_TXN)) {
				splx(s);
				break;
			}
			if (bp->b_flags & B_BUSY) {
				bp->b_flags |= B_WANTED;
				tsleep(bp, 0, "txnundo", 0);
				splx(s);
				continue;
			}
			bremfree(bp);
			bp->b_flags |= B_BUSY;
			splx(s);
			lfs_discard(VFSTOLFS(vp->v_mount), bp);
			break;
		}
	}
	/* The blocks it added, and the sizes, file by file. */
	LIST_FOREACH(l, &t->t_locks, l_tlink) {
		if (!l->l_granted || l->l_obj->o_lbn != TXN_SIZE)
			continue;
		vp = l->l_obj->o_vp;
		ip = VTOI(vp);
		vn_lock(vp);
		{
			struct txn_lock *pl;

			LIST_FOREACH(pl, &t->t_locks, l_tlink)
				if ((pl->l_flags & TXL_CREATED) &&
				    pl->l_obj->o_vp == vp)
					txn_unassign(ip, pl->l_obj->o_lbn);
		}
		if ((off_t)ip->i_size != l->l_oldsize)
			lfs_restoresize(ip, l->l_oldsize);
		VOP_UNLOCK(vp);
	}
	KASSERT(t->t_ndirty == 0);
	txn_unlockall(t);
	txn_stats.aborts++;		/* one that locked nothing too */
	t->t_flags = (t->t_flags & ~TXN_UNDOING) | TXN_UNDONE;
	wakeup(t);
}

/* The segment writer of a commit: the group's pages are its to take. */
void
txn_release_pages(struct lfs *fs)
{
	struct txn *t;
	struct txn_lock *l;
	struct buf *bp;

	TAILQ_FOREACH(t, &fs->lfs_txnforce, t_commitq) {
		t->t_state = TXN_FORCING;
		LIST_FOREACH(l, &t->t_locks, l_tlink) {
			if (!l->l_granted || l->l_mode != TXN_EXCL ||
			    l->l_obj->o_lbn == TXN_SIZE)
				continue;
			bp = incore(l->l_obj->o_vp, l->l_obj->o_lbn);
			if (bp != NULL && (bp->b_flags & B_TXN)) {
				bp->b_flags &= ~B_TXN;
				t->t_ndirty--;
				txn_ndirty--;
				txn_nbytes -= bp->b_bufsize;
				txn_stats.pages_forced++;
			}
		}
	}
}

/* Other transactions on fs that are running and could join a group. */
static int
txn_others(struct txn *self, struct lfs *fs)
{
	struct txn *t;

	LIST_FOREACH(t, &txn_all, t_all)
		if (t != self && t->t_fs == fs && t->t_state == TXN_RUNNING)
			return 1;
	return 0;
}

/*
 * Commit t (thesis 5.2.3, 5.2.4): nothing to write releases the locks;
 * otherwise t joins the queue, and the committer that stops waiting
 * forces every queued transaction's pages in one segment write, and
 * releases their locks once it is on the disk.
 */
static int
txn_commit(struct txn *t)
{
	struct lfs *fs = t->t_fs;
	struct vnode **vps;
	struct txn *g;
	struct txn_lock *l;
	int n = 0, max = 0, i, deadline, error;
	int64_t now;
	u_int64_t took;

	if (t->t_ndirty == 0) {
		txn_unlockall(t);
		txn_stats.commits++;
		return 0;
	}
	t->t_commitstart = txn_usec();
	t->t_state = TXN_COMMITTING;
	TAILQ_INSERT_TAIL(&fs->lfs_txnq, t, t_commitq);
	fs->lfs_ntxnq++;
	wakeup(&fs->lfs_txnq);
	deadline = ticks + (txn_gcwait * hz + 999) / 1000;	/* whole ticks */
	for (;;) {
		if (t->t_state == TXN_COMMITTED)
			return t->t_error;	/* a group's leader wrote it */
		/* Lead a group when company is enough, or not coming. */
		if (t->t_state == TXN_COMMITTING && fs->lfs_txnleader == NULL &&
		    (fs->lfs_ntxnq >= txn_gcmin || !txn_others(t, fs) ||
		    (int)(deadline - ticks) <= 0))
			break;
		tsleep(&fs->lfs_txnq, 0, "txngroup",
		    t->t_state == TXN_COMMITTING && fs->lfs_txnleader == NULL ?
		    deadline - ticks : 0);
	}

	/* The leader: this group is every committer queued. */
	fs->lfs_txnleader = curproc;
	while ((g = TAILQ_FIRST(&fs->lfs_txnq)) != NULL) {
		TAILQ_REMOVE(&fs->lfs_txnq, g, t_commitq);
		TAILQ_INSERT_TAIL(&fs->lfs_txnforce, g, t_commitq);
	}
	fs->lfs_ntxnq = 0;
	TAILQ_FOREACH(g, &fs->lfs_txnforce, t_commitq)
		LIST_FOREACH(l, &g->t_locks, l_tlink)
			max++;
	vps = malloc((max + 1) * sizeof(*vps), M_WAITOK);
	TAILQ_FOREACH(g, &fs->lfs_txnforce, t_commitq)
		LIST_FOREACH(l, &g->t_locks, l_tlink) {
			for (i = 0; i < n && vps[i] != l->l_obj->o_vp; i++)
				continue;
			if (i == n && l->l_granted && l->l_mode == TXN_EXCL)
				vps[n++] = l->l_obj->o_vp;
		}
	error = lfs_segwrite_vnodes(fs->lfs_ump->um_mountp,
	    SEGM_TXN | SEGM_SYNC | SEGM_DATAONLY, vps, n);
	free(vps);	/* GDB: forced (the write is on the disk, or failed) */
	now = txn_usec();
	txn_stats.groups++;
	while ((g = TAILQ_FIRST(&fs->lfs_txnforce)) != NULL) {
		TAILQ_REMOVE(&fs->lfs_txnforce, g, t_commitq);
		g->t_error = error;
		g->t_state = TXN_COMMITTED;
		txn_unlockall(g);
		txn_stats.commits++;
		txn_stats.group_txns++;
		took = now - g->t_commitstart;
		txn_stats.commit_us += took;
		if (took > txn_stats.commit_us_max)
			txn_stats.commit_us_max = took;
	}
	fs->lfs_txnleader = NULL;
	wakeup(&fs->lfs_txnq);
	return error;
}

/*
 * truncate of a protected file: a transaction of its own outside one
 * (it waits for the size lock and the locks of every page it frees or
 * zeroes), refused inside one, since the blocks it frees could not come
 * back at an abort.  Not forced: a truncation is durable at the next
 * sync, as on any file.
 */
int
txn_truncate(struct vnode *vp, off_t length, struct ucred *cred)
{
	struct proc *p = curproc;
	struct inode *ip = VTOI(vp);
	daddr_t lbn, last;
	struct txn *t;
	struct lfs *fs;
	int error;

	if (LFS_PROC(p)->lp_txn != NULL)
		return EOPNOTSUPP;
	t = txn_new(p, TXN_IMPLICIT);
	if ((error = txn_bind(t, vp)) != 0) {
		txn_end(t);
		return error;
	}
	fs = txn_callbegin(t);
	if ((error = txn_lock_size(t, vp, TXN_WAIT)) == 0) {
		last = ip->i_size == 0 ? -1 :
		    (daddr_t)((ip->i_size - 1) >> ip->i_ump->um_bshift);
		for (lbn = length >> ip->i_ump->um_bshift;
		    lbn <= last && error == 0; lbn++)
			error = txn_lock(t, vp, lbn, TXN_EXCL, TXN_WAIT, NULL);
	}
	if (error == 0 && t->t_state == TXN_RUNNING) {
		vn_lock(vp);
		error = lfs_truncate(ip, length, cred);
		VOP_UNLOCK(vp);
	} else if (error == 0 || error == ETXNABORT)
		error = EIO;		/* its file system is going */
	if (error == 0)			/* begins + implicit = commits + aborts */
		txn_stats.commits++;
	else
		txn_stats.aborts++;
	txn_unlockall(t);
	txn_end(t);
	txn_callend(fs);
	return error;
}

/*
 * chflags of a protected file's UF_TXN.  Setting it writes the file's
 * dirty pages first (they are nobody's transaction's); clearing it waits
 * for no transaction to hold a lock on the file (EBUSY otherwise), but a
 * weak lock, which binds no one, is broken instead.
 */
int
txn_setflags(struct vnode *vp, u_int32_t flags)
{
	struct inode *ip = VTOI(vp);
	int on = (flags & UF_TXN) != 0;

	if (on == ((ip->i_flags & UF_TXN) != 0))
		return 0;
	if (vp->v_type != VREG)
		return EFTYPE;
	if (!on)
		return txn_file_release(vp);
	return lfs_segwrite_vnodes(vp->v_mount, SEGM_SYNC, &vp, 1);
}

/* The process is exiting (or killed): its transaction aborts. */
void
txn_exit(struct proc *p)
{
	struct txn *t = LFS_PROC(p)->lp_txn;
	struct lfs *fs;

	if (t == NULL)
		return;
	fs = txn_callbegin(t);
	txn_undo(t);
	txn_end(t);
	txn_callend(fs);
}

/*
 * lfs_unmount: the transactions bound to fs end before fs goes, so that
 * nothing is left that names it.  Without force, EBUSY while one holds
 * a lock there or is in a call.  With it, no transaction binds to fs
 * again (EIO), running ones are aborted (a waiter wakes with ETXNABORT,
 * as a deadlock victim does), and commits under way finish; once no
 * call is left inside fs, what is still held is undone here.
 */
int
txn_unmount(struct lfs *fs, int force)
{
	struct txn *t;

	LIST_FOREACH(t, &txn_all, t_all)
		if (!force && t->t_fs == fs && !LIST_EMPTY(&t->t_locks))
			return EBUSY;
	if (!force && fs->lfs_txncalls > 0)
		return EBUSY;
	fs->lfs_txngone = force;
	LIST_FOREACH(t, &txn_all, t_all) {
		if (t->t_fs != fs || t->t_state != TXN_RUNNING)
			continue;
		t->t_state = TXN_ABORTED;
		if (t->t_wait != NULL)
			wakeup(t->t_wait);
	}
	while (fs->lfs_txncalls > 0)
		tsleep(&fs->lfs_txncalls, 0, "txnumnt", 0);
again:	/* txn_undo sleeps: the list may change under it */
	LIST_FOREACH(t, &txn_all, t_all)
		if (t->t_fs == fs) {
			t->t_fs = NULL;
			txn_undo(t);
			goto again;
		}
	return 0;
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
	txn_callend(fs);
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
	txn_callend(fs);
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
	if ((error = copyout(&txn_stats, uap->buf, sizeof(txn_stats))) != 0)
		return error;
	if (uap->reset) {
		if ((error = suser(p)) != 0)
			return error;
		memset(&txn_stats, 0, sizeof(txn_stats));
	}
	return 0;
}
