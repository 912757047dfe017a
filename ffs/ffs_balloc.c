/*
 * ffs_balloc: the buffer for logical block lbn of a file being written,
 * with disk space allocated for at least size bytes of it (4.4BSD).
 *
 * Direct blocks: the last block of a small file may be a run of
 * fragments, grown (ffs_realloccg) as the file grows; when the file
 * grows past it, it first becomes a full block.  Beyond NDADDR the path
 * of indirect blocks (ufs_getlbns) is walked, allocating missing levels;
 * a new indirect block is written, zeroed, before the pointer to it, so
 * a crash never leaves a pointer to garbage.  A step that fails (the
 * disk full at a deeper level) gives back the levels this call added.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/buf.h"
#include "ffs/ffs_extern.h"

#define clrbuf(bp)	memset((bp)->b_data, 0, (bp)->b_bcount)

/* A new, zeroed indirect block for lbn at disk address nb, on disk. */
static int
ffs_newindir(struct inode *ip, daddr_t lbn, daddr_t nb)
{
	struct buf *bp = getblk(ITOV(ip), lbn, ITOFS(ip)->fs_bsize);

	bp->b_blkno = fsbtodb(ITOFS(ip), nb);
	clrbuf(bp);
	return bwrite(bp);
}

/* Direct blocks: allocate or grow block lbn to hold size bytes. */
static int
ffs_balloc_direct(struct inode *ip, daddr_t lbn, int size,
    struct ucred *cred, int flags, struct buf **bpp)
{
	struct fs *fs = ITOFS(ip);
	struct vnode *vp = ITOV(ip);
	daddr_t nb = ip->i_db[lbn], newb;
	struct buf *bp;
	int error, osize, nsize;

	if (nb != 0 && ffs_badblk(ip, nb, fs->fs_fsize))
		return EIO;
	if (nb != 0 && ip->i_size >= (u_int64_t)lblktosize(fs, lbn + 1)) {
		/* A full block already. */
		if ((error = bread(vp, lbn, fs->fs_bsize, &bp)) != 0) {
			brelse(bp);
			return error;
		}
		*bpp = bp;
		return 0;
	}
	if (nb != 0) {
		/* The last block, a run of fragments: big enough? */
		osize = fragroundup(fs, blkoff(fs, ip->i_size));
		nsize = fragroundup(fs, size);
		if (nsize <= osize) {
			if ((error = bread(vp, lbn, osize, &bp)) != 0) {
				brelse(bp);
				return error;
			}
		} else {
			error = ffs_realloccg(ip, lbn,
			    ffs_blkpref(ip, lbn, (int)lbn, ip->i_db), osize,
			    nsize, cred, &bp, &newb);
			if (error)
				return error;
			ip->i_db[lbn] = newb;
			ip->i_flag |= IN_CHANGE | IN_UPDATE;
		}
		*bpp = bp;
		return 0;
	}
	/* A new block: fragments if it is the file's last, short block. */
	if (ip->i_size < (u_int64_t)lblktosize(fs, lbn + 1))
		nsize = fragroundup(fs, size);
	else
		nsize = fs->fs_bsize;
	error = ffs_alloc(ip, lbn, ffs_blkpref(ip, lbn, (int)lbn, ip->i_db),
	    nsize, cred, &newb);
	if (error)
		return error;
	bp = getblk(vp, lbn, nsize);
	bp->b_blkno = fsbtodb(fs, newb);
	if (flags & B_CLRBUF)
		clrbuf(bp);
	ip->i_db[lbn] = newb;
	ip->i_flag |= IN_CHANGE | IN_UPDATE;
	*bpp = bp;
	return 0;
}

/*
 * What one ffs_balloc allocated on its way down the indirect levels: a
 * later step that fails (the disk full at a deeper level or at the data
 * block) gives it all back, or the file would keep indirect blocks past
 * its end that only fsck finds.  The new blocks hang from one pointer,
 * set first: in the inode or in an indirect block that already existed.
 */
struct balloc_undo {
	int	nnew;			/* new indirect blocks, top down */
	daddr_t	lbn[NIADDR];
	daddr_t	nb[NIADDR];
	int	link_in_inode;		/* the pointer to nb[0] is i_ib[...] */
	daddr_t	link_lbn, link_blkno;	/* or in this indirect block */
	int	link_off;		/* at this index */
};

static void
ffs_balloc_undo(struct inode *ip, struct balloc_undo *u)
{
	struct fs *fs = ITOFS(ip);
	struct buf *bp;
	int i;

	if (u->nnew == 0)
		return;
	if (u->link_in_inode)
		ip->i_ib[u->link_off] = 0;
	else if (ufs_getindir(ITOV(ip), u->link_lbn, u->link_blkno, &bp) == 0) {
		((ufs_daddr_t *)bp->b_data)[u->link_off] = 0;
		/* The pointer leaves the disk before its block is free. */
		if (bwrite(bp) != 0)
			return;
	} else
		return;		/* cannot clear it: lose the space, not the data */
	for (i = 0; i < u->nnew; i++) {
		ffs_dropbuf(getblk(ITOV(ip), u->lbn[i], fs->fs_bsize));
		ffs_blkfree(ip, u->nb[i], fs->fs_bsize);
		ip->i_blocks -= btodb(fs->fs_bsize);
	}
	ip->i_flag |= IN_CHANGE | IN_UPDATE;
}

/* A new indirect block at level i of the path, remembered for undo. */
static int
ffs_balloc_indir(struct inode *ip, struct indir *indirs, int i, daddr_t lbn,
    daddr_t pref, struct ucred *cred, struct balloc_undo *u, daddr_t *nbp)
{
	struct fs *fs = ITOFS(ip);
	daddr_t newb;
	int error;

	if ((error = ffs_alloc(ip, lbn, pref, fs->fs_bsize, cred, &newb)) != 0)
		return error;
	if ((error = ffs_newindir(ip, indirs[i].in_lbn, newb)) != 0) {
		ffs_dropbuf(getblk(ITOV(ip), indirs[i].in_lbn, fs->fs_bsize));
		ffs_blkfree(ip, newb, fs->fs_bsize);
		ip->i_blocks -= btodb(fs->fs_bsize);
		return error;
	}
	u->lbn[u->nnew] = indirs[i].in_lbn;
	u->nb[u->nnew++] = newb;
	*nbp = newb;
	return 0;
}

int
ffs_balloc(struct inode *ip, daddr_t lbn, int size, struct ucred *cred,
    int flags, struct buf **bpp)
{
	struct fs *fs = ITOFS(ip);
	struct vnode *vp = ITOV(ip);
	struct indir indirs[NIADDR + 2];
	struct balloc_undo undo = { 0 };
	daddr_t nb, newb, pref = 0, lastlbn;
	struct buf *bp, *nbp;
	ufs_daddr_t *bap;
	int error, num, i, osize;

	*bpp = NULL;
	if (lbn < 0)
		return EFBIG;
	/* Growing past a fragment-sized last block: make it a full block. */
	lastlbn = lblkno(fs, ip->i_size);
	if (lastlbn < NDADDR && lastlbn < lbn && ip->i_db[lastlbn] != 0) {
		osize = blksize(fs, ip->i_size, lastlbn);
		if (osize < fs->fs_bsize && osize > 0) {
			error = ffs_realloccg(ip, lastlbn,
			    ffs_blkpref(ip, lastlbn, (int)lastlbn, ip->i_db),
			    osize, fs->fs_bsize, cred, &bp, &newb);
			if (error)
				return error;
			ip->i_size = lblktosize(fs, lastlbn + 1);
			ip->i_db[lastlbn] = newb;
			ip->i_flag |= IN_CHANGE | IN_UPDATE;
			bawrite(bp);
		}
	}
	if (lbn < NDADDR)
		return ffs_balloc_direct(ip, lbn, size, cred, flags, bpp);

	if ((error = ufs_getlbns(ip->i_ump, lbn, indirs, &num)) != 0)
		return error;
	--num;				/* indirs[num] holds the data pointer */
	nb = ip->i_ib[indirs[0].in_off];
	if (nb != 0 && ffs_badblk(ip, nb, fs->fs_bsize))
		return EIO;
	if (nb == 0) {
		pref = ffs_blkpref(ip, lbn, 0, NULL);
		error = ffs_balloc_indir(ip, indirs, 1, lbn, pref, cred, &undo,
		    &nb);
		if (error)
			return error;
		undo.link_in_inode = 1;
		undo.link_off = indirs[0].in_off;
		ip->i_ib[indirs[0].in_off] = nb;
		ip->i_flag |= IN_CHANGE | IN_UPDATE;
	}
	/* Down the levels, allocating what is missing. */
	for (i = 1;;) {
		error = ufs_getindir(vp, indirs[i].in_lbn, fsbtodb(fs, nb), &bp);
		if (error)
			goto fail;
		bap = (ufs_daddr_t *)bp->b_data;
		nb = bap[indirs[i].in_off];
		if (nb != 0 && ffs_badblk(ip, nb, fs->fs_bsize)) {
			error = EIO;
			goto failbuf;
		}
		if (i == num)
			break;
		i++;
		if (nb != 0) {
			brelse(bp);
			continue;
		}
		if (pref == 0)
			pref = ffs_blkpref(ip, lbn, 0, NULL);
		error = ffs_balloc_indir(ip, indirs, i, lbn, pref, cred, &undo,
		    &nb);
		if (error)
			goto failbuf;
		if (undo.nnew == 1) {
			undo.link_lbn = indirs[i - 1].in_lbn;
			undo.link_blkno = bp->b_blkno;
			undo.link_off = indirs[i - 1].in_off;
		}
		bap[indirs[i - 1].in_off] = nb;
		bdwrite(bp);
	}
	/* The data block. */
	if (nb == 0) {
		pref = ffs_blkpref(ip, lbn, indirs[i].in_off, bap);
		if ((error = ffs_alloc(ip, lbn, pref, fs->fs_bsize, cred,
		    &newb)) != 0)
			goto failbuf;
		nbp = getblk(vp, lbn, fs->fs_bsize);
		nbp->b_blkno = fsbtodb(fs, newb);
		if (flags & B_CLRBUF)
			clrbuf(nbp);
		bap[indirs[i].in_off] = newb;
		bdwrite(bp);
		*bpp = nbp;
		return 0;
	}
	brelse(bp);
	if (flags & B_CLRBUF) {
		if ((error = bread(vp, lbn, fs->fs_bsize, &nbp)) != 0) {
			brelse(nbp);
			return error;
		}
	} else {
		nbp = getblk(vp, lbn, fs->fs_bsize);
		nbp->b_blkno = fsbtodb(fs, nb);
	}
	*bpp = nbp;
	return 0;

failbuf:
	brelse(bp);
fail:
	ffs_balloc_undo(ip, &undo);
	return error;
}
