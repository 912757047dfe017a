/*
 * Special files: vnodes for devices (4.4BSD specfs).  Character devices
 * go straight to their cdevsw entry; block devices read and write
 * through the buffer cache, whose strategy is the driver's.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/buf.h"
#include "kern/conf.h"
#include "kern/uio.h"
#include "kern/proc.h"

static int
spec_open(struct vnode *vp, int mode, struct ucred *cred)
{
	dev_t dev = vp->v_rdev;

	if (vp->v_type == VCHR) {
		if (major(dev) >= ncdev || cdevsw[major(dev)].d_open == NULL)
			return ENXIO;
		return cdevsw[major(dev)].d_open(dev, mode, 0020000);
	}
	if (major(dev) >= nbdev || bdevsw[major(dev)].d_open == NULL)
		return ENXIO;
	return bdevsw[major(dev)].d_open(dev, mode, 0060000);
}

static int
spec_close(struct vnode *vp, int fflag, struct ucred *cred)
{
	dev_t dev = vp->v_rdev;

	if (vp->v_type == VCHR)
		return cdevsw[major(dev)].d_close(dev, fflag, 0020000);
	vflushbuf(vp, 1);
	return bdevsw[major(dev)].d_close(dev, fflag, 0060000);
}

/* Block device I/O through the cache, in 4 KB blocks. */
#define SPEC_BSIZE	4096

static int
spec_blkio(struct vnode *vp, struct uio *uio)
{
	long psize = bdevsw[major(vp->v_rdev)].d_psize(vp->v_rdev);
	off_t devsize = (off_t)psize * DEV_BSIZE;
	struct buf *bp;
	int error = 0;

	while (uio->uio_resid > 0 && error == 0) {
		daddr_t bn = (uio->uio_offset / SPEC_BSIZE) *
		    (SPEC_BSIZE / DEV_BSIZE);
		int on = uio->uio_offset % SPEC_BSIZE;
		int n = MIN(SPEC_BSIZE - on, uio->uio_resid);

		if (uio->uio_offset >= devsize)
			break;
		if (uio->uio_offset + n > devsize)
			n = devsize - uio->uio_offset;
		if (uio->uio_rw == UIO_WRITE && n == SPEC_BSIZE)
			bp = getblk(vp, bn, SPEC_BSIZE);
		else if ((error = bread(vp, bn, SPEC_BSIZE, &bp)) != 0) {
			brelse(bp);
			break;
		}
		error = uiomove(bp->b_data + on, n, uio);
		if (uio->uio_rw == UIO_WRITE)
			bdwrite(bp);
		else
			brelse(bp);
	}
	return error;
}

static int
spec_read(struct vnode *vp, struct uio *uio, int ioflag, struct ucred *cred)
{
	if (vp->v_type == VCHR)
		return cdevsw[major(vp->v_rdev)].d_read(vp->v_rdev, uio, ioflag);
	return spec_blkio(vp, uio);
}

static int
spec_write(struct vnode *vp, struct uio *uio, int ioflag, struct ucred *cred)
{
	if (vp->v_type == VCHR)
		return cdevsw[major(vp->v_rdev)].d_write(vp->v_rdev, uio,
		    ioflag);
	return spec_blkio(vp, uio);
}

static int
spec_ioctl(struct vnode *vp, u_long cmd, caddr_t data, int fflag,
    struct ucred *cred)
{
	if (vp->v_type == VCHR)
		return cdevsw[major(vp->v_rdev)].d_ioctl(vp->v_rdev, cmd, data,
		    fflag);
	return bdevsw[major(vp->v_rdev)].d_ioctl(vp->v_rdev, cmd, data, fflag);
}

static int
spec_fsync(struct vnode *vp, int waitfor)
{
	if (vp->v_type == VBLK)
		vflushbuf(vp, waitfor);
	return 0;
}

static int
spec_strategy(struct buf *bp)
{
	bp->b_dev = bp->b_vp->v_rdev;
	bdevsw[major(bp->b_dev)].d_strategy(bp);
	return 0;
}

static int
spec_bmap(struct vnode *vp, daddr_t bn, struct vnode **vpp, daddr_t *bnp,
    int *runp)
{
	if (vpp)
		*vpp = vp;
	if (bnp)
		*bnp = bn;
	if (runp)
		*runp = 0;
	return 0;
}

static int
spec_inactive(struct vnode *vp)
{
	return 0;
}

#define E (void *)vop_eopnotsupp
const struct vnodeops spec_vnodeops = {
	.vop_name = "spec",
	.vop_lookup = E, .vop_create = E, .vop_mknod = E,
	.vop_open = spec_open, .vop_close = spec_close, .vop_access = E,
	.vop_getattr = E, .vop_setattr = E,
	.vop_read = spec_read, .vop_write = spec_write,
	.vop_ioctl = spec_ioctl, .vop_fsync = spec_fsync,
	.vop_remove = E, .vop_link = E, .vop_rename = E, .vop_mkdir = E,
	.vop_rmdir = E, .vop_symlink = E, .vop_readdir = E,
	.vop_readlink = E, .vop_inactive = spec_inactive, .vop_reclaim = E,
	.vop_bmap = spec_bmap, .vop_strategy = spec_strategy,
};
#undef E

/* For device special files living in a file system: the file system's
 * vnode operations call these for open/close/read/write/ioctl. */
const struct vnodeops *const specops = &spec_vnodeops;
