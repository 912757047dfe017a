/*
 * FFS inodes on disk: writing the inode (ffs_update), freeing a file's
 * blocks (ffs_truncate).
 *
 * Truncation order (4.4BSD): the inode with its shortened pointers is
 * written first, synchronously, and only then are the blocks freed, so
 * a crash can leave blocks unclaimed (fsck returns them) but never
 * claimed twice.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/malloc.h"
#include "kern/proc.h"
#include "kern/i386/cpu.h"
#include "ffs/ffs_extern.h"

#define SINGLE	0
#define DOUBLE	1
#define TRIPLE	2

int
ffs_update(struct inode *ip, int waitfor)
{
	struct fs *fs = ITOFS(ip);
	struct buf *bp;
	int error;

	ufs_itimes(ip);
	if (!(ip->i_flag & IN_MODIFIED))
		return 0;
	ip->i_flag &= ~IN_MODIFIED;
	if (ITOV(ip)->v_mount->mnt_flag & MNT_RDONLY)
		return 0;
	error = bread(ip->i_ump->um_devvp,
	    fsbtodb(fs, ino_to_fsba(fs, ip->i_number)), fs->fs_bsize, &bp);
	if (error) {
		brelse(bp);
		return error;
	}
	((struct dinode *)bp->b_data)[ino_to_fsbo(fs, ip->i_number)] =
	    ip->i_din;
	if (waitfor)
		return bwrite(bp);
	bdwrite(bp);
	return 0;
}

/*
 * Free the blocks below indirect block lbn (at disk address dbn, a
 * fragment number) after index lastbn (-1: all of them), level levels
 * above the data.  Returns the sectors released in *countp.
 */
static int
ffs_indirtrunc(struct inode *ip, daddr_t lbn, daddr_t dbn, daddr_t lastbn,
    int level, long *countp)
{
	struct fs *fs = ITOFS(ip);
	struct vnode *vp = ITOV(ip);
	long factor = 1, blocksreleased = 0, blkcount;
	daddr_t last = lastbn, nb, nlbn;
	ufs_daddr_t *bap, *copy;
	struct buf *bp;
	int i, error, allerror = 0;

	for (i = SINGLE; i < level; i++)
		factor *= NINDIR(fs);
	if (lastbn > 0)
		last /= factor;
	if (ffs_badblk(ip, dbn, fs->fs_bsize)) {
		*countp = 0;
		return EIO;
	}
	if ((error = ufs_getindir(vp, lbn, fsbtodb(fs, dbn), &bp)) != 0) {
		*countp = 0;
		return error;
	}
	/* Keep a copy, clear the freed pointers on disk, then free. */
	copy = malloc(fs->fs_bsize, M_WAITOK);
	memcpy(copy, bp->b_data, fs->fs_bsize);
	bap = (ufs_daddr_t *)bp->b_data;
	memset(&bap[last + 1], 0,
	    (NINDIR(fs) - (last + 1)) * sizeof(ufs_daddr_t));
	if (last == -1)
		bp->b_flags |= B_INVAL;
	allerror = bwrite(bp);
	bap = copy;

	for (i = NINDIR(fs) - 1, nlbn = lbn + 1 - i * factor; i > last;
	    i--, nlbn += factor) {
		nb = bap[i];
		if (nb == 0)
			continue;
		if (level > SINGLE) {
			error = ffs_indirtrunc(ip, nlbn, nb, -1, level - 1,
			    &blkcount);
			if (error)
				allerror = error;
			blocksreleased += blkcount;
		}
		ffs_blkfree(ip, nb, fs->fs_bsize);
		blocksreleased += btodb(fs->fs_bsize);
	}
	/* The partly kept block below, if any. */
	if (level > SINGLE && lastbn >= 0) {
		last = lastbn % factor;
		nb = bap[i];
		if (nb != 0) {
			error = ffs_indirtrunc(ip, nlbn, nb, last, level - 1,
			    &blkcount);
			if (error)
				allerror = error;
			blocksreleased += blkcount;
		}
	}
	free(copy);
	*countp = blocksreleased;
	return allerror;
}

/* Forget a cached block of a file: it is being freed, never to be written. */
void
ffs_dropbuf(struct buf *bp)
{
	bp->b_flags |= B_INVAL;
	bp->b_flags &= ~B_DELWRI;
	brelse(bp);
}

/* Drop cached blocks of vp past lastblock and every indirect block. */
static void
ffs_truncbuf(struct vnode *vp, daddr_t lastblock)
{
	vflushbuf(vp, 1);
	ufs_truncbuf(vp, lastblock, 1, ffs_dropbuf);
}

int
ffs_truncate(struct inode *ip, off_t length, struct ucred *cred)
{
	struct fs *fs = ITOFS(ip);
	struct vnode *vp = ITOV(ip);
	ufs_daddr_t oldblks[NDADDR + NIADDR];
	daddr_t lastblock, lastiblock[NIADDR], indir_lbn[NIADDR], lbn, bn;
	long blocksreleased = 0, count;
	int offset, size, level, i, error, allerror = 0;
	off_t osize = ip->i_size;
	struct buf *bp;

	KASSERT(VOP_ISLOCKED(vp));
	if (length < 0)
		return EINVAL;
	if (vp->v_type == VLNK && osize < (off_t)ip->i_ump->um_maxsymlinklen &&
	    ip->i_blocks == 0) {
		memset(ip->i_shortlink, 0, osize);
		ip->i_size = 0;
		ip->i_flag |= IN_CHANGE | IN_UPDATE;
		return ffs_update(ip, 1);
	}
	if (length > osize) {
		/* Lengthen: allocate the last byte; the rest are holes. */
		lbn = lblkno(fs, length - 1);
		offset = blkoff(fs, length - 1) + 1;
		error = ffs_balloc(ip, lbn, offset, cred, B_CLRBUF, &bp);
		if (error) {
			/* balloc may have grown a last fragment first. */
			if ((off_t)ip->i_size != osize)
				ffs_truncate(ip, osize, cred);
			return error;
		}
		ip->i_size = length;
		bdwrite(bp);
		ip->i_flag |= IN_CHANGE | IN_UPDATE;
		return ffs_update(ip, 1);
	}
	/* Zero the kept tail of a partial last block. */
	offset = blkoff(fs, length);
	if (offset != 0) {
		lbn = lblkno(fs, length);
		error = ffs_balloc(ip, lbn, offset, cred, B_CLRBUF, &bp);
		if (error)
			return error;
		ip->i_size = length;
		size = blksize(fs, length, lbn);
		memset(bp->b_data + offset, 0, size - offset);
		allocbuf(bp, size);
		bdwrite(bp);
	}
	lastblock = lblkno(fs, length + fs->fs_bsize - 1) - 1;
	lastiblock[SINGLE] = lastblock - NDADDR;
	lastiblock[DOUBLE] = lastiblock[SINGLE] - NINDIR(fs);
	lastiblock[TRIPLE] = lastiblock[DOUBLE] - NINDIR(fs) * NINDIR(fs);
	indir_lbn[SINGLE] = -NDADDR;
	indir_lbn[DOUBLE] = indir_lbn[SINGLE] - NINDIR(fs) - 1;
	indir_lbn[TRIPLE] = indir_lbn[DOUBLE] - NINDIR(fs) * NINDIR(fs) - 1;

	/* Write the inode without the freed pointers, then free. */
	memcpy(oldblks, ip->i_db, sizeof(oldblks));
	for (level = TRIPLE; level >= SINGLE; level--)
		if (lastiblock[level] < 0) {
			ip->i_ib[level] = 0;
			lastiblock[level] = -1;	/* keep none of this level */
		}
	for (i = NDADDR - 1; i > lastblock; i--)
		ip->i_db[i] = 0;
	ip->i_size = length;
	ip->i_flag |= IN_CHANGE | IN_UPDATE;
	allerror = ffs_update(ip, 1);
	ffs_truncbuf(vp, lastblock);

	for (level = TRIPLE; level >= SINGLE; level--) {
		bn = oldblks[NDADDR + level];
		if (bn != 0) {
			error = ffs_indirtrunc(ip, indir_lbn[level], bn,
			    lastiblock[level], level, &count);
			if (error)
				allerror = error;
			blocksreleased += count;
			if (lastiblock[level] < 0) {
				ffs_blkfree(ip, bn, fs->fs_bsize);
				blocksreleased += btodb(fs->fs_bsize);
			}
		}
		/*
		 * The first level that keeps anything is the last one to
		 * shorten: the levels below it and the direct blocks stay
		 * whole (their lastiblock is an index past the end of an
		 * indirect block).
		 */
		if (lastiblock[level] >= 0)
			goto done;
	}
	for (i = NDADDR - 1; i > lastblock; i--) {
		if ((bn = oldblks[i]) == 0)
			continue;
		size = blksize(fs, osize, i);
		ffs_blkfree(ip, bn, size);
		blocksreleased += btodb(size);
	}
	/* The last kept direct block may now need fewer fragments. */
	if (lastblock >= 0 && lastblock < NDADDR &&
	    (bn = ip->i_db[lastblock]) != 0) {
		long oldspace = blksize(fs, osize, lastblock);
		long newspace = blksize(fs, length, lastblock);

		if (newspace < oldspace) {
			ffs_blkfree(ip, bn + numfrags(fs, newspace),
			    oldspace - newspace);
			blocksreleased += btodb(oldspace - newspace);
		}
	}
done:
	ip->i_blocks -= blocksreleased;
	if (ip->i_blocks < 0)
		ip->i_blocks = 0;
	ip->i_flag |= IN_CHANGE;
	error = ffs_update(ip, 0);
	return allerror ? allerror : error;
}
