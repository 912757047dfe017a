/*
 * Abort (thesis 5.2.3): undoing a transaction.  There is no log to undo
 * from: a running transaction's pages never left the cache (NO-STEAL),
 * so txn_undo throws them away (or, if only the log has a page's last
 * committed bytes, puts back the copy kept of it: lfs_txndelta.c), takes
 * out of its files the blocks it added that are still only in core,
 * gives the sizes back, and releases the locks; a page read again comes
 * from the disk, as committed.  A
 * transaction aborts by txn_abort, when its process exits or is killed
 * (txn_exit), when its file system is unmounted by force (txn_unmount),
 * and as a deadlock victim or over NO-STEAL's limit, where its read or
 * write fails (txn_rdwr, lfs_txnfile.c).
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
void
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
			if (!txn_page_restore(bp))
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
	txn_callend(NULL, fs);
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
