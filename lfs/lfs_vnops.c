/*
 * LFS vnode operations (4.4BSD lfs_vnops.c): the shared UFS ones, with
 * LFS's answers to thesis table 6-8 behind them (lfs_ufsops), and the
 * directory operations bracketed as thesis 6.3.3 asks: each runs between
 * lfs_dirop_begin and lfs_dirop_end with the vnodes it changes marked,
 * so the segment writer writes them together, with the ifile, in
 * partial segments flagged SS_DIROP.  (In 4.4BSD-Lite2 these wrappers
 * existed but were never put in the table.)
 *
 * The ifile is read-only to everyone: it may be read (the cleaner does),
 * never written, truncated, removed or renamed.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/conf.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"

#define ISIFILE(vp)	((vp) != NULL && ((vp)->v_flag & VSYSTEM))

static int
lfs_write(struct vnode *vp, struct uio *uio, int ioflag, struct ucred *cred)
{
	int error;

	if (ISIFILE(vp))
		return EPERM;
	error = ufs_write(vp, uio, ioflag, cred);
	if (error == 0 && (ioflag & IO_SYNC))
		error = lfs_segwrite(vp->v_mount, SEGM_SYNC);
	return error;
}

/* fsync writes a partial segment (with any dirop it depends on). */
static int
lfs_fsync(struct vnode *vp, int waitfor)
{
	(void)waitfor;
	if (vp->v_mount->mnt_flag & MNT_RDONLY)
		return lfs_update(VTOI(vp), 0);
	return lfs_segwrite(vp->v_mount, SEGM_SYNC);
}

static int
lfs_setattr(struct vnode *vp, struct vattr *va, struct ucred *cred)
{
	if (ISIFILE(vp))
		return EPERM;
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

/* A dirop making a new vnode: create, mknod, mkdir. */
static int
lfs_dirop_new(int (*op)(struct vnode *, struct vnode **,
    struct componentname *, struct vattr *), struct vnode *dvp,
    struct vnode **vpp, struct componentname *cnp, struct vattr *va)
{
	int error;

	if ((error = lfs_dirop_begin(dvp, 0)) != 0)
		return error;
	lfs_mark(dvp);
	if ((error = op(dvp, vpp, cnp, va)) == 0)
		lfs_mark(*vpp);
	lfs_dirop_end(dvp);
	return error;
}

/* A dirop on two existing vnodes: remove, rmdir (frees), link. */
static int
lfs_dirop_two(int (*op)(struct vnode *, struct vnode *,
    struct componentname *), struct vnode *dvp, struct vnode *vp,
    struct componentname *cnp)
{
	int error;

	if (ISIFILE(vp))
		return EPERM;
	if ((error = lfs_dirop_begin(dvp, op != ufs_link)) != 0)
		return error;
	lfs_mark(dvp);
	lfs_mark(vp);
	error = op(dvp, vp, cnp);
	lfs_dirop_end(dvp);
	return error;
}

static int
lfs_create(struct vnode *dvp, struct vnode **vpp, struct componentname *cnp,
    struct vattr *va)
{
	return lfs_dirop_new(ufs_create, dvp, vpp, cnp, va);
}

static int
lfs_mknod(struct vnode *dvp, struct vnode **vpp, struct componentname *cnp,
    struct vattr *va)
{
	return lfs_dirop_new(ufs_mknod, dvp, vpp, cnp, va);
}

static int
lfs_mkdir(struct vnode *dvp, struct vnode **vpp, struct componentname *cnp,
    struct vattr *va)
{
	return lfs_dirop_new(ufs_mkdir, dvp, vpp, cnp, va);
}

static int
lfs_remove(struct vnode *dvp, struct vnode *vp, struct componentname *cnp)
{
	return lfs_dirop_two(ufs_remove, dvp, vp, cnp);
}

static int
lfs_rmdir(struct vnode *dvp, struct vnode *vp, struct componentname *cnp)
{
	return lfs_dirop_two(ufs_rmdir, dvp, vp, cnp);
}

static int
lfs_link(struct vnode *dvp, struct vnode *vp, struct componentname *cnp)
{
	return lfs_dirop_two(ufs_link, dvp, vp, cnp);
}

static int
lfs_symlink(struct vnode *dvp, struct vnode **vpp, struct componentname *cnp,
    struct vattr *va, char *target)
{
	int error;

	if ((error = lfs_dirop_begin(dvp, 0)) != 0)
		return error;
	lfs_mark(dvp);
	if ((error = ufs_symlink(dvp, vpp, cnp, va, target)) == 0)
		lfs_mark(*vpp);
	lfs_dirop_end(dvp);
	return error;
}

static int
lfs_rename(struct vnode *fdvp, struct vnode *fvp, struct componentname *fcnp,
    struct vnode *tdvp, struct vnode *tvp, struct componentname *tcnp)
{
	int error;

	if (ISIFILE(fvp) || ISIFILE(tvp))
		error = EPERM;
	else
		error = lfs_dirop_begin(fdvp, 0);
	if (error) {
		/* ufs_rename's contract: it releases the vnodes. */
		vrele(fdvp);
		vrele(fvp);
		vrele(tdvp);
		if (tvp)
			vrele(tvp);
		return error;
	}
	lfs_mark(fdvp);
	lfs_mark(fvp);
	lfs_mark(tdvp);
	lfs_mark(tvp);
	error = ufs_rename(fdvp, fvp, fcnp, tdvp, tvp, tcnp);
	lfs_dirop_end(fdvp);
	return error;
}

/*
 * blkatoff: the block holding byte offset of a file.  LFS has no
 * fragments (thesis 6.3.1.1), and reads regular files through
 * cluster_read, as EFS does: the segment writer lays a file's blocks
 * out in order.
 */
static int
lfs_blkatoff(struct inode *ip, off_t offset, char **res, struct buf **bpp)
{
	struct vnode *vp = ITOV(ip);
	daddr_t lbn = offset >> ip->i_ump->um_bshift;
	int bsize = ip->i_ump->um_bsize, error;

	if (vp->v_type == VREG)
		error = cluster_read(vp, ip->i_size, lbn, bsize, bpp);
	else
		error = bread(vp, lbn, bsize, bpp);
	return ufs_blkatoff_end(ip, offset, error, res, bpp);
}

/* bwrite: every block waits, locked in the cache, for the segment writer. */
static int
lfs_ufs_bwrite(struct inode *ip, struct buf *bp, int how)
{
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
	.vop_read = ufs_read,
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
