/*
 * LFS and the buffer cache (4.4BSD lfs_bio.c): how a dirty block waits
 * for the segment writer, how much may wait, and whether it can ever
 * reach the disk.
 *
 * lfs_bwrite does no I/O: it puts the buffer on the LOCKED queue, where
 * the cache cannot take it (thesis 6.5.2), and charges it to lfs_avail.
 * Two thresholds on the LOCKED buffers, in buffers and in bytes, scaled
 * to the cache so they work on a 16 MB guest and on a 512 MB one:
 *   start write   a quarter of the cache: the writer that crosses it
 *                 runs the segment writer (lfs_check);
 *   stop access   half the cache: a writer above it waits until a
 *                 segment write has freed buffers.
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
 * writer waits for the cleaner.
 *
 * Directory operations (thesis 6.3.3): lfs_dirop_begin and _end count
 * dirop_in_progress (lfs_dirops); the vnodes involved are marked
 * (VDIROP) for the writer's second pass.  A dirop cannot begin while
 * the writer is in that pass (lfs_writer), and reserves its space
 * first, so nothing inside a dirop ever waits for the writer or the
 * cleaner.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/proc.h"
#include "kern/i386/cpu.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"

#define LFS_NRESERVE	(2 * NIADDR + 3)	/* blocks a dirop may dirty */

extern int desiredvnodes;

void
lfs_thresholds(long *startb, long *stopb, int *startn, int *stopn)
{
	*startb = maxbufspace / 4;
	*stopb = maxbufspace / 2;
	*startn = nbuf / 4;
	*stopn = nbuf / 2;
}

static int
lfs_above(int stop)
{
	long startb, stopb;
	int startn, stopn;

	lfs_thresholds(&startb, &stopb, &startn, &stopn);
	if (stop)
		return locked_queue_count > stopn || locked_queue_bytes > stopb;
	return locked_queue_count > startn || locked_queue_bytes > startb;
}

/* A dirty buffer of an LFS vnode: onto the LOCKED queue (thesis 6.5.2). */
int
lfs_bwrite(struct buf *bp)
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
	if (!(bp->b_flags & B_DELWRI)) {
		bp->b_flags |= B_DELWRI;
		reassignbuf(bp, bp->b_vp);
		fs->lfs_dlfs.dlfs_avail--;
	}
}

/* Drop a cached block that will never be written (truncation). */
void
lfs_discard(struct lfs *fs, struct buf *bp)
{
	if (bp->b_flags & B_LOCKED) {
		fs->lfs_dlfs.dlfs_avail++;	/* its promise is void */
		fs->lfs_nlocked--;
	}
	bp->b_flags |= B_INVAL;
	bp->b_flags &= ~B_DELWRI;
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
	struct lfs *fs = VFSTOLFS(vp->v_mount);
	int tries;

	if (lfs_above(0)) {
		fs->lfs_stats.start_write++;
		if (fs->lfs_seglock == NULL)
			lfs_segwrite(vp->v_mount, 0);
	}
	for (tries = 0; lfs_above(1) && tries < 4; tries++) {
		fs->lfs_stats.stop_access++;
		if (fs->lfs_seglock == NULL)
			lfs_segwrite(vp->v_mount, 0);
		else if (fs->lfs_seglock != curproc)
			tsleep(&locked_queue_count, 0, "lfsstop", hz);
	}
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
 * Admit a write of nwrite blocks, n of them new to their files: ENOSPC
 * if the file system is full (bfree), else wait, if allowed, until avail
 * can take them (an overwrite needs log space too).  The new blocks are
 * taken from bfree.  The cleaner (lfs_markv) does not come through here.
 */
int
lfs_reserve(struct lfs *fs, int n, int nwrite, struct ucred *cred, int wait)
{
	struct dlfs *d = &fs->lfs_dlfs;
	int32_t cleanres = d->dlfs_minfreeseg * d->dlfs_ssize;
	int32_t userres = (int64_t)d->dlfs_dsize * d->dlfs_minfree / 100;
	int warned = 0, waited = 0;

	if (cred != NULL && cred->cr_uid == 0)
		userres = 0;
	for (;;) {
		int over = lfs_overhead(fs, n);

		if (d->dlfs_bfree - n - over - cleanres < userres)
			return ENOSPC;
		if (!wait || d->dlfs_avail - nwrite - over >= cleanres)
			break;
		/* The space is there, in dirty segments: the cleaner's. */
		if (!lfs_cleaner_alive(fs)) {
			if (!warned)
				printf("lfs: %s: out of clean segments and no "
				    "cleaner running (lfs_cleanerd)\n",
				    fs->lfs_ump->um_fspec);
			return ENOSPC;
		}
		/*
		 * The cleaner gains a segment in a second or two when it can;
		 * if 10 s bring no room, what is free is too scattered to
		 * gather: the disk is full.
		 */
		if (++waited > 10)
			return ENOSPC;
		fs->lfs_stats.cleaner_waits++;
		warned = 1;
		wakeup(&fs->lfs_cleaners);
		tsleep(&d->dlfs_avail, 0, "lfsspace", hz);
	}
	d->dlfs_bfree -= n;
	return 0;
}

/*
 * May the cleaner rewrite n blocks (data and inodes)?  It may use the
 * segments kept for it, all but one: the checkpoint that lets it reclaim
 * what it cleaned must find a segment to go to, and room for the ifile
 * (twice: a sync may come first).
 */
int
lfs_cleaner_fits(struct lfs *fs, int n)
{
	struct dlfs *d = &fs->lfs_dlfs;
	int ifile = VTOI(fs->lfs_ivnode)->i_size >> d->dlfs_bshift;
	int meta = n / (d->dlfs_ssize - 3) + 2 + n / d->dlfs_inopb + 2;

	return d->dlfs_avail - n - meta - 2 * (ifile + 4) >=
	    (int32_t)d->dlfs_ssize;
}

void
lfs_unreserve(struct lfs *fs, int n)
{
	fs->lfs_dlfs.dlfs_bfree += n;
}

/* The segment lock: one writer (or cleaner call) at a time. */
void
lfs_seglock(struct lfs *fs)
{
	KASSERT(fs->lfs_seglock != curproc);
	while (fs->lfs_seglock != NULL) {
		fs->lfs_seglockwant = 1;
		tsleep(&fs->lfs_seglock, 0, "seglock", 0);
	}
	fs->lfs_seglock = curproc;
}

void
lfs_segunlock(struct lfs *fs)
{
	KASSERT(fs->lfs_seglock == curproc);
	fs->lfs_seglock = NULL;
	if (fs->lfs_seglockwant) {
		fs->lfs_seglockwant = 0;
		wakeup(&fs->lfs_seglock);
	}
}

/*
 * Changes to the ifile made outside the writer (lfs_vfree, truncation's
 * segment usage) wait while the writer is writing the ifile for a
 * checkpoint or dirop, so what it writes is one state.  Such a caller
 * may be inside a dirop; then the writer cannot be in that pass.
 */
void
lfs_ifile_wait(struct lfs *fs)
{
	while (fs->lfs_writer == 2 && fs->lfs_seglock != curproc)
		tsleep(&fs->lfs_writer, 0, "lfsifile", 0);
}

/*
 * Steps 1 of thesis 6.3.3: wait out the writer's dirop pass and the
 * stop-access threshold, make sure of the blocks a dirop may dirty
 * (unless it frees: remove, rmdir), and set dirop_in_progress.
 */
int
lfs_dirop_begin(struct vnode *dvp, int frees)
{
	struct lfs *fs = VFSTOLFS(dvp->v_mount);
	int error;

	if (dvp->v_mount->mnt_flag & MNT_RDONLY)
		return EROFS;
	if (lfs_above(1) && fs->lfs_seglock == NULL) {
		fs->lfs_stats.stop_access++;
		lfs_segwrite(dvp->v_mount, 0);
	}
	while (fs->lfs_writer)
		tsleep(&fs->lfs_writer, 0, "lfsdirop", 0);
	lfs_checkheld(dvp->v_mount);
	/* A removal is how a full file system gets room: never refused. */
	if (!frees &&
	    (error = lfs_reserve(fs, LFS_NRESERVE, LFS_NRESERVE, NULL, 1)) != 0)
		return error;
	if (!frees)
		lfs_unreserve(fs, LFS_NRESERVE);	/* checked, not taken */
	while (fs->lfs_writer)
		tsleep(&fs->lfs_writer, 0, "lfsdirop", 0);
	fs->lfs_dirops++;
	curproc->p_lfsdirop++;
	return 0;
}

/* Steps 5 and 6: the dirop happened; the writer may have its pass. */
void
lfs_dirop_end(struct vnode *dvp)
{
	struct lfs *fs = VFSTOLFS(dvp->v_mount);

	fs->lfs_doneops = 1;
	curproc->p_lfsdirop--;
	if (--fs->lfs_dirops == 0)
		wakeup(&fs->lfs_dirops);
}

/*
 * Vnodes held for unwritten changes (lfs_inactive) cannot be reused;
 * when they are a quarter of the table, write them so they can go.  Not
 * from inside a dirop, whose end the writer would wait for.
 */
void
lfs_checkheld(struct mount *mp)
{
	struct lfs *fs = VFSTOLFS(mp);

	if (fs->lfs_nheld > desiredvnodes / 4 && fs->lfs_seglock == NULL &&
	    curproc != NULL && curproc->p_lfsdirop == 0 &&
	    !(mp->mnt_flag & MNT_RDONLY))
		lfs_segwrite(mp, 0);
}

/* Steps 2 and 3: a vnode takes part in a dirop. */
void
lfs_mark(struct vnode *vp)
{
	if (vp != NULL && vp->v_data != NULL)
		vp->v_flag |= VDIROP;
}
