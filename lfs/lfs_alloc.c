/*
 * The ifile in the kernel (thesis 6.3.2; 4.4BSD lfs_alloc.c and the
 * LFS_IENTRY/LFS_SEGENTRY macros): reading and changing its entries,
 * and allocating and freeing inodes through its free list.
 *
 * The ifile is an ordinary file, cached like any other; a changed entry
 * makes its block a dirty LFS buffer, written by the segment writer
 * with the next checkpoint or directory operation.  The writer itself
 * changes entries of blocks it already holds (segment usage, inode
 * addresses); lfs_ifget hands it those directly instead of waiting for
 * a buffer it owns.
 *
 * New inodes come from the free list (dlfs_free, if_nextfree), never a
 * scan; when the list is empty the ifile grows by a block of entries.
 * A freed inode's entry gets a new version, so the cleaner can tell its
 * old blocks are dead.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/proc.h"
#include "kern/i386/cpu.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"

/* Entry idx (size bytes each) of ifile block lbn; NULL on a read error. */
void *
lfs_ifget(struct lfs *fs, daddr_t lbn, int idx, size_t size,
    struct lfs_ifref *r)
{
	struct vnode *ivp = fs->lfs_ivnode;
	struct buf *bp;
	int s = splbio();

	bp = incore(ivp, lbn);
	if (bp != NULL && lockheld(&fs->lfs_seglock) &&
	    (bp->b_flags & (B_BUSY | B_GATHERED)) == (B_BUSY | B_GATHERED)) {
		splx(s);
		r->ir_bp = bp;
		r->ir_ours = 1;
		return bp->b_data + idx * size;
	}
	splx(s);
	if (bread(ivp, lbn, fs->lfs_dlfs.dlfs_bsize, &bp) != 0) {
		printf("lfs: %s: cannot read ifile block %ld\n",
		    fs->lfs_ump->um_fspec, (long)lbn);
		brelse(bp);
		r->ir_bp = NULL;
		return NULL;
	}
	r->ir_bp = bp;
	r->ir_ours = 0;
	return bp->b_data + idx * size;
}

void
lfs_ifput(struct lfs *fs, struct lfs_ifref *r, int changed)
{
	struct buf *bp = r->ir_bp;

	if (bp == NULL)
		return;
	if (r->ir_ours) {
		if (changed)
			lfs_redirty(fs, bp);
	} else if (changed)
		lfs_bwrite(bp);
	else
		brelse(bp);
	r->ir_bp = NULL;
}

/* Inode ino's entry in the inode map. */
int
lfs_ifind(struct lfs *fs, ino_t ino, IFILE *ifp)
{
	struct lfs_ifref r;
	IFILE *p;

	if (ino >= fs->lfs_maxino)
		return EINVAL;
	if ((p = LFS_IENTRY(fs, ino, &r)) == NULL)
		return EIO;
	*ifp = *p;
	lfs_ifput(fs, &r, 0);
	return 0;
}

/* A block more of free IFILE entries at the end of the ifile. */
static int
lfs_extendifile(struct lfs *fs)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct inode *ip = VTOI(fs->lfs_ivnode);
	daddr_t lbn = ip->i_size >> d->dlfs_bshift;
	struct buf *bp;
	IFILE *ifp;
	u_int32_t i;
	ino_t first;
	int error;

	if (fs->lfs_maxino + d->dlfs_ifpb < fs->lfs_maxino)
		return ENOSPC;
	error = lfs_balloc(ip, lbn, d->dlfs_bsize, NULL, B_CLRBUF, &bp);
	if (error)
		return error;
	if ((daddr_t)(ip->i_size >> d->dlfs_bshift) != lbn) {
		brelse(bp);	/* another allocation grew it while we slept */
		return 0;
	}
	first = fs->lfs_maxino;
	ifp = (IFILE *)bp->b_data;
	for (i = 0; i < d->dlfs_ifpb; i++) {
		ifp[i].if_version = 1;
		ifp[i].if_daddr = LFS_UNUSED_DADDR;
		ifp[i].if_nextfree = first + i + 1;
	}
	ifp[d->dlfs_ifpb - 1].if_nextfree = d->dlfs_free;
	ip->i_size += d->dlfs_bsize;
	ip->i_flag |= IN_CHANGE | IN_UPDATE;
	lfs_bwrite(bp);
	fs->lfs_maxino += d->dlfs_ifpb;
	d->dlfs_free = first;
	return 0;
}

/* Put ino back at the head of the free list (its entry in *ifp). */
static void
lfs_pushfree(struct lfs *fs, ino_t ino, IFILE *ifp)
{
	ifp->if_daddr = LFS_UNUSED_DADDR;
	ifp->if_nextfree = fs->lfs_dlfs.dlfs_free;
	fs->lfs_dlfs.dlfs_free = ino;
}

/* A new inode for a file being created in directory pip (a dirop). */
int
lfs_valloc(struct inode *pip, int mode, struct ucred *cred,
    struct vnode **vpp)
{
	struct lfs *fs = ITOLFS(pip);
	struct dlfs *d = &fs->lfs_dlfs;
	struct lfs_ifref r;
	u_int32_t version;
	IFILE *ifp;
	ino_t ino;
	int error;

	*vpp = NULL;
	for (;;) {
		if (d->dlfs_free == 0 && (error = lfs_extendifile(fs)) != 0)
			return error;
		if ((ino = d->dlfs_free) == 0)
			continue;
		if (ino <= LFS_IFILE_INUM || ino >= fs->lfs_maxino) {
			printf("lfs_valloc: %s: free list names inode %u\n",
			    fs->lfs_ump->um_fspec, (unsigned)ino);
			return EIO;
		}
		if ((ifp = LFS_IENTRY(fs, ino, &r)) == NULL)
			return EIO;
		if (ino == d->dlfs_free)
			break;
		/* Another dirop took it while the entry was read: again. */
		lfs_ifput(fs, &r, 0);
	}
	if (ifp->if_daddr != LFS_UNUSED_DADDR) {
		printf("lfs_valloc: %s: inode %u is on the free list and in "
		    "use\n", fs->lfs_ump->um_fspec, (unsigned)ino);
		lfs_ifput(fs, &r, 0);
		return EIO;
	}
	d->dlfs_free = ifp->if_nextfree;
	ifp->if_nextfree = 0;
	ifp->if_daddr = LFS_UNASSIGNED;
	version = ifp->if_version;
	lfs_ifput(fs, &r, 1);
	d->dlfs_nfiles++;
	if ((error = lfs_vcreate(pip->i_ump->um_mountp, ino, version,
	    vpp)) != 0) {
		if ((ifp = LFS_IENTRY(fs, ino, &r)) != NULL) {
			lfs_pushfree(fs, ino, ifp);
			lfs_ifput(fs, &r, 1);
		}
		d->dlfs_nfiles--;
	}
	return error;
}

/* Inode ino is free: a new version, the head of the free list. */
int
lfs_vfree(struct inode *ip, ino_t ino, int mode)
{
	struct lfs *fs = ITOLFS(ip);
	struct lfs_ifref r;
	u_int32_t old;
	IFILE *ifp;

	lfs_ifile_wait(fs);
	if ((ifp = LFS_IENTRY(fs, ino, &r)) == NULL)
		return EIO;
	old = ifp->if_daddr;
	ifp->if_version++;
	lfs_pushfree(fs, ino, ifp);
	lfs_ifput(fs, &r, 1);
	fs->lfs_dlfs.dlfs_nfiles--;
	fs->lfs_doneops = 1;
	lfs_seguse_add(fs, old, -(int32_t)sizeof(struct dinode));
	return 0;
}
