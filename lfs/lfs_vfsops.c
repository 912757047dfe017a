/*
 * BSD-LFS as a mountable file system (4.4BSD lfs_vfsops.c).
 *
 * Mount reads the superblock copies and takes the valid one with the
 * highest checkpoint serial (the two checkpoint copies take turns, so a
 * write torn by a crash leaves the other); every copy passes
 * lfs_sbcheck (lfs/lfs_subr.c) before the kernel uses a field of it, so
 * a damaged disk fails the mount with a message, never a panic.  Then
 * the ifile's inode is read from the checkpoint's lfs_idaddr, and every
 * other inode is found through the ifile (lfs_vget).
 *
 * Read-write, the checkpoint's fields are kept current in core as the
 * log grows; sync writes a checkpoint (lfs_segwrite with SEGM_CKP), and
 * so does the update daemon every 30 seconds when there is anything to
 * write.  Unmount writes the last one, marked clean, to every copy.
 * Mounting read-write after a crash rolls forward from the checkpoint
 * (lfs_rfw.c) and writes a new one; read-only takes the checkpoint.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/malloc.h"
#include "kern/conf.h"
#include "kern/proc.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"
#include "lfs/lfs_txn.h"

/* Read the superblock copy at byte offset off; 0 and *fs if it checks. */
static int
lfs_readsb(struct vnode *devvp, int64_t off, struct dlfs *fs,
    const char **whyp)
{
	struct buf *bp;
	int error;

	error = bread(devvp, off >> DEV_BSHIFT, LFS_SBPAD, &bp);
	if (error == 0) {
		memcpy(fs, bp->b_data, sizeof(*fs));
		if ((*whyp = lfs_sbcheck(fs)) != NULL)
			error = EINVAL;
	} else
		*whyp = "read error";
	bp->b_flags |= B_INVAL | B_AGE;	/* the writer rewrites it whole */
	brelse(bp);
	return error;
}

/*
 * The newest valid checkpoint on devvp, into *fs.  The first copy is at
 * LFS_LABELPAD, or one block in when blocks are larger than that; it
 * names the others.  A first copy that fails its check may still name
 * them (if its magic number survived): each is checked on its own.
 */
static int
lfs_findsb(struct vnode *devvp, const char *fspec, struct dlfs *fs,
    u_int32_t *addrp)
{
	struct dlfs *try = malloc(sizeof(*try), M_WAITOK);
	u_int32_t sboffs[LFS_NSB], bshift = 0;
	const char *why = NULL, *why0 = NULL;
	int64_t off;
	int i, found = 0;

	memset(sboffs, 0, sizeof(sboffs));
	for (off = LFS_LABELPAD; off <= 65536 && !found; off <<= 1) {
		found = lfs_readsb(devvp, off, fs, &why) == 0;
		if (off == LFS_LABELPAD)
			why0 = why;
		if (fs->dlfs_magic == LFS_MAGIC && sboffs[1] == 0 &&
		    fs->dlfs_bshift >= 12 && fs->dlfs_bshift <= 16) {
			memcpy(sboffs, fs->dlfs_sboffs, sizeof(sboffs));
			bshift = fs->dlfs_bshift;
		}
		if (found)
			*addrp = off >> fs->dlfs_bshift;
	}
	for (i = 0; bshift != 0 && i < LFS_NSB; i++) {
		u_int32_t a = sboffs[i];

		if (a == 0 || (found && a == *addrp) ||
		    lfs_readsb(devvp, (int64_t)a << bshift, try, &why) != 0)
			continue;
		/* Same serial: mounting marked it in use after the clean one. */
		if (!found || ((try->dlfs_serial > fs->dlfs_serial ||
		    (try->dlfs_serial == fs->dlfs_serial &&
		    fs->dlfs_clean && !try->dlfs_clean)) &&
		    try->dlfs_bsize == fs->dlfs_bsize &&
		    try->dlfs_ssize == fs->dlfs_ssize &&
		    try->dlfs_nseg == fs->dlfs_nseg)) {
			*fs = *try;
			*addrp = a;
			found = 1;
		}
	}
	free(try);
	if (!found) {
		printf("lfs_mount: %s: bad superblock: %s\n", fspec, why0);
		return EINVAL;
	}
	return 0;
}

/* Inode ino's dinode: the ifile's from the checkpoint, others by map. */
static int
lfs_readdin(struct ufsmount *ump, ino_t ino, struct dinode *dp)
{
	struct lfs *fs = ump->um_lfs;
	struct dlfs *d = &fs->lfs_dlfs;
	struct dinode *dip;
	struct buf *bp;
	u_int32_t daddr, i;
	IFILE ife;
	int error;

	if (ino == LFS_IFILE_INUM)
		daddr = d->dlfs_idaddr;
	else {
		if ((error = lfs_ifind(fs, ino, &ife)) != 0)
			return error;
		daddr = ife.if_daddr;
	}
	if (daddr == LFS_UNUSED_DADDR || daddr >= d->dlfs_size)
		return ENOENT;		/* a free inode named by a directory */
	error = bread(ump->um_devvp, lfs_fsbtodb(d, daddr), d->dlfs_bsize, &bp);
	if (error) {
		brelse(bp);
		return error;
	}
	dip = (struct dinode *)bp->b_data;
	for (i = 0; i < d->dlfs_inopb; i++)
		if (dip[i].di_inumber == ino)
			break;
	if (i < d->dlfs_inopb)
		*dp = dip[i];
	brelse(bp);
	if (i == d->dlfs_inopb) {
		printf("lfs: inode %u is not in block %u, where the map says\n",
		    (unsigned)ino, (unsigned)daddr);
		return EIO;
	}
	return 0;
}

int
lfs_vget(struct mount *mp, ino_t ino, struct vnode **vpp)
{
	struct lfs *fs = VFSTOLFS(mp);

	if (ino < ROOTINO && ino != LFS_IFILE_INUM) {
		*vpp = NULL;
		return EINVAL;		/* a damaged directory entry */
	}
	if (fs->lfs_ivnode != NULL && ino >= fs->lfs_maxino) {
		*vpp = NULL;
		return EINVAL;
	}
	if (fs->lfs_sp != NULL)
		lfs_checkheld(mp);
	return ufs_vget_common(mp, ino, &lfs_vnodeops, lfs_readdin, vpp);
}

static void
lfs_freemount(struct ufsmount *ump)
{
	struct lfs *fs = ump->um_lfs;

	if (fs->lfs_sp != NULL)
		lfs_segfree(fs->lfs_sp);
	free(fs);
	free(ump);
}

/*
 * The cold head as the superblock has it, made sane: a segment it writes
 * must be dirty and not the hot head's, the one it goes to next clean
 * and not the hot head's choice (an image older than the cold head has
 * zeros there).  Otherwise it starts again at a segment chosen now.
 */
static int
lfs_coldcheck(struct lfs *fs)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct lfs_ifref r;
	SEGUSE *sup;
	int flags, error = 0;

	if (d->dlfs_coffset != 0) {
		if (d->dlfs_ccurseg >= d->dlfs_nseg ||
		    (sup = LFS_SEGENTRY(fs, d->dlfs_ccurseg, &r)) == NULL)
			flags = 0;
		else {
			flags = sup->su_flags;
			lfs_ifput(fs, &r, 0);
		}
		if (!(flags & SEGUSE_DIRTY) || d->dlfs_ccurseg == d->dlfs_curseg ||
		    lfs_dtosn(d, d->dlfs_coffset) != d->dlfs_ccurseg)
			d->dlfs_coffset = 0;
	}
	flags = SEGUSE_DIRTY;
	if (d->dlfs_cnextseg < d->dlfs_nseg &&
	    (sup = LFS_SEGENTRY(fs, d->dlfs_cnextseg, &r)) != NULL) {
		flags = sup->su_flags;
		lfs_ifput(fs, &r, 0);
	}
	if (d->dlfs_coffset == 0)
		d->dlfs_ccurseg = d->dlfs_cnextseg;
	if ((flags & (SEGUSE_DIRTY | SEGUSE_ACTIVE)) ||
	    d->dlfs_cnextseg == d->dlfs_nextseg ||
	    d->dlfs_cnextseg == d->dlfs_curseg)
		error = lfs_pickcold(fs);
	return error;
}

/*
 * Count the clean segments; the writer continues at dlfs_offset.
 * writesb: say on disk that the file system is in use (after a crash
 * the checkpoint written after roll-forward says it).
 */
static int
lfs_mountrw(struct lfs *fs, const char *path, int writesb)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct lfs_ifref r;
	static int told;
	u_int32_t sn;
	SEGUSE *sup;
	int error;

	fs->lfs_nclean = fs->lfs_ndirty = 0;
	for (sn = 0; sn < d->dlfs_nseg; sn++) {
		if ((sup = LFS_SEGENTRY(fs, sn, &r)) == NULL)
			return EIO;
		if (sup->su_flags & SEGUSE_DIRTY)
			fs->lfs_ndirty++;
		else
			fs->lfs_nclean++;
		/* The log goes on into dlfs_nextseg: a table that says it
		 * is in use is damaged, and the writer would fail there
		 * for good (lfs_newseg), holding every dirty block. */
		if (sn == d->dlfs_nextseg && sn != d->dlfs_curseg &&
		    (sup->su_flags & (SEGUSE_DIRTY | SEGUSE_ACTIVE))) {
			lfs_ifput(fs, &r, 0);
			printf("lfs: %s: segment usage table says the next "
			    "segment %u is in use: run fsck_lfs\n",
			    fs->lfs_ump->um_fspec, sn);
			return EIO;
		}
		lfs_ifput(fs, &r, 0);
	}
	if ((error = lfs_coldcheck(fs)) != 0)
		return error;
	fs->lfs_sp = lfs_segalloc(fs);
	if (path != NULL)
		strlcpy(d->dlfs_fsmnt, path, sizeof(d->dlfs_fsmnt));
	if (!told++) {
		long startb, stopb;
		int startn, stopn;

		lfs_thresholds(&startb, &stopb, &startn, &stopn);
		printf("lfs: start write at %ld KB or %d buffers, stop access "
		    "at %ld KB or %d buffers\n", startb / 1024, startn,
		    stopb / 1024, stopn);
	}
	/* On disk, the file system is now in use (not clean). */
	d->dlfs_clean = 0;
	if (!writesb)
		return 0;
	fs->lfs_ckpsb = *d;
	lfs_seglock(fs);
	error = lfs_writesuper(fs, &fs->lfs_ckpsb);
	lfs_segunlock(fs);
	return error;
}

/* A new inode, in core only: the map says LFS_UNASSIGNED until written. */
static int
lfs_newdin(struct ufsmount *ump, ino_t ino, struct dinode *dp)
{
	memset(dp, 0, sizeof(*dp));
	dp->di_inumber = ino;
	return 0;
}

int
lfs_vcreate(struct mount *mp, ino_t ino, u_int32_t version,
    struct vnode **vpp)
{
	struct inode *ip;
	int error;

	error = ufs_vget_common(mp, ino, &lfs_vnodeops, lfs_newdin, vpp);
	if (error)
		return error;
	ip = VTOI(*vpp);
	if (ip->i_mode != 0) {
		printf("lfs_valloc: inode %u is in use\n", (unsigned)ino);
		vrele(*vpp);
		*vpp = NULL;
		return EIO;
	}
	memset(&ip->i_din, 0, sizeof(ip->i_din));
	ip->i_din.di_inumber = ino;
	ip->i_dsize = -1;		/* not on the disk yet */
	ip->i_gen = version;
	ip->i_flag |= IN_MODIFIED;
	(*vpp)->v_flag |= VDIROP;	/* made by a dirop (lfs_valloc) */
	return 0;
}

/* What ufs/ needs to know of this layout, from the superblock. */
static void
lfs_ufsmount(struct ufsmount *ump, const struct dlfs *d)
{
	ump->um_ops = &lfs_ufsops;
	ump->um_nindir = d->dlfs_nindir;
	ump->um_bptrtodb = d->dlfs_fsbtodb;	/* pointers are blocks */
	ump->um_seqinc = 1;
	ump->um_bsize = d->dlfs_bsize;
	ump->um_bshift = d->dlfs_bshift;
	ump->um_maxsymlinklen = d->dlfs_maxsymlinklen;
	ump->um_maxfilesize = d->dlfs_maxfilesize;
	ump->um_nbptr = d->dlfs_size;
	ump->um_unassigned = LFS_UNASSIGNED;
}

/* The ifile's vnode, held for the mount, and how many inodes it maps. */
static int
lfs_openifile(struct lfs *fs, struct mount *mp, const char *fspec)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct vnode *ivp;
	off_t nblk;
	int error;

	if ((error = lfs_vget(mp, LFS_IFILE_INUM, &ivp)) != 0) {
		printf("lfs_mount: %s: cannot read the ifile\n", fspec);
		return error;
	}
	nblk = VTOI(ivp)->i_size >> d->dlfs_bshift;
	fs->lfs_maxino = nblk > d->dlfs_cleansz + d->dlfs_segtabsz ?
	    (nblk - d->dlfs_cleansz - d->dlfs_segtabsz) * d->dlfs_ifpb : 0;
	if (fs->lfs_maxino <= ROOTINO) {
		printf("lfs_mount: %s: the ifile maps no inodes\n", fspec);
		vrele(ivp);
		return EINVAL;
	}
	ivp->v_flag |= VSYSTEM;
	fs->lfs_ivnode = ivp;
	return 0;
}

/*
 * After a crash, mounted read-write: the partial segments after the
 * checkpoint applied (lfs_rfw.c), then a checkpoint that makes them
 * durable; what it did goes to lfs_rfw and the console.
 */
static void
lfs_recover(struct lfs *fs, struct mount *mp, const char *fspec,
    struct lfs_rfw *rf, const struct timeval *t0)
{
	struct timeval t1;

	if (lfs_rfw_blocks(fs, rf) != 0)
		printf("lfs_mount: %s: roll-forward of forced writes "
		    "failed\n", fspec);
	if (lfs_segwrite(mp, SEGM_CKP | SEGM_SYNC | SEGM_RESERVE) != 0)
		printf("lfs_mount: %s: cannot write a checkpoint\n", fspec);
	microtime(&t1);
	fs->lfs_rfw.unclean = 1;
	fs->lfs_rfw.psegs = rf->rf_naccept;
	fs->lfs_rfw.discarded = rf->rf_ndiscard;
	fs->lfs_rfw.ms = (t1.tv_sec - t0->tv_sec) * 1000 +
	    (t1.tv_usec - t0->tv_usec) / 1000;
	printf("lfs: %s: rolled forward %d partial segments, discarded %d "
	    "of an unfinished dirop, in %d ms\n", fspec, rf->rf_naccept,
	    rf->rf_ndiscard, fs->lfs_rfw.ms);
}

static int
lfs_mount(struct mount *mp, const char *path, void *data)
{
	struct ufsmount *ump;
	struct vnode *devvp;
	struct dlfs *d;
	struct lfs *fs;
	char fspec[MNAMELEN];
	int error, crashed, ronly = (mp->mnt_flag & MNT_RDONLY) != 0;
	struct lfs_rfw rf;
	struct timeval t0;
	long psize;

	memset(&rf, 0, sizeof(rf));
	if ((error = ufs_opendev(mp, data, fspec, &devvp)) != 0)
		return error;
	ump = malloc(sizeof(*ump), M_WAITOK | M_ZERO);
	ump->um_lfs = fs = malloc(sizeof(*fs), M_WAITOK | M_ZERO);
	fs->lfs_ump = ump;
	lockinit(&fs->lfs_seglock, "seglock");
	d = &fs->lfs_dlfs;
	if ((error = lfs_findsb(devvp, fspec, d, &fs->lfs_sbaddr)) != 0)
		goto out;
	psize = bdevsw[major(devvp->v_rdev)].d_psize(devvp->v_rdev);
	if (psize > 0 && lfs_fsbtodb(d, d->dlfs_size) > psize) {
		printf("lfs_mount: %s: file system is larger than the "
		    "partition\n", fspec);
		error = EINVAL;
		goto out;
	}
	crashed = !d->dlfs_clean;
	lfs_ufsmount(ump, d);
	ufs_mountattach(mp, ump, devvp, fspec, 3);
	if (crashed) {
		/* The newest ifile the log after the checkpoint holds. */
		microtime(&t0);
		lfs_rfw_scan(fs, &rf);
		if (ronly)
			printf("lfs: %s: not unmounted cleanly; mounting the "
			    "checkpoint read-only, without the %d partial "
			    "segments after it\n", fspec, rf.rf_naccept);
		else if (rf.rf_idaddr != 0)
			d->dlfs_idaddr = rf.rf_idaddr;
	}
	if ((error = lfs_openifile(fs, mp, fspec)) != 0)
		goto out;
	fs->lfs_ronly = ronly;
	TAILQ_INIT(&fs->lfs_inflight);
	TAILQ_INIT(&fs->lfs_txnq);
	TAILQ_INIT(&fs->lfs_txnforce);
	if (!ronly && crashed && (error = lfs_rollforward(fs, &rf)) != 0)
		printf("lfs_mount: %s: roll-forward failed\n", fspec);
	if (!ronly && error == 0 &&
	    (error = lfs_mountrw(fs, path, !crashed)) == 0 && crashed)
		lfs_recover(fs, mp, fspec, &rf, &t0);
	if (error) {
		vrele(fs->lfs_ivnode);
		goto out;
	}
	lfs_rfw_free(&rf);
	return 0;
out:
	lfs_rfw_free(&rf);
	mp->mnt_data = NULL;
	lfs_freemount(ump);
	ufs_closedev(devvp, ronly, 0);
	return error;
}

static int
lfs_unmount(struct mount *mp, int flags)
{
	struct ufsmount *ump = VFSTOUFS(mp);
	struct lfs *fs = ump->um_lfs;
	int error, i;

	/* Its transactions end first (or keep it mounted: EBUSY). */
	if ((error = txn_unmount(fs, flags & MNT_FORCE)) != 0)
		return error;
	/* A cleaner call under way holds vnodes: let it finish (mnt_busy
	 * turns new ones away). */
	while (fs->lfs_calls > 0)
		tsleep(&fs->lfs_calls, 0, "lfscalls", 0);
	/* Written vnodes are let go; freeing an unlinked one dirties more. */
	for (i = 0; !fs->lfs_ronly && i < 4 && lfs_fsdirty(mp); i++)
		lfs_segwrite(mp, SEGM_CKP | SEGM_SYNC | SEGM_RESERVE);
	if ((error = vflush(mp, fs->lfs_ivnode, flags)) != 0)
		return error;
	if (!fs->lfs_ronly)
		lfs_segwrite(mp, SEGM_CKP | SEGM_SYNC | SEGM_RESERVE |
		    SEGM_UNMOUNT);
	/* Cleaners asleep in lfs_segwait leave before the lfs goes. */
	fs->lfs_unmounting = 1;
	while (fs->lfs_cleaners > 0) {
		wakeup(&fs->lfs_cleaners);
		tsleep(&fs->lfs_unmounting, 0, "lfsumnt", hz / 10);
	}
	fs->lfs_ivnode->v_flag &= ~VSYSTEM;
	vgone(fs->lfs_ivnode);
	vrele(fs->lfs_ivnode);
	ufs_closedev(ump->um_devvp, fs->lfs_ronly, 0);
	lfs_freemount(ump);
	mp->mnt_data = NULL;
	return 0;
}

static int
lfs_root(struct mount *mp, struct vnode **vpp)
{
	return lfs_vget(mp, ROOTINO, vpp);
}

static int
lfs_statfs(struct mount *mp, struct statfs *sbp)
{
	struct lfs *fs = VFSTOLFS(mp);
	struct dlfs *d = &fs->lfs_dlfs;
	long reserve = (long)((int64_t)d->dlfs_dsize * d->dlfs_minfree / 100) +
	    (long)d->dlfs_minfreeseg * d->dlfs_ssize +
	    d->dlfs_nfiles / d->dlfs_inopb + 1;	/* the log's inode blocks */

	sbp->f_type = 3;
	sbp->f_bsize = d->dlfs_bsize;
	sbp->f_iosize = d->dlfs_bsize;
	sbp->f_blocks = d->dlfs_dsize;
	sbp->f_bfree = d->dlfs_bfree;
	sbp->f_bavail = d->dlfs_bfree - reserve;
	sbp->f_files = fs->lfs_maxino - ROOTINO;	/* the ifile grows */
	sbp->f_ffree = fs->lfs_maxino - ROOTINO - d->dlfs_nfiles;
	return 0;
}

/* Anything the writer has to write? */
int
lfs_fsdirty(struct mount *mp)
{
	struct lfs *fs = VFSTOLFS(mp);
	struct vnode *vp;

	if (fs->lfs_doneops)
		return 1;
	LIST_FOREACH(vp, &mp->mnt_vnodelist, v_mntvnodes)
		if (vp->v_type != VBAD && (lfs_vdirty(vp) ||
		    (vp->v_flag & (VDIROP | VHELD))))
			return 1;
	return 0;
}

/*
 * sync: a checkpoint, unless nothing changed (an idle LFS stays idle).
 * Waited for only by an unmount (or shutdown), which may use the
 * cleaner's reserve; sync(2) and the update daemon start what fits.
 */
static int
lfs_sync(struct mount *mp, int waitfor)
{
	if ((mp->mnt_flag & MNT_RDONLY) || !lfs_fsdirty(mp))
		return 0;
	return lfs_segwrite(mp, SEGM_CKP |
	    (waitfor ? SEGM_SYNC | SEGM_RESERVE : 0));
}

struct lfs_proc lfs_proc[NPROC];

/* A process goes: the transaction it left running aborts. */
static void
lfs_exit(struct proc *p)
{
	txn_exit(p);
	memset(LFS_PROC(p), 0, sizeof(struct lfs_proc));
}

static void
lfs_init(void)
{
	txn_init();		/* NO-STEAL's limit is the cache's */
	exithook_establish(lfs_exit);
}

const struct vfsops lfs_vfsops = {
	"lfs", lfs_mount, lfs_unmount, lfs_root, lfs_statfs, lfs_sync,
	lfs_vget, lfs_init,
};
