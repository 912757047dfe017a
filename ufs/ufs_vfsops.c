/*
 * Mount-time plumbing every UFS layout shares (4.4BSD ufs_vfsops.c):
 * finding and opening the block device a mount names, closing it again,
 * and bringing an inode into a vnode.  FFS and LFS differ only in where
 * the superblock and the inodes live, so they pass that in.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/namei.h"
#include "kern/buf.h"
#include "kern/malloc.h"
#include "kern/conf.h"
#include "kern/proc.h"
#include "kern/uio.h"
#include "ufs/inode.h"

#define FREAD_	0x0001
#define FWRITE_	0x0002

/* "sd0a" -> the block device number (used for the root, before namei). */
static int
devname_to_dev(const char *name, dev_t *devp)
{
	if (strncmp(name, "/dev/", 5) == 0)
		name += 5;
	if (name[0] != 's' || name[1] != 'd' || name[2] < '0' ||
	    name[2] > '9' || name[3] < 'a' || name[3] > 'h' || name[4])
		return ENXIO;
	*devp = makedev(SD_BMAJOR, (name[2] - '0') * 8 + name[3] - 'a');
	return 0;
}

/* The block device the mount names: a special file, or the root's. */
static int
ufs_getdev(struct mount *mp, void *data, char *fspec, dev_t *devp)
{
	struct nameidata *nd;
	struct ufs_args args;
	struct vnode *vp;
	int error;

	if (mp->mnt_vnodecovered == NULL) {	/* the root: kernel memory */
		args = *(struct ufs_args *)data;
		strlcpy(fspec, args.fspec, MNAMELEN);
		return devname_to_dev(fspec, devp);
	}
	if ((error = copyin(data, &args, sizeof(args))) != 0)
		return error;
	if ((error = copyinstr(args.fspec, fspec, MNAMELEN, NULL)) != 0)
		return error;
	nd = malloc(sizeof(*nd), M_WAITOK);
	NDINIT(nd, LOOKUP, FOLLOW, UIO_SYSSPACE, fspec);
	error = namei(nd);
	vp = nd->ni_vp;
	free(nd);
	if (error)
		return error;
	if (vp->v_type != VBLK)
		error = ENOTBLK;
	else if (major(vp->v_rdev) >= nbdev ||
	    bdevsw[major(vp->v_rdev)].d_strategy == NULL)
		error = ENXIO;
	else
		*devp = vp->v_rdev;
	vrele(vp);
	return error;
}

/*
 * Find and open the device the mount's data names, refusing one that is
 * already mounted: its name in fspec (MNAMELEN), its vnode in *devvpp.
 */
int
ufs_opendev(struct mount *mp, void *data, char *fspec, struct vnode **devvpp)
{
	struct vnode *devvp;
	struct mount *omp;
	dev_t dev;
	int error, ronly = (mp->mnt_flag & MNT_RDONLY) != 0;

	if ((error = ufs_getdev(mp, data, fspec, &dev)) != 0)
		return error;
	TAILQ_FOREACH(omp, &mountlist, mnt_list)
		if (VFSTOUFS(omp)->um_dev == dev)
			return EBUSY;
	if ((error = bdevvp(dev, &devvp)) != 0)
		return error;
	if ((error = VOP_OPEN(devvp, ronly ? FREAD_ : FREAD_ | FWRITE_,
	    NULL)) != 0) {
		vrele(devvp);
		return error;
	}
	devvp->v_flag |= VSYSTEM;
	*devvpp = devvp;
	return 0;
}

/* Undo ufs_opendev; with save, write the device's dirty buffers first. */
void
ufs_closedev(struct vnode *devvp, int ronly, int save)
{
	vinvalbuf(devvp, save);
	VOP_CLOSE(devvp, ronly ? FREAD_ : FREAD_ | FWRITE_, NULL);
	devvp->v_flag &= ~VSYSTEM;
	vrele(devvp);
}

/*
 * Attach ump, its layout's fields filled in, to mp and the device: what
 * every layout's mount does the same way.  fsidtype tells the layouts
 * apart in f_fsid.
 */
void
ufs_mountattach(struct mount *mp, struct ufsmount *ump, struct vnode *devvp,
    const char *fspec, int fsidtype)
{
	ump->um_mountp = mp;
	ump->um_dev = devvp->v_rdev;
	ump->um_devvp = devvp;
	strlcpy(ump->um_fspec, fspec, sizeof(ump->um_fspec));
	mp->mnt_data = ump;
	mp->mnt_stat.f_fsid.val[0] = devvp->v_rdev;
	mp->mnt_stat.f_fsid.val[1] = fsidtype;
	strlcpy(mp->mnt_stat.f_mntfromname, fspec, MNAMELEN);
}

/*
 * The vnode of inode ino, referenced: from the inode cache, or new, with
 * vops, its dinode filled in by the layout's readdin.  Others wanting
 * the same inode meanwhile wait in ufs_ihashget (VLOADING).
 */
int
ufs_vget_common(struct mount *mp, ino_t ino, const struct vnodeops *vops,
    int (*readdin)(struct ufsmount *, ino_t, struct dinode *),
    struct vnode **vpp)
{
	struct ufsmount *ump = VFSTOUFS(mp);
	struct inode *ip;
	struct vnode *vp;
	int error;

	if ((*vpp = ufs_ihashget(ump->um_dev, ino)) != NULL)
		return 0;
	/* No new vnode on a file system being unmounted but the
	 * unmount's own: vflush has passed, or will not wait for it. */
	if (mp->mnt_busy && mp->mnt_unmounter != curproc) {
		*vpp = NULL;
		return EBUSY;
	}
	if ((error = getnewvnode(mp, vops, &vp)) != 0) {
		*vpp = NULL;
		return error;
	}
	/* It may have been read in while getnewvnode slept. */
	if ((*vpp = ufs_ihashget(ump->um_dev, ino)) != NULL) {
		vp->v_type = VBAD;
		vrele(vp);
		return 0;
	}
	ip = malloc(sizeof(*ip), M_WAITOK | M_ZERO);
	vp->v_data = ip;
	ip->i_vnode = vp;
	ip->i_ump = ump;
	ip->i_dev = ump->um_dev;
	ip->i_number = ino;
	vp->v_flag |= VLOADING;		/* ufs_ihashget waits for it */
	ufs_ihashins(ip);
	vn_lock(vp);
	if ((error = readdin(ump, ino, &ip->i_din)) != 0) {
		ufs_ihashrem(ip);
		VOP_UNLOCK(vp);
		vp->v_data = NULL;
		free(ip);
		vp->v_type = VBAD;
		vp->v_flag &= ~VLOADING;
		wakeup(vp);
		vrele(vp);
		*vpp = NULL;
		return error;
	}
	ip->i_dsize = ip->i_size;
	ufs_vinit(vp);
	vp->v_flag &= ~VLOADING;
	wakeup(vp);
	VOP_UNLOCK(vp);
	*vpp = vp;
	return 0;
}
