/*
 * A transaction's commit (thesis 5.2.3, 5.2.4): FORCE and group commit.
 * A committer with dirty pages joins its file system's queue and waits
 * until txn_gcwait milliseconds pass or txn_gcmin committers are queued,
 * but only while another transaction there is running and could join.
 * Whoever stops waiting leads the group: it hands every queued
 * transaction's pages to the segment writer (txn_release_pages: no
 * longer B_TXN), or their changed bytes as DELTAs (lfs_txndelta.c), and
 * forces them in one segment write (SEGM_TXN), whose last partial
 * segment is the commit point (lfs_txnsum, lfs_pseg.c).
 * The group's locks go as soon as that write is issued, before the disk
 * is done (txn_group_issued), or sooner: a committer that would wait
 * for a group freezes its DELTAs and lets them go as it joins the queue
 * (txn_precommit, lfs_txndelta.c), so that the transactions waiting for
 * its pages can join the same group.  Each committer returns the
 * write's error once it is on the disk.  Those that come while the
 * leader writes form the next group.
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

static int64_t
txn_usec(void)
{
	struct timeval tv;

	microtime(&tv);
	return (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
}

/* Page bp of t, in the group being forced, is committed: not t's now. */
void
txn_page_forced(struct txn *t, struct buf *bp)
{
	struct txn_page *tp = bp->b_fsdata;

	bp->b_flags &= ~B_TXN;
	t->t_ndirty--;
	txn_ndirty--;
	txn_nbytes -= bp->b_bufsize;
	txn_stats.pages_forced++;
	if (tp != NULL) {
		free(tp->tp_snap);	/* no abort can need it now */
		tp->tp_snap = NULL;
	}
}

/*
 * The segment writer of a commit: the group's pages are its to take, but
 * for those its summary can carry as DELTAs (lfs_txndelta.c), as many
 * as fit in one.
 */
void
txn_release_pages(struct lfs *fs)
{
	struct txn *t;
	struct txn_lock *l;
	struct buf *bp;
	int room = txn_sumroom(fs);

	TAILQ_FOREACH(t, &fs->lfs_txnforce, t_commitq) {
		t->t_state = TXN_FORCING;
		if (t->t_flags & TXN_PRECOMMIT) {
			txn_unpin(t, 0);	/* this write logs them */
			continue;
		}
		LIST_FOREACH(l, &t->t_locks, l_tlink) {
			if (!l->l_granted || l->l_mode != TXN_EXCL ||
			    l->l_obj->o_lbn == TXN_SIZE)
				continue;
			bp = incore(l->l_obj->o_vp, l->l_obj->o_lbn);
			if (bp != NULL && (bp->b_flags & B_TXN) &&
			    !txn_delta_plan(fs, bp, &room)) {
				txn_page_forced(t, bp);
				txn_page_written(bp);	/* whole, by this write */
			}
		}
	}
}

/*
 * The commit's segment write is issued, its commit point last: the
 * group's DELTA pages are committed (txn_deltas_done), and its locks go
 * now, while the disk writes (early lock release, the "pre-commit" of
 * group commit [DEWI84]).  A transaction that then takes one of their
 * pages commits in a later segment write, which the segment lock keeps
 * behind this one on the disk and in the log that roll-forward reads:
 * it is never durable without this group; one that has nothing to
 * write waits in txn_commit until the disk is done.  Without it, the
 * next transaction to need a page every transaction changes (TPC-B's
 * branch) waits for the disk too.  txn_elr=0: strict two-phase locking
 * to the end.
 */
void
txn_group_issued(struct lfs *fs)
{
	struct txn *g;

	txn_deltas_done(fs);
	if (!txn_elr)
		return;
	TAILQ_FOREACH(g, &fs->lfs_txnforce, t_commitq)
		txn_unlockall(g);
}

/*
 * Other transactions running on fs; atwork: only those that could join
 * a group soon, at work in a call (a read the disk has, say) and not
 * waiting for a lock (a queued committer may hold it).  One whose
 * process is elsewhere, a shell's open transaction, keeps no committer
 * waiting for company.
 */
static int
txn_others(struct txn *self, struct lfs *fs, int atwork)
{
	struct txn *t;

	LIST_FOREACH(t, &txn_all, t_all)
		if (t != self && t->t_fs == fs && t->t_state == TXN_RUNNING &&
		    (!atwork || (t->t_calls > 0 && t->t_wait == NULL)))
			return 1;
	return 0;
}

/*
 * Wait until every committer queued so far is on the disk: what the
 * caller read, with no lock now, may be theirs (pre-committed, or
 * released when their write was issued).
 */
void
txn_queue_wait(struct lfs *fs)
{
	u_int32_t seq = fs->lfs_txnseq;

	while ((int32_t)(fs->lfs_txnseqdone - seq) < 0)
		tsleep(&fs->lfs_txnq, 0, "txnread", 0);
}

/*
 * The leader: one segment write for the committers at the head of the
 * queue, its group; they wake when it is on the disk.  A group is those
 * that hold their locks, then the pre-committed: one that holds its
 * locks after a pre-committed one may have changed its pages again, and
 * goes in the next group.
 */
static void
txn_group_write(struct lfs *fs)
{
	struct vnode **vps;
	struct txn *g;
	struct txn_lock *l;
	int n = 0, max = 0, i, pre = 0, error;
	int64_t now;
	u_int64_t took;

	fs->lfs_txnleader = curproc;
	while ((g = TAILQ_FIRST(&fs->lfs_txnq)) != NULL &&
	    (!pre || (g->t_flags & TXN_PRECOMMIT))) {
		pre |= g->t_flags & TXN_PRECOMMIT;
		TAILQ_REMOVE(&fs->lfs_txnq, g, t_commitq);
		fs->lfs_ntxnq--;
		TAILQ_INSERT_TAIL(&fs->lfs_txnforce, g, t_commitq);
	}
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
		if (g->t_flags & TXN_PRECOMMIT)
			txn_unpin(g, 1);	/* before g can end */
		g->t_error = error;
		g->t_state = TXN_COMMITTED;
		txn_unlockall(g);	/* txn_elr=0: only now */
		fs->lfs_txnseqdone = g->t_seq;	/* the queue's order */
		txn_stats.commits++;
		txn_stats.group_txns++;
		took = now - g->t_commitstart;
		txn_stats.commit_us += took;
		if (took > txn_stats.commit_us_max)
			txn_stats.commit_us_max = took;
	}
	fs->lfs_txnleader = NULL;
	wakeup(&fs->lfs_txnq);
}

/*
 * How long t waits for company (ms).  One that keeps its locks makes
 * those who need them wait too: no longer than TXN_GCWAIT_HELD (strict
 * 2PL TPC-B fell from 25 to 13 TPS at 4 processes, deadlocks and all,
 * when such committers waited txn_gcwait's 50 ms).
 */
#define TXN_GCWAIT_HELD	10
static int
txn_gcwait_of(struct txn *t)
{
	if (t->t_flags & TXN_PRECOMMIT)
		return txn_gcwait;
	return txn_gcwait < TXN_GCWAIT_HELD ? txn_gcwait : TXN_GCWAIT_HELD;
}

/*
 * Commit t (thesis 5.2.3, 5.2.4): nothing to write releases the locks;
 * otherwise t joins the queue, pre-committed if it would wait, and the
 * committer that stops waiting forces the group at the queue's head in
 * one segment write (which releases the locks still held when it is
 * issued) and wakes them when it is on the disk.
 */
int
txn_commit(struct txn *t)
{
	struct lfs *fs = t->t_fs;
	int deadline;

	if (t->t_ndirty == 0) {
		txn_unlockall(t);
		if (fs != NULL)
			txn_queue_wait(fs);
		txn_stats.commits++;
		return 0;
	}
	t->t_commitstart = txn_usec();
	t->t_state = TXN_COMMITTING;
	t->t_seq = ++fs->lfs_txnseq;
	TAILQ_INSERT_TAIL(&fs->lfs_txnq, t, t_commitq);
	fs->lfs_ntxnq++;
	/*
	 * Company could come, or t must wait for a write first: the
	 * leader's, or its queue's head (a pre-committed head leaves a
	 * committer that keeps its locks to the next group).
	 */
	if (txn_elr && (fs->lfs_txnleader != NULL || fs->lfs_ntxnq > 1 ||
	    txn_others(t, fs, 0)))
		txn_precommit(t);
	wakeup(&fs->lfs_txnq);
	deadline = ticks + (txn_gcwait_of(t) * hz + 999) / 1000; /* whole ticks */
	for (;;) {
		if (t->t_state == TXN_COMMITTED)
			return t->t_error;	/* a group's leader wrote it */
		/* Lead a group when company is enough, or not coming. */
		if (t->t_state == TXN_COMMITTING && fs->lfs_txnleader == NULL &&
		    (fs->lfs_ntxnq >= txn_gcmin || !txn_others(t, fs, 1) ||
		    (int)(deadline - ticks) <= 0)) {
			txn_group_write(fs);
			continue;
		}
		tsleep(&fs->lfs_txnq, 0, "txngroup",
		    t->t_state == TXN_COMMITTING && fs->lfs_txnleader == NULL ?
		    deadline - ticks : 0);
	}
}
