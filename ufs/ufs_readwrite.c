/*
 * Reading and writing file data, shared by every layout (4.4BSD
 * ufs_readwrite.c).  Reads go block by block through the layout's
 * blkatoff, which knows the block's size and how to read ahead (FFS the
 * next block, EFS and LFS through cluster_read's adaptive window); it is
 * told how many blocks this read wants, so a read of a whole 8 KB page
 * comes in one transfer and its second block is not taken for the start
 * of a sequential run.
 * Writes get their block from the layout's balloc (which allocates disk
 * space, or for LFS reserves it), copy the data in, and hand the block
 * back through the layout's bwrite, saying whether it was filled: FFS
 * then starts it, EFS adds it to a cluster, LFS locks it in the cache
 * for the segment writer either way.  The buffer also says which bytes
 * writes changed since the block was last as the disk has it (LFS's
 * fsync may log just those).
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/uio.h"
#include "kern/proc.h"
#include "ufs/inode.h"

int
ufs_read(struct vnode *vp, struct uio *uio, int ioflag, struct ucred *cred)
{
	struct inode *ip = VTOI(vp);
	struct ufsmount *ump = ip->i_ump;
	int bsize = ump->um_bsize, error = 0, nblks;
	struct buf *bp;
	char *res;

	if (uio->uio_offset < 0)
		return EINVAL;
	if ((error = vn_lock_live(vp)) != 0)
		return error;
	while (uio->uio_resid > 0) {
		off_t left = (off_t)ip->i_size - uio->uio_offset;
		int on = uio->uio_offset & (bsize - 1), n;

		if (left <= 0)
			break;
		n = MIN(MIN(bsize - on, uio->uio_resid), left);
		/* the blocks this read will take from here on: read-ahead
		 * knows them for what they are, not for a sequential run */
		nblks = (int)((on + MIN((off_t)uio->uio_resid, left) +
		    bsize - 1) >> ump->um_bshift);
		error = UFS_BLKATOFF(ip, uio->uio_offset, nblks, &res, &bp);
		if (error != 0)
			break;
		error = uiomove(res, n, uio);
		brelse(bp);
		if (error)
			break;
	}
	if (!(vp->v_mount->mnt_flag & MNT_RDONLY))
		ip->i_flag |= IN_ACCESS;
	VOP_UNLOCK(vp);
	return error;
}

/* Bytes off..end of bp were written: the range since it was clean grows. */
static void
ufs_dirtyrange(struct buf *bp, int off, int end)
{
	if (!(bp->b_flags & B_DELWRI) || bp->b_dirtyend <= bp->b_dirtyoff) {
		bp->b_dirtyoff = off;
		bp->b_dirtyend = end;
		return;
	}
	bp->b_dirtyoff = MIN(bp->b_dirtyoff, off);
	bp->b_dirtyend = MAX(bp->b_dirtyend, end);
}

int
ufs_write(struct vnode *vp, struct uio *uio, int ioflag, struct ucred *cred)
{
	struct inode *ip = VTOI(vp);
	struct ufsmount *ump = ip->i_ump;
	int bsize = ump->um_bsize, error = 0, resid = uio->uio_resid;
	off_t osize, datasize;
	struct buf *bp;

	if (vp->v_type != VREG && vp->v_type != VDIR && vp->v_type != VLNK)
		return EINVAL;
	if ((error = vn_lock_live(vp)) != 0)
		return error;
	if (ioflag & IO_APPEND)
		uio->uio_offset = ip->i_size;
	osize = datasize = ip->i_size;
	if (uio->uio_offset < 0) {
		error = EINVAL;
		goto out;
	}
	if (uio->uio_offset + uio->uio_resid > ump->um_maxfilesize) {
		error = EFBIG;
		goto out;
	}
	while (uio->uio_resid > 0) {
		daddr_t lbn = uio->uio_offset >> ump->um_bshift;
		int on = uio->uio_offset & (bsize - 1);
		int n = MIN(bsize - on, uio->uio_resid);

		error = UFS_BALLOC(ip, lbn, on + n, cred,
		    n < bsize ? B_CLRBUF : 0, &bp);
		if (error)
			break;
		error = uiomove(bp->b_data + on, n, uio);
		if (error) {
			/*
			 * balloc sized the block for on + n bytes: the
			 * truncate below must see it at that size to free
			 * all of it (it sizes blocks by i_size).
			 */
			off_t end = ((off_t)lbn << ump->um_bshift) + on + n;

			if (end > (off_t)ip->i_size)
				ip->i_size = end;
			brelse(bp);
			break;
		}
		/* The size grows only by data that arrived (not on EFAULT). */
		if (uio->uio_offset > (off_t)ip->i_size)
			ip->i_size = uio->uio_offset;
		datasize = ip->i_size;
		ufs_dirtyrange(bp, on, on + n);
		error = UFS_BWRITE(ip, bp, (ioflag & IO_SYNC) ? UFS_WSYNC :
		    on + n == bsize ? UFS_WFULL : UFS_WDELAY);
		ip->i_flag |= IN_CHANGE | IN_UPDATE;
		if (error)
			break;
	}
	/* Writing by someone other than root clears set-id bits. */
	if (resid > uio->uio_resid && cred && cred->cr_uid != 0)
		ip->i_mode &= ~(ISUID | ISGID);
	if (error && (ioflag & IO_UNIT)) {
		/* All or nothing (write(2)): undo this write's growth. */
		UFS_TRUNCATE(ip, osize, cred);
		uio->uio_offset -= resid - uio->uio_resid;
		uio->uio_resid = resid;
	} else if (error) {
		/* Free any block allocated past the end for data that never
		 * came; what did arrive stays, and counts as written. */
		UFS_TRUNCATE(ip, datasize, cred);
		if (resid > uio->uio_resid)
			error = 0;
	} else if (resid > uio->uio_resid && (ioflag & IO_SYNC))
		error = UFS_UPDATE(ip, 1);
out:
	VOP_UNLOCK(vp);
	return error;
}
