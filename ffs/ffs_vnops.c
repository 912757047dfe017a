/*
 * The FFS vnode operation tables: the shared UFS operations, FFS's
 * fsync, and the table 6-8 operations that plug FFS (and EFS, which is
 * FFS with clustered reads and writes) into UFS.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "ffs/ffs_extern.h"
#include "ufs/ufs_extern.h"
#include <sys/stat.h>

/*
 * blkatoff: the block holding byte offset of a file, in the size FFS
 * gave it (a file's short last block is a run of fragments).  Regular
 * files read ahead: EFS through cluster_read's adaptive window; FFS the
 * next block, when this read wants it or continues a sequential run
 * (4.4BSD's rule: a random reader pays for no block it did not ask for).
 */
static int
ffs_blkatoff(struct inode *ip, off_t offset, int nblks, char **res,
    struct buf **bpp)
{
	struct fs *fs = ITOFS(ip);
	struct vnode *vp = ITOV(ip);
	daddr_t lbn = lblkno(fs, offset);
	int size = blksize(fs, ip->i_size, lbn), error;

	if (vp->v_type != VREG)
		error = bread(vp, lbn, size, bpp);
	else if ((fs->fs_flags & FS_EFS) && size == fs->fs_bsize)
		error = cluster_read(vp, ip->i_size, lbn, size, nblks, bpp);
	else if (cluster_pattern(vp, lbn, nblks) != CR_AGAIN &&
	    (nblks > 1 || vp->v_rqseq) &&
	    lblktosize(fs, lbn + 1) < (off_t)ip->i_size)
		error = breada(vp, lbn, size, lbn + 1,
		    blksize(fs, ip->i_size, lbn + 1), bpp);
	else
		error = bread(vp, lbn, size, bpp);
	return ufs_blkatoff_end(ip, offset, error, res, bpp);
}

/*
 * bwrite: FFS writes directories (and O_SYNC data) at once and waits, the
 * order 4.4BSD keeps its metadata in; a data block the write filled
 * starts at once (EFS: joins the cluster being gathered); a partly
 * written one waits in the cache for the rest.
 */
static int
ffs_bwrite(struct inode *ip, struct buf *bp, int how)
{
	if (how == UFS_WSYNC)
		return bwrite(bp);
	if (how == UFS_WFULL && (ITOFS(ip)->fs_flags & FS_EFS))
		cluster_write(bp, ip->i_size);
	else if (how == UFS_WFULL)
		bawrite(bp);
	else
		bdwrite(bp);
	return 0;
}

/* Transaction protection is BSD-LFS's (thesis 5.2): not here. */
static int
ffs_setattr(struct vnode *vp, struct vattr *va, struct ucred *cred)
{
	if (va->va_flags != (u_int32_t)VNOVAL && (va->va_flags & UF_TXN))
		return EOPNOTSUPP;
	return ufs_setattr(vp, va, cred);
}

static int
ffs_fsync(struct vnode *vp, int waitfor)
{
	vflushbuf(vp, waitfor);
	return ffs_update(VTOI(vp), waitfor);
}

const struct ufs_ops ffs_ufsops = {
	.uo_blkatoff = ffs_blkatoff,
	.uo_valloc = ffs_valloc,
	.uo_vfree = ffs_vfree,
	.uo_truncate = ffs_truncate,
	.uo_update = ffs_update,
	.uo_bwrite = ffs_bwrite,
	.uo_vget = ffs_vget,
	.uo_balloc = ffs_balloc,
};

const struct vnodeops ffs_vnodeops = {
	.vop_name = "ffs",
	.vop_lookup = ufs_lookup,
	.vop_create = ufs_create,
	.vop_mknod = ufs_mknod,
	.vop_open = ufs_open,
	.vop_close = ufs_close,
	.vop_access = ufs_access,
	.vop_getattr = ufs_getattr,
	.vop_setattr = ffs_setattr,
	.vop_read = ufs_read,
	.vop_write = ufs_write,
	.vop_ioctl = ufs_ioctl,
	.vop_fsync = ffs_fsync,
	.vop_remove = ufs_remove,
	.vop_link = ufs_link,
	.vop_rename = ufs_rename,
	.vop_mkdir = ufs_mkdir,
	.vop_rmdir = ufs_rmdir,
	.vop_symlink = ufs_symlink,
	.vop_readdir = ufs_readdir,
	.vop_readlink = ufs_readlink,
	.vop_inactive = ufs_inactive,
	.vop_reclaim = ufs_reclaim,
	.vop_bmap = ufs_bmap,
	.vop_strategy = ufs_strategy,
};
