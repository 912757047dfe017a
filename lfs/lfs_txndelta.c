/*
 * Delta commits: a commit writes the bytes its transactions changed, not
 * their pages (issue 22; the redo record of a database log, kept in the
 * LFS summary instead of a log file).  FORCE (thesis 5.2.3) still holds:
 * when txn_commit returns, what it committed is on the disk, as DELTAs
 * in the summary of the commit's last partial segment, its COMMIT POINT.
 * The pages themselves stay dirty in the cache, committed, and go to the
 * disk with a later write of the segment writer, as the user-level
 * manager's buffer pool writes its pages after its log (thesis 5.3).
 *
 * A page of a protected file carries a struct txn_page (bp->b_fsdata):
 *
 *   tp_snap     the page as committed, taken when a transaction first
 *               changes it (txn_page_keep, from lfs_balloc): the commit
 *               finds what changed by comparing, and an abort puts it back;
 *   tp_off/end  the committed bytes the log holds and the disk does not:
 *               a write of the page clears them (txn_page_written).
 *
 * A page is logged as DELTAs (one per run of changed bytes, at most
 * TXN_MAXRUNS) only if it is on the disk already, the transaction kept a
 * copy of it, and the group's DELTAs fit in one summary; any other page
 * goes whole, as before.  Roll-
 * forward (lfs_rfw_delta) writes each DELTA into the block it names
 * unless the block there is newer than the DELTA.  A checkpoint moves
 * where roll-forward starts past the DELTAs of pages a running
 * transaction holds (they cannot be written): it logs their committed
 * bytes again, from the copy, right after itself (lfs_relog,
 * lfs_delta.c, which also makes the DELTA records).
 *
 * Pre-commit (txn_precommit): a committer that would wait for a group
 * freezes its DELTAs and lets its locks go at once, its pages pinned
 * (tp_pins) until its group's write has them.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/malloc.h"
#include "kern/proc.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"
#include "lfs/lfs_txn.h"
#include <sys/txn.h>

static struct txn_page *
txn_page(struct buf *bp)
{
	if (bp->b_fsdata == NULL)
		bp->b_fsdata = malloc(sizeof(struct txn_page),
		    M_WAITOK | M_ZERO);
	return bp->b_fsdata;
}

/* Does the log hold committed bytes of bp that the disk does not? */
int
txn_page_logged(struct buf *bp)
{
	struct txn_page *tp = bp->b_fsdata;

	return tp != NULL && tp->tp_off < tp->tp_end;
}

/*
 * Does a pre-committed transaction's DELTA of bp wait for its group's
 * write?  Then no other write may take bp, nor the cleaner move it: the
 * disk must not have those bytes before their commit point.
 */
int
txn_page_pinned(struct buf *bp)
{
	struct txn_page *tp = bp->b_fsdata;

	return tp != NULL && tp->tp_pins > 0;
}

/*
 * lfs_balloc, before a transaction first changes page bp (busy) of a
 * protected file: keep a copy of it as committed.  EAGAIN if the page
 * holds committed data that neither the disk nor the log has (the
 * cleaner's copy, a truncation's zeroes): the caller writes it first.
 * A page not read (a write of all of it) is kept no copy of, and its
 * commit writes it whole.
 */
int
txn_page_keep(struct buf *bp)
{
	struct txn_page *tp;

	if (bp->b_flags & B_TXN)
		return 0;		/* the transaction's already */
	if ((bp->b_flags & B_DELWRI) && !txn_page_logged(bp))
		return EAGAIN;
	if (!(bp->b_flags & (B_DONE | B_DELWRI)))
		return 0;
	tp = txn_page(bp);
	if (tp->tp_snap == NULL)
		tp->tp_snap = malloc(bp->b_bcount, M_WAITOK);
	memcpy(tp->tp_snap, bp->b_data, bp->b_bcount);
	return 0;
}

/* The log holds (or a queued commit will) bytes lo..hi of bp too. */
static void
txn_page_logs(struct buf *bp, int lo, int hi)
{
	struct txn_page *tp = bp->b_fsdata;

	if (txn_page_logged(bp)) {
		lo = MIN(lo, tp->tp_off);
		hi = MAX(hi, tp->tp_end);
	}
	tp->tp_off = lo;
	tp->tp_end = hi;
}

/* The summary bytes a commit's DELTAs may take: one summary's. */
int
txn_sumroom(struct lfs *fs)
{
	return fs->lfs_dlfs.dlfs_sumsize - sizeof(struct segsum) - 64;
}

/* The segment writer took bp: its copy carries what the log held. */
void
txn_page_written(struct buf *bp)
{
	struct txn_page *tp = bp->b_fsdata;

	if (tp != NULL && tp->tp_snap == NULL) {
		free(tp);
		bp->b_fsdata = NULL;
	} else if (tp != NULL)
		tp->tp_off = tp->tp_end = 0;
}

/*
 * An abort of page bp (busy, B_TXN): if the log holds committed bytes of
 * it, the page goes back to its copy and stays dirty (1); else 0, and
 * the caller throws it away (the disk has it as committed).
 */
int
txn_page_restore(struct buf *bp)
{
	struct txn_page *tp = bp->b_fsdata;

	if (tp == NULL || tp->tp_snap == NULL || !txn_page_logged(bp))
		return 0;
	memcpy(bp->b_data, tp->tp_snap, bp->b_bcount);
	free(tp->tp_snap);
	tp->tp_snap = NULL;
	txn_page_gone(bp);
	brelse(bp);
	return 1;
}

/*
 * The size of vp's file as committed: while a running transaction holds
 * its size, the size before it (a group being forced has committed).
 */
struct txn_lock *
txn_sizeholder(struct vnode *vp)
{
	struct txn_lock *sl;
	struct txn *t;

	LIST_FOREACH(t, &txn_all, t_all)
		if (t->t_state != TXN_FORCING &&
		    (sl = txn_held(t, vp, TXN_SIZE)) != NULL)
			return sl;
	return NULL;
}

static u_int64_t
txn_committed_size(struct vnode *vp)
{
	struct txn_lock *sl = txn_sizeholder(vp);

	return sl != NULL ? (u_int64_t)sl->l_oldsize : VTOI(vp)->i_size;
}

/* The first pin of vp's block lbn (or size) from committer t on. */
static struct txn_pin *
txn_pin_from(struct txn *t, struct vnode *vp, daddr_t lbn)
{
	int i;

	for (; t != NULL; t = TAILQ_NEXT(t, t_commitq)) {
		if ((t->t_flags & (TXN_PRECOMMIT | TXN_UNPINNED)) !=
		    TXN_PRECOMMIT)
			continue;
		for (i = 0; i < t->t_npins; i++)
			if (t->t_pins[i].p_vp == vp &&
			    t->t_pins[i].p_lbn == lbn)
				return &t->t_pins[i];
	}
	return NULL;
}

/* The oldest pin of vp's block lbn (or size) that a write has not yet. */
static struct txn_pin *
txn_oldest_pin(struct vnode *vp, daddr_t lbn)
{
	struct lfs *fs = VFSTOLFS(vp->v_mount);
	struct txn_pin *pin;

	/* The group being written first, then the queue. */
	if ((pin = txn_pin_from(TAILQ_FIRST(&fs->lfs_txnforce), vp, lbn)))
		return pin;
	return txn_pin_from(TAILQ_FIRST(&fs->lfs_txnq), vp, lbn);
}

/*
 * The size of vp's file as the disk may have it while a pre-committed
 * transaction that changed it waits for its group: the size before the
 * oldest such (txn_diskinode, lfs_relog).  0 if none does.
 */
int
txn_pending_size(struct vnode *vp, off_t *size)
{
	struct txn_pin *pin = txn_oldest_pin(vp, TXN_SIZE);

	if (pin == NULL)
		return 0;
	*size = pin->p_oldsize;
	return 1;
}

/*
 * The runs of bytes where a and b (n bytes, a multiple of 4) differ, into
 * run[0..max-1] as [off, end) pairs, those less than a DELTA's header
 * apart taken as one; how many, or -1 if more than max.  Equal words are
 * passed over a word at a time.
 */
static int
txn_runs(const char *a, const char *b, int n, u_int16_t (*run)[2], int max)
{
	const u_int32_t *wa = (const u_int32_t *)a, *wb = (const u_int32_t *)b;
	int i, w, k = 0;

	for (w = 0; w < n / 4; w++) {
		if (wa[w] == wb[w])
			continue;
		for (i = 4 * w; i < 4 * w + 4; i++) {
			if (a[i] == b[i])
				continue;
			if (k > 0 && i - run[k - 1][1] < (int)sizeof(DELTA))
				run[k - 1][1] = i + 1;	/* the run goes on */
			else if (k == max)
				return -1;
			else {
				run[k][0] = i;
				run[k++][1] = i + 1;
			}
		}
	}
	return k;
}

/*
 * txn_release_pages, for the committing group's page bp (B_TXN): may it
 * be logged as DELTAs within *room summary bytes?  If so its runs of
 * changed bytes are kept (tp_run) and it stays B_TXN, out of the
 * writer's reach, until the write is issued (txn_deltas_done).
 */
int
txn_delta_plan(struct lfs *fs, struct buf *bp, int *room)
{
	struct txn_page *tp = bp->b_fsdata;
	int need = 0, k;

	if (tp == NULL || tp->tp_snap == NULL || !lfs_ondisk(bp))
		return 0;		/* not on the disk, or no copy */
	tp->tp_nrun = txn_runs(tp->tp_snap, bp->b_data, bp->b_bcount,
	    tp->tp_run, TXN_MAXRUNS);
	for (k = 0; k < tp->tp_nrun; k++)
		need += DELTASIZE(tp->tp_run[k][1] - tp->tp_run[k][0]);
	if (tp->tp_nrun < 0 || need > *room)
		return 0;
	*room -= need;
	tp->tp_delta = 1;
	return 1;
}

/* The committing group's pages that carry a DELTA, busy, one by one. */
#define TXN_FOREACH_DELTA(fs, t, l, bp)					\
	TAILQ_FOREACH(t, &(fs)->lfs_txnforce, t_commitq)		\
		LIST_FOREACH(l, &(t)->t_locks, l_tlink)			\
			if (l->l_granted && l->l_mode == TXN_EXCL &&	\
			    l->l_obj->o_lbn != TXN_SIZE &&		\
			    (bp = incore(l->l_obj->o_vp, l->l_obj->o_lbn)) \
			    != NULL && (bp->b_flags & B_TXN) &&		\
			    bp->b_fsdata != NULL &&			\
			    ((struct txn_page *)bp->b_fsdata)->tp_delta)

/*
 * The commit's segment write, last: the group's DELTAs into the summary
 * of the partial segment that ends the write, its COMMIT POINT.
 * txn_delta_plan kept them within one summary.
 */
int
txn_logdeltas(struct lfs *fs, struct segment *sp)
{
	struct txn *t;
	struct txn_lock *l;
	struct txn_page *tp;
	struct buf *bp;
	int need = 0, k, error;

	/* The pre-committed first: every other's pages came after theirs. */
	TAILQ_FOREACH(t, &fs->lfs_txnforce, t_commitq)
		if ((t->t_flags & TXN_PRECOMMIT) && (error =
		    lfs_putdeltas(fs, sp, t->t_recs, t->t_nrecs)) != 0)
			return error;
	TXN_FOREACH_DELTA(fs, t, l, bp) {
		tp = bp->b_fsdata;
		for (k = 0; k < tp->tp_nrun; k++)
			need += DELTASIZE(tp->tp_run[k][1] - tp->tp_run[k][0]);
	}
	if (need == 0)
		return 0;
	if (sp->sg_open)
		lfs_endfinfo(fs, sp);
	if ((error = lfs_needroom(fs, sp, 0, need, 0)) != 0)
		return error;
	TXN_FOREACH_DELTA(fs, t, l, bp) {
		tp = bp->b_fsdata;
		for (k = 0; k < tp->tp_nrun; k++) {
			lfs_mkdelta((char *)sp->sg_sum + sp->sg_sumused,
			    VTOI(bp->b_vp), bp->b_lblkno, bp->b_data,
			    tp->tp_run[k][0], tp->tp_run[k][1],
			    txn_committed_size(bp->b_vp));
			lfs_sumdelta(fs, sp);
		}
	}
	return 0;
}

/*
 * The commit's write is issued (txn_group_issued): its DELTA pages are
 * committed and dirty, no longer the transaction's; the summary on its
 * way to the disk holds what they changed.
 */
void
txn_deltas_done(struct lfs *fs)
{
	struct txn *t;
	struct txn_lock *l;
	struct txn_page *tp;
	struct buf *bp;

	TXN_FOREACH_DELTA(fs, t, l, bp) {
		tp = bp->b_fsdata;
		if (tp->tp_nrun > 0)
			txn_page_logs(bp, tp->tp_run[0][0],
			    tp->tp_run[tp->tp_nrun - 1][1]);
		tp->tp_delta = 0;
		txn_page_forced(t, bp);
		if (!txn_page_logged(bp) && !(bp->b_flags & B_BUSY)) {
			bremfree(bp);	/* as the disk has it: no write */
			bp->b_flags |= B_BUSY;
			lfs_undirty(fs, bp);
		}
	}
}

/*
 * For a checkpoint's lfs_relog: the committed bytes of page bp that the
 * log holds and the disk does not (lo..hi of *data, the copy while a
 * running transaction holds the page), and the file's committed size;
 * 0 if none.
 */
int
txn_page_relog(struct buf *bp, int *lo, int *hi, const char **data,
    u_int64_t *size)
{
	struct txn_page *tp = bp->b_fsdata;
	struct txn_pin *pin;
	off_t psize;

	if (!txn_page_logged(bp))
		return 0;
	*lo = tp->tp_off;
	*hi = tp->tp_end;
	if (tp->tp_pins > 0 &&
	    (pin = txn_oldest_pin(bp->b_vp, bp->b_lblkno)) != NULL)
		*data = pin->p_snap;	/* as before the DELTAs not issued */
	else
		*data = (bp->b_flags & B_TXN) && tp->tp_snap ? tp->tp_snap :
		    bp->b_data;
	*size = txn_pending_size(bp->b_vp, &psize) ? (u_int64_t)psize :
	    txn_committed_size(bp->b_vp);
	return 1;
}

/*
 * Pre-commit, the "pre-commit" of group commit [DEWI84] at queue time:
 * committer t, about to wait for a group, freezes the DELTAs its commit
 * will log (t_recs) and lets its locks go now, so that the next
 * transaction to need one of its pages (TPC-B's branch) commits in the
 * same group instead of waiting for this one's write.  Its pages stay
 * dirty and pinned (tp_pins) until that write has them: no write takes
 * them, nor the cleaner (their bytes must not reach the disk before
 * their commit point), and a checkpoint relogs them as they were before
 * (p_snap).  The next transaction to change one keeps a copy with t's
 * bytes in it (txn_page_keep: the page counts as logged), which its
 * abort puts back.  Only if every page t changed can go as DELTAs (on
 * the disk, copied, at most TXN_MAXRUNS runs, all in one summary) and
 * it added no block:
 * 1 if t is pre-committed, 0 if it keeps its locks to the write.
 */
int
txn_precommit(struct txn *t)
{
	u_int16_t run[TXN_MAXRUNS][2];
	struct txn_lock *l;
	struct txn_page *tp;
	struct txn_pin *pin = NULL;
	struct vnode *vp;
	struct buf *bp;
	int pass, need = 0, npins = 0, nrun, k;
	u_int64_t size;
	char *at = NULL;

	for (pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			if (need > txn_sumroom(t->t_fs))
				return 0;	/* more than a summary holds */
			t->t_pins = pin = malloc(npins * sizeof(*pin),
			    M_WAITOK | M_ZERO);
			t->t_recs = at = malloc(need + 1, M_WAITOK);
		}
		LIST_FOREACH(l, &t->t_locks, l_tlink) {
			if (!l->l_granted || l->l_mode != TXN_EXCL)
				continue;
			if (l->l_flags & TXL_CREATED)
				return 0;	/* a new block: written whole */
			vp = l->l_obj->o_vp;
			if (l->l_obj->o_lbn == TXN_SIZE) {
				if (!(l->l_flags & TXL_SIZESET) ||
				    (off_t)VTOI(vp)->i_size == l->l_oldsize)
					continue;
				if (pass == 1) {
					vref(vp);
					pin->p_vp = vp;
					pin->p_lbn = TXN_SIZE;
					pin++->p_oldsize = l->l_oldsize;
				}
				npins += pass == 0;
				continue;
			}
			bp = incore(vp, l->l_obj->o_lbn);
			if (bp == NULL || !(bp->b_flags & B_TXN))
				continue;	/* locked, not changed */
			tp = bp->b_fsdata;
			if (pass == 0 && (tp == NULL || tp->tp_snap == NULL ||
			    (bp->b_flags & B_BUSY) || !lfs_ondisk(bp)))
				return 0;
			nrun = txn_runs(tp->tp_snap, bp->b_data, bp->b_bcount,
			    run, TXN_MAXRUNS);
			if (nrun < 0)
				return 0;
			if (pass == 0) {
				for (k = 0; k < nrun; k++)
					need += DELTASIZE(run[k][1] -
					    run[k][0]);
				npins += nrun > 0;
				continue;
			}
			size = txn_held(t, vp, TXN_SIZE) != NULL ?
			    VTOI(vp)->i_size : txn_committed_size(vp);
			for (k = 0; k < nrun; k++)
				at += lfs_mkdelta(at, VTOI(vp), bp->b_lblkno,
				    bp->b_data, run[k][0], run[k][1], size);
			if (nrun > 0) {
				txn_page_logs(bp, run[0][0], run[nrun - 1][1]);
				tp->tp_pins++;
				vref(vp);
				pin->p_vp = vp;
				pin->p_lbn = bp->b_lblkno;
				pin++->p_snap = tp->tp_snap;
				tp->tp_snap = NULL;
			}
			txn_page_forced(t, bp);	/* committed, and not t's */
		}
	}
	t->t_npins = npins;
	t->t_nrecs = at - t->t_recs;
	t->t_flags |= TXN_PRECOMMIT;
	txn_stats.precommits++;
	txn_unlockall(t);
	return 1;
}

/*
 * The pins of pre-committed t: let go when its group's write has its
 * pages (txn_release_pages, under the segment lock), and the rest
 * freed once that write is done (release, which may sleep in vrele).
 */
void
txn_unpin(struct txn *t, int release)
{
	struct txn_pin *pin;
	struct txn_page *tp;
	struct buf *bp;
	int i;

	for (i = 0; i < t->t_npins; i++) {
		pin = &t->t_pins[i];
		if (!(t->t_flags & TXN_UNPINNED) && pin->p_lbn != TXN_SIZE &&
		    (bp = incore(pin->p_vp, pin->p_lbn)) != NULL &&
		    (tp = bp->b_fsdata) != NULL && tp->tp_pins > 0)
			tp->tp_pins--;
		free(pin->p_snap);
		pin->p_snap = NULL;
		if (release)
			vrele(pin->p_vp);
	}
	t->t_flags |= TXN_UNPINNED;
	if (!release)
		return;
	free(t->t_pins);
	free(t->t_recs);
	t->t_pins = NULL;
	t->t_recs = NULL;
	t->t_npins = t->t_nrecs = 0;
}
