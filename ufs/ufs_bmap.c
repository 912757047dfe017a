/*
 * bmap: logical block of a file to disk address (4.4BSD ufs_bmap.c).
 *
 * Blocks 0..NDADDR-1 are addressed from the inode.  Beyond them, a file
 * block is reached through a path of indirect blocks; ufs_getlbns
 * computes that path.  Indirect blocks have logical block numbers of
 * their own, negative so they never collide with data (thesis 6.3.1.2):
 * the single indirect block is -NDADDR, the double -(NDADDR + NINDIR + 1),
 * and each block below a double or triple indirect block is numbered by
 * the same rule.  LFS needs these names to find indirect blocks in the
 * cache and to write them to the log like any other block.
 *
 * A pointer of 0 is a hole; a layout may keep one more value (the
 * mount's um_unassigned: LFS's -1) in the pointer of a block that exists
 * only in the cache so far, which has no disk address either.
 *
 * bmap also returns how many blocks after bn follow contiguously on the
 * disk (the run), which clustering (EFS) and LFS reads use.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "ufs/inode.h"

int
ufs_getlbns(struct ufsmount *ump, daddr_t bn, struct indir *ap, int *nump)
{
	long metalbn, realbn = bn, blockcnt;
	int i, numlevels = 0, off;

	*nump = 0;
	if (bn < 0)
		bn = -bn;
	if (bn < NDADDR)
		return 0;
	/* How many levels of indirection, and where in that range? */
	for (blockcnt = 1, i = NIADDR, bn -= NDADDR;; i--, bn -= blockcnt) {
		if (i == 0)
			return EFBIG;
		blockcnt *= ump->um_nindir;
		if (bn < blockcnt)
			break;
	}
	/* The logical block number of the top indirect block. */
	if (realbn >= 0)
		metalbn = -(realbn - bn + NIADDR - i);
	else
		metalbn = -(-realbn - bn + NIADDR - i);
	ap->in_lbn = metalbn;
	ap->in_off = off = NIADDR - i;		/* index into di_ib */
	ap++;
	for (++numlevels; i <= NIADDR; i++) {
		if (metalbn == realbn)		/* asked for a meta block */
			break;
		blockcnt /= ump->um_nindir;
		off = (bn / blockcnt) % ump->um_nindir;
		++numlevels;
		ap->in_lbn = metalbn;
		ap->in_off = off;
		++ap;
		metalbn -= -1 + off * blockcnt;
	}
	*nump = numlevels;
	return 0;
}

/*
 * Indirect block lbn (negative) of vp, whose disk address is blkno
 * (sectors): found in the cache under the file's vnode, or read.
 * Caching indirect blocks under the file, not the device, is what lets
 * a pointer balloc just set, and not yet written, be seen by bmap.
 */
int
ufs_getindir(struct vnode *vp, daddr_t lbn, daddr_t blkno, struct buf **bpp)
{
	struct buf *bp = getblk(vp, lbn, VTOI(vp)->i_ump->um_bsize);
	int error;

	*bpp = bp;
	if (bp->b_flags & (B_DONE | B_DELWRI))
		return 0;
	if (blkno < 0) {		/* um_unassigned, yet not cached */
		printf("ufs: indirect block %ld of inode %u is lost\n",
		    (long)lbn, (unsigned)VTOI(vp)->i_number);
		bp->b_flags |= B_INVAL;
		brelse(bp);
		*bpp = NULL;
		return EIO;
	}
	bp->b_blkno = blkno;
	bp->b_flags |= B_READ;
	bp->b_flags &= ~(B_ERROR | B_INVAL);
	VOP_STRATEGY(bp);
	if ((error = biowait(bp)) != 0) {
		brelse(bp);
		*bpp = NULL;
	}
	return error;
}

/*
 * Is daddr, a block pointer read from the disk, outside the file
 * system?  A damaged disk must give EIO, never a wild read, write or
 * cylinder-group index; the caller says so, and this reports it.  0 is
 * a hole, and the mount's um_unassigned a block not written yet.
 */
int
ufs_badbptr(struct inode *ip, daddr_t daddr)
{
	struct ufsmount *ump = ip->i_ump;

	if ((daddr >= 0 && daddr < ump->um_nbptr) ||
	    daddr == ump->um_unassigned)
		return 0;
	if (!(ip->i_flag & IN_DAMAGED)) {	/* once, not per read */
		ip->i_flag |= IN_DAMAGED;
		printf("%s: inode %u: block pointer %ld out of range\n",
		    ump->um_fspec, (unsigned)ip->i_number, (long)daddr);
	}
	return 1;
}

/* Is b the block after a in the disk's order? */
static int
is_sequential(struct ufsmount *ump, daddr_t a, daddr_t b)
{
	return b == a + ump->um_seqinc;
}

/*
 * The sector address of logical block bn of vp in *bnp (-1 for a hole),
 * and in *runp (if asked) the number of blocks after it that follow it
 * contiguously, up to one transfer's worth.
 */
int
ufs_bmaparray(struct vnode *vp, daddr_t bn, daddr_t *bnp, int *runp)
{
	struct inode *ip = VTOI(vp);
	struct ufsmount *ump = ip->i_ump;
	struct indir a[NIADDR + 1];
	struct buf *bp;
	daddr_t daddr;
	int error, num, maxrun = 0, k;

	if (runp) {
		maxrun = MAXPHYS / ump->um_bsize - 1;
		*runp = 0;
	}
	if ((error = ufs_getlbns(ump, bn, a, &num)) != 0)
		return error;
	if (num == 0) {
		daddr = ip->i_db[bn];
		if (ufs_badbptr(ip, daddr))
			return EIO;
		*bnp = daddr > 0 ? (daddr << ump->um_bptrtodb) : -1;
		if (daddr > 0 && runp)
			for (++bn; bn < NDADDR && *runp < maxrun &&
			    is_sequential(ump, ip->i_db[bn - 1], ip->i_db[bn]);
			    ++bn, ++*runp)
				continue;
		return 0;
	}
	daddr = ip->i_ib[a[0].in_off];
	for (k = 1; k < num && daddr != 0; k++) {
		int32_t *bap;

		if (ufs_badbptr(ip, daddr))
			return EIO;
		error = ufs_getindir(vp, a[k].in_lbn,
		    daddr << ump->um_bptrtodb, &bp);
		if (error)
			return error;
		bap = (int32_t *)bp->b_data;
		daddr = bap[a[k].in_off];
		if (k == num - 1 && daddr > 0 && runp)
			for (bn = a[k].in_off + 1; bn < ump->um_nindir &&
			    *runp < maxrun &&
			    is_sequential(ump, bap[bn - 1], bap[bn]);
			    ++bn, ++*runp)
				continue;
		brelse(bp);
	}
	if (ufs_badbptr(ip, daddr))
		return EIO;
	*bnp = daddr > 0 ? (daddr << ump->um_bptrtodb) : -1;
	return 0;
}

int
ufs_bmap(struct vnode *vp, daddr_t bn, struct vnode **vpp, daddr_t *bnp,
    int *runp)
{
	if (vpp)
		*vpp = VTOI(vp)->i_ump->um_devvp;
	if (bnp == NULL)
		return 0;
	return ufs_bmaparray(vp, bn, bnp, runp);
}
