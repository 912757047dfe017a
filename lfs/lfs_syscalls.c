/*
 * The cleaner's system calls (thesis 6.4, table 6-4; 4.4BSD
 * lfs_syscalls.c).  lfs_cleanerd reads the ifile and raw segments
 * itself; the kernel only answers what is live and moves it:
 *
 *   lfs_bmapv(fsid, BLOCK_INFO[], n)   where each block (or inode) lives
 *                                      now; 0 if it is dead
 *   lfs_markv(fsid, BLOCK_INFO[], n)   rewrite the blocks still live
 *                                      where the cleaner found them, from
 *                                      the cleaner's copies, without
 *                                      touching their times, in partial
 *                                      segments of their own (SS_CLEAN)
 *                                      at the log's cold head; the
 *                                      segment keeps bi_segcreate, the
 *                                      age of the data it came from
 *   lfs_segwait(fsid, timeval)         sleep until there is work, or the
 *                                      timeout (NULL: none)
 *   lfs_segclean(fsid, segno)          the segment holds nothing live:
 *                                      it is clean again
 *
 * A cleaned segment may be reused only once no checkpoint needs it:
 * lfs_segclean first writes a checkpoint if the cleaner's blocks were
 * written after the last one, so a crash during cleaning loses nothing.
 * The cleaner's writes may use the segments kept in reserve for it
 * (LFS_MINFREESEG); nothing it does waits for free space.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/proc.h"
#include "kern/malloc.h"
#include "kern/syscallargs.h"
#include "kern/uio.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"
#include "lfs/lfs_txn.h"
#include <sys/time.h>

/*
 * The LFS whose statfs f_fsid is *ufsid (a user address), held until
 * lfs_fsidrele: an unmount waits for the calls under way (they hold its
 * vnodes and its ifile) and refuses new ones (EBUSY).  rw: a cleaner's
 * call, which needs the mount writable and shows a cleaner alive; its
 * process's writes (its sync) may use the cleaner's reserve from now on.
 */
int
lfs_fsidmount(const fsid_t *ufsid, struct mount **mpp, int rw)
{
	struct mount *mp;
	fsid_t fsid;
	int error;

	if ((error = copyin(ufsid, &fsid, sizeof(fsid))) != 0)
		return error;
	TAILQ_FOREACH(mp, &mountlist, mnt_list) {
		if (mp->mnt_op != &lfs_vfsops ||
		    mp->mnt_stat.f_fsid.val[0] != fsid.val[0] ||
		    mp->mnt_stat.f_fsid.val[1] != fsid.val[1])
			continue;
		if (mp->mnt_busy || VFSTOLFS(mp)->lfs_unmounting)
			return EBUSY;
		if (rw && (mp->mnt_flag & MNT_RDONLY))
			return EROFS;
		*mpp = mp;
		if (rw) {
			VFSTOLFS(mp)->lfs_cleanerseen = lfs_time();
			LFS_PROC(curproc)->lp_cleaner = 1;
		}
		VFSTOLFS(mp)->lfs_calls++;
		return 0;
	}
	return ENOENT;
}

void
lfs_fsidrele(struct mount *mp)
{
	struct lfs *fs = VFSTOLFS(mp);

	if (--fs->lfs_calls == 0 && mp->mnt_busy)
		wakeup(&fs->lfs_calls);
}

/* Copy in a cleaner's BLOCK_INFO array (at most four segments' worth). */
static int
lfs_getbinfo(struct lfs *fs, BLOCK_INFO *ubip, int n, BLOCK_INFO **bipp)
{
	int error;

	if (n < 0 || n > 4 * (int)fs->lfs_dlfs.dlfs_ssize)
		return EINVAL;
	*bipp = malloc((n + 1) * sizeof(**bipp), M_WAITOK);
	if ((error = copyin(ubip, *bipp, n * sizeof(**bipp))) != 0)
		free(*bipp);
	return error;
}

/*
 * Where bip's block (or inode, bi_lbn LFS_UNUSED_LBN) lives now: 0 if
 * its file was freed or reused (another version) or it has no block
 * there.  With vpp, the file's vnode is returned referenced.
 */
static u_int32_t
lfs_curaddr(struct mount *mp, BLOCK_INFO *bip, struct vnode **vpp)
{
	struct lfs *fs = VFSTOLFS(mp);
	struct vnode *vp;
	daddr_t sector;
	u_int32_t addr = 0;
	IFILE ife;

	if (vpp)
		*vpp = NULL;
	if (lfs_ifind(fs, bip->bi_inode, &ife) != 0 ||
	    ife.if_daddr == LFS_UNUSED_DADDR ||
	    ife.if_version != bip->bi_version)
		return 0;
	if (bip->bi_lbn == LFS_UNUSED_LBN)
		addr = ife.if_daddr;
	if (bip->bi_inode == LFS_IFILE_INUM && bip->bi_lbn == LFS_UNUSED_LBN)
		addr = fs->lfs_dlfs.dlfs_idaddr;
	if (lfs_vget(mp, bip->bi_inode, &vp) != 0)
		return 0;
	if (bip->bi_lbn != LFS_UNUSED_LBN &&
	    ufs_bmaparray(vp, bip->bi_lbn, &sector, NULL) == 0 && sector > 0)
		addr = lfs_dbtofsb(&fs->lfs_dlfs, sector);
	if (vpp && addr != 0)
		*vpp = vp;
	else
		vrele(vp);
	return addr;
}

static int
lfs_bmapv(struct mount *mp, struct lfs_bmapv_args *uap)
{
	BLOCK_INFO *bi;
	int i, error;

	if ((error = lfs_getbinfo(VFSTOLFS(mp), uap->blkiov, uap->blkcnt,
	    &bi)) != 0)
		return error;
	for (i = 0; i < uap->blkcnt; i++)
		bi[i].bi_daddr = lfs_curaddr(mp, &bi[i], NULL);
	error = copyout(bi, uap->blkiov, uap->blkcnt * sizeof(*bi));
	free(bi);
	return error;
}

/* Put the cleaner's copy of a live block in the cache, dirty. */
static int
lfs_markblock(struct lfs *fs, struct vnode *vp, BLOCK_INFO *bip)
{
	struct buf *bp = getblk(vp, bip->bi_lbn, fs->lfs_dlfs.dlfs_bsize);
	daddr_t sector;
	int error;

	if ((bp->b_flags & B_TXN) || txn_page_pinned(bp)) {
		/*
		 * A running transaction's page: the copy on disk is its
		 * before-image, which an abort needs; it stays where it is,
		 * and so does its segment (thesis 5.2.5.1's cleaner rule).
		 * So does a pre-committed one's, until its group's write.
		 */
		brelse(bp);
		return EBUSY;
	}
	if (bp->b_flags & B_DELWRI) {
		brelse(bp);		/* newer data will be written anyway */
		return 0;
	}
	if (!(bp->b_flags & B_DONE) || (bp->b_flags & B_INVAL)) {
		/*
		 * getblk may have slept, and the block been rewritten
		 * elsewhere meanwhile: the cleaner's copy is good only if the
		 * block is still where it was read (with the buffer busy, it
		 * stays there).
		 */
		if (ufs_bmaparray(vp, bip->bi_lbn, &sector, NULL) != 0 ||
		    sector <= 0 ||
		    lfs_dbtofsb(&fs->lfs_dlfs, sector) != bip->bi_daddr) {
			bp->b_flags |= B_INVAL;
			brelse(bp);
			return 0;
		}
		error = copyin(bip->bi_bp, bp->b_data, fs->lfs_dlfs.dlfs_bsize);
		if (error) {
			bp->b_flags |= B_INVAL;
			brelse(bp);
			return error;
		}
	}
	bp->b_flags |= B_CLEANCOPY;	/* for the cold head */
	return lfs_bwrite(bp);
}

static int
lfs_markv(struct mount *mp, struct lfs_markv_args *uap, int *retval)
{
	struct lfs *fs = VFSTOLFS(mp);
	struct vnode *vp, **vps;
	BLOCK_INFO *bi;
	u_int32_t age = 0;
	int i, j, n = 0, busy = 0, error;

	if ((error = lfs_getbinfo(fs, uap->blkiov, uap->blkcnt, &bi)) != 0)
		return error;
	if (!lfs_cleaner_fits(fs, uap->blkcnt)) {
		free(bi);
		return ENOSPC;		/* no room left to move them to */
	}
	if (fs->lfs_coldlost) {
		/*
		 * The cold head chooses again, and a checkpoint says where
		 * before it writes there.  With no clean segment left for it,
		 * the copies go to the hot head (lfs_writecold): refusing them
		 * would leave the cleaner nothing to free the log with.
		 */
		lfs_seglock(fs);
		error = lfs_pickcold(fs);
		lfs_segunlock(fs);
		if (error == 0 && !fs->lfs_coldlost)
			error = lfs_segwrite(mp, SEGM_CKP | SEGM_SYNC);
		if (error != 0) {
			free(bi);
			return error;
		}
	}
	vps = malloc((uap->blkcnt + 1) * sizeof(*vps), M_WAITOK);
	fs->lfs_marking++;
	for (i = 0; i < uap->blkcnt && error == 0; i++) {
		if (lfs_curaddr(mp, &bi[i], &vp) != bi[i].bi_daddr ||
		    vp == NULL) {
			if (vp)
				vrele(vp);
			continue;	/* dead: moved, deleted or rewritten */
		}
		if (bi[i].bi_segcreate > age)
			age = bi[i].bi_segcreate;	/* its data's youngest */
		if (bi[i].bi_lbn == LFS_UNUSED_LBN)
			VTOI(vp)->i_flag |= IN_MODIFIED;	/* times kept */
		else if ((error = lfs_markblock(fs, vp, &bi[i])) == EBUSY) {
			busy = 1;	/* the rest still move */
			error = 0;
		}
		(*retval)++;
		for (j = 0; j < n && vps[j] != vp; j++)
			continue;
		if (j < n)
			vrele(vp);
		else
			vps[n++] = vp;
	}
	free(bi);
	if (n > 0) {
		int e;

		fs->lfs_cleanage = age;
		e = lfs_segwrite_vnodes(mp, SEGM_CLEAN | SEGM_SYNC, vps, n);
		fs->lfs_cleanage = 0;

		if (error == 0)
			error = e;
		fs->lfs_cleanserial = fs->lfs_dlfs.dlfs_serial;
	}
	if (--fs->lfs_marking == 0)
		wakeup(&fs->lfs_marking);	/* lfs_balloc waits for its copies */
	for (i = 0; i < n; i++)
		vrele(vps[i]);
	free(vps);
	return error ? error : busy ? EBUSY : 0;
}

static int
lfs_segclean(struct mount *mp, u_int32_t sn)
{
	struct lfs *fs = VFSTOLFS(mp);
	struct dlfs *d = &fs->lfs_dlfs;
	struct lfs_ifref r;
	SEGUSE *sup;
	int error = 0;

	if (sn >= d->dlfs_nseg)
		return EINVAL;
	/* No checkpoint may still need what was in it. */
	if (fs->lfs_ckpserial < fs->lfs_cleanserial &&
	    (error = lfs_segwrite(mp, SEGM_CKP | SEGM_SYNC)) != 0)
		return error;
	lfs_ifile_wait(fs);
	if (lfs_isheadseg(fs, sn))
		return EBUSY;
	if ((sup = LFS_SEGENTRY(fs, sn, &r)) == NULL)
		return EIO;
	if (!(sup->su_flags & SEGUSE_DIRTY))
		error = EALREADY;
	else if (sup->su_flags & SEGUSE_ACTIVE)
		error = EBUSY;		/* written since the last checkpoint */
	else if (sup->su_nbytes != 0)
		error = EBUSY;		/* still holds live data */
	if (error) {
		lfs_ifput(fs, &r, 0);
		return error;
	}
	sup->su_flags &= ~(SEGUSE_DIRTY | SEGUSE_CLEANING);
	sup->su_nsums = sup->su_ninos = 0;
	lfs_ifput(fs, &r, 1);
	d->dlfs_avail += lfs_sntod(d, sn + 1) - lfs_sbfirstblock(d, sn);
	fs->lfs_nclean++;
	fs->lfs_ndirty--;
	fs->lfs_stats.segs_cleaned++;
	wakeup(&d->dlfs_avail);
	return 0;
}

/* The cleaner's calls: root only, on a held mount (lfs_fsidmount). */
int
sys_lfs_bmapv(struct proc *p, struct lfs_bmapv_args *uap, int *retval)
{
	struct mount *mp;
	int error;

	if ((error = suser(p)) != 0 ||
	    (error = lfs_fsidmount(uap->fsidp, &mp, 1)) != 0)
		return error;
	error = lfs_bmapv(mp, uap);
	lfs_fsidrele(mp);
	return error;
}

int
sys_lfs_markv(struct proc *p, struct lfs_markv_args *uap, int *retval)
{
	struct mount *mp;
	int error;

	if ((error = suser(p)) != 0 ||
	    (error = lfs_fsidmount(uap->fsidp, &mp, 1)) != 0)
		return error;
	error = lfs_markv(mp, uap, retval);
	lfs_fsidrele(mp);
	return error;
}

int
sys_lfs_segclean(struct proc *p, struct lfs_segclean_args *uap, int *retval)
{
	struct mount *mp;
	int error;

	if ((error = suser(p)) != 0 ||
	    (error = lfs_fsidmount(uap->fsidp, &mp, 1)) != 0)
		return error;
	error = lfs_segclean(mp, uap->segment);
	lfs_fsidrele(mp);
	return error;
}

int
sys_lfs_segwait(struct proc *p, struct lfs_segwait_args *uap, int *retval)
{
	struct mount *mp;
	struct lfs *fs;
	struct timeval tv;
	int error, timo = 0;

	if ((error = suser(p)) != 0)
		return error;
	if (uap->tv != NULL) {
		if ((error = copyin(uap->tv, &tv, sizeof(tv))) != 0)
			return error;
		if (tv.tv_sec < 0 || tv.tv_usec < 0)
			return EINVAL;
		timo = tv.tv_sec > 100000 ? 100000 * hz :
		    tv.tv_sec * hz + tv.tv_usec / (1000000 / hz);
		if (timo == 0)
			timo = 1;
	}
	if ((error = lfs_fsidmount(uap->fsidp, &mp, 1)) != 0)
		return error;
	fs = VFSTOLFS(mp);
	/* Asleep, it holds nothing: counted apart, woken at unmount. */
	lfs_fsidrele(mp);
	/* A pass ended: writers waiting for it look at what it made. */
	fs->lfs_cleanerpass++;
	wakeup(&fs->lfs_dlfs.dlfs_avail);
	fs->lfs_cleaners++;
	error = tsleep(&fs->lfs_cleaners, PCATCH, "segwait", timo);
	fs->lfs_cleaners--;
	fs->lfs_cleanerseen = lfs_time();
	if (fs->lfs_unmounting) {
		wakeup(&fs->lfs_unmounting);
		return ENOENT;		/* the file system is going away */
	}
	return error == EWOULDBLOCK ? 0 : error;
}
