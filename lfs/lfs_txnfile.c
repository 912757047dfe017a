/*
 * A protected file's operations in a transaction (thesis 5.2.1): read
 * and write (txn_rdwr) take their page locks before the vnode lock, in
 * the caller's transaction or in one of their own (TXN_IMPLICIT, forced
 * before write returns), and lfs_blkatoff and lfs_balloc check them
 * again under it (txn_read_page, txn_write_page).  A page written is
 * pinned in the cache (B_TXN: NO-STEAL), counted against txn_maxdirty
 * and the bytes the cache may pin, until its transaction ends; the inode
 * the writer logs meanwhile keeps the size before (txn_diskinode).
 * truncate and chflags of a protected file (txn_truncate, txn_setflags).
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

/* Are t's read locks, for the call it is in, weak (TXN_READONLY)? */
static int
txn_weak(struct txn *t)
{
	return (t->t_flags & TXN_READONLY) ? TXN_WEAK : 0;
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
	txn_callend(implicit ? NULL : t, fs);
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
	struct txn_page *tp = bp->b_fsdata;

	if (tp != NULL) {		/* read again, it is the disk's */
		free(tp->tp_snap);
		tp->tp_snap = NULL;
	}

	bp->b_flags &= ~B_TXN;
	txn_ndirty--;
	txn_nbytes -= bp->b_bufsize;
	if (t != NULL)
		t->t_ndirty--;
}

/*
 * The inode the writer logs for a protected file: while a running
 * transaction holds its size, the size before it and not the blocks it
 * added (they are not on the disk: their pointers go there as 0); while
 * a pre-committed one that changed it waits for its group, the size
 * before that one (lfs_txndelta.c).
 */
void
txn_diskinode(struct inode *ip, struct dinode *dp)
{
	struct vnode *vp = ITOV(ip);
	struct txn_lock *l, *sl = txn_sizeholder(vp);
	struct buf *bp;
	int32_t blocks = dp->di_blocks;
	off_t size;

	if (txn_pending_size(vp, &size))
		dp->di_size = size;
	else if (sl != NULL)
		dp->di_size = sl->l_oldsize;
	if (sl == NULL)
		return;
	LIST_FOREACH(l, &sl->l_txn->t_locks, l_tlink)
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
		/* Pre-committed pages it would free wait for their group. */
		txn_queue_wait(fs);
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
	txn_callend(NULL, fs);
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
