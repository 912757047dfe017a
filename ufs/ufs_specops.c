/*
 * Device special files living in a UFS file system (any layout): the
 * device does the I/O, the inode keeps the attributes and is written
 * the layout's way (UFS_UPDATE).
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/buf.h"
#include "ufs/ufs_extern.h"

static int
ufs_spec_read(struct vnode *vp, struct uio *uio, int ioflag,
    struct ucred *cred)
{
	return spec_vnodeops.vop_read(vp, uio, ioflag, cred);
}

static int
ufs_spec_write(struct vnode *vp, struct uio *uio, int ioflag,
    struct ucred *cred)
{
	return spec_vnodeops.vop_write(vp, uio, ioflag, cred);
}

static int
ufs_spec_open(struct vnode *vp, int mode, struct ucred *cred)
{
	return spec_vnodeops.vop_open(vp, mode, cred);
}

static int
ufs_spec_close(struct vnode *vp, int fflag, struct ucred *cred)
{
	return spec_vnodeops.vop_close(vp, fflag, cred);
}

static int
ufs_spec_ioctl(struct vnode *vp, u_long cmd, caddr_t data, int fflag,
    struct ucred *cred)
{
	return spec_vnodeops.vop_ioctl(vp, cmd, data, fflag, cred);
}

static int
ufs_spec_strategy(struct buf *bp)
{
	return spec_vnodeops.vop_strategy(bp);
}

static int
ufs_spec_fsync(struct vnode *vp, int waitfor)
{
	spec_vnodeops.vop_fsync(vp, waitfor);
	return UFS_UPDATE(VTOI(vp), waitfor);
}

#define E (void *)vop_eopnotsupp
const struct vnodeops ufs_specops = {
	.vop_name = "ufs_spec",
	.vop_lookup = E, .vop_create = E, .vop_mknod = E,
	.vop_open = ufs_spec_open,
	.vop_close = ufs_spec_close,
	.vop_access = ufs_access,
	.vop_getattr = ufs_getattr,
	.vop_setattr = ufs_setattr,
	.vop_read = ufs_spec_read,
	.vop_write = ufs_spec_write,
	.vop_ioctl = ufs_spec_ioctl,
	.vop_fsync = ufs_spec_fsync,
	.vop_remove = E, .vop_link = E, .vop_rename = E, .vop_mkdir = E,
	.vop_rmdir = E, .vop_symlink = E, .vop_readdir = E, .vop_readlink = E,
	.vop_inactive = ufs_inactive,
	.vop_reclaim = ufs_reclaim,
	.vop_bmap = (void *)vop_eopnotsupp,
	.vop_strategy = ufs_spec_strategy,
};
#undef E
