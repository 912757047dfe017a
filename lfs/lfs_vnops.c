/*
 * LFS vnode operations (4.4BSD lfs_vnops.c): the shared UFS ones, with
 * LFS's answers to thesis table 6-8 behind them.  Reads need nothing of
 * LFS's own.  Everything that writes reaches the disk through the
 * segment writer, which this kernel does not have yet: LFS is mounted
 * read-only (lfs_mount), so the VFS layer answers EROFS before any of
 * the writing operations below can be called; they say so again rather
 * than pretend.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"

/* Inode times and changes go to the disk with the next segment write;
 * read-only, there is none: the in-core inode just forgets them. */
static int
lfs_update(struct inode *ip, int waitfor)
{
	(void)waitfor;
	ufs_itimes(ip);
	ip->i_flag &= ~IN_MODIFIED;
	return 0;
}

static int
lfs_rofs(void)
{
	return EROFS;
}

static int
lfs_bwrite(struct buf *bp)
{
	brelse(bp);
	return EROFS;
}

static int
lfs_fsync(struct vnode *vp, int waitfor)
{
	return lfs_update(VTOI(vp), waitfor);
}

#define RO (void *)lfs_rofs
const struct ufs_ops lfs_ufsops = {
	.uo_blkatoff = ufs_blkatoff,
	.uo_valloc = RO,
	.uo_vfree = RO,
	.uo_truncate = RO,
	.uo_update = lfs_update,
	.uo_bwrite = lfs_bwrite,
	.uo_vget = lfs_vget,
	.uo_balloc = RO,
};
#undef RO

const struct vnodeops lfs_vnodeops = {
	.vop_name = "lfs",
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
	.vop_fsync = lfs_fsync,
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
