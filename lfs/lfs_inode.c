/*
 * LFS inodes in the cache (4.4BSD lfs_inode.c): lfs_update, which
 * writes nothing (the inode goes to disk with the next segment write,
 * in an inode block of its partial segment), lfs_truncate, and
 * lfs_inactive, which keeps a changed vnode out of reuse until the
 * writer has written it.
 *
 * Truncation needs no write ordering here: nothing is overwritten in
 * place, and the blocks it frees are only counted free (dlfs_bfree, the
 * segment usage table); the space comes back when the cleaner cleans
 * their segments.  Cached blocks past the end are dropped, and a dirty
 * one gives back its promise of lfs_avail.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/proc.h"
#include "kern/i386/cpu.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"

#define SINGLE	0
#define DOUBLE	1
#define TRIPLE	2

int
lfs_update(struct inode *ip, int waitfor)
{
	ufs_itimes(ip);
	if (ITOV(ip)->v_mount->mnt_flag & MNT_RDONLY)
		ip->i_flag &= ~IN_MODIFIED;
	return 0;
}

/* Does vp hold changes the segment writer has not written? */
int
lfs_vdirty(struct vnode *vp)
{
	struct inode *ip = VTOI(vp);

	return ip != NULL && ((ip->i_flag & (IN_ACCESS | IN_CHANGE |
	    IN_UPDATE | IN_MODIFIED | IN_DATAONLY)) ||
	    !LIST_EMPTY(&vp->v_dirtyblkhd));
}

/*
 * The last reference is gone.  An unlinked file is freed (ufs_inactive),
 * as a dirop, so no checkpoint takes it half truncated.  A vnode with
 * unwritten changes must not be reused (its inode would be lost with
 * it), so it keeps one reference (VHELD) that the segment writer drops
 * once it has written it.
 */
int
lfs_inactive(struct vnode *vp)
{
	struct inode *ip = VTOI(vp);
	int error, dirop;

	dirop = ip != NULL && ip->i_nlink <= 0 && ip->i_mode != 0 &&
	    !(vp->v_mount->mnt_flag & MNT_RDONLY) &&
	    lfs_dirop_begin(vp, 1) == 0;
	error = ufs_inactive(vp);
	if (dirop)
		lfs_dirop_end(vp);

	if (!(vp->v_mount->mnt_flag & MNT_RDONLY) && !(vp->v_flag & VHELD) &&
	    lfs_vdirty(vp)) {
		vp->v_flag |= VHELD;
		vp->v_usecount++;
		ITOLFS(VTOI(vp))->lfs_nheld++;
	}
	return error;
}

/*
 * Vnodes held for unwritten changes (lfs_inactive) cannot be reused;
 * when they are a quarter of the table, write them so they can go.  Not
 * from inside a dirop, whose end the writer would wait for.
 */
void
lfs_checkheld(struct mount *mp)
{
	struct lfs *fs = VFSTOLFS(mp);

	if (fs->lfs_nheld > desiredvnodes / 4 && !lockbusy(&fs->lfs_seglock) &&
	    curproc != NULL && LFS_PROC(curproc)->lp_dirop == 0 &&
	    !(mp->mnt_flag & MNT_RDONLY))
		lfs_segwrite(mp, 0);
}

/* A block of the file is gone: its space is no longer live. */
void
lfs_blkfree(struct inode *ip, int32_t *ptr)
{
	struct lfs *fs = ITOLFS(ip);
	int32_t daddr = *ptr;

	if (daddr == 0)
		return;
	/*
	 * The pointer goes first: lfs_seguse_add may sleep, and the writer
	 * moving the block meanwhile would count it live in its new segment
	 * while this subtracts it from the old one.
	 */
	*ptr = 0;
	if (daddr > 0)
		lfs_seguse_add(fs, daddr, -(int32_t)fs->lfs_dlfs.dlfs_bsize);
	fs->lfs_dlfs.dlfs_bfree++;
	ip->i_blocks -= btodb(fs->lfs_dlfs.dlfs_bsize);
	if (ip->i_blocks < 0)
		ip->i_blocks = 0;
	/*
	 * After the change, not before it: the writer may have copied the
	 * inode while this slept, and cleared the flags the truncation set.
	 */
	ip->i_flag |= IN_MODIFIED;
}

/*
 * Free what the indirect block at *ptr (logical block ilbn, level
 * levels above the data, mapping data blocks from base) holds past
 * lastblock, and the block itself if nothing of it stays.
 */
static int
lfs_indirtrunc(struct inode *ip, daddr_t ilbn, int32_t *ptr, daddr_t base,
    int level, daddr_t lastblock)
{
	struct lfs *fs = ITOLFS(ip);
	struct ufsmount *ump = ip->i_ump;
	struct vnode *vp = ITOV(ip);
	struct indir a[NIADDR + 2];
	daddr_t factor = 1, first;
	int i, num, error, changed = 0;
	struct buf *bp;
	int32_t *bap;

	if (*ptr == 0)
		return 0;
	for (i = 0; i < level; i++)
		factor *= ump->um_nindir;
	error = ufs_getindir(vp, ilbn, (daddr_t)*ptr << ump->um_bptrtodb, &bp);
	if (error)
		return error;
	bap = (int32_t *)bp->b_data;
	for (i = ump->um_nindir - 1; i >= 0; i--) {
		first = base + i * factor;
		if (first + factor - 1 <= lastblock)
			break;			/* kept, and all before it */
		if (bap[i] == 0)
			continue;
		changed = 1;
		if (level == SINGLE) {
			lfs_blkfree(ip, &bap[i]);
			continue;
		}
		/* The child's name: its place on the path to first. */
		if ((error = ufs_getlbns(ump, first, a, &num)) != 0)
			break;
		error = lfs_indirtrunc(ip, a[num - level].in_lbn, &bap[i],
		    first, level - 1, lastblock);
		if (error)
			break;
	}
	if (base > lastblock && error == 0) {
		lfs_discard(fs, bp);		/* nothing of it stays */
		lfs_blkfree(ip, ptr);
	} else if (changed)
		lfs_bwrite(bp);
	else
		brelse(bp);
	return error;
}

static void
lfs_dropbuf(struct buf *bp)
{
	lfs_discard(VFSTOLFS(bp->b_vp->v_mount), bp);
}

static int lfs_freeblocks(struct inode *, daddr_t lastblock);

int
lfs_truncate(struct inode *ip, off_t length, struct ucred *cred)
{
	struct lfs *fs = ITOLFS(ip);
	struct ufsmount *ump = ip->i_ump;
	struct vnode *vp = ITOV(ip);
	int bsize = ump->um_bsize, offset, error;
	off_t osize = ip->i_size;
	struct buf *bp;
	daddr_t lbn;

	KASSERT(VOP_ISLOCKED(vp));
	if (length < 0)
		return EINVAL;
	if (vp->v_flag & VSYSTEM)
		return EPERM;			/* the ifile only grows */
	if (vp->v_type == VLNK && osize < (off_t)ump->um_maxsymlinklen &&
	    ip->i_blocks == 0) {
		memset(ip->i_shortlink, 0, osize);
		ip->i_size = 0;
		ip->i_flag |= IN_CHANGE | IN_UPDATE;
		return 0;
	}
	if (length > osize) {
		/* Lengthen: make the last byte's block; the rest are holes. */
		lbn = (length - 1) >> ump->um_bshift;
		error = lfs_balloc(ip, lbn, bsize, cred, B_CLRBUF, &bp);
		if (error)
			return error;
		ip->i_size = length;
		lfs_bwrite(bp);
		ip->i_flag |= IN_CHANGE | IN_UPDATE;
		return 0;
	}
	lfs_ifile_wait(fs);
	ip->i_dsize = -1;	/* the next write of it carries the inode */
	/* Zero the kept tail of a partial last block. */
	offset = length & (bsize - 1);
	if (offset != 0) {
		lbn = length >> ump->um_bshift;
		error = lfs_balloc(ip, lbn, offset, cred, B_CLRBUF, &bp);
		if (error)
			return error;
		memset(bp->b_data + offset, 0, bsize - offset);
		lfs_bwrite(bp);
	}
	ip->i_size = length;
	ip->i_flag |= IN_CHANGE | IN_UPDATE;
	return lfs_freeblocks(ip, ((length + bsize - 1) >> ump->um_bshift) - 1);
}

/*
 * An aborted transaction's file goes back to its size before it
 * (lfs_txnundo.c): the blocks past it go; the bytes past it in its last
 * block are as on the disk, where that block is as committed (zeros).
 */
int
lfs_restoresize(struct inode *ip, off_t length)
{
	struct ufsmount *ump = ip->i_ump;

	lfs_ifile_wait(ITOLFS(ip));
	ip->i_size = length;
	ip->i_flag |= IN_CHANGE | IN_UPDATE;
	return lfs_freeblocks(ip, ((length + ump->um_bsize - 1) >>
	    ump->um_bshift) - 1);
}

/* Free ip's blocks past lastblock, and drop their cached buffers. */
static int
lfs_freeblocks(struct inode *ip, daddr_t lastblock)
{
	struct ufsmount *ump = ip->i_ump;
	daddr_t base[NIADDR], ilbn[NIADDR];
	int level, i, error, allerror = 0;

	for (i = NDADDR - 1; i > lastblock; i--)
		lfs_blkfree(ip, &ip->i_db[i]);
	base[SINGLE] = NDADDR;
	ilbn[SINGLE] = -NDADDR;
	for (level = SINGLE + 1; level <= TRIPLE; level++) {
		daddr_t span = 1;

		for (i = 0; i < level; i++)
			span *= ump->um_nindir;
		base[level] = base[level - 1] + span;
		ilbn[level] = ilbn[level - 1] - span - 1;
	}
	for (level = TRIPLE; level >= SINGLE; level--) {
		error = lfs_indirtrunc(ip, ilbn[level], &ip->i_ib[level],
		    base[level], level, lastblock);
		if (error)
			allerror = error;
	}
	ufs_truncbuf(ITOV(ip), lastblock, 0, lfs_dropbuf); /* indirects: above */
	return allerror;
}
