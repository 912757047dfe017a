/*
 * deadfs (4.4BSD): the operations of a vnode whose file system is gone
 * (forcibly unmounted, or the vnode reclaimed while still referenced).
 * Everything fails with EIO (reads of a dead file end at once); the last
 * reference can still be dropped.  It keeps a process that holds such a
 * vnode from following a stale pointer into freed memory.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/buf.h"
#include "kern/uio.h"

static int
dead_eio(void)
{
	return EIO;
}

static int
dead_ok(void)
{
	return 0;
}

static int
dead_read(struct vnode *vp, struct uio *uio, int ioflag, struct ucred *cred)
{
	return 0;			/* end of file */
}

static int
dead_strategy(struct buf *bp)
{
	bp->b_error = EIO;
	bp->b_flags |= B_ERROR;
	biodone(bp);
	return EIO;
}

#define X (void *)dead_eio
#define O (void *)dead_ok
const struct vnodeops dead_vnodeops = {
	.vop_name = "dead",
	.vop_lookup = X, .vop_create = X, .vop_mknod = X,
	.vop_open = X, .vop_close = O, .vop_access = X,
	.vop_getattr = X, .vop_setattr = X,
	.vop_read = dead_read, .vop_write = X,
	.vop_ioctl = X, .vop_fsync = O,
	.vop_remove = X, .vop_link = X, .vop_rename = X, .vop_mkdir = X,
	.vop_rmdir = X, .vop_symlink = X, .vop_readdir = X,
	.vop_readlink = X, .vop_inactive = O, .vop_reclaim = O,
	.vop_bmap = X, .vop_strategy = dead_strategy,
};
