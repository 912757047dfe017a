/*
 * LFS and the buffer cache (4.4BSD lfs_bio.c): how a dirty block waits
 * for the segment writer, how much may wait, and whether it can ever
 * reach the disk.
 *
 * lfs_bwrite does no I/O: it puts the buffer on the LOCKED queue, where
 * the cache cannot take it (thesis 6.5.2), and charges it to lfs_avail.
 * Two thresholds on the LOCKED buffers, in buffers and in bytes, scaled
 * to the cache so they work on a 16 MB guest and on a 512 MB one, at
 * 4.4BSD's fractions (about 800 KB of a 1.6 MB cache, thesis 7.3.1):
 *   start write   half the cache: the writer that crosses it runs the
 *                 segment writer (lfs_check);
 *   stop access   three quarters of it: a writer above it waits until
 *                 a segment write has freed buffers.
 *
 * Block accounting, both counts of thesis 6.2.2, in blocks:
 *   dlfs_bfree  blocks holding no live data: a new block takes one as
 *               it is created in the cache (lfs_balloc), a deleted one
 *               gives it back even if never written (lfs_truncate).
 *               Summaries and inode blocks are log overhead, like dead
 *               blocks: not counted here, they come back when cleaned;
 *               the reserve below keeps room for those of live inodes.
 *   dlfs_avail  blocks of clean segments (and of the current one, past
 *               dlfs_offset) not yet promised: a dirty buffer takes one
 *               as it enters the LOCKED queue, the writer takes what
 *               summaries, inode blocks and a segment's unused tail
 *               cost; only lfs_segclean gives whole segments back.
 * lfs_reserve admits a write only if both can cover it and the writes
 * it implies (summaries, inode blocks, the ifile), leaving the cleaner
 * its LFS_MINFREESEG segments; so an accepted write always reaches the
 * disk.  With bfree short the answer is ENOSPC; with avail short the
 * writer waits for the cleaner, while it reclaims segments.  A segment
 * write that is not the cleaner's may not take those segments either
 * (lfs_writeroom): they are the cleaner's, and the unmount's.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/proc.h"
#include "kern/i386/cpu.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"
#include "lfs/lfs_txn.h"

void
lfs_thresholds(long *startb, long *stopb, int *startn, int *stopn)
{
	*startb = maxbufspace / 2;
	*stopb = maxbufspace / 4 * 3;
	*startn = nbuf / 2;
	*stopn = nbuf / 4 * 3;
}

static int lfs_bwrite_locked(struct buf *);

/* Are the LOCKED buffers above a threshold (LFS_STARTWRITE, LFS_STOPACCESS)? */
int
lfs_above(int stop)
{
	/* LAB(thresholds) begin */
	long startb, stopb;
	int startn, stopn;

	lfs_thresholds(&startb, &stopb, &startn, &stopn);
	if (stop == LFS_STOPACCESS)
		return locked_queue_count > stopn || locked_queue_bytes > stopb;
	return locked_queue_count > startn || locked_queue_bytes > startb;
	/* LAB(thresholds) end, stub:
	 *	return locked_queue_count > 16;
	 */
}

/*
 * A dirty buffer of an LFS vnode: onto the LOCKED queue (thesis 6.5.2).
 * Changed by someone other than write(2): what differs from the disk's
 * copy is no longer known, so a forced write takes the whole block.
 */
int
lfs_bwrite(struct buf *bp)
{
	bp->b_flags &= ~B_DELTAOK;
	return lfs_bwrite_locked(bp);
}

/*
 * The same for file data write(2) changed (lfs_ufs_bwrite): if the block
 * was clean, or all it differed by was known, the bytes ufs_write noted
 * (b_dirtyoff..end) are all it differs by now (lfs_delta.c).
 */
int
lfs_bwrite_data(struct buf *bp)
{
	if (!(bp->b_flags & B_DELWRI))
		bp->b_flags |= B_DELTAOK;	/* else it stays as it was */
	return lfs_bwrite_locked(bp);
}

static int
lfs_bwrite_locked(struct buf *bp)
{
	struct lfs *fs = VFSTOLFS(bp->b_vp->v_mount);

	if (!(bp->b_flags & B_LOCKED)) {
		bsetlocked(bp);
		fs->lfs_dlfs.dlfs_avail--;
		fs->lfs_nlocked++;
	}
	bdwrite(bp);
	return 0;
}

/*
 * The writer changed a buffer it holds, after (or while) copying it into
 * a partial segment: it must be written again, and is promised again.
 */
void
lfs_redirty(struct lfs *fs, struct buf *bp)
{
	LFS_ASSERT_SEGLOCK(fs);
	bp->b_flags &= ~B_DELTAOK;
	if (!(bp->b_flags & B_DELWRI)) {
		bp->b_flags |= B_DELWRI;
		reassignbuf(bp, bp->b_vp);
		fs->lfs_dlfs.dlfs_avail--;
	}
}

/*
 * A dirty block (busy) found to hold what the disk has after all (a
 * transaction's page it put back as it was): clean, its promise void.
 */
void
lfs_undirty(struct lfs *fs, struct buf *bp)
{
	if (bp->b_flags & B_LOCKED) {
		bclrlocked(bp);
		fs->lfs_dlfs.dlfs_avail++;
		fs->lfs_nlocked--;
	}
	bp->b_flags &= ~(B_DELWRI | B_DELTAOK | B_LOGGED);
	reassignbuf(bp, bp->b_vp);
	brelse(bp);
}

/* Drop a cached block that will never be written (truncation). */
void
lfs_discard(struct lfs *fs, struct buf *bp)
{
	if (bp->b_flags & B_TXN)
		txn_page_gone(bp);	/* an abort's page, or truncated */
	if (bp->b_flags & B_LOCKED) {
		fs->lfs_dlfs.dlfs_avail++;	/* its promise is void */
		fs->lfs_nlocked--;
	}
	bp->b_flags |= B_INVAL;
	bp->b_flags &= ~(B_DELWRI | B_DELTAOK | B_LOGGED);
	reassignbuf(bp, bp->b_vp);
	brelse(bp);
}

/*
 * The thresholds, checked before a regular file takes a new buffer
 * (lfs_balloc).  Never called inside a directory operation.
 */
void
lfs_check(struct vnode *vp)
{
	/* LAB(thresholds) begin */
	struct lfs *fs = VFSTOLFS(vp->v_mount);
	int tries;

	if (lfs_above(LFS_STARTWRITE)) {
		fs->lfs_stats.start_write++;
		if (!lockbusy(&fs->lfs_seglock))
			lfs_segwrite(vp->v_mount, 0);
	}
	for (tries = 0; lfs_above(LFS_STOPACCESS) && tries < 4; tries++) {
		fs->lfs_stats.stop_access++;
		if (!lockbusy(&fs->lfs_seglock))
			lfs_segwrite(vp->v_mount, 0);
		else if (!lockheld(&fs->lfs_seglock))
			tsleep(&locked_queue_count, 0, "lfsstop", hz);
	}
	/* LAB(thresholds) end, stub:
	 *	if (lfs_above(LFS_STARTWRITE))
	 *		lfs_segwrite(vp->v_mount, 0);
	 */
}

/*
 * The rest of the cold head's segment: counted in avail, but only the
 * cleaner's copies go there (lfs_seguse.c), not what users write or a
 * checkpoint.
 */
static int32_t
lfs_coldtail(struct lfs *fs)
{
	struct dlfs *d = &fs->lfs_dlfs;

	if (fs->lfs_coldin)		/* a cleaner's write: swapped in */
		return lfs_sntod(d, d->dlfs_curseg + 1) - d->dlfs_offset;
	if (d->dlfs_coffset == 0)
		return 0;
	return lfs_sntod(d, d->dlfs_ccurseg + 1) - d->dlfs_coffset;
}

/* Blocks beyond n that writing everything now cached will cost. */
static int
lfs_overhead(struct lfs *fs, int n)
{
	struct dlfs *d = &fs->lfs_dlfs;
	int data = fs->lfs_nlocked + n;
	int ifile = VTOI(fs->lfs_ivnode)->i_size >> d->dlfs_bshift;

	return 2 * (data / (d->dlfs_ssize - 2) + 2) +	/* summaries, tails */
	    (d->dlfs_nfiles + desiredvnodes) / d->dlfs_inopb + 2 + /* inodes */
	    ifile + 1;					/* the ifile */
}

static int
lfs_cleaner_alive(struct lfs *fs)
{
	return fs->lfs_cleaners > 0 || lfs_time() - fs->lfs_cleanerseen < 10;
}

/*
 * The blocks, beyond those promised already, that the next segment
 * write may cost: summaries and segment tails, the blocks of the inodes
 * now dirty, the ifile blocks writing them changes.  lfs_overhead bounds
 * the same for all that may yet be cached (every inode, the whole ifile).
 */
static int
lfs_writecost(struct lfs *fs)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct vnode *vp;
	int ifile = VTOI(fs->lfs_ivnode)->i_size >> d->dlfs_bshift;
	int ndirty = 0;

	LIST_FOREACH(vp, &fs->lfs_ump->um_mountp->mnt_vnodelist, v_mntvnodes)
		if (vp->v_type != VBAD &&
		    (lfs_vdirty(vp) || (vp->v_flag & VDIROP)))
			ndirty++;
	return 2 * (fs->lfs_nlocked / (d->dlfs_ssize - 2) + 2) +
	    ndirty / d->dlfs_inopb + 2 + MIN(ifile, ndirty + 3) + 1;
}

/*
 * Can avail take nwrite more blocks and over blocks of overhead, leaving
 * the cleaner its LFS_MINFREESEG segments?  (The cold head's rest is the
 * cleaner's too.)
 */
static int
lfs_availfits(struct lfs *fs, int nwrite, int over)
{
	struct dlfs *d = &fs->lfs_dlfs;

	return d->dlfs_avail - lfs_coldtail(fs) - nwrite - over >=
	    (int32_t)(d->dlfs_minfreeseg * d->dlfs_ssize);
}

/* How long a writer has waited for the cleaner (lfs_waitcleaner). */
struct lfs_wait {
	u_int32_t pass;		/* lfs_cleanerpass when the cleaner last gained */
	u_int32_t cleaned;	/* segs_cleaned then */
	u_int32_t since;	/* ticks then */
	u_int32_t start;	/* ticks when the wait began */
	int	waited;		/* times woken */
};

/*
 * Wake the cleaner and wait for it to reclaim segments, or say ENOSPC:
 * no cleaner runs, or it has ended two passes since it last gained a
 * segment (what is free is too scattered to gather; the caller may hold
 * a directory's lock, and an unlink that would make room may be waiting
 * for it), or 10 s have passed since it last gained one (a cleaner that
 * never comes back to lfs_segwait), or 60 s in all (one whose gains its
 * own copies eat).  Time, not wake-ups: every lfs_segclean wakes us, and
 * a cleaner that gains slowly (small segments, mostly live) may take
 * longer than ten of them to make room.
 */
static int
lfs_waitcleaner(struct lfs *fs, struct lfs_wait *w)
{
	int stalled;

	if (!lfs_cleaner_alive(fs)) {
		if (!w->waited)
			printf("lfs: %s: out of clean segments and no "
			    "cleaner running (lfs_cleanerd)\n",
			    fs->lfs_ump->um_fspec);
		return ENOSPC;
	}
	if (!w->waited || fs->lfs_stats.segs_cleaned != w->cleaned) {
		w->pass = fs->lfs_cleanerpass;	/* it gains: wait on */
		w->cleaned = fs->lfs_stats.segs_cleaned;
		w->since = ticks;
		if (!w->waited)
			w->start = ticks;
	} else if (fs->lfs_cleanerpass - w->pass >= 2) {
		printf("lfs: %s: file system full: the cleaner found nothing "
		    "worth cleaning in two passes\n", fs->lfs_ump->um_fspec);
		return ENOSPC;
	}
	stalled = ticks - w->since > (u_int32_t)(10 * hz);
	if (stalled || ticks - w->start > (u_int32_t)(60 * hz)) {
		printf("lfs: %s: file system full: %s\n",
		    fs->lfs_ump->um_fspec, stalled ?
		    "no segment cleaned in 10 s" :
		    "the cleaner made too little room in 60 s");
		return ENOSPC;
	}
	w->waited++;
	fs->lfs_stats.cleaner_waits++;
	wakeup(&fs->lfs_cleaners);
	tsleep(&fs->lfs_dlfs.dlfs_avail, 0, "lfsspace", hz);
	return 0;
}

/*
 * Admit a write of nwrite blocks, n of them new to their files: ENOSPC
 * if the file system is full (bfree), else wait, if allowed, until avail
 * can take them (an overwrite needs log space too), while the cleaner
 * gains segments (lfs_waitcleaner).  The new blocks are taken from
 * bfree.  The cleaner (lfs_markv) does not come through here.
 */
int
lfs_reserve(struct lfs *fs, int n, int nwrite, struct ucred *cred, int wait)
{
	struct dlfs *d = &fs->lfs_dlfs;
	int32_t cleanres = d->dlfs_minfreeseg * d->dlfs_ssize;
	int32_t userres = (int64_t)d->dlfs_dsize * d->dlfs_minfree / 100;
	struct lfs_wait w = { 0, 0, 0, 0, 0 };
	int error;

	if (cred != NULL && cred->cr_uid == 0)
		userres = 0;
	for (;;) {
		if (d->dlfs_bfree - n - lfs_overhead(fs, n) - cleanres <
		    userres)
			return ENOSPC;
		if (!wait || lfs_availfits(fs, nwrite, lfs_overhead(fs, n)))
			break;
		/* The space is there, in dirty segments: the cleaner's. */
		if ((error = lfs_waitcleaner(fs, &w)) != 0)
			return error;
	}
	d->dlfs_bfree -= n;
	return 0;
}

/*
 * May a segment write start that is not the cleaner's (nor recovery's
 * or an unmount's, which may use its reserve)?  Only data is admitted
 * (lfs_reserve, which leaves room to write all that is cached); but
 * every write pays summaries, inode blocks and ifile blocks again, even
 * one of nothing new, so a stream of unlinks, chmods and fsyncs on a
 * full log would take the cleaner's segments block by block until not
 * even the unmount's checkpoint fits.  The write starts if avail covers
 * what it may cost above the reserve; else, if it may wait, once the
 * cleaner has made room; if not, ENOSPC: what is cached stays cached,
 * its space promised, for a later write.
 */
int
lfs_writeroom(struct lfs *fs, int wait)
{
	struct lfs_wait w = { 0, 0, 0, 0, 0 };
	int error;

	if (lfs_availfits(fs, 0, lfs_overhead(fs, 0)))
		return 0;	/* room for all that may be cached: no count */
	while (!lfs_availfits(fs, 0, lfs_writecost(fs))) {
		if (!wait)
			return ENOSPC;
		if ((error = lfs_waitcleaner(fs, &w)) != 0)
			return error;
	}
	return 0;
}

/*
 * The log space no block is written to yet: the clean segments and the
 * current one's tail.  avail is this less what is promised; roll-forward
 * recounts it so (lfs_rfw.c), and lfsstat shows it.
 */
int32_t
lfs_cleanblocks(struct lfs *fs)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct lfs_ifref r;
	int32_t n = lfs_sntod(d, d->dlfs_curseg + 1) - d->dlfs_offset;
	u_int32_t sn;
	SEGUSE *sup;

	if (d->dlfs_coffset != 0)	/* the other head's rest, too */
		n += lfs_sntod(d, d->dlfs_ccurseg + 1) - d->dlfs_coffset;

	for (sn = 0; sn < d->dlfs_nseg; sn++) {
		if ((sup = LFS_SEGENTRY(fs, sn, &r)) == NULL)
			continue;
		if (!(sup->su_flags & (SEGUSE_DIRTY | SEGUSE_ACTIVE)))
			n += lfs_sntod(d, sn + 1) - lfs_sbfirstblock(d, sn);
		lfs_ifput(fs, &r, 0);
	}
	return n;
}

/*
 * May the cleaner rewrite n blocks (data and inodes)?  It may use the
 * segments kept for it, all but one: the checkpoint that lets it reclaim
 * what it cleaned must find a segment to go to, and room for the ifile
 * (twice: a sync may come first).  The copies fill the cold head's
 * segment first; only what does not fit there comes out of the rest.
 */
int
lfs_cleaner_fits(struct lfs *fs, int n)
{
	struct dlfs *d = &fs->lfs_dlfs;
	int ifile = VTOI(fs->lfs_ivnode)->i_size >> d->dlfs_bshift;
	int meta = n / (d->dlfs_ssize - 3) + 2 + n / d->dlfs_inopb + 2;
	int32_t cold = lfs_coldtail(fs), rest = n + meta - cold;

	return d->dlfs_avail - cold - (rest > 0 ? rest : 0) -
	    2 * (ifile + 4) >= (int32_t)d->dlfs_ssize;
}

void
lfs_unreserve(struct lfs *fs, int n)
{
	fs->lfs_dlfs.dlfs_bfree += n;
}
