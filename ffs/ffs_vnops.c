/*
 * The FFS vnode operation tables: the shared UFS operations, FFS's
 * fsync, and the table 6-8 operations that plug FFS into UFS.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "ffs/ffs_extern.h"
#include "ufs/ufs_extern.h"

/* FFS writes its metadata (directories) synchronously, as 4.4BSD. */
int
ffs_bwrite(struct buf *bp)
{
	return bwrite(bp);
}

static int
ffs_bdwrite(struct buf *bp)
{
	bdwrite(bp);
	return 0;
}

int
ffs_blksize(struct inode *ip, daddr_t lbn)
{
	return blksize(ip->i_fs, ip->i_size, lbn);
}

static int
ffs_fsync(struct vnode *vp, int waitfor)
{
	vflushbuf(vp, waitfor);
	return ffs_update(VTOI(vp), waitfor);
}

const struct ufs_ops ffs_ufsops = {
	.uo_blkatoff = ufs_blkatoff,
	.uo_valloc = ffs_valloc,
	.uo_vfree = ffs_vfree,
	.uo_truncate = ffs_truncate,
	.uo_update = ffs_update,
	.uo_bwrite = ffs_bwrite,
	.uo_bdwrite = ffs_bdwrite,
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
	.vop_setattr = ufs_setattr,
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
