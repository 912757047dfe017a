/*
 * The segment writer (thesis 6.3.1, 6.3.3, 6.5.3; 4.4BSD lfs_segment.c).
 *
 * lfs_segwrite takes the segment lock and writes, as partial segments
 * appended to the log at dlfs_offset, every dirty block and inode of a
 * file system:
 *
 *   pass 1   the vnodes not in a directory operation: for each
 *            (lfs_writefile, lfs_gather.c) its dirty data blocks in lbn
 *            order, then its indirect blocks level by level, then its
 *            inode into an inode block;
 *   pass 2   if a dirop happened, or for a checkpoint: wait until no
 *            dirop is in progress and let none begin, write the marked
 *            vnodes, then the ifile and its inode (lfs_writeifile).
 *            These partial segments carry SS_DIROP, all but the last
 *            SS_CONT: the ifile inode's is the commit (thesis 6.3.3).
 *            A plain write that finds no dirop in progress goes on in
 *            pass 1's partial segment, and its ifile joins the inodes
 *            before it (lfs_onepartial, lfs_writeifile): one summary
 *            and one inode block where there were up to three.
 *
 * A commit (SEGM_TXN) ends with the DELTAs of the pages it does not
 * write whole (lfs_txndelta.c), a forced write of a plain file with the
 * changed bytes of blocks it does not write whole, and a checkpoint with
 * the DELTAs the log holds of blocks not yet on the disk (lfs_delta.c).
 *
 * A forced write (fsync, a commit: SEGM_DATAONLY) writes in pass 1 only
 * the data blocks of a file whose inode the log can do without
 * (lfs_dataonly): roll-forward sets the pointers and the size from the
 * summary (lfs_rfw_blocks), and the inode and indirect blocks stay dirty
 * for a later write.  Such a file (IN_DATAONLY) is written whole before
 * any ifile, so an ifile on the disk never counts a block that only the
 * log names.
 *
 * The writer's parts, each in its file: gathering a file's blocks and
 * inode (lfs_gather.c), opening and closing a partial segment
 * (lfs_pseg.c: the summary, the commit points), the transfers and the
 * superblock (lfs_segio.c), the segments the log goes to (lfs_seguse.c).
 * A checkpoint ends, once everything is on disk, with the superblock
 * copy whose turn it is (lfs_writesuper).
 *
 * The ifile of a checkpoint is written until it is clean, at most a few
 * rounds: closing its partial segment changes it again.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/conf.h"
#include "kern/malloc.h"
#include "kern/proc.h"
#include "kern/i386/cpu.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"
#include "lfs/lfs_txn.h"
#include <sys/time.h>

struct segment *
lfs_segalloc(struct lfs *fs)
{
	struct segment *sp = malloc(sizeof(*sp), M_WAITOK | M_ZERO);

	sp->sg_sum = malloc(fs->lfs_dlfs.dlfs_sumsize, M_WAITOK | M_ZERO);
	sp->sg_bufs = malloc(fs->lfs_dlfs.dlfs_ssize * sizeof(struct buf *),
	    M_WAITOK);
	return sp;
}

void
lfs_segfree(struct segment *sp)
{
	free(sp->sg_bufs);
	free(sp->sg_sum);
	free(sp);
}

/* The segment lock: one writer (or cleaner call) at a time. */
void
lfs_seglock(struct lfs *fs)
{
	lockacquire(&fs->lfs_seglock);
}

void
lfs_segunlock(struct lfs *fs)
{
	lockrelease(&fs->lfs_seglock);
}

/* Does the ifile have blocks to write? */
static int
lfs_ifile_dirty(struct lfs *fs)
{
	struct buf *bp;

	LIST_FOREACH(bp, &fs->lfs_ivnode->v_dirtyblkhd, b_vnbufs)
		if (bp->b_flags & B_DELWRI)
			return 1;
	return 0;
}

/* Mark an ifile block dirty so this round of the ifile carries it. */
static void
lfs_touch(struct lfs *fs, void *entry, struct lfs_ifref *r)
{
	if (entry != NULL)
		lfs_ifput(fs, r, 1);
}

/*
 * The ifile blocks that closing the open partial segment changes for its
 * inodes (lfs_mapinodes): each one's map entry, and the usage of the
 * segment it leaves.
 */
static void
lfs_touchinodes(struct lfs *fs, struct segment *sp)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct lfs_ifref r;
	IFILE *ifp;
	u_int32_t old;
	int j;

	for (j = 0; j < sp->sg_ninos; j++) {
		struct dinode *dp = lfs_inoslot(fs, sp, j);

		if (dp->di_inumber == LFS_IFILE_INUM ||
		    (ifp = LFS_IENTRY(fs, dp->di_inumber, &r)) == NULL)
			continue;
		old = ifp->if_daddr;
		lfs_touch(fs, ifp, &r);
		if (old != LFS_UNUSED_DADDR && old < d->dlfs_size)
			lfs_touch(fs, LFS_SEGENTRY(fs, lfs_dtosn(d, old), &r),
			    &r);
	}
}

/*
 * The ifile and its inode, last.  Closing a partial segment maps its
 * inodes, so the ifile that follows them must carry those changes: in
 * the same partial segment when the writer has touched the blocks they
 * change first (a plain write), else in one of its own.  Rounds until it
 * is clean.
 */
#define LFS_IFROUNDS	6
static int
lfs_writeifile(struct lfs *fs, struct segment *sp)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct vnode *ivp = fs->lfs_ivnode;
	struct lfs_ifref r;
	int round, error = 0;

	LFS_ASSERT_SEGLOCK(fs);
	if (sp->sg_open && !sp->sg_dataonly &&
	    !(sp->sg_flags & (SEGM_TXN | SEGM_DATAONLY | SEGM_CLEAN)))
		lfs_touchinodes(fs, sp);
	else
		lfs_writeseg(fs, sp, LFS_PSEG_MORE);
	if (sp->sg_flags & SEGM_CKP)
		lfs_clearactive(fs);
	sp->sg_ifile = 1;
	for (round = 0; round < LFS_IFROUNDS && error == 0; round++) {
		/* The blocks the closing of this partial segment changes. */
		lfs_touch(fs, LFS_CLEANERINFO(fs, &r), &r);
		lfs_touch(fs, LFS_SEGENTRY(fs, d->dlfs_curseg, &r), &r);
		lfs_touch(fs, LFS_IENTRY(fs, LFS_IFILE_INUM, &r), &r);
		if (d->dlfs_idaddr != LFS_UNUSED_DADDR &&
		    d->dlfs_idaddr < d->dlfs_size)
			lfs_touch(fs, LFS_SEGENTRY(fs,
			    lfs_dtosn(d, d->dlfs_idaddr), &r), &r);
		if (!sp->sg_open &&
		    (error = lfs_initseg(fs, sp, LFS_MINPSEG)) != 0)
			break;
		if ((error = lfs_writefile(fs, sp, ivp)) != 0)
			break;
		lfs_writeseg(fs, sp, round < LFS_IFROUNDS - 1 ?
		    LFS_PSEG_LAST : LFS_PSEG_FINAL);
		if (!lfs_ifile_dirty(fs))
			break;
		lfs_drain(fs, 1);
	}
	sp->sg_ifile = 0;
	return error;
}

/* Is vp one of the vnodes this write is restricted to (or all)? */
static int
lfs_inset(struct segment *sp, struct vnode *vp)
{
	int i;

	if (sp->sg_vps == NULL)
		return 1;
	for (i = 0; i < sp->sg_nvps; i++)
		if (sp->sg_vps[i] == vp)
			return 1;
	return 0;
}

/* The dirty vnodes of mp, marked or not, referenced. */
static struct vnode **
lfs_collect(struct lfs *fs, struct mount *mp, int marked, int *np)
{
	struct vnode *vp, **vps;
	int n = 0;

	LIST_FOREACH(vp, &mp->mnt_vnodelist, v_mntvnodes)
		n++;
	vps = malloc((n + 1) * sizeof(*vps), M_WAITOK);
	n = 0;
	LIST_FOREACH(vp, &mp->mnt_vnodelist, v_mntvnodes) {
		if (vp == fs->lfs_ivnode || vp->v_type == VNON ||
		    vp->v_type == VBAD || vp->v_data == NULL)
			continue;
		if (!marked && !lfs_inset(fs->lfs_sp, vp))
			continue;
		/* Pass 2: the dirop's, and those written ahead of their
		 * inode (the ifile it writes will count their blocks). */
		if (marked ? !(vp->v_flag & VDIROP) &&
		    !(VTOI(vp)->i_flag & IN_DATAONLY) :
		    (vp->v_flag & VDIROP) != 0)
			continue;
		if (!lfs_vdirty(vp)) {
			vp->v_flag &= ~VDIROP;
			continue;
		}
		vget(vp);
		vps[n++] = vp;
	}
	*np = n;
	return vps;
}

/* Drop the references taken, and the holds of vnodes now written. */
static void
lfs_vunref(struct vnode **vps, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		struct vnode *vp = vps[i];

		if ((vp->v_flag & VHELD) && !lfs_vdirty(vp)) {
			vp->v_flag &= ~VHELD;
			VFSTOLFS(vp->v_mount)->lfs_nheld--;
			vrele(vp);
		}
		vrele(vp);
	}
	free(vps);
}

/*
 * Write the n vnodes vps.  A forced write takes first the files it may
 * write data only, in partial segments of their own (SS_DATAONLY, the
 * ones roll-forward reads pointers from), then the others whole.
 */
static int
lfs_writevnodes(struct lfs *fs, struct segment *sp, struct vnode **vps,
    int n)
{
	char *whole = NULL;
	int i, nwhole = n, error = 0;

	if ((sp->sg_flags & SEGM_DATAONLY) && !sp->sg_dirop &&
	    !sp->sg_ifile && n > 0) {
		whole = malloc(n, M_WAITOK);
		for (i = 0; i < n && error == 0; i++) {
			whole[i] = !lfs_dataonly(fs, sp, vps[i]);
			if (!whole[i]) {
				nwhole--;
				error = lfs_writedata(fs, sp, vps[i]);
			}
		}
		/* Left open if nothing follows: the write's last closes it. */
		if (error == 0 && sp->sg_dataonly && nwhole > 0) {
			lfs_writeseg(fs, sp, LFS_PSEG_MORE);
			sp->sg_dataonly = 0;
		}
	}
	for (i = 0; i < n && error == 0; i++) {
		if (whole != NULL && !whole[i])
			continue;
		error = lfs_writefile(fs, sp, vps[i]);
		if (error == 0 && sp->sg_dirop)
			vps[i]->v_flag &= ~VDIROP;
	}
	free(whole);
	return error;
}

/*
 * A cleaner's write (lfs_markv) first puts the cleaner's copies, and
 * only them, at the cold head, in partial segments that name no inode;
 * the rest of those files (their other dirty blocks, indirect blocks and
 * inodes, which point at the copies) then go to the hot head as any
 * write.  Their serials come after the copies', so roll-forward never
 * takes an inode without the blocks it names; a crash in between leaves
 * the copies unnamed and the blocks where the cleaner found them.  When
 * the cold head has no segment to go to, the copies left go to the hot
 * head with the rest.
 *
 * A write nobody waits for (not a commit's, not an fsync's) does the
 * same with the blocks users rewrote (B_REWRITE): a database's pages,
 * whose commits went to the hot head as DELTAs or log records and die
 * young there.  The hot head's segments then come to the cleaner nearly
 * empty, and the cold head's hold what outlives them (issue 22).
 */
static int
lfs_coldwanted(struct lfs *fs, struct vnode **vps, int n)
{
	struct buf *bp;
	int i, s, found = 0;

	if (fs->lfs_coldlost)
		return 0;	/* the cold head chooses again: lfs_markv */
	s = splbio();
	for (i = 0; i < n && !found; i++) {
		if (vps[i]->v_flag & VDIROP)
			continue;
		LIST_FOREACH(bp, &vps[i]->v_dirtyblkhd, b_vnbufs)
			if ((bp->b_flags & B_REWRITE) && lfs_cantake(bp)) {
				found = 1;
				break;
			}
	}
	splx(s);
	return found;
}

static int
lfs_writecold(struct lfs *fs, struct segment *sp, struct vnode **vps, int n)
{
	int i, error;

	if ((error = lfs_usehead(fs, 1)) == 0) {
		sp->sg_cleancopy = 1;
		for (i = 0; i < n && error == 0; i++) {
			if (!(sp->sg_flags & SEGM_CLEAN) &&
			    (vps[i]->v_flag & VDIROP))
				continue;
			error = lfs_gather(fs, sp, VTOI(vps[i]), LFS_DATA);
			if (sp->sg_open)
				lfs_endfinfo(fs, sp);
		}
		sp->sg_cleancopy = 0;
		lfs_writeseg(fs, sp, LFS_PSEG_LAST);
	}
	lfs_usehead(fs, 0);
	return error == ENOSPC ? 0 : error;
}

/*
 * Unlinked files only the writer's hold keeps (VHELD, lfs_inactive) need
 * no writing: let them go first, so that the ifile this write carries
 * has them freed (written after it, a crash between would leave inodes
 * allocated that no directory names).
 */
static void
lfs_reapheld(struct lfs *fs, struct mount *mp)
{
	struct vnode *vp, **vps;
	int n = 0, max = 0;

	LIST_FOREACH(vp, &mp->mnt_vnodelist, v_mntvnodes)
		max++;
	vps = malloc((max + 1) * sizeof(*vps), M_WAITOK);
	LIST_FOREACH(vp, &mp->mnt_vnodelist, v_mntvnodes)
		if (n < max && (vp->v_flag & VHELD) && vp->v_usecount == 1 &&
		    vp->v_data != NULL && VTOI(vp)->i_nlink <= 0 &&
		    VTOI(vp)->i_mode != 0) {
			vget(vp);	/* a concurrent lfs_vunref may drop the hold */
			vps[n++] = vp;
		}
	while (n-- > 0) {
		if (vps[n]->v_flag & VHELD) {
			vps[n]->v_flag &= ~VHELD;
			fs->lfs_nheld--;
			vrele(vps[n]);
		}
		vrele(vps[n]);		/* the last: lfs_inactive frees it */
	}
	free(vps);
}

/*
 * May pass 2 go on in pass 1's open partial segment (one summary, one
 * inode block, one transfer less)?  For a plain write, whose partial
 * segments promise roll-forward nothing of their own (a forced write's
 * and the cleaner's do); when no dirop is in progress, so the writer
 * goes through the gate without sleeping and nothing changes between
 * the passes; and when no vnode pass 1 wrote has joined a dirop since
 * (pass 2 would put its inode in the same partial segment again).
 */
static int
lfs_onepartial(struct lfs *fs, struct segment *sp, struct vnode **vps, int n)
{
	int i;

	if ((sp->sg_flags & (SEGM_TXN | SEGM_DATAONLY | SEGM_CLEAN)) ||
	    sp->sg_dataonly || fs->lfs_dirops > 0)
		return 0;
	for (i = 0; i < n; i++)
		if (vps[i]->v_flag & VDIROP)
			return 0;
	return 1;
}

/* Write everything dirty of mp to the log (see the top of the file). */
int
lfs_segwrite(struct mount *mp, int flags)
{
	return lfs_segwrite_vnodes(mp, flags, NULL, 0);
}

/*
 * The same, with pass 1 restricted to the n vnodes vps (when not NULL):
 * those lfs_markv moves, the file fsync was given.  Pass 2 writes every
 * dirop in progress, as before, so what fsync makes durable is the file
 * and every directory operation before it (as on FFS, whose directory
 * operations are synchronous).
 */
int
lfs_segwrite_vnodes(struct mount *mp, int flags, struct vnode **vps, int n)
{
	struct lfs *fs = VFSTOLFS(mp);
	struct dlfs *d = &fs->lfs_dlfs;
	struct segment *sp = fs->lfs_sp;
	struct vnode **vps1, **vps2 = NULL, *vp;
	int n1, n2 = 0, error, dirop, relogged = 0;

	if (mp->mnt_flag & MNT_RDONLY)
		return 0;
	/* Clean segments run low: let the cleaner go first (6.3.4). */
	if (!(flags & SEGM_CLEAN) && fs->lfs_nclean <= d->dlfs_minfreeseg &&
	    fs->lfs_cleaners > 0) {
		wakeup(&fs->lfs_cleaners);
		tsleep(&d->dlfs_avail, 0, "lfsclean", hz);
	}
	/* Unlinked files go first, even if this write cannot start: their
	 * blocks and dirty buffers are what a full log gets back. */
	lfs_reapheld(fs, mp);
	/* Its reserve is the cleaner's (and an unmount's): lfs_bio.c. */
	if (!(flags & (SEGM_CLEAN | SEGM_RESERVE | SEGM_TXN)) &&
	    (curproc == NULL || !LFS_PROC(curproc)->lp_cleaner) &&
	    (error = lfs_writeroom(fs, flags & SEGM_SYNC)) != 0)
		return error;
	lfs_seglock(fs);
	fs->lfs_stats.segwrites++;
	sp->sg_flags = flags;
	sp->sg_dirop = sp->sg_ifile = sp->sg_end = sp->sg_dataonly = 0;
	if (flags & SEGM_TXN)
		txn_release_pages(fs);	/* the committing group's pages */
	sp->sg_vps = vps;
	sp->sg_nvps = n;

	vps1 = lfs_collect(fs, mp, 0, &n1);
	if ((flags & SEGM_CLEAN) || (vps == NULL && !(flags & SEGM_TXN) &&
	    lfs_coldwanted(fs, vps1, n1)))
		error = lfs_writecold(fs, sp, vps1, n1);
	else
		error = 0;
	if (error == 0)
		error = lfs_writevnodes(fs, sp, vps1, n1);
	/* A commit's DELTAs, before any dirop: its run ends after both. */
	if (error == 0 && (flags & SEGM_TXN))
		error = txn_logdeltas(fs, sp);
	dirop = fs->lfs_doneops;
	LIST_FOREACH(vp, &mp->mnt_vnodelist, v_mntvnodes)
		if (vp->v_flag & VDIROP)
			dirop = 1;
	if (flags & SEGM_CLEAN)
		dirop = 0;		/* dirops wait for the next write */
	if (error == 0 && (dirop || (flags & SEGM_CKP))) {
		if (!lfs_onepartial(fs, sp, vps1, n1)) {
			lfs_writeseg(fs, sp, LFS_PSEG_LAST);
			sp->sg_dataonly = 0;
			/* A dirop in progress may wait for a buffer that
			 * only the writer's drain lets go. */
			if (fs->lfs_dirops > 0)
				lfs_drain(fs, 1);
		}
		lfs_writer_enter(fs);
		sp->sg_dirop = dirop || fs->lfs_doneops;
		fs->lfs_doneops = 0;
		vps2 = lfs_collect(fs, mp, 1, &n2);
		error = lfs_writevnodes(fs, sp, vps2, n2);
		if (error == 0)
			error = lfs_writeifile(fs, sp);
		lfs_writer_leave(fs);
	}
	/* What roll-forward needs past a checkpoint. */
	if (error == 0 && (flags & SEGM_CKP))
		error = lfs_relog(fs, sp, &relogged);
	sp->sg_end = 1;
	lfs_writeseg(fs, sp, LFS_PSEG_LAST);
	sp->sg_dataonly = 0;
	if (flags & SEGM_TXN)
		txn_group_issued(fs);	/* its locks go now (early release) */
	lfs_drain(fs, 1);
	if (error == 0 && (flags & SEGM_CKP)) {
		fs->lfs_ckpsb.dlfs_clean = (flags & SEGM_UNMOUNT) != 0 &&
		    relogged == 0;
		error = lfs_writesuper(fs, &fs->lfs_ckpsb);
		fs->lfs_stats.ckps++;
		fs->lfs_lastckp = lfs_time();
		if (error == 0)
			fs->lfs_unnamed = 0;
	}
	sp->sg_dirop = 0;
	sp->sg_vps = NULL;
	lfs_usehead(fs, 0);
	/*
	 * Let the vnodes go before the lock: an unlinked file whose last
	 * reference was the writer's is freed now, so a sync that waited
	 * for this write finds its space free (statfs after sync).
	 */
	lfs_vunref(vps1, n1);
	if (vps2 != NULL)
		lfs_vunref(vps2, n2);
	lfs_segunlock(fs);
	/* The log went where roll-forward cannot follow (lfs_newseg). */
	if (error == 0 && fs->lfs_unnamed && !(flags & SEGM_CKP))
		return lfs_segwrite_vnodes(mp, SEGM_CKP | SEGM_SYNC |
		    SEGM_RESERVE, NULL, 0);
	if (error)
		printf("lfs: %s: segment write: error %d\n",
		    fs->lfs_ump->um_fspec, error);
	return error;
}
