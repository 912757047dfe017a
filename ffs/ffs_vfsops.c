/*
 * FFS as a mountable file system (4.4BSD ffs_vfsops.c): mount reads and
 * checks the superblock and the group summaries; sync writes dirty
 * inodes, data and the superblock; unmount marks the file system clean.
 *
 * A superblock is trusted only after ffs_sbcheck (ffs/ffs_subr.c) has
 * checked every field the kernel uses: a damaged disk makes mount fail
 * with EINVAL and a message naming the problem, never a panic.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/namei.h"
#include "kern/buf.h"
#include "kern/malloc.h"
#include "kern/proc.h"
#include "kern/conf.h"
#include "kern/uio.h"
#include "ffs/ffs_extern.h"
#include "ufs/ufs_extern.h"
#include <sys/stat.h>

static int
ffs_mount(struct mount *mp, const char *path, void *data)
{
	struct ufsmount *ump = NULL;
	struct vnode *devvp = NULL;
	struct fs *fs = NULL;
	struct buf *bp = NULL;
	char fspec[MNAMELEN];
	const char *why;
	long psize;
	dev_t dev;
	int error, ronly = (mp->mnt_flag & MNT_RDONLY) != 0, i, size;

	if ((error = ufs_opendev(mp, data, fspec, &devvp)) != 0)
		return error;
	dev = devvp->v_rdev;
	if ((error = bread(devvp, SBLOCK, SBSIZE, &bp)) != 0)
		goto out;
	if ((why = ffs_sbcheck((struct fs *)bp->b_data)) != NULL) {
		printf("ffs_mount: %s: bad superblock: %s\n", fspec, why);
		error = EINVAL;
		goto out;
	}
	/* In core, the group summaries follow the superblock (fs_csp). */
	fs = malloc(sizeof(*fs) + ((struct fs *)bp->b_data)->fs_cssize,
	    M_WAITOK);
	memcpy(fs, bp->b_data, sizeof(*fs));
	bp->b_flags |= B_INVAL | B_AGE;	/* re-read through cg code paths */
	brelse(bp);
	bp = NULL;
	psize = bdevsw[major(dev)].d_psize(dev);
	if (psize > 0 && fsbtodb(fs, (int64_t)fs->fs_size) > psize) {
		printf("ffs_mount: %s: file system (%d sectors) is larger "
		    "than the partition (%ld)\n", fspec,
		    (int)fsbtodb(fs, fs->fs_size), psize);
		error = EINVAL;
		goto out;
	}
	ump = malloc(sizeof(*ump), M_WAITOK | M_ZERO);
	for (i = 0; i < fs->fs_cssize; i += fs->fs_bsize) {
		size = MIN(fs->fs_bsize, fs->fs_cssize - i);
		error = bread(devvp, fsbtodb(fs, fs->fs_csaddr +
		    numfrags(fs, i)), fragroundup(fs, size), &bp);
		if (error)
			goto out;
		memcpy((char *)fs_csp(fs) + i, bp->b_data, size);
		brelse(bp);
		bp = NULL;
	}
	ump->um_fs = fs;
	ump->um_ops = &ffs_ufsops;
	ump->um_nindir = NINDIR(fs);
	ump->um_bptrtodb = fs->fs_fsbtodb;
	ump->um_seqinc = fs->fs_frag;
	ump->um_bsize = fs->fs_bsize;
	ump->um_bshift = fs->fs_bshift;
	ump->um_maxsymlinklen = fs->fs_maxsymlinklen;
	ump->um_maxfilesize = fs->fs_maxfilesize;
	ump->um_nbptr = fs->fs_size;
	ufs_mountattach(mp, ump, devvp, fspec, 1);
	if (fs->fs_flags & FS_EFS) {
		/* EFS is this code with clustered reads and writes. */
		mp->mnt_flag |= MNT_CLUSTERWRITE;	/* vflushbuf pushes clusters */
		strlcpy(mp->mnt_stat.f_fstypename, "efs", MFSNAMELEN);
	}
	strlcpy(fs->fs_fsmnt, path, sizeof(fs->fs_fsmnt));
	fs->fs_ronly = ronly;
	fs->fs_fmod = 0;
	if (!fs->fs_clean)
		printf("WARNING: %s was not properly unmounted; run fsck_ffs\n",
		    fspec);
	if (!ronly) {
		/* Mark it in use: a crash from here on leaves it unclean. */
		fs->fs_clean = 0;
		ffs_sbupdate(ump, 1);
	}
	return 0;
out:
	if (bp)
		brelse(bp);
	free(ump);
	free(fs);
	mp->mnt_data = NULL;
	ufs_closedev(devvp, ronly, 0);
	return error;
}

/* Write the superblock (and the group summaries after it). */
int
ffs_sbupdate(struct ufsmount *ump, int waitfor)
{
	struct fs *fs = ump->um_fs;
	struct buf *bp;
	int i, size, error = 0, e;

	fs->fs_time = 0;
	bp = getblk(ump->um_devvp, SBLOCK, SBSIZE);
	memset(bp->b_data, 0, SBSIZE);
	memcpy(bp->b_data, fs, sizeof(*fs));
	((struct fs *)bp->b_data)->fs_fmod = 0;
	((struct fs *)bp->b_data)->fs_ronly = 0;
	if (waitfor)
		error = bwrite(bp);
	else
		bawrite(bp);
	for (i = 0; i < fs->fs_cssize; i += fs->fs_bsize) {
		size = MIN(fs->fs_bsize, fs->fs_cssize - i);
		bp = getblk(ump->um_devvp, fsbtodb(fs, fs->fs_csaddr +
		    numfrags(fs, i)), fragroundup(fs, size));
		memset(bp->b_data, 0, bp->b_bcount);
		memcpy(bp->b_data, (char *)fs_csp(fs) + i, size);
		if (waitfor) {
			if ((e = bwrite(bp)) != 0)
				error = e;
		} else
			bawrite(bp);
	}
	fs->fs_fmod = 0;
	return error;
}

static int
ffs_sync(struct mount *mp, int waitfor)
{
	struct ufsmount *ump = VFSTOUFS(mp);
	struct vnode *vp, *next;
	int error = 0;

	if (mp->mnt_flag & MNT_RDONLY)
		return 0;
	for (vp = LIST_FIRST(&mp->mnt_vnodelist); vp; vp = next) {
		struct inode *ip = VTOI(vp);

		next = LIST_NEXT(vp, v_mntvnodes);
		if (ip == NULL || vp->v_type == VNON)
			continue;
		if (!(ip->i_flag & (IN_ACCESS | IN_CHANGE | IN_MODIFIED |
		    IN_UPDATE)) && LIST_EMPTY(&vp->v_dirtyblkhd))
			continue;
		vget(vp);
		vflushbuf(vp, waitfor);
		ffs_update(ip, 0);
		next = LIST_NEXT(vp, v_mntvnodes);
		vrele(vp);
	}
	if (ump->um_fs->fs_fmod)
		error = ffs_sbupdate(ump, waitfor);
	vflushbuf(ump->um_devvp, waitfor);
	return error;
}

static int
ffs_unmount(struct mount *mp, int flags)
{
	struct ufsmount *ump = VFSTOUFS(mp);
	struct fs *fs = ump->um_fs;
	int error;

	if ((error = vflush(mp, NULL, flags)) != 0)
		return error;
	if (!fs->fs_ronly) {
		fs->fs_clean = 1;
		ffs_sbupdate(ump, 1);
	}
	ufs_closedev(ump->um_devvp, fs->fs_ronly, 1);
	free(fs);
	free(ump);
	mp->mnt_data = NULL;
	return 0;
}

static int
ffs_root(struct mount *mp, struct vnode **vpp)
{
	return ffs_vget(mp, ROOTINO, vpp);
}

static int
ffs_statfs(struct mount *mp, struct statfs *sbp)
{
	struct fs *fs = VFSTOFS(mp);
	long reserve = (int64_t)fs->fs_dsize * fs->fs_minfree / 100;

	sbp->f_type = 1;
	sbp->f_bsize = fs->fs_fsize;
	sbp->f_iosize = fs->fs_bsize;
	sbp->f_blocks = fs->fs_dsize;
	sbp->f_bfree = blkstofrags(fs, fs->fs_cstotal.cs_nbfree) +
	    fs->fs_cstotal.cs_nffree;
	sbp->f_bavail = sbp->f_bfree - reserve;
	sbp->f_files = fs->fs_ncg * fs->fs_ipg - ROOTINO;
	sbp->f_ffree = fs->fs_cstotal.cs_nifree;
	return 0;
}

/* Read inode ino's dinode from its fixed place in its group. */
static int
ffs_readdin(struct ufsmount *ump, ino_t ino, struct dinode *dp)
{
	struct fs *fs = ump->um_fs;
	struct buf *bp;
	int error;

	error = bread(ump->um_devvp, fsbtodb(fs, ino_to_fsba(fs, ino)),
	    fs->fs_bsize, &bp);
	if (error == 0)
		*dp = ((struct dinode *)bp->b_data)[ino_to_fsbo(fs, ino)];
	brelse(bp);
	return error;
}

/* The vnode of inode ino, read from disk if not cached. */
int
ffs_vget(struct mount *mp, ino_t ino, struct vnode **vpp)
{
	struct fs *fs = VFSTOFS(mp);

	if (ino < ROOTINO || ino >= (ino_t)(fs->fs_ncg * fs->fs_ipg)) {
		*vpp = NULL;
		return EINVAL;		/* a damaged directory entry */
	}
	return ufs_vget_common(mp, ino, &ffs_vnodeops, ffs_readdin, vpp);
}

const struct vfsops ffs_vfsops = {
	"ffs", ffs_mount, ffs_unmount, ffs_root, ffs_statfs, ffs_sync,
	ffs_vget, NULL,
};
