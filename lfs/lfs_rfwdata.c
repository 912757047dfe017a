/*
 * Roll-forward, its second half: the blocks of forced writes that carried
 * no inode (thesis 6.2.4; lfs_rfw.c has the first half and the whole
 * story).  Once the ifile and the inodes are in place and the file
 * system can read files, lfs_rfw_blocks walks the accepted partial
 * segments again: each file whose newest inode is older than an
 * SS_DATAONLY partial segment is pointed at its blocks there and grows to
 * the size they give (lfs_rfw_finfo, lfs_rfw_setblk), and the DELTAs of
 * kernel commits and of fsyncs (lfs_delta.c) are written into the blocks
 * they name unless the block there is newer (lfs_rfw_delta).  The checkpoint the mount writes next
 * puts the changed inodes and indirect blocks on the disk.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/malloc.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"

/* The accepted partial segment that holds block daddr, or -1: older. */
static int
lfs_rfw_which(struct lfs_rfw *rf, u_int32_t daddr)
{
	int i;

	for (i = 0; i < rf->rf_naccept; i++)
		if (daddr > rf->rf_psegs[i].p_daddr &&
		    daddr <= rf->rf_psegs[i].p_daddr + rf->rf_psegs[i].p_nblocks)
			return i;
	return -1;
}

/* Drop the cached copy of block lbn of vp, if any: the disk's is newer. */
static void
lfs_rfw_uncache(struct lfs *fs, struct vnode *vp, daddr_t lbn)
{
	struct buf *bp;

	if (incore(vp, lbn) == NULL)
		return;
	bp = getblk(vp, lbn, fs->lfs_dlfs.dlfs_bsize);
	if (bp->b_flags & B_DELWRI)
		lfs_discard(fs, bp);
	else {
		bp->b_flags |= B_INVAL;
		brelse(bp);
	}
}

/*
 * Data block lbn of ip went to daddr in a forced write that left the
 * inode behind: point its parent there and move its live bytes.  Every
 * indirect block on its path was on the disk then (lfs_dataonly).
 */
static void
lfs_rfw_setblk(struct lfs *fs, struct inode *ip, daddr_t lbn, u_int32_t daddr)
{
	struct ufsmount *ump = ip->i_ump;
	int32_t bsize = ump->um_bsize, old, *ptr;
	struct indir a[NIADDR + 2];
	struct buf *bp = NULL;
	daddr_t paddr;
	int num;

	if (lbn < 0 || ufs_getlbns(ump, lbn, a, &num) != 0)
		return;
	if (num == 0)
		ptr = &ip->i_db[lbn];
	else {
		if (ufs_bmaparray(ITOV(ip), a[num - 1].in_lbn, &paddr,
		    NULL) != 0 || paddr <= 0 ||
		    ufs_getindir(ITOV(ip), a[num - 1].in_lbn, paddr, &bp) != 0) {
			printf("lfs: roll-forward: inode %u block %ld has no "
			    "indirect block\n", (unsigned)ip->i_number,
			    (long)lbn);
			return;
		}
		ptr = &((int32_t *)bp->b_data)[a[num - 1].in_off];
	}
	old = *ptr;
	if (old == (int32_t)daddr) {
		if (bp != NULL)
			brelse(bp);
		return;
	}
	lfs_rfw_uncache(fs, ITOV(ip), lbn);	/* DELTAs applied to the old */
	lfs_seguse_add(fs, daddr, bsize);	/* credit, then debit */
	*ptr = daddr;
	if (old > 0)
		lfs_seguse_add(fs, old, -bsize);
	else if (old == 0)
		ip->i_blocks += btodb(bsize);
	if (bp != NULL)
		lfs_bwrite(bp);
	ip->i_flag |= IN_MODIFIED;
	fs->lfs_stats.rfw_dataonly++;
}

/*
 * Is ino, at this version, a file the map has?  0 if so, with *daddr the
 * block its inode is in; nonzero if freed or reused since (or no file).
 */
static int
lfs_rfw_file(struct lfs *fs, u_int32_t ino, u_int32_t version,
    u_int32_t *daddr)
{
	struct lfs_ifref r;
	IFILE *ifp;
	int gone;

	if (ino <= LFS_IFILE_INUM || ino >= fs->lfs_maxino ||
	    (ifp = LFS_IENTRY(fs, ino, &r)) == NULL)
		return ENOENT;
	*daddr = ifp->if_daddr;
	gone = *daddr == LFS_UNUSED_DADDR || ifp->if_version != version;
	lfs_ifput(fs, &r, 0);
	return gone ? ENOENT : 0;
}

/* Put back the blocks of one FINFO at b, if its file's inode is older. */
static void
lfs_rfw_finfo(struct lfs *fs, struct lfs_rfw *rf, int i, const FINFO *fip,
    u_int32_t b)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct vnode *vp;
	struct inode *ip;
	u_int32_t daddr, j;
	off_t size;

	/* Freed or reused since, or an inode as new as these blocks. */
	if (fip->fi_nblocks == 0 || lfs_rfw_file(fs, fip->fi_ino,
	    fip->fi_version, &daddr) != 0 || lfs_rfw_which(rf, daddr) >= i ||
	    lfs_vget(fs->lfs_ump->um_mountp, fip->fi_ino, &vp) != 0)
		return;
	ip = VTOI(vp);
	for (j = 0; j < fip->fi_nblocks; j++)
		lfs_rfw_setblk(fs, ip, fip->fi_blocks[j], b + j);
	j = fip->fi_nblocks - 1;
	size = ((off_t)fip->fi_blocks[j] << d->dlfs_bshift) +
	    fip->fi_lastlength;
	if (fip->fi_blocks[j] >= 0 && size > (off_t)ip->i_size) {
		ip->i_size = size;
		ip->i_flag |= IN_MODIFIED;
	}
	vrele(vp);
}

/*
 * A commit's or an fsync's DELTA dr, in accepted partial segment i: its bytes go into
 * the block it names, unless that block is as new as the DELTA (written
 * whole later, or at i), or gone (freed, the file freed or reused); the
 * file grows to the DELTA's size unless its inode is as new.  The block,
 * changed in the cache, goes to the disk with the checkpoint after.
 */
static void
lfs_rfw_delta(struct lfs *fs, struct lfs_rfw *rf, int i, const DELTA *dr)
{
	struct vnode *vp;
	struct inode *ip;
	struct buf *bp;
	u_int32_t daddr;
	daddr_t sector;

	if (dr->dr_lbn < 0 ||
	    lfs_rfw_file(fs, dr->dr_ino, dr->dr_version, &daddr) != 0 ||
	    lfs_vget(fs->lfs_ump->um_mountp, dr->dr_ino, &vp) != 0)
		return;
	ip = VTOI(vp);
	if (ufs_bmaparray(vp, dr->dr_lbn, &sector, NULL) != 0 || sector <= 0 ||
	    lfs_rfw_which(rf, lfs_dbtofsb(&fs->lfs_dlfs, sector)) >= i) {
		vrele(vp);
		return;
	}
	if (bread(vp, dr->dr_lbn, fs->lfs_dlfs.dlfs_bsize, &bp) != 0) {
		brelse(bp);
		vrele(vp);
		return;
	}
	memcpy(bp->b_data + dr->dr_off, dr + 1, dr->dr_len);
	lfs_bwrite(bp);
	fs->lfs_stats.rfw_deltas++;
	if (lfs_rfw_which(rf, daddr) < i && dr->dr_size > ip->i_size) {
		ip->i_size = dr->dr_size;
		ip->i_flag |= IN_MODIFIED;
	}
	vrele(vp);
}

/*
 * After lfs_rollforward, with the file system mounted read-write: the
 * SS_DATAONLY partial segments' blocks (see the top).  The checkpoint
 * that follows writes the inodes and indirect blocks changed here.
 */
int
lfs_rfw_blocks(struct lfs *fs, struct lfs_rfw *rf)
{
	struct dlfs *d = &fs->lfs_dlfs;
	u_int8_t *sum = malloc(d->dlfs_sumsize, M_WAITOK);
	const struct segsum *ss = (const struct segsum *)sum;
	const FINFO *fip;
	const DELTA *dr;
	struct buf *bp;
	u_int32_t b, k;
	int i, error = 0;

	for (i = 0; i < rf->rf_naccept && error == 0; i++) {
		if ((error = lfs_rfw_read(fs, rf->rf_psegs[i].p_daddr, 1,
		    &bp)) != 0)
			break;
		memcpy(sum, bp->b_data, d->dlfs_sumsize);
		lfs_rfw_done(bp);
		b = rf->rf_psegs[i].p_daddr + 1;
		fip = (const FINFO *)(sum + sizeof(struct segsum));
		for (k = 0; k < ss->ss_nfinfo && (ss->ss_flags & SS_DATAONLY);
		    k++) {
			lfs_rfw_finfo(fs, rf, i, fip, b);
			b += fip->fi_nblocks;
			fip = lfs_nextfinfo(fip);
		}
		dr = lfs_firstdelta(ss);
		for (k = 0; k < ss->ss_ndelta; k++, dr = lfs_nextdelta(dr))
			lfs_rfw_delta(fs, rf, i, dr);
	}
	free(sum);
	lfs_rfw_totals(fs);
	return error;
}
