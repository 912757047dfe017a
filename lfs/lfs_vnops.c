/*
 * LFS vnode operations (4.4BSD lfs_vnops.c): the shared UFS ones, with
 * LFS's answers to thesis table 6-8 behind them (lfs_ufsops), and the
 * directory operations of lfs_dirop.c, which bracket the UFS ones as
 * thesis 6.3.3 asks.  (In 4.4BSD-Lite2 those wrappers existed but were
 * never put in the table.)
 *
 * The ifile is read-only to everyone: it may be read (the cleaner does),
 * never written, truncated, removed or renamed.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/conf.h"
#include "kern/uio.h"
#include "kern/proc.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"
#include "lfs/lfs_txn.h"
#include <sys/stat.h>

/* A transaction-protected file is read and written in a transaction. */
static int
lfs_read(struct vnode *vp, struct uio *uio, int ioflag, struct ucred *cred)
{
	if (TXN_PROTECTED(vp))
		return txn_rdwr(vp, uio, ioflag, cred, UIO_READ);
	return ufs_read(vp, uio, ioflag, cred);
}

static int
lfs_write(struct vnode *vp, struct uio *uio, int ioflag, struct ucred *cred)
{
	int error;

	if (ISIFILE(vp))
		return EPERM;
	if (TXN_PROTECTED(vp))
		error = txn_rdwr(vp, uio, ioflag, cred, UIO_WRITE);
	else
		error = ufs_write(vp, uio, ioflag, cred);
	if (error == 0 && (ioflag & IO_SYNC))
		error = lfs_segwrite_vnodes(vp->v_mount, SEGM_SYNC, &vp, 1);
	return error;
}

/*
 * fsync writes the file it is given in a partial segment (with the
 * dirops it takes part in), not everything dirty: a database's log
 * force must not carry its data pages along.  Where it can, only the
 * file's data blocks (SEGM_DATAONLY, lfs_segment.c): its size and data
 * are durable when fsync returns, its times with its inode later.
 */
static int
lfs_fsync(struct vnode *vp, int waitfor)
{
	if (vp->v_mount->mnt_flag & MNT_RDONLY)
		return lfs_update(VTOI(vp), 0);
	return lfs_segwrite_vnodes(vp->v_mount, SEGM_SYNC | SEGM_DATAONLY,
	    &vp, 1);
}

/*
 * The ifile's attributes are the file system's.  Transaction protection
 * (UF_TXN) is LFS's to give, and a protected file's truncation is a
 * transaction (lfs_txnfile.c).
 */
static int
lfs_setattr(struct vnode *vp, struct vattr *va, struct ucred *cred)
{
	struct inode *ip = VTOI(vp);
	int error;

	if (ISIFILE(vp))
		return EPERM;
	if (va->va_flags != (u_int32_t)VNOVAL) {
		if (cred->cr_uid != 0 && cred->cr_uid != ip->i_uid)
			return EPERM;
		if ((va->va_flags & ~UF_TXN) == 0 &&
		    (error = txn_setflags(vp, va->va_flags)) != 0)
			return error;
	}
	if (va->va_size != (off_t)VNOVAL && TXN_PROTECTED(vp)) {
		if ((error = txn_truncate(vp, va->va_size, cred)) != 0)
			return error;
		va->va_size = VNOVAL;		/* done */
	}
	/* Attributes reach the disk with the inode: the next fsync's. */
	if (va->va_mode != (mode_t)VNOVAL || va->va_uid != (uid_t)VNOVAL ||
	    va->va_gid != (gid_t)VNOVAL || va->va_flags != (u_int32_t)VNOVAL ||
	    va->va_atime.tv_sec != VNOVAL || va->va_mtime.tv_sec != VNOVAL)
		ip->i_dsize = -1;
	return ufs_setattr(vp, va, cred);
}

/* The writes of a file system reach the disk only through the writer. */
static int
lfs_strategy(struct buf *bp)
{
	if (bp->b_flags & B_READ)
		return ufs_strategy(bp);
	printf("lfs: write of block %ld of inode %u outside the segment "
	    "writer refused\n", (long)bp->b_lblkno,
	    (unsigned)VTOI(bp->b_vp)->i_number);
	bp->b_error = EIO;
	bp->b_flags |= B_ERROR;
	biodone(bp);
	return EIO;
}

/*
 * blkatoff: the block holding byte offset of a file.  LFS has no
 * fragments (thesis 6.3.1.1), and reads regular files through
 * cluster_read, as EFS does: the segment writer lays a file's blocks
 * out in order.
 */
static int
lfs_blkatoff(struct inode *ip, off_t offset, int nblks, char **res,
    struct buf **bpp)
{
	struct vnode *vp = ITOV(ip);
	daddr_t lbn = offset >> ip->i_ump->um_bshift;
	int bsize = ip->i_ump->um_bsize, error;

	*bpp = NULL;
	if (TXN_PROTECTED(vp) && (error = txn_read_page(ip, lbn)) != 0)
		return error;		/* its page lock first (thesis 5.2.2) */
	if (vp->v_type == VREG)
		error = cluster_read(vp, ip->i_size, lbn, bsize, nblks, bpp);
	else
		error = bread(vp, lbn, bsize, bpp);
	return ufs_blkatoff_end(ip, offset, error, res, bpp);
}

/*
 * bwrite: every block waits, locked in the cache, for the segment
 * writer; a transaction's is kept there until it commits (NO-STEAL).
 * A plain file's data keeps what write(2) changed of it, which fsync may
 * log instead of the block (lfs_delta.c).
 */
static int
lfs_ufs_bwrite(struct inode *ip, struct buf *bp, int how)
{
	if (TXN_PROTECTED(ITOV(ip))) {
		txn_page_dirty(ip, bp);
		return lfs_bwrite(bp);
	}
	if (how != UFS_WSYNC && ITOV(ip)->v_type == VREG)
		return lfs_bwrite_data(bp);	/* from ufs_write */
	return lfs_bwrite(bp);
}

const struct ufs_ops lfs_ufsops = {
	.uo_blkatoff = lfs_blkatoff,
	.uo_valloc = lfs_valloc,
	.uo_vfree = lfs_vfree,
	.uo_truncate = lfs_truncate,
	.uo_update = lfs_update,
	.uo_bwrite = lfs_ufs_bwrite,
	.uo_vget = lfs_vget,
	.uo_balloc = lfs_balloc,
};

const struct vnodeops lfs_vnodeops = {
	.vop_name = "lfs",
	.vop_lookup = ufs_lookup,
	.vop_create = lfs_create,
	.vop_mknod = lfs_mknod,
	.vop_open = ufs_open,
	.vop_close = ufs_close,
	.vop_access = ufs_access,
	.vop_getattr = ufs_getattr,
	.vop_setattr = lfs_setattr,
	.vop_read = lfs_read,
	.vop_write = lfs_write,
	.vop_ioctl = ufs_ioctl,
	.vop_fsync = lfs_fsync,
	.vop_remove = lfs_remove,
	.vop_link = lfs_link,
	.vop_rename = lfs_rename,
	.vop_mkdir = lfs_mkdir,
	.vop_rmdir = lfs_rmdir,
	.vop_symlink = lfs_symlink,
	.vop_readdir = ufs_readdir,
	.vop_readlink = ufs_readlink,
	.vop_inactive = lfs_inactive,
	.vop_reclaim = ufs_reclaim,
	.vop_bmap = ufs_bmap,
	.vop_strategy = lfs_strategy,
};
