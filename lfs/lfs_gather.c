/*
 * Gathering a file into the partial segment (thesis 6.3.1; 4.4BSD
 * lfs_gather, lfs_updatemeta, lfs_writeinode): its dirty data blocks in
 * lbn order, then its indirect blocks level by level, each block given
 * the next address of the partial segment as it is gathered, so that its
 * parent, gathered later, points to it (lfs_updatemeta); then its inode
 * into an inode block (lfs_writeinode).  The writer changes indirect
 * blocks it may already hold: lfs_redirty marks them to be written again
 * if their copy has left.
 *
 * A forced write may carry only a file's data blocks (lfs_dataonly,
 * lfs_writedata), when roll-forward can put them back from the summary
 * alone; the inode and indirect blocks wait for a later write.
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

/*
 * A vnode that joined a directory operation while pass 1 was writing
 * it: what the dirop changes must go in pass 2, so pass 1 stops there.
 */
#define LFS_LATEDIROP(sp, vp)	(!(sp)->sg_dirop && !(sp)->sg_ifile && \
	((vp)->v_flag & VDIROP))

/*
 * The indirect block plbn of vp, busy, for lfs_updatemeta to change a
 * pointer in; nonzero if it is gone.  Reading it may sleep, and a
 * truncation meanwhile may free it: the stale copy read back from disk
 * must not come to life (its pointer moved to a block nothing names, the
 * block's bytes counted live in a segment forever).
 */
static int
lfs_getparent(struct vnode *vp, daddr_t plbn, struct buf **bpp)
{
	daddr_t before, after;

	if (ufs_bmaparray(vp, plbn, &before, NULL) != 0)
		return EIO;
	if (before == -1 && incore(vp, plbn) == NULL)
		return ENOENT;	/* a hole: a truncation freed it */
	if (ufs_getindir(vp, plbn, before, bpp) != 0)
		return EIO;
	if (ufs_bmaparray(vp, plbn, &after, NULL) == 0 && after == before)
		return 0;
	if (!((*bpp)->b_flags & B_DELWRI))
		(*bpp)->b_flags |= B_INVAL;	/* a copy of a freed block */
	brelse(*bpp);
	return ENOENT;
}

/*
 * Block lbn of ip now lives at daddr: point its parent (the inode or an
 * indirect block) there, and move its live bytes to the new segment.
 * A pointer already 0, or a parent gone, means the block was truncated
 * meanwhile: it is written, dead.  The new segment is credited before
 * any pointer names daddr (lfs_seguse_add may sleep): a truncation that
 * frees the block from there finds its bytes there.
 */
static void
lfs_updatemeta(struct lfs *fs, struct inode *ip, daddr_t lbn, u_int32_t daddr)
{
	struct ufsmount *ump = ip->i_ump;
	struct vnode *vp = ITOV(ip);
	int32_t bsize = ump->um_bsize, old, *ptr;
	struct indir a[NIADDR + 2];
	struct buf *bp;
	daddr_t plbn;
	int num, ours;

	LFS_ASSERT_SEGLOCK(fs);
	if (ufs_getlbns(ump, lbn, a, &num) != 0)
		return;
	lfs_seguse_add(fs, daddr, bsize);
	if (num <= 1) {
		ptr = num == 0 ? &ip->i_db[lbn] : &ip->i_ib[a[0].in_off];
		if ((old = *ptr) != 0) {
			*ptr = daddr;
			ip->i_flag |= IN_MODIFIED;
		}
	} else {
		plbn = a[num - 1].in_lbn;
		bp = incore(vp, plbn);
		ours = bp != NULL && (bp->b_flags & B_GATHERED);
		old = 0;
		if (ours || lfs_getparent(vp, plbn, &bp) == 0) {
			ptr = &((int32_t *)bp->b_data)[a[num - 1].in_off];
			if ((old = *ptr) != 0)
				*ptr = daddr;
			if (ours) {
				if (old != 0)
					lfs_redirty(fs, bp);
			} else if (old != 0)
				lfs_bwrite(bp);
			else
				brelse(bp);
		}
	}
	if (old == 0)
		lfs_seguse_add(fs, daddr, -bsize);	/* dead: nothing names it */
	else if (old > 0)
		lfs_seguse_add(fs, old, -bsize);
}

/* Which indirect level lbn (< 0) is: 0 single, 1 double, 2 triple. */
static int
lfs_level(struct ufsmount *ump, daddr_t lbn)
{
	struct indir a[NIADDR + 2];
	int num;

	if (lbn >= 0 || ufs_getlbns(ump, lbn, a, &num) != 0)
		return LFS_DATA;
	return a[0].in_off - (num - 1);
}

static void
lfs_sortlbns(daddr_t *v, int n)
{
	int gap, i, j;

	for (gap = n / 2; gap > 0; gap /= 2)
		for (i = gap; i < n; i++)
			for (j = i - gap; j >= 0 && v[j] > v[j + gap]; j -= gap) {
				daddr_t t = v[j];

				v[j] = v[j + gap];
				v[j + gap] = t;
			}
}

/* Is bp a dirty LFS buffer the writer may take now? */
int
lfs_cantake(struct buf *bp)
{
	/* B_TXN: a running transaction's, until it commits (NO-STEAL);
	 * pinned: a pre-committed one's, until its group's write */
	return !(bp->b_flags & (B_BUSY | B_GATHERED | B_TXN)) &&
	    !txn_page_pinned(bp) &&
	    (bp->b_flags & (B_DELWRI | B_LOCKED)) == (B_DELWRI | B_LOCKED);
}

static struct buf *
lfs_takeable(struct vnode *vp, daddr_t lbn)
{
	struct buf *bp = incore(vp, lbn);

	return bp != NULL && lfs_cantake(bp) ? bp : NULL;
}

/* Gather the dirty blocks of ip of one kind (data or an indirect level). */
int
lfs_gather(struct lfs *fs, struct segment *sp, struct inode *ip, int level)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct vnode *vp = ITOV(ip);
	struct buf *bp;
	daddr_t *lbns;
	int n = 0, i, error = 0, s;

	LFS_ASSERT_SEGLOCK(fs);
	s = splbio();
	LIST_FOREACH(bp, &vp->v_dirtyblkhd, b_vnbufs)
		n++;
	splx(s);
	if (n == 0)
		return 0;
	lbns = malloc(n * sizeof(*lbns), M_WAITOK);
	n = 0;
	s = splbio();
	LIST_FOREACH(bp, &vp->v_dirtyblkhd, b_vnbufs) {
		if (!lfs_cantake(bp))
			continue;
		if (lfs_level(ip->i_ump, bp->b_lblkno) != level)
			continue;
		if (sp->sg_cleancopy &&
		    !(bp->b_flags & (B_CLEANCOPY | B_REWRITE)))
			continue;
		/* A copy lfs_markv is gathering goes to the cold head, with
		 * its age: not with whatever write comes first. */
		if ((bp->b_flags & B_CLEANCOPY) && fs->lfs_marking > 0 &&
		    !(sp->sg_flags & SEGM_CLEAN))
			continue;
		/* A commit writes its own pages; those the log has the last
		 * committed bytes of wait for a later write (lfs_txndelta.c). */
		if ((sp->sg_flags & SEGM_TXN) && txn_page_logged(bp))
			continue;
		/* A forced write leaves a block it logs, or the log has
		 * all of (lfs_delta.c), for a later write. */
		if (sp->sg_dataonly && ((bp->b_flags & B_DELTAPLAN) ||
		    lfs_alllogged(bp)))
			continue;
		lbns[n++] = level == LFS_DATA ? bp->b_lblkno : -bp->b_lblkno;
	}
	splx(s);
	lfs_sortlbns(lbns, n);
	sp->sg_ip = ip;
	for (i = 0; i < n && error == 0; i++) {
		daddr_t lbn = level == LFS_DATA ? lbns[i] : -lbns[i];
		u_int32_t daddr;
		int sum = sp->sg_fip == NULL ? FINFOSIZE + 4 : 4;

		if (lfs_takeable(vp, lbn) == NULL)
			continue;
		if (LFS_LATEDIROP(sp, vp))
			break;
		if ((error = lfs_needroom(fs, sp, 1, sum, 1)) != 0)
			break;
		if ((bp = lfs_takeable(vp, lbn)) == NULL)
			continue;	/* gone while the writer slept */
		bremfree(bp);
		txn_page_written(bp);	/* its copy has what the log held */
		if (sp->sg_cleancopy && !(bp->b_flags & B_CLEANCOPY))
			fs->lfs_stats.blocks_cold++;
		/* and the disk's; and it is no rewrite once written */
		bp->b_flags &= ~(B_DELTAOK | B_LOGGED | B_REWRITE);
		if (bp->b_flags & B_CLEANCOPY) {
			fs->lfs_stats.blocks_moved++;
			/* Indirect blocks follow their inodes to the hot
			 * head (lfs_writecold); data should not. */
			if (!sp->sg_cleancopy && level == LFS_DATA)
				fs->lfs_stats.blocks_moved_hot++;
		}
		bp->b_flags &= ~B_CLEANCOPY;
		bp->b_flags |= B_BUSY | B_GATHERED;
		if (TXN_PROTECTED(vp))
			txn_taken(bp);
		if (sp->sg_fip == NULL) {
			sp->sg_fip = (FINFO *)(sp->sg_sum + sp->sg_sumused);
			sp->sg_fip->fi_ino = ip->i_number;
			sp->sg_fip->fi_version = ip->i_gen;
			sp->sg_sumused += FINFOSIZE;
		}
		sp->sg_fip->fi_blocks[sp->sg_fip->fi_nblocks++] = lbn;
		sp->sg_sumused += 4;
		sp->sg_ngathered++;
		daddr = sp->sg_start + 1 + sp->sg_nbufs;
		sp->sg_bufs[sp->sg_nbufs++] = bp;
		bp->b_blkno = lfs_fsbtodb(d, daddr);
		lfs_updatemeta(fs, ip, lbn, daddr);
	}
	free(lbns);
	return error;
}

/* ip's inode into the partial segment's inode blocks. */
static int
lfs_writeinode(struct lfs *fs, struct segment *sp, struct inode *ip)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct dinode *dp;
	int ftype = ip->i_mode & IFMT, i, error;

	LFS_ASSERT_SEGLOCK(fs);
	if (ip->i_mode == 0 && ip->i_number != LFS_IFILE_INUM) {
		/* Even one written data-only: else it stays dirty, and held. */
		ip->i_flag &= ~(IN_ACCESS | IN_CHANGE | IN_UPDATE | IN_MODIFIED |
		    IN_DATAONLY);
		return 0;		/* freed: its map entry says so */
	}
	ufs_itimes(ip);
	/*
	 * Written already into this partial segment: the same slot again.
	 * A second copy in the same inode block would leave two, and
	 * lfs_readdin takes the first one it finds.
	 */
	for (dp = NULL, i = 0; i < sp->sg_ninos && dp == NULL; i++) {
		dp = lfs_inoslot(fs, sp, i);
		if (dp->di_inumber != ip->i_number)
			dp = NULL;
	}
	if (dp == NULL) {
		if (sp->sg_ninos == sp->sg_niblks * (int)d->dlfs_inopb) {
			if ((error = lfs_needroom(fs, sp, 0, 0, 1)) != 0)
				return error;
			sp->sg_iblks[sp->sg_niblks++] = malloc(d->dlfs_bsize,
			    M_WAITOK | M_ZERO);
		}
		dp = lfs_inoslot(fs, sp, sp->sg_ninos);
		sp->sg_ninos++;
	}
	*dp = ip->i_din;
	dp->di_inumber = ip->i_number;
	if (TXN_PROTECTED(ITOV(ip)))
		txn_diskinode(ip, dp);	/* the size before a running txn */
	/* Blocks still only in the cache have no address on disk yet. */
	if (ftype == IFREG || ftype == IFDIR || (ftype == IFLNK &&
	    ip->i_blocks > 0)) {
		for (i = 0; i < NDADDR; i++)
			if (dp->di_db[i] < 0)
				dp->di_db[i] = 0;
		for (i = 0; i < NIADDR; i++)
			if (dp->di_ib[i] < 0)
				dp->di_ib[i] = 0;
	}
	ip->i_dsize = dp->di_size;
	ip->i_flag &= ~(IN_ACCESS | IN_CHANGE | IN_UPDATE | IN_MODIFIED |
	    IN_DATAONLY);
	return 0;
}

/*
 * May a forced write carry only ip's data blocks?  Roll-forward must be
 * able to put them back from the summary alone: the inode is on the
 * disk, not truncated since, and its size there grows to the new one by
 * the last block written (FINFO's fi_lastlength); every indirect block
 * on their paths is on the disk (none is made at roll-forward).
 */
int
lfs_dataonly(struct lfs *fs, struct segment *sp, struct vnode *vp)
{
	struct inode *ip = VTOI(vp);
	daddr_t last, addr;
	struct buf *bp;
	int ok = 1, s;

	if (!(sp->sg_flags & SEGM_DATAONLY) || sp->sg_dirop || sp->sg_ifile ||
	    vp->v_type != VREG || (vp->v_flag & (VDIROP | VSYSTEM)) ||
	    ip->i_nlink <= 0 || ip->i_dsize < 0 ||
	    ip->i_size < (u_int64_t)ip->i_dsize)
		return 0;
	/* (A commit's growth of a file is in the log: a FINFO's or a DELTA's.) */
	last = ip->i_size == 0 ? 0 : (ip->i_size - 1) >> fs->lfs_dlfs.dlfs_bshift;
	if (ip->i_size > (u_int64_t)ip->i_dsize && lfs_takeable(vp, last) == NULL &&
	    !((sp->sg_flags & SEGM_TXN) && TXN_PROTECTED(vp)))
		return 0;
	s = splbio();
	LIST_FOREACH(bp, &vp->v_dirtyblkhd, b_vnbufs)
		if (bp->b_lblkno < 0 && (ufs_bmaparray(vp, bp->b_lblkno, &addr,
		    NULL) != 0 || addr == -1)) {
			ok = 0;		/* a new indirect block */
			break;
		}
	splx(s);
	return ok;
}

/* Write only the data blocks of a file lfs_dataonly allows. */
int
lfs_writedata(struct lfs *fs, struct segment *sp, struct vnode *vp)
{
	struct inode *ip = VTOI(vp);
	int n = sp->sg_ngathered, error;

	char *recs;
	int nrecs;

	sp->sg_dataonly = 1;
	/* Blocks the disk has, of which little changed: DELTAs, after. */
	nrecs = lfs_plandeltas(fs, vp, &recs);
	if ((error = lfs_gather(fs, sp, ip, LFS_DATA)) == 0 && sp->sg_open)
		lfs_endfinfo(fs, sp);
	if (sp->sg_ngathered != n) {
		ip->i_flag |= IN_DATAONLY;
		fs->lfs_stats.files_dataonly++;
	}
	if (nrecs > 0) {
		if (error == 0)
			error = lfs_putdeltas(fs, sp, recs, nrecs);
		free(recs);
		lfs_planned(vp, error);
	}
	return error;
}

/* Write one file: data blocks, indirect blocks by level, the inode. */
int
lfs_writefile(struct lfs *fs, struct segment *sp, struct vnode *vp)
{
	struct inode *ip = VTOI(vp);
	int level, error = 0;

	if (!LIST_EMPTY(&vp->v_dirtyblkhd)) {
		error = lfs_gather(fs, sp, ip, LFS_DATA);
		for (level = 0; level < NIADDR && error == 0; level++)
			error = lfs_gather(fs, sp, ip, level);
		if (sp->sg_open)
			lfs_endfinfo(fs, sp);
	}
	if (LFS_LATEDIROP(sp, vp))
		return error;		/* the rest waits for pass 2 */
	if (error == 0)
		error = lfs_needroom(fs, sp, 0, 0, 0);
	if (error == 0)
		error = lfs_writeinode(fs, sp, ip);
	return error;
}
