/*
 * In-core inodes: the hash from (device, inode number) to vnode, times,
 * and the end of an inode's life: inactive (last reference dropped: an
 * unlinked file's blocks and inode are freed here, not at unlink, so an
 * open file outlives its name) and reclaim (the vnode is reused).
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/malloc.h"
#include "kern/buf.h"
#include "kern/proc.h"
#include "kern/i386/cpu.h"
#include "ufs/inode.h"
#include "ufs/ufs_extern.h"
#include <sys/time.h>

#define IHSIZE	256
static LIST_HEAD(, inode) ihashtbl[IHSIZE];
#define INOHASH(dev, ino)	(&ihashtbl[((dev) + (ino)) & (IHSIZE - 1)])

/*
 * The cached vnode of inode ino, referenced, or NULL.  One still being
 * read in (VLOADING) is waited for: its dinode is not there yet, and if
 * the read fails the vnode is left VBAD, its inode gone.  One being
 * recycled (VXLOCK: vgone writing its buffers) is waited for too, then
 * looked for again: it leaves the hash, and the inode is read afresh.
 */
struct vnode *
ufs_ihashget(dev_t dev, ino_t ino)
{
	struct inode *ip;
	struct vnode *vp;

loop:
	LIST_FOREACH(ip, INOHASH(dev, ino), i_hash) {
		if (ip->i_dev != dev || ip->i_number != ino)
			continue;
		vp = ITOV(ip);
		if (vp->v_flag & VXLOCK) {
			vp->v_flag |= VXWANT;
			tsleep(vp, 0, "vgone", 0);
			goto loop;
		}
		vget(vp);
		while (vp->v_flag & VLOADING)
			tsleep(vp, 0, "iload", 0);
		if (vp->v_type == VBAD) {
			vrele(vp);
			goto loop;	/* the read failed: try it afresh */
		}
		return vp;
	}
	return NULL;
}

void
ufs_ihashins(struct inode *ip)
{
	LIST_INSERT_HEAD(INOHASH(ip->i_dev, ip->i_number), ip, i_hash);
}

void
ufs_ihashrem(struct inode *ip)
{
	if (ip->i_hash.le_prev != NULL)
		LIST_REMOVE(ip, i_hash);
}

/* Turn pending IN_ACCESS/CHANGE/UPDATE into times. */
void
ufs_itimes(struct inode *ip)
{
	struct timeval tv;

	if (!(ip->i_flag & (IN_ACCESS | IN_CHANGE | IN_UPDATE)))
		return;
	microtime(&tv);
	if (ip->i_flag & IN_ACCESS) {
		ip->i_din.di_atime = tv.tv_sec;
		ip->i_din.di_atimensec = tv.tv_usec * 1000;
	}
	if (ip->i_flag & IN_UPDATE) {
		ip->i_din.di_mtime = tv.tv_sec;
		ip->i_din.di_mtimensec = tv.tv_usec * 1000;
	}
	if (ip->i_flag & IN_CHANGE) {
		ip->i_din.di_ctime = tv.tv_sec;
		ip->i_din.di_ctimensec = tv.tv_usec * 1000;
	}
	ip->i_flag &= ~(IN_ACCESS | IN_CHANGE | IN_UPDATE);
	ip->i_flag |= IN_MODIFIED;
}

/* Set a new vnode's type from its inode; devices get the spec ops. */
void
ufs_vinit(struct vnode *vp)
{
	struct inode *ip = VTOI(vp);

	vp->v_type = iftovt(ip->i_mode);
	if (vp->v_type == VCHR || vp->v_type == VBLK) {
		vp->v_op = &ufs_specops;
		vp->v_rdev = ip->i_rdev;
	}
	if (ip->i_number == ROOTINO)
		vp->v_flag |= VROOT;
}

int
ufs_inactive(struct vnode *vp)
{
	struct inode *ip = VTOI(vp);
	int mode, error = 0;

	if (ip == NULL || ip->i_mode == 0)
		return 0;
	if (ip->i_nlink <= 0 && !(vp->v_mount->mnt_flag & MNT_RDONLY)) {
		vn_lock(vp);
		error = UFS_TRUNCATE(ip, 0, NULL);
		ip->i_din.di_rdev = 0;
		mode = ip->i_mode;
		ip->i_mode = 0;
		ip->i_flag |= IN_CHANGE | IN_UPDATE;
		UFS_VFREE(ip, ip->i_number, mode);
		VOP_UNLOCK(vp);
	}
	if (ip->i_flag & (IN_ACCESS | IN_CHANGE | IN_MODIFIED | IN_UPDATE))
		UFS_UPDATE(ip, 0);
	return error;
}

int
ufs_reclaim(struct vnode *vp)
{
	struct inode *ip = VTOI(vp);

	if (ip == NULL)
		return 0;
	if (ip->i_flag & (IN_ACCESS | IN_CHANGE | IN_MODIFIED | IN_UPDATE))
		UFS_UPDATE(ip, 0);
	ufs_ihashrem(ip);
	free(ip);
	vp->v_data = NULL;
	return 0;
}

/*
 * Drop the cached blocks of vp a truncation removed: the data blocks past
 * lastblock and, with indirects, every indirect block.  Busy ones are
 * waited for; drop(bp) gets each one busy, off its queue, to release (the
 * layout's way: FFS forgets it, LFS also takes back its promise of log
 * space).
 */
void
ufs_truncbuf(struct vnode *vp, daddr_t lastblock, int indirects,
    void (*drop)(struct buf *))
{
	struct buf *bp, *next;
	int pass, s;

	for (pass = 0; pass < 2; pass++) {
restart:
		s = splbio();
		bp = pass ? LIST_FIRST(&vp->v_dirtyblkhd) :
		    LIST_FIRST(&vp->v_cleanblkhd);
		for (; bp; bp = next) {
			next = LIST_NEXT(bp, b_vnbufs);
			if (bp->b_lblkno < 0 ? !indirects :
			    bp->b_lblkno <= lastblock)
				continue;
			if (bp->b_flags & B_BUSY) {
				bp->b_flags |= B_WANTED;
				tsleep(bp, 0, "truncbuf", 0);
				splx(s);
				goto restart;
			}
			bremfree(bp);
			bp->b_flags |= B_BUSY;
			splx(s);
			drop(bp);
			goto restart;
		}
		splx(s);
	}
}

/*
 * The common end of each layout's blkatoff, which has read the block
 * holding byte offset (or failed to: error): no buffer on an error, and
 * in *res where the offset is in it.
 */
int
ufs_blkatoff_end(struct inode *ip, off_t offset, int error, char **res,
    struct buf **bpp)
{
	if (error) {
		brelse(*bpp);
		*bpp = NULL;
		return error;
	}
	if (res)
		*res = (*bpp)->b_data + (offset & (ip->i_ump->um_bsize - 1));
	return 0;
}
