/*
 * FFS allocation (4.4BSD ffs_alloc.c, without the rotational-position
 * tables).
 *
 * Policy (McKusick, Joy, Leffler and Fabry, "A Fast File System for UNIX",
 * ACM TOCS 2(3) 1984, section 3.3): a file's inode goes in its directory's
 * cylinder group, a new directory in a group with many free inodes and
 * few directories; a file's first blocks go near its inode, later ones
 * in sections of fs_maxbpg blocks spread over the groups.  Within a
 * section blocks are laid out one after another until fs_maxcontig are
 * contiguous, and then a gap of fs_rotdelay milliseconds of rotation is
 * left so the disk has turned past by the time the next request comes
 * (ffs_blkpref).  EFS sets rotdelay 0 and a large maxcontig.
 *
 * Mechanism: ffs_hashalloc tries the preferred group, then a quadratic
 * rehash, then every group; the per-group allocators (ffs_alloccg for
 * blocks and fragments, ffs_nodealloccg for inodes) work on the group's
 * cg block.  Damage found in a cg block is reported and the group
 * skipped, never a panic.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/proc.h"
#include "ffs/ffs_extern.h"
#include <sys/stat.h>

typedef daddr_t (*allocfcn_t)(struct inode *, int cg, daddr_t pref, int size);

static void
ffs_fserr(struct inode *ip, const char *msg)
{
	printf("%s: %s\n", ip->i_ump->um_fspec, msg);
}

/* Does the run of frags fragments at bno touch a group's metadata? */
static int
ffs_inmeta(struct fs *fs, daddr_t bno, int frags)
{
	int c = dtog(fs, bno);

	if (bno < fs->fs_csaddr + howmany(fs->fs_cssize, fs->fs_fsize) &&
	    bno + frags > fs->fs_csaddr)
		return 1;		/* the group summaries */
	return bno < cgdmin(fs, c) && (c == 0 || bno + frags > cgsblock(fs, c));
}

/*
 * Is bno, size bytes at a fragment address read from the disk (an inode's
 * or an indirect block's pointer), not a place a file may own: outside
 * the file system, across a block boundary, or on a group's superblock
 * copy, group block, inodes or the summaries (fsck's chkrange and
 * claimmeta)?  Reported once per inode; the caller answers EIO, so
 * nothing indexes a group by it or writes over the metadata.
 */
int
ffs_badblk(struct inode *ip, daddr_t bno, long size)
{
	struct fs *fs = ITOFS(ip);
	int frags = numfrags(fs, size);

	if (bno > 0 && bno + frags <= fs->fs_size &&
	    fragnum(fs, bno) + frags <= fs->fs_frag &&
	    !ffs_inmeta(fs, bno, frags))
		return 0;
	if (!(ip->i_flag & IN_DAMAGED)) {	/* once, not per call */
		ip->i_flag |= IN_DAMAGED;
		printf("%s: inode %u: block pointer %ld out of range\n",
		    ip->i_ump->um_fspec, ip->i_number, (long)bno);
	}
	return 1;
}

/* The cylinder group block of group c, checked; EIO if it is damaged. */
static int
ffs_getcg(struct inode *ip, int c, struct buf **bpp, struct cg **cgpp)
{
	struct fs *fs = ITOFS(ip);
	const char *why;
	int error;

	error = bread(ip->i_ump->um_devvp, fsbtodb(fs, cgtod(fs, c)),
	    fs->fs_bsize, bpp);
	if (error) {
		brelse(*bpp);
		return error;
	}
	*cgpp = (struct cg *)(*bpp)->b_data;
	if ((why = ffs_cgcheck(fs, *cgpp, c)) != NULL) {
		printf("%s: cylinder group %d damaged: %s\n",
		    ip->i_ump->um_fspec, c, why);
		brelse(*bpp);
		return EIO;
	}
	return 0;
}

static daddr_t
ffs_hashalloc(struct inode *ip, int cg, daddr_t pref, int size,
    allocfcn_t allocator)
{
	struct fs *fs = ITOFS(ip);
	daddr_t result;
	int i, icg = cg;

	if ((result = allocator(ip, cg, pref, size)) != 0)
		return result;
	for (i = 1; i < fs->fs_ncg; i *= 2) {		/* quadratic rehash */
		cg += i;
		if (cg >= fs->fs_ncg)
			cg -= fs->fs_ncg;
		if ((result = allocator(ip, cg, 0, size)) != 0)
			return result;
	}
	cg = (icg + 2) % fs->fs_ncg;			/* brute force */
	for (i = 2; i < fs->fs_ncg; i++) {
		if ((result = allocator(ip, cg, 0, size)) != 0)
			return result;
		if (++cg == fs->fs_ncg)
			cg = 0;
	}
	return 0;
}

/*
 * A run of exactly allocsiz free fragments (a full block if allocsiz is
 * fs_frag) in the group, searching from bpref's block; its fragment
 * number within the group, or -1.
 */
static daddr_t
ffs_mapsearch(struct fs *fs, struct cg *cgp, daddr_t bpref, int allocsiz)
{
	u_int8_t *map = cg_blksfree(cgp);
	int nblk = cgp->cg_ndblk / fs->fs_frag, start, i;

	start = bpref ? fragstoblks(fs, dtogd(fs, bpref)) :
	    fragstoblks(fs, cgp->cg_frotor);
	if (start >= nblk)
		start = 0;
	for (i = 0; i < nblk; i++) {
		int b = (start + i) % nblk, base = blkstofrags(fs, b), f, run;

		if (allocsiz == fs->fs_frag) {
			if (ffs_isblock(fs, map, b))
				return base;
			continue;
		}
		/* the maximal free runs inside this block */
		for (f = 0, run = 0; f <= fs->fs_frag; f++) {
			if (f < fs->fs_frag && isset(map, base + f)) {
				run++;
				continue;
			}
			if (run == allocsiz) {
				cgp->cg_frotor = base;
				return base + f - run;
			}
			run = 0;
		}
	}
	return -1;
}

static daddr_t
ffs_alloccgblk(struct inode *ip, struct cg *cgp, daddr_t bpref)
{
	struct fs *fs = ITOFS(ip);
	daddr_t bno;

	if (bpref == 0 || dtog(fs, bpref) != cgp->cg_cgx)
		bpref = cgp->cg_rotor;
	else
		bpref = blknum(fs, dtogd(fs, bpref));
	bpref = cgbase(fs, cgp->cg_cgx) + bpref;
	if ((bno = ffs_mapsearch(fs, cgp, bpref, fs->fs_frag)) < 0)
		return 0;
	cgp->cg_rotor = bno;
	ffs_clrblock(fs, cg_blksfree(cgp), fragstoblks(fs, bno));
	ffs_clusteracct(fs, cgp, fragstoblks(fs, bno), -1);
	cgp->cg_cs.cs_nbfree--;
	fs->fs_cstotal.cs_nbfree--;
	fs_cs(fs, cgp->cg_cgx).cs_nbfree--;
	fs->fs_fmod = 1;
	return cgbase(fs, cgp->cg_cgx) + bno;
}

/* A block or a run of fragments in group cg, or 0. */
static daddr_t
ffs_alloccg(struct inode *ip, int cg, daddr_t bpref, int size)
{
	struct fs *fs = ITOFS(ip);
	int frags, allocsiz, i;
	struct cg *cgp;
	struct buf *bp;
	daddr_t bno;

	if (fs_cs(fs, cg).cs_nbfree == 0 && size == fs->fs_bsize)
		return 0;
	if (ffs_getcg(ip, cg, &bp, &cgp) != 0)
		return 0;
	if (cgp->cg_cs.cs_nbfree == 0 && size == fs->fs_bsize) {
		brelse(bp);
		return 0;
	}
	cgp->cg_time = fs->fs_time;
	if (size == fs->fs_bsize) {
		bno = ffs_alloccgblk(ip, cgp, bpref);
		bdwrite(bp);
		return bno;
	}
	/* The smallest run of free fragments that fits (best fit). */
	frags = numfrags(fs, size);
	for (allocsiz = frags; allocsiz < fs->fs_frag; allocsiz++)
		if (cgp->cg_frsum[allocsiz] != 0)
			break;
	if (allocsiz == fs->fs_frag) {
		/* None: break up a whole block, keeping the rest free. */
		if (cgp->cg_cs.cs_nbfree == 0) {
			brelse(bp);
			return 0;
		}
		bno = ffs_alloccgblk(ip, cgp, bpref);
		if (bno == 0) {
			brelse(bp);
			return 0;
		}
		bpref = dtogd(fs, bno);
		for (i = frags; i < fs->fs_frag; i++)
			setbit(cg_blksfree(cgp), bpref + i);
		i = fs->fs_frag - frags;
		cgp->cg_cs.cs_nffree += i;
		fs->fs_cstotal.cs_nffree += i;
		fs_cs(fs, cg).cs_nffree += i;
		cgp->cg_frsum[i]++;
		bdwrite(bp);
		return bno;
	}
	bno = ffs_mapsearch(fs, cgp, bpref, allocsiz);
	if (bno < 0) {
		ffs_fserr(ip, "fragment summary does not match the map");
		brelse(bp);
		return 0;
	}
	for (i = 0; i < frags; i++)
		clrbit(cg_blksfree(cgp), bno + i);
	cgp->cg_cs.cs_nffree -= frags;
	fs->fs_cstotal.cs_nffree -= frags;
	fs_cs(fs, cg).cs_nffree -= frags;
	fs->fs_fmod = 1;
	cgp->cg_frsum[allocsiz]--;
	if (frags != allocsiz)
		cgp->cg_frsum[allocsiz - frags]++;
	bdwrite(bp);
	return cgbase(fs, cg) + bno;
}

/* Allocate a block or fragments for lbn of ip.  0 or ENOSPC. */
int
ffs_alloc(struct inode *ip, daddr_t lbn, daddr_t bpref, int size,
    struct ucred *cred, daddr_t *bnp)
{
	struct fs *fs = ITOFS(ip);
	daddr_t bno;
	int cg;

	*bnp = 0;
	if (size == fs->fs_bsize && fs->fs_cstotal.cs_nbfree == 0)
		goto nospace;
	if (cred && cred->cr_uid != 0 && freespace(fs, fs->fs_minfree) <= 0)
		goto nospace;
	if (bpref < 0 || bpref >= fs->fs_size)
		bpref = 0;
	cg = bpref == 0 ? ino_to_cg(fs, ip->i_number) : dtog(fs, bpref);
	bno = ffs_hashalloc(ip, cg, bpref, size, ffs_alloccg);
	if (bno > 0) {
		ip->i_blocks += btodb(size);
		ip->i_flag |= IN_CHANGE | IN_UPDATE;
		*bnp = bno;
		return 0;
	}
nospace:
	ffs_fserr(ip, "file system full");
	return ENOSPC;
}

/* Grow the fragment run at bprev in place, if the next ones are free. */
static daddr_t
ffs_fragextend(struct inode *ip, int cg, daddr_t bprev, int osize, int nsize)
{
	struct fs *fs = ITOFS(ip);
	int frags = numfrags(fs, nsize), ofrags = numfrags(fs, osize), i;
	struct cg *cgp;
	struct buf *bp;
	daddr_t bno;

	if (fs_cs(fs, cg).cs_nffree < frags - ofrags)
		return 0;
	if (fragnum(fs, bprev) + frags > fs->fs_frag)
		return 0;			/* would cross into the next block */
	if (ffs_getcg(ip, cg, &bp, &cgp) != 0)
		return 0;
	bno = dtogd(fs, bprev);
	for (i = ofrags; i < frags; i++) {
		if (isclr(cg_blksfree(cgp), bno + i)) {
			brelse(bp);
			return 0;
		}
	}
	/* The free run after the old end shrinks by what we take. */
	for (i = frags; i < fs->fs_frag - fragnum(fs, bno); i++)
		if (isclr(cg_blksfree(cgp), bno + i))
			break;
	cgp->cg_frsum[i - ofrags]--;
	if (i != frags)
		cgp->cg_frsum[i - frags]++;
	for (i = ofrags; i < frags; i++) {
		clrbit(cg_blksfree(cgp), bno + i);
		cgp->cg_cs.cs_nffree--;
		fs->fs_cstotal.cs_nffree--;
		fs_cs(fs, cg).cs_nffree--;
	}
	fs->fs_fmod = 1;
	bdwrite(bp);
	return bprev;
}

/*
 * The last block of a small file grows from osize to nsize: extend the
 * fragment run in place or move it.  Returns the buffer (nsize bytes,
 * old data kept, the rest zeroed) and the new address.
 */
int
ffs_realloccg(struct inode *ip, daddr_t lbprev, daddr_t bpref, int osize,
    int nsize, struct ucred *cred, struct buf **bpp, daddr_t *bnp)
{
	struct fs *fs = ITOFS(ip);
	daddr_t bprev = ip->i_db[lbprev], bno;
	struct buf *bp;
	int error, cg;

	*bpp = NULL;
	if (cred && cred->cr_uid != 0 && freespace(fs, fs->fs_minfree) <= 0)
		goto nospace;
	if (bprev == 0)
		return EINVAL;
	if (ffs_badblk(ip, bprev, osize))
		return EIO;
	if ((error = bread(ITOV(ip), lbprev, osize, &bp)) != 0) {
		brelse(bp);
		return error;
	}
	cg = dtog(fs, bprev);
	bno = ffs_fragextend(ip, cg, bprev, osize, nsize);
	if (bno == 0) {
		if (bpref < 0 || bpref >= fs->fs_size)
			bpref = 0;
		bno = ffs_hashalloc(ip, cg, bpref, nsize, ffs_alloccg);
		if (bno == 0) {
			brelse(bp);
			goto nospace;
		}
		ffs_blkfree(ip, bprev, osize);
	}
	bp->b_blkno = fsbtodb(fs, bno);
	allocbuf(bp, nsize);
	memset(bp->b_data + osize, 0, nsize - osize);
	ip->i_blocks += btodb(nsize - osize);
	ip->i_flag |= IN_CHANGE | IN_UPDATE;
	*bpp = bp;
	*bnp = bno;
	return 0;
nospace:
	ffs_fserr(ip, "file system full");
	return ENOSPC;
}

/*
 * Where the block at index indx of bap (the inode's direct pointers or
 * an indirect block) should go: right after the previous one, unless
 * maxcontig blocks already run contiguously, in which case skip the
 * rotdelay gap; a new section starts in a group with free space.
 */
daddr_t
ffs_blkpref(struct inode *ip, daddr_t lbn, int indx, ufs_daddr_t *bap)
{
	struct fs *fs = ITOFS(ip);
	daddr_t nextblk, prev = 0;
	int cg, startcg, avgbfree;

	if (bap != NULL && indx > 0) {
		prev = bap[indx - 1];
		if (prev < 0 || prev >= fs->fs_size)
			prev = 0;	/* damaged; not a group to index */
	}
	if (indx % fs->fs_maxbpg == 0 || bap == NULL || prev == 0) {
		if (lbn < NDADDR || bap == NULL) {
			cg = ino_to_cg(fs, ip->i_number);
			return cgbase(fs, cg) + fs->fs_frag;
		}
		/* A new section: the next group with average free space. */
		startcg = prev == 0 ?
		    ino_to_cg(fs, ip->i_number) + lbn / fs->fs_maxbpg :
		    dtog(fs, prev) + 1;
		startcg %= fs->fs_ncg;
		avgbfree = fs->fs_cstotal.cs_nbfree / fs->fs_ncg;
		for (cg = startcg; cg < fs->fs_ncg; cg++)
			if (fs_cs(fs, cg).cs_nbfree >= avgbfree) {
				fs->fs_cgrotor = cg;
				return cgdmin(fs, cg);
			}
		for (cg = 0; cg <= startcg; cg++)
			if (fs_cs(fs, cg).cs_nbfree >= avgbfree) {
				fs->fs_cgrotor = cg;
				return cgdmin(fs, cg);
			}
		return 0;
	}
	nextblk = prev + fs->fs_frag;
	if (indx < fs->fs_maxcontig || bap[indx - fs->fs_maxcontig] +
	    blkstofrags(fs, fs->fs_maxcontig) != nextblk)
		return nextblk;
	/* maxcontig blocks in a row: leave the rotational gap. */
	if (fs->fs_rotdelay != 0)
		nextblk += roundup(fs->fs_rotdelay * fs->fs_rps * fs->fs_nsect /
		    (NSPF(fs) * 1000), fs->fs_frag);
	return nextblk;
}

/* Free a block or fragments. */
void
ffs_blkfree(struct inode *ip, daddr_t bno, long size)
{
	struct fs *fs = ITOFS(ip);
	struct ufsmount *ump = ip->i_ump;
	int cg = dtog(fs, bno), i, blk, frags;
	struct cg *cgp;
	struct buf *bp;
	daddr_t bbase;

	if (size > fs->fs_bsize || fragoff(fs, size) != 0 || size <= 0 ||
	    bno < 0 || bno + numfrags(fs, size) > fs->fs_size ||
	    fragnum(fs, bno) + numfrags(fs, size) > fs->fs_frag ||
	    ffs_inmeta(fs, bno, numfrags(fs, size))) {
		printf("%s: bad block %d (size %ld) freed, ino %u\n",
		    ump->um_fspec, (int)bno, size, ip->i_number);
		return;
	}
	if (ffs_getcg(ip, cg, &bp, &cgp) != 0)
		return;
	cgp->cg_time = fs->fs_time;
	bno = dtogd(fs, bno);
	if (size == fs->fs_bsize) {
		if (ffs_isblock(fs, cg_blksfree(cgp), fragstoblks(fs, bno))) {
			printf("%s: freeing free block %d, ino %u\n",
			    ump->um_fspec, (int)(cgbase(fs, cg) + bno),
			    ip->i_number);
			brelse(bp);
			return;
		}
		ffs_setblock(fs, cg_blksfree(cgp), fragstoblks(fs, bno));
		ffs_clusteracct(fs, cgp, fragstoblks(fs, bno), 1);
		cgp->cg_cs.cs_nbfree++;
		fs->fs_cstotal.cs_nbfree++;
		fs_cs(fs, cg).cs_nbfree++;
	} else {
		bbase = bno - fragnum(fs, bno);
		frags = numfrags(fs, size);
		for (i = 0; i < frags; i++) {
			if (isset(cg_blksfree(cgp), bno + i)) {
				printf("%s: freeing free fragment %d, ino %u\n",
				    ump->um_fspec,
				    (int)(cgbase(fs, cg) + bno + i),
				    ip->i_number);
				brelse(bp);
				return;
			}
		}
		blk = blkmap(fs, cg_blksfree(cgp), bbase);
		ffs_fragacct(fs, blk, cgp->cg_frsum, -1);
		for (i = 0; i < frags; i++)
			setbit(cg_blksfree(cgp), bno + i);
		cgp->cg_cs.cs_nffree += frags;
		fs->fs_cstotal.cs_nffree += frags;
		fs_cs(fs, cg).cs_nffree += frags;
		blk = blkmap(fs, cg_blksfree(cgp), bbase);
		ffs_fragacct(fs, blk, cgp->cg_frsum, 1);
		/* A block whose fragments are all free again is a free block. */
		if (ffs_isblock(fs, cg_blksfree(cgp), fragstoblks(fs, bbase))) {
			cgp->cg_cs.cs_nffree -= fs->fs_frag;
			fs->fs_cstotal.cs_nffree -= fs->fs_frag;
			fs_cs(fs, cg).cs_nffree -= fs->fs_frag;
			ffs_clusteracct(fs, cgp, fragstoblks(fs, bbase), 1);
			cgp->cg_cs.cs_nbfree++;
			fs->fs_cstotal.cs_nbfree++;
			fs_cs(fs, cg).cs_nbfree++;
		}
	}
	fs->fs_fmod = 1;
	bdwrite(bp);
}

static daddr_t
ffs_nodealloccg(struct inode *ip, int cg, daddr_t ipref, int mode)
{
	struct fs *fs = ITOFS(ip);
	struct cg *cgp;
	struct buf *bp;
	int i;

	if (fs_cs(fs, cg).cs_nifree == 0)
		return 0;
	if (ffs_getcg(ip, cg, &bp, &cgp) != 0)
		return 0;
	if (cgp->cg_cs.cs_nifree == 0) {
		brelse(bp);
		return 0;
	}
	/* Inodes 0 and 1 are never handed out (WINO, the LFS ifile's). */
#define FREEINO(i) (isclr(cg_inosused(cgp), (i)) && (cg > 0 || (u_int32_t)(i) >= ROOTINO))
	if (ipref) {
		ipref %= fs->fs_ipg;
		if (FREEINO(ipref))
			goto gotit;
	}
	for (i = 0; i < fs->fs_ipg; i++) {
		ipref = (cgp->cg_irotor + i) % fs->fs_ipg;
		if (FREEINO(ipref))
			goto gotit;
	}
#undef FREEINO
	ffs_fserr(ip, "inode summary does not match the map");
	brelse(bp);
	return 0;
gotit:
	cgp->cg_time = fs->fs_time;
	setbit(cg_inosused(cgp), ipref);
	cgp->cg_irotor = ipref;
	cgp->cg_cs.cs_nifree--;
	fs->fs_cstotal.cs_nifree--;
	fs_cs(fs, cg).cs_nifree--;
	if ((mode & IFMT) == IFDIR) {
		cgp->cg_cs.cs_ndir++;
		fs->fs_cstotal.cs_ndir++;
		fs_cs(fs, cg).cs_ndir++;
	}
	fs->fs_fmod = 1;
	bdwrite(bp);
	return (daddr_t)cg * fs->fs_ipg + ipref;
}

/* A group for a new directory: above-average free inodes, fewest dirs. */
static ino_t
ffs_dirpref(struct inode *pip)
{
	struct fs *fs = ITOFS(pip);
	int cg, mincg = 0, minndir = fs->fs_ipg;
	int avgifree = fs->fs_cstotal.cs_nifree / fs->fs_ncg;

	for (cg = 0; cg < fs->fs_ncg; cg++)
		if (fs_cs(fs, cg).cs_ndir < minndir &&
		    fs_cs(fs, cg).cs_nifree >= avgifree) {
			mincg = cg;
			minndir = fs_cs(fs, cg).cs_ndir;
		}
	return (ino_t)fs->fs_ipg * mincg;
}

int
ffs_valloc(struct inode *pip, int mode, struct ucred *cred,
    struct vnode **vpp)
{
	struct fs *fs = ITOFS(pip);
	struct inode *ip;
	ino_t ino, ipref;
	int error;

	*vpp = NULL;
	if (fs->fs_cstotal.cs_nifree == 0)
		goto noinodes;
	ipref = (mode & IFMT) == IFDIR ? ffs_dirpref(pip) : pip->i_number;
	if (ipref >= (ino_t)(fs->fs_ncg * fs->fs_ipg))
		ipref = 0;
	ino = ffs_hashalloc(pip, ino_to_cg(fs, ipref), ipref, mode,
	    (allocfcn_t)ffs_nodealloccg);
	if (ino == 0)
		goto noinodes;
	if ((error = ffs_vget(ITOV(pip)->v_mount, ino, vpp)) != 0) {
		ffs_vfree(pip, ino, mode);
		return error;
	}
	ip = VTOI(*vpp);
	if (ip->i_mode) {
		printf("%s: inode %u allocated but in use (mode 0%o)\n",
		    pip->i_ump->um_fspec, ino, ip->i_mode);
		vrele(*vpp);
		*vpp = NULL;
		return EIO;
	}
	if (ip->i_blocks) {
		printf("%s: free inode %u had %d blocks\n",
		    pip->i_ump->um_fspec, ino, ip->i_blocks);
		ip->i_blocks = 0;
	}
	ip->i_flags = 0;
	ip->i_gen++;				/* NFS-style generation */
	return 0;
noinodes:
	ffs_fserr(pip, "out of inodes");
	return ENOSPC;
}

int
ffs_vfree(struct inode *pip, ino_t ino, int mode)
{
	struct fs *fs = ITOFS(pip);
	struct ufsmount *ump = pip->i_ump;
	int cg = ino_to_cg(fs, ino);
	struct cg *cgp;
	struct buf *bp;
	int error;

	if (ino >= (ino_t)(fs->fs_ipg * fs->fs_ncg)) {
		printf("%s: freeing bad inode %u\n", ump->um_fspec, ino);
		return 0;
	}
	if ((error = ffs_getcg(pip, cg, &bp, &cgp)) != 0)
		return error;
	cgp->cg_time = fs->fs_time;
	ino %= fs->fs_ipg;
	if (isclr(cg_inosused(cgp), ino)) {
		printf("%s: freeing free inode %u\n", ump->um_fspec,
		    (u_int32_t)(cg * fs->fs_ipg + ino));
		brelse(bp);
		return 0;
	}
	clrbit(cg_inosused(cgp), ino);
	if ((int32_t)ino < cgp->cg_irotor)
		cgp->cg_irotor = ino;
	cgp->cg_cs.cs_nifree++;
	fs->fs_cstotal.cs_nifree++;
	fs_cs(fs, cg).cs_nifree++;
	if ((mode & IFMT) == IFDIR) {
		cgp->cg_cs.cs_ndir--;
		fs->fs_cstotal.cs_ndir--;
		fs_cs(fs, cg).cs_ndir--;
	}
	fs->fs_fmod = 1;
	bdwrite(bp);
	return 0;
}
