/*
 * lfs_balloc: the buffer for logical block lbn of a file being written
 * (4.4BSD lfs_balloc.c).  Unlike ffs_balloc it chooses no disk address:
 * where a block goes is decided when the segment writer writes it.  A
 * block new to the file (and any indirect block missing on its path)
 * gets the pointer LFS_UNASSIGNED and is charged to dlfs_bfree now, as
 * it enters the cache (thesis 6.2.2); that charge is what lets the
 * file system refuse, with ENOSPC, a write it could not keep.
 *
 * For a regular file the LOCKED-queue thresholds are checked first,
 * before any buffer is held, and the writer may wait there for space.
 * Directories, symbolic links and the ifile are written only inside
 * directory operations, which reserved their space when they began.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/proc.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"
#include "lfs/lfs_txn.h"

#define clrbuf(bp)	memset((bp)->b_data, 0, (bp)->b_bcount)

/* How many blocks writing lbn (path a[0..num-1]) adds to the file. */
static int
lfs_newblocks(struct inode *ip, daddr_t lbn, struct indir *a, int num,
    int *need)
{
	struct vnode *vp = ITOV(ip);
	struct buf *bp;
	int32_t daddr;
	int k, error;

	*need = 0;
	if (num == 0) {
		*need = ip->i_db[lbn] == 0;
		return 0;
	}
	daddr = ip->i_ib[a[0].in_off];
	for (k = 1; k < num; k++) {
		if (daddr == 0) {
			*need = num - k + 1;	/* indirect blocks k.., data */
			return 0;
		}
		error = ufs_getindir(vp, a[k].in_lbn,
		    (daddr_t)daddr << ip->i_ump->um_bptrtodb, &bp);
		if (error)
			return error;
		daddr = ((int32_t *)bp->b_data)[a[k].in_off];
		brelse(bp);
	}
	*need = daddr == 0;
	return 0;
}

/* A new block of the file: counted in i_blocks, named UNASSIGNED. */
static void
lfs_newptr(struct inode *ip, int32_t *ptr, int *used)
{
	*ptr = LFS_UNASSIGNED;
	ip->i_blocks += btodb(ip->i_ump->um_bsize);
	ip->i_flag |= IN_CHANGE | IN_UPDATE;
	(*used)++;
}

int
lfs_balloc(struct inode *ip, daddr_t lbn, int size, struct ucred *cred,
    int flags, struct buf **bpp)
{
	struct lfs *fs = ITOLFS(ip);
	struct vnode *vp = ITOV(ip);
	int bsize = ip->i_ump->um_bsize;
	int user = vp->v_type == VREG && !(vp->v_flag & VSYSTEM);
	struct indir a[NIADDR + 2];
	struct buf *bp, *parent = NULL;
	int num, k, need, used = 0, error, isnew;
	int32_t *ptr;

	*bpp = NULL;
	if (lbn < 0)
		return EFBIG;
	if (user)
		lfs_check(vp);
	if ((error = ufs_getlbns(ip->i_ump, lbn, a, &num)) != 0)
		return error;
	if ((error = lfs_newblocks(ip, lbn, a, num, &need)) != 0)
		return error;
	/* A protected file's page: its transaction's locks first. */
	if (TXN_PROTECTED(vp) && (error = txn_write_page(ip, lbn,
	    ((off_t)lbn << ip->i_ump->um_bshift) + size, need)) != 0)
		return error;
	if ((need > 0 || user) &&
	    (error = lfs_reserve(fs, need, MAX(need, 1), cred, user)) != 0)
		return error;

	/* Down the path of indirect blocks, making the missing ones. */
	ptr = num == 0 ? &ip->i_db[lbn] : &ip->i_ib[a[0].in_off];
	for (k = 1; k < num; k++) {
		struct buf *ibp;

		if (*ptr == 0) {
			lfs_newptr(ip, ptr, &used);
			ibp = getblk(vp, a[k].in_lbn, bsize);
			clrbuf(ibp);
			ibp->b_flags |= B_DONE;
			if (parent != NULL)
				lfs_bwrite(parent);
		} else {
			error = ufs_getindir(vp, a[k].in_lbn,
			    (daddr_t)*ptr << ip->i_ump->um_bptrtodb, &ibp);
			if (parent != NULL)
				brelse(parent);
			if (error)
				goto out;
		}
		parent = ibp;
		ptr = &((int32_t *)ibp->b_data)[a[k].in_off];
	}

	/* The data block. */
	isnew = *ptr == 0;
	if (isnew)
		lfs_newptr(ip, ptr, &used);
	if (parent != NULL) {
		if (isnew)
			lfs_bwrite(parent);
		else
			brelse(parent);
	}
	if (isnew && TXN_PROTECTED(vp))
		txn_created(ip, lbn);
	for (;;) {
		if (isnew) {
			bp = getblk(vp, lbn, bsize);
			if (flags & B_CLRBUF)
				clrbuf(bp);
		} else if (flags & B_CLRBUF) {
			if ((error = bread(vp, lbn, bsize, &bp)) != 0) {
				brelse(bp);
				goto out;
			}
		} else
			bp = getblk(vp, lbn, bsize);
		/* A block rewritten lives about as long as one the cleaner
		 * moves: it goes to the cold head (lfs_writecold). */
		if (!isnew && user)
			bp->b_flags |= B_REWRITE;
		/* A transaction keeps a copy of a page it changes (a DELTA
		 * commit's, an abort's: lfs_txndelta.c). */
		if (isnew || !TXN_PROTECTED(vp) || txn_page_keep(bp) == 0)
			break;
		/*
		 * Committed data of a protected file neither on the disk nor
		 * in the log (the cleaner's copy, a truncation's zeroes): it
		 * goes to the disk before a transaction changes it.  A copy
		 * lfs_markv is gathering goes with the cleaner's own write,
		 * which no other write takes it from: wait for that one, or
		 * this loop would write the inode again and again meanwhile.
		 */
		if ((bp->b_flags & B_CLEANCOPY) && fs->lfs_marking > 0) {
			brelse(bp);
			tsleep(&fs->lfs_marking, 0, "lfsmarkv", 0);
			continue;
		}
		brelse(bp);
		if ((error = lfs_segwrite_vnodes(vp->v_mount, SEGM_SYNC,
		    &vp, 1)) != 0)
			goto out;
	}
	*bpp = bp;
out:
	/* Others may have made some of these blocks meanwhile. */
	if (used < need)
		lfs_unreserve(fs, need - used);
	else if (used > need)
		fs->lfs_dlfs.dlfs_bfree -= used - need;
	return error;
}
