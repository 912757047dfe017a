/*
 * The segment writer (thesis 6.3.1, 6.3.3, 6.5.3; 4.4BSD lfs_segment.c).
 *
 * lfs_segwrite takes the segment lock and writes, as partial segments
 * appended to the log at dlfs_offset, every dirty block and inode of a
 * file system:
 *
 *   pass 1   the vnodes not in a directory operation: for each
 *            (lfs_writefile) its dirty data blocks in lbn order, then its
 *            indirect blocks level by level, each block given the next
 *            address of the partial segment as it is gathered (so its
 *            parent, gathered later, points to it: lfs_updatemeta), then
 *            its inode into an inode block (lfs_writeinode);
 *   pass 2   if a dirop happened, or for a checkpoint: wait until no
 *            dirop is in progress and let none begin, write the marked
 *            vnodes, then the ifile and its inode (lfs_writeifile).
 *            These partial segments carry SS_DIROP, all but the last
 *            SS_CONT: the ifile inode's is the commit (thesis 6.3.3).
 *
 * A forced write (fsync, a commit: SEGM_DATAONLY) writes in pass 1 only
 * the data blocks of a file whose inode the log can do without
 * (lfs_dataonly): roll-forward sets the pointers and the size from the
 * summary (lfs_rfw_blocks), and the inode and indirect blocks stay dirty
 * for a later write.  Such a file (IN_DATAONLY) is written whole before
 * any ifile, so an ifile on the disk never counts a block that only the
 * log names.
 *
 * A partial segment is closed (lfs_writeseg) when it is full, at the end
 * of a pass, or when its segment is: its inode blocks take the addresses
 * after its blocks, the inode map and segment usage table learn them,
 * the summary gets its checksums, and the whole is copied into transfers
 * of up to MAXPHYS and started.  The cache buffers stay busy, owned by
 * the writer (B_GATHERED), until their transfer is done (lfs_drain);
 * then they are clean, and leave the LOCKED queue.  Transfers of several
 * partial segments are in flight at once, so the disk streams.  A
 * checkpoint ends, once everything is on disk, with the superblock copy
 * whose turn it is (lfs_writesuper).
 *
 * The writer changes ifile and indirect blocks it may already hold:
 * lfs_ifget hands it those, and lfs_redirty marks them to be written
 * again if their copy has left.  The ifile of a checkpoint is written
 * until it is clean, at most a few rounds.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/conf.h"
#include "kern/malloc.h"
#include "kern/proc.h"
#include "kern/i386/cpu.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"
#include "lfs/lfs_txn.h"
#include <sys/time.h>

#define LFS_MINPSEG	3		/* summary, a block, an inode block */
#define LFS_DATA	(-1)		/* lfs_gather: data blocks, not a level */

/*
 * A vnode that joined a directory operation while pass 1 was writing
 * it: what the dirop changes must go in pass 2, so pass 1 stops there.
 */
#define LFS_LATEDIROP(sp, vp)	(!(sp)->sg_dirop && !(sp)->sg_ifile && \
	((vp)->v_flag & VDIROP))

struct segment *
lfs_segalloc(struct lfs *fs)
{
	struct segment *sp = malloc(sizeof(*sp), M_WAITOK | M_ZERO);

	sp->sg_sum = malloc(fs->lfs_dlfs.dlfs_sumsize, M_WAITOK | M_ZERO);
	sp->sg_bufs = malloc(fs->lfs_dlfs.dlfs_ssize * sizeof(struct buf *),
	    M_WAITOK);
	return sp;
}

void
lfs_segfree(struct segment *sp)
{
	free(sp->sg_bufs);
	free(sp->sg_sum);
	free(sp);
}

/* The segment lock: one writer (or cleaner call) at a time. */
void
lfs_seglock(struct lfs *fs)
{
	lockacquire(&fs->lfs_seglock);
}

void
lfs_segunlock(struct lfs *fs)
{
	lockrelease(&fs->lfs_seglock);
}

/* Open a partial segment with room for at least need blocks. */
static int
lfs_initseg(struct lfs *fs, struct segment *sp, u_int32_t need)
{
	struct dlfs *d = &fs->lfs_dlfs;
	int error;

	LFS_ASSERT_SEGLOCK(fs);
	if (need < LFS_MINPSEG)
		need = LFS_MINPSEG;
	if (need > d->dlfs_ssize - 2)
		need = d->dlfs_ssize - 2;
	if (d->dlfs_offset + need > lfs_sntod(d, d->dlfs_curseg + 1) &&
	    (error = lfs_newseg(fs)) != 0)
		return error;
	sp->sg_start = d->dlfs_offset;
	sp->sg_limit = lfs_sntod(d, d->dlfs_curseg + 1);
	memset(sp->sg_sum, 0, d->dlfs_sumsize);
	sp->sg_sumused = sizeof(struct segsum);
	sp->sg_fip = NULL;
	sp->sg_nbufs = sp->sg_niblks = sp->sg_ninos = 0;
	sp->sg_open = 1;
	return 0;
}

/* Room for nb more blocks and sum more summary bytes (and an inode block)? */
static int
lfs_room(struct lfs *fs, struct segment *sp, int nb, int sum, int iblk)
{
	u_int32_t niblks = sp->sg_niblks + iblk;

	return sp->sg_open && niblks <= LFS_MAXINOBLKS &&
	    sp->sg_start + 1 + sp->sg_nbufs + nb + niblks <= sp->sg_limit &&
	    sp->sg_sumused + sum + 4 * niblks <= fs->lfs_dlfs.dlfs_sumsize;
}

/* Close the FINFO of the file being gathered. */
static void
lfs_endfinfo(struct lfs *fs, struct segment *sp)
{
	FINFO *fip = sp->sg_fip;
	struct inode *ip = sp->sg_ip;
	daddr_t last;

	if (fip == NULL)
		return;
	last = ip->i_size ? (ip->i_size - 1) >> fs->lfs_dlfs.dlfs_bshift : 0;
	fip->fi_lastlength = fs->lfs_dlfs.dlfs_bsize;
	if (fip->fi_blocks[fip->fi_nblocks - 1] == last && ip->i_size > 0)
		fip->fi_lastlength = ip->i_size - ((off_t)last <<
		    fs->lfs_dlfs.dlfs_bshift);
	((struct segsum *)sp->sg_sum)->ss_nfinfo++;
	sp->sg_fip = NULL;
}

/*
 * The map learns where each inode of the closing partial went.  Their
 * segment was credited with all of them first (lfs_seguse_add may sleep,
 * and an inode freed meanwhile takes its bytes from where the map says);
 * one freed before it is mapped is taken back here.
 */
static void
lfs_mapinodes(struct lfs *fs, struct segment *sp, u_int32_t iaddr)
{
	struct dlfs *d = &fs->lfs_dlfs;
	int32_t dsize = sizeof(struct dinode);
	int j, k;

	LFS_ASSERT_SEGLOCK(fs);
	lfs_seguse_add(fs, iaddr, sp->sg_ninos * dsize);
	for (j = 0; j < sp->sg_niblks; j++) {
		int n = MIN((int)d->dlfs_inopb, sp->sg_ninos - j * (int)d->dlfs_inopb);

		for (k = 0; k < n; k++) {
			struct dinode *dp = &sp->sg_iblks[j][k];
			struct lfs_ifref r;
			IFILE *ifp;
			u_int32_t old;

			if (dp->di_inumber == LFS_IFILE_INUM)
				d->dlfs_idaddr = iaddr + j;
			if ((ifp = LFS_IENTRY(fs, dp->di_inumber, &r)) == NULL) {
				lfs_seguse_add(fs, iaddr, -dsize);
				continue;
			}
			old = ifp->if_daddr;
			if (old == LFS_UNUSED_DADDR ||
			    ifp->if_version != (u_int32_t)dp->di_gen) {
				lfs_ifput(fs, &r, 0);	/* freed meanwhile */
				lfs_seguse_add(fs, iaddr, -dsize);
				continue;
			}
			ifp->if_daddr = iaddr + j;
			lfs_ifput(fs, &r, 1);
			lfs_seguse_add(fs, old, -dsize);
		}
	}
}

/* CLEANERINFO as the checkpoint being written sees it. */
static void
lfs_setcleanerinfo(struct lfs *fs)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct lfs_ifref r;
	CLEANERINFO *ci;

	if ((ci = LFS_CLEANERINFO(fs, &r)) == NULL)
		return;
	ci->clean = fs->lfs_nclean;
	ci->dirty = fs->lfs_ndirty;
	ci->bfree = d->dlfs_bfree;
	ci->avail = d->dlfs_avail;
	ci->free_head = d->dlfs_free;
	lfs_ifput(fs, &r, 1);
}

/* Does the ifile have blocks to write? */
static int
lfs_ifile_dirty(struct lfs *fs)
{
	struct buf *bp;

	LIST_FOREACH(bp, &fs->lfs_ivnode->v_dirtyblkhd, b_vnbufs)
		if (bp->b_flags & B_DELWRI)
			return 1;
	return 0;
}

/* Is an ifile block dirty that the partial segment sp does not carry? */
static int
lfs_ifile_missed(struct lfs *fs, struct segment *sp)
{
	struct buf *bp;
	int i;

	LIST_FOREACH(bp, &fs->lfs_ivnode->v_dirtyblkhd, b_vnbufs) {
		if (!(bp->b_flags & B_DELWRI))
			continue;
		for (i = 0; i < sp->sg_nbufs && sp->sg_bufs[i] != bp; i++)
			continue;
		if (i == sp->sg_nbufs)
			return 1;
	}
	return 0;
}

/*
 * A partial segment of a commit's write (SEGM_TXN) is marked SS_TXN, and
 * the write's last, the one without SS_CONT, is the COMMIT POINT of its
 * group of transactions: once that summary is on the disk with its
 * checksums (lfs_startio), roll-forward takes the whole write; before,
 * none of it (thesis 5.2.3).  A function of its own, never inlined, so
 * that GDB stops here although this file is built -O2.
 */
static __attribute__((noinline)) void
lfs_txnsum(struct segsum *ss)
{
	ss->ss_flags |= SS_TXN;		/* GDB: commit */
}

/*
 * Close the open partial segment and start writing it.  last (LFS_PSEG_*):
 * is it the end of this write (no SS_CONT on a dirop partial segment)?
 */
static void
lfs_writeseg(struct lfs *fs, struct segment *sp, int last)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct segsum *ss = (struct segsum *)sp->sg_sum;
	u_int32_t iaddr, *inoaddrs, j;
	int nblocks, i;
	struct lfs_ifref r;
	struct lfs_pseg *ps;
	SEGUSE *sup;

	LFS_ASSERT_SEGLOCK(fs);
	if (!sp->sg_open)
		return;
	lfs_endfinfo(fs, sp);
	if (sp->sg_nbufs == 0 && sp->sg_niblks == 0) {
		sp->sg_open = 0;
		return;
	}
	nblocks = 1 + sp->sg_nbufs + sp->sg_niblks;
	iaddr = sp->sg_start + 1 + sp->sg_nbufs;
	inoaddrs = lfs_inoaddrs(d, sp->sg_sum);
	for (j = 0; j < (u_int32_t)sp->sg_niblks; j++)
		inoaddrs[-1 - (int)j] = iaddr + j;
	lfs_mapinodes(fs, sp, iaddr);

	/* The summary and inode blocks take log space as they are written. */
	d->dlfs_avail -= 1 + sp->sg_niblks;
	if ((sup = LFS_SEGENTRY(fs, d->dlfs_curseg, &r)) != NULL) {
		/* The cold head's copies keep their data's age (the
		 * youngest of them). */
		if (!fs->lfs_coldin || fs->lfs_cleanage == 0)
			sup->su_lastmod = lfs_time();
		else if (sup->su_nsums == 0 ||
		    sup->su_lastmod < fs->lfs_cleanage)
			sup->su_lastmod = fs->lfs_cleanage;
		sup->su_nsums++;
		sup->su_ninos += sp->sg_niblks;
		lfs_ifput(fs, &r, 1);
	}
	if (sp->sg_ifile && last)
		lfs_setcleanerinfo(fs);
	/*
	 * Roll-forward takes the ifile of a dirop's or checkpoint's last
	 * partial segment as it stands: it is the last only if its copy
	 * misses no ifile change (say lfs_newseg's, after an earlier
	 * partial segment took the SEGUSE block).
	 */
	if (sp->sg_ifile && last == LFS_PSEG_LAST && lfs_ifile_missed(fs, sp))
		last = LFS_PSEG_MORE;

	ss->ss_magic = SS_MAGIC;
	ss->ss_next = lfs_sntod(d, d->dlfs_nextseg);
	ss->ss_serial = ++d->dlfs_serial;
	ss->ss_create = lfs_time();
	ss->ss_ninos = sp->sg_niblks;
	ss->ss_nblocks = nblocks - 1;
	ss->ss_flags = 0;
	if (sp->sg_dirop && last)
		ss->ss_flags |= SS_DIROP;	/* COMMIT POINT of the dirops:
						 * no SS_CONT, once on disk */
	else if (sp->sg_dirop)
		ss->ss_flags |= SS_DIROP | SS_CONT;
	/*
	 * A commit, and any forced write, is one run: SS_CONT on all of it
	 * but the write's last, so a torn one is taken whole or not at all.
	 */
	if ((sp->sg_flags & (SEGM_TXN | SEGM_DATAONLY)) &&
	    !(last && (sp->sg_ifile || sp->sg_end)))
		ss->ss_flags |= SS_CONT;
	if (sp->sg_flags & SEGM_TXN)
		lfs_txnsum(ss);
	if (sp->sg_dataonly)
		ss->ss_flags |= SS_DATAONLY;
	if (sp->sg_flags & SEGM_CLEAN)
		ss->ss_flags |= SS_CLEAN;
	if (sp->sg_ifile && last && (sp->sg_flags & SEGM_CKP))
		ss->ss_flags |= SS_CKP;

	ps = lfs_pseg_alloc(sp->sg_nbufs);
	lfs_startio(fs, sp, ps, nblocks);
	/* The copies are taken: the buffers are clean unless changed again. */
	for (i = 0; i < sp->sg_nbufs; i++) {
		struct buf *bp = sp->sg_bufs[i];

		if (bp->b_vp == fs->lfs_ivnode)
			fs->lfs_stats.blocks_ifile++;
		else if (bp->b_lblkno < 0)
			fs->lfs_stats.blocks_indir++;
		else
			fs->lfs_stats.blocks_data++;
		lfs_pseg_add(ps, i, bp);
		bp->b_flags &= ~B_DELWRI;
		reassignbuf(bp, bp->b_vp);
	}
	for (i = 0; i < sp->sg_niblks; i++)
		free(sp->sg_iblks[i]);

	fs->lfs_stats.psegs++;
	fs->lfs_stats.blocks += nblocks;
	fs->lfs_stats.blocks_inode += sp->sg_niblks;
	if (sp->sg_flags & SEGM_SYNC)
		fs->lfs_stats.psegs_sync++;
	if (sp->sg_flags & SEGM_CLEAN) {
		fs->lfs_stats.psegs_clean++;
		fs->lfs_stats.blocks_clean += nblocks;
	}
	if (sp->sg_dirop)
		fs->lfs_stats.psegs_dirop++;
	d->dlfs_lastpseg = sp->sg_start;
	d->dlfs_offset = sp->sg_start + nblocks;
	sp->sg_open = 0;
	if (sp->sg_ifile && last)	/* what the superblock will say */
		fs->lfs_ckpsb = *d;
	if (fs->lfs_inflight_bytes > lfs_inflight_max())
		lfs_drain(fs, 0);
}

/* Make sure a partial segment is open with room; 0 or an error. */
static int
lfs_needroom(struct lfs *fs, struct segment *sp, int nb, int sum, int iblk)
{
	if (lfs_room(fs, sp, nb, sum, iblk))
		return 0;
	lfs_writeseg(fs, sp, LFS_PSEG_MORE);
	return lfs_initseg(fs, sp, nb + iblk + 1);
}

/*
 * The indirect block plbn of vp, busy, for lfs_updatemeta to change a
 * pointer in; nonzero if it is gone.  Reading it may sleep, and a
 * truncation meanwhile may free it: the stale copy read back from disk
 * must not come to life (its pointer moved to a block nothing names, the
 * block's bytes counted live in a segment forever).
 */
static int
lfs_getparent(struct vnode *vp, daddr_t plbn, struct buf **bpp)
{
	daddr_t before, after;

	if (ufs_bmaparray(vp, plbn, &before, NULL) != 0)
		return EIO;
	if (before == -1 && incore(vp, plbn) == NULL)
		return ENOENT;	/* a hole: a truncation freed it */
	if (ufs_getindir(vp, plbn, before, bpp) != 0)
		return EIO;
	if (ufs_bmaparray(vp, plbn, &after, NULL) == 0 && after == before)
		return 0;
	if (!((*bpp)->b_flags & B_DELWRI))
		(*bpp)->b_flags |= B_INVAL;	/* a copy of a freed block */
	brelse(*bpp);
	return ENOENT;
}

/*
 * Block lbn of ip now lives at daddr: point its parent (the inode or an
 * indirect block) there, and move its live bytes to the new segment.
 * A pointer already 0, or a parent gone, means the block was truncated
 * meanwhile: it is written, dead.  The new segment is credited before
 * any pointer names daddr (lfs_seguse_add may sleep): a truncation that
 * frees the block from there finds its bytes there.
 */
static void
lfs_updatemeta(struct lfs *fs, struct inode *ip, daddr_t lbn, u_int32_t daddr)
{
	struct ufsmount *ump = ip->i_ump;
	struct vnode *vp = ITOV(ip);
	int32_t bsize = ump->um_bsize, old, *ptr;
	struct indir a[NIADDR + 2];
	struct buf *bp;
	daddr_t plbn;
	int num, ours;

	LFS_ASSERT_SEGLOCK(fs);
	if (ufs_getlbns(ump, lbn, a, &num) != 0)
		return;
	lfs_seguse_add(fs, daddr, bsize);
	if (num <= 1) {
		ptr = num == 0 ? &ip->i_db[lbn] : &ip->i_ib[a[0].in_off];
		if ((old = *ptr) != 0) {
			*ptr = daddr;
			ip->i_flag |= IN_MODIFIED;
		}
	} else {
		plbn = a[num - 1].in_lbn;
		bp = incore(vp, plbn);
		ours = bp != NULL && (bp->b_flags & B_GATHERED);
		old = 0;
		if (ours || lfs_getparent(vp, plbn, &bp) == 0) {
			ptr = &((int32_t *)bp->b_data)[a[num - 1].in_off];
			if ((old = *ptr) != 0)
				*ptr = daddr;
			if (ours) {
				if (old != 0)
					lfs_redirty(fs, bp);
			} else if (old != 0)
				lfs_bwrite(bp);
			else
				brelse(bp);
		}
	}
	if (old == 0)
		lfs_seguse_add(fs, daddr, -bsize);	/* dead: nothing names it */
	else if (old > 0)
		lfs_seguse_add(fs, old, -bsize);
}

/* Which indirect level lbn (< 0) is: 0 single, 1 double, 2 triple. */
static int
lfs_level(struct ufsmount *ump, daddr_t lbn)
{
	struct indir a[NIADDR + 2];
	int num;

	if (lbn >= 0 || ufs_getlbns(ump, lbn, a, &num) != 0)
		return LFS_DATA;
	return a[0].in_off - (num - 1);
}

static void
lfs_sortlbns(daddr_t *v, int n)
{
	int gap, i, j;

	for (gap = n / 2; gap > 0; gap /= 2)
		for (i = gap; i < n; i++)
			for (j = i - gap; j >= 0 && v[j] > v[j + gap]; j -= gap) {
				daddr_t t = v[j];

				v[j] = v[j + gap];
				v[j + gap] = t;
			}
}

/* Is bp a dirty LFS buffer the writer may take now? */
static int
lfs_cantake(struct buf *bp)
{
	/* B_TXN: a running transaction's, until it commits (NO-STEAL) */
	return !(bp->b_flags & (B_BUSY | B_GATHERED | B_TXN)) &&
	    (bp->b_flags & (B_DELWRI | B_LOCKED)) == (B_DELWRI | B_LOCKED);
}

static struct buf *
lfs_takeable(struct vnode *vp, daddr_t lbn)
{
	struct buf *bp = incore(vp, lbn);

	return bp != NULL && lfs_cantake(bp) ? bp : NULL;
}

/* Gather the dirty blocks of ip of one kind (data or an indirect level). */
static int
lfs_gather(struct lfs *fs, struct segment *sp, struct inode *ip, int level)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct vnode *vp = ITOV(ip);
	struct buf *bp;
	daddr_t *lbns;
	int n = 0, i, error = 0, s;

	LFS_ASSERT_SEGLOCK(fs);
	s = splbio();
	LIST_FOREACH(bp, &vp->v_dirtyblkhd, b_vnbufs)
		n++;
	splx(s);
	if (n == 0)
		return 0;
	lbns = malloc(n * sizeof(*lbns), M_WAITOK);
	n = 0;
	s = splbio();
	LIST_FOREACH(bp, &vp->v_dirtyblkhd, b_vnbufs) {
		if (!lfs_cantake(bp))
			continue;
		if (lfs_level(ip->i_ump, bp->b_lblkno) != level)
			continue;
		if (sp->sg_cleancopy && !(bp->b_flags & B_CLEANCOPY))
			continue;
		/* A copy lfs_markv is gathering goes to the cold head, with
		 * its age: not with whatever write comes first. */
		if ((bp->b_flags & B_CLEANCOPY) && fs->lfs_marking > 0 &&
		    !(sp->sg_flags & SEGM_CLEAN))
			continue;
		lbns[n++] = level == LFS_DATA ? bp->b_lblkno : -bp->b_lblkno;
	}
	splx(s);
	lfs_sortlbns(lbns, n);
	sp->sg_ip = ip;
	for (i = 0; i < n && error == 0; i++) {
		daddr_t lbn = level == LFS_DATA ? lbns[i] : -lbns[i];
		u_int32_t daddr;
		int sum = sp->sg_fip == NULL ? FINFOSIZE + 4 : 4;

		if (lfs_takeable(vp, lbn) == NULL)
			continue;
		if (LFS_LATEDIROP(sp, vp))
			break;
		if ((error = lfs_needroom(fs, sp, 1, sum, 1)) != 0)
			break;
		if ((bp = lfs_takeable(vp, lbn)) == NULL)
			continue;	/* gone while the writer slept */
		bremfree(bp);
		if (bp->b_flags & B_CLEANCOPY) {
			fs->lfs_stats.blocks_moved++;
			/* Indirect blocks follow their inodes to the hot
			 * head (lfs_writecold); data should not. */
			if (!sp->sg_cleancopy && level == LFS_DATA)
				fs->lfs_stats.blocks_moved_hot++;
		}
		bp->b_flags &= ~B_CLEANCOPY;
		bp->b_flags |= B_BUSY | B_GATHERED;
		if (TXN_PROTECTED(vp))
			txn_taken(bp);
		if (sp->sg_fip == NULL) {
			sp->sg_fip = (FINFO *)(sp->sg_sum + sp->sg_sumused);
			sp->sg_fip->fi_ino = ip->i_number;
			sp->sg_fip->fi_version = ip->i_gen;
			sp->sg_sumused += FINFOSIZE;
		}
		sp->sg_fip->fi_blocks[sp->sg_fip->fi_nblocks++] = lbn;
		sp->sg_sumused += 4;
		sp->sg_ngathered++;
		daddr = sp->sg_start + 1 + sp->sg_nbufs;
		sp->sg_bufs[sp->sg_nbufs++] = bp;
		bp->b_blkno = lfs_fsbtodb(d, daddr);
		lfs_updatemeta(fs, ip, lbn, daddr);
	}
	free(lbns);
	return error;
}

/* ip's inode into the partial segment's inode blocks. */
static int
lfs_writeinode(struct lfs *fs, struct segment *sp, struct inode *ip)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct dinode *dp;
	int ftype = ip->i_mode & IFMT, i, error;

	LFS_ASSERT_SEGLOCK(fs);
	if (ip->i_mode == 0 && ip->i_number != LFS_IFILE_INUM) {
		/* Even one written data-only: else it stays dirty, and held. */
		ip->i_flag &= ~(IN_ACCESS | IN_CHANGE | IN_UPDATE | IN_MODIFIED |
		    IN_DATAONLY);
		return 0;		/* freed: its map entry says so */
	}
	ufs_itimes(ip);
	if (sp->sg_ninos == sp->sg_niblks * (int)d->dlfs_inopb) {
		if ((error = lfs_needroom(fs, sp, 0, 0, 1)) != 0)
			return error;
		sp->sg_iblks[sp->sg_niblks++] = malloc(d->dlfs_bsize,
		    M_WAITOK | M_ZERO);
	}
	dp = &sp->sg_iblks[sp->sg_niblks - 1][sp->sg_ninos++ % d->dlfs_inopb];
	*dp = ip->i_din;
	dp->di_inumber = ip->i_number;
	if (TXN_PROTECTED(ITOV(ip)))
		txn_diskinode(ip, dp);	/* the size before a running txn */
	/* Blocks still only in the cache have no address on disk yet. */
	if (ftype == IFREG || ftype == IFDIR || (ftype == IFLNK &&
	    ip->i_blocks > 0)) {
		for (i = 0; i < NDADDR; i++)
			if (dp->di_db[i] < 0)
				dp->di_db[i] = 0;
		for (i = 0; i < NIADDR; i++)
			if (dp->di_ib[i] < 0)
				dp->di_ib[i] = 0;
	}
	ip->i_dsize = dp->di_size;
	ip->i_flag &= ~(IN_ACCESS | IN_CHANGE | IN_UPDATE | IN_MODIFIED |
	    IN_DATAONLY);
	return 0;
}

/*
 * May a forced write carry only ip's data blocks?  Roll-forward must be
 * able to put them back from the summary alone: the inode is on the
 * disk, not truncated since, and its size there grows to the new one by
 * the last block written (FINFO's fi_lastlength); every indirect block
 * on their paths is on the disk (none is made at roll-forward).
 */
static int
lfs_dataonly(struct lfs *fs, struct segment *sp, struct vnode *vp)
{
	struct inode *ip = VTOI(vp);
	daddr_t last, addr;
	struct buf *bp;
	int ok = 1, s;

	if (!(sp->sg_flags & SEGM_DATAONLY) || sp->sg_dirop || sp->sg_ifile ||
	    vp->v_type != VREG || (vp->v_flag & (VDIROP | VSYSTEM)) ||
	    ip->i_nlink <= 0 || ip->i_dsize < 0 ||
	    ip->i_size < (u_int64_t)ip->i_dsize)
		return 0;
	last = ip->i_size == 0 ? 0 : (ip->i_size - 1) >> fs->lfs_dlfs.dlfs_bshift;
	if (ip->i_size > (u_int64_t)ip->i_dsize && lfs_takeable(vp, last) == NULL)
		return 0;
	s = splbio();
	LIST_FOREACH(bp, &vp->v_dirtyblkhd, b_vnbufs)
		if (bp->b_lblkno < 0 && (ufs_bmaparray(vp, bp->b_lblkno, &addr,
		    NULL) != 0 || addr == -1)) {
			ok = 0;		/* a new indirect block */
			break;
		}
	splx(s);
	return ok;
}

/* Write only the data blocks of a file lfs_dataonly allows. */
static int
lfs_writedata(struct lfs *fs, struct segment *sp, struct vnode *vp)
{
	struct inode *ip = VTOI(vp);
	int n = sp->sg_ngathered, error;

	sp->sg_dataonly = 1;
	if ((error = lfs_gather(fs, sp, ip, LFS_DATA)) == 0 && sp->sg_open)
		lfs_endfinfo(fs, sp);
	if (sp->sg_ngathered != n) {
		ip->i_flag |= IN_DATAONLY;
		fs->lfs_stats.files_dataonly++;
	}
	return error;
}

/* Write one file: data blocks, indirect blocks by level, the inode. */
static int
lfs_writefile(struct lfs *fs, struct segment *sp, struct vnode *vp)
{
	struct inode *ip = VTOI(vp);
	int level, error = 0;

	if (!LIST_EMPTY(&vp->v_dirtyblkhd)) {
		error = lfs_gather(fs, sp, ip, LFS_DATA);
		for (level = 0; level < NIADDR && error == 0; level++)
			error = lfs_gather(fs, sp, ip, level);
		if (sp->sg_open)
			lfs_endfinfo(fs, sp);
	}
	if (LFS_LATEDIROP(sp, vp))
		return error;		/* the rest waits for pass 2 */
	if (error == 0)
		error = lfs_needroom(fs, sp, 0, 0, 0);
	if (error == 0)
		error = lfs_writeinode(fs, sp, ip);
	return error;
}


/* Mark an ifile block dirty so this round of the ifile carries it. */
static void
lfs_touch(struct lfs *fs, void *entry, struct lfs_ifref *r)
{
	if (entry != NULL)
		lfs_ifput(fs, r, 1);
}

/*
 * The ifile and its inode, last, in a partial segment of their own (the
 * inodes before them must be in the map first); rounds until it is clean.
 */
#define LFS_IFROUNDS	6
static int
lfs_writeifile(struct lfs *fs, struct segment *sp)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct vnode *ivp = fs->lfs_ivnode;
	struct lfs_ifref r;
	int round, error = 0;

	LFS_ASSERT_SEGLOCK(fs);
	lfs_writeseg(fs, sp, LFS_PSEG_MORE);
	if (sp->sg_flags & SEGM_CKP)
		lfs_clearactive(fs);
	sp->sg_ifile = 1;
	for (round = 0; round < LFS_IFROUNDS && error == 0; round++) {
		/* The blocks the closing of this partial segment changes. */
		lfs_touch(fs, LFS_CLEANERINFO(fs, &r), &r);
		lfs_touch(fs, LFS_SEGENTRY(fs, d->dlfs_curseg, &r), &r);
		lfs_touch(fs, LFS_IENTRY(fs, LFS_IFILE_INUM, &r), &r);
		if ((error = lfs_initseg(fs, sp, LFS_MINPSEG)) != 0)
			break;
		if ((error = lfs_writefile(fs, sp, ivp)) != 0)
			break;
		lfs_writeseg(fs, sp, round < LFS_IFROUNDS - 1 ?
		    LFS_PSEG_LAST : LFS_PSEG_FINAL);
		if (!lfs_ifile_dirty(fs))
			break;
		lfs_drain(fs, 1);
	}
	sp->sg_ifile = 0;
	return error;
}

/* Is vp one of the vnodes this write is restricted to (or all)? */
static int
lfs_inset(struct segment *sp, struct vnode *vp)
{
	int i;

	if (sp->sg_vps == NULL)
		return 1;
	for (i = 0; i < sp->sg_nvps; i++)
		if (sp->sg_vps[i] == vp)
			return 1;
	return 0;
}

/* The dirty vnodes of mp, marked or not, referenced. */
static struct vnode **
lfs_collect(struct lfs *fs, struct mount *mp, int marked, int *np)
{
	struct vnode *vp, **vps;
	int n = 0;

	LIST_FOREACH(vp, &mp->mnt_vnodelist, v_mntvnodes)
		n++;
	vps = malloc((n + 1) * sizeof(*vps), M_WAITOK);
	n = 0;
	LIST_FOREACH(vp, &mp->mnt_vnodelist, v_mntvnodes) {
		if (vp == fs->lfs_ivnode || vp->v_type == VNON ||
		    vp->v_type == VBAD || vp->v_data == NULL)
			continue;
		if (!marked && !lfs_inset(fs->lfs_sp, vp))
			continue;
		/* Pass 2: the dirop's, and those written ahead of their
		 * inode (the ifile it writes will count their blocks). */
		if (marked ? !(vp->v_flag & VDIROP) &&
		    !(VTOI(vp)->i_flag & IN_DATAONLY) :
		    (vp->v_flag & VDIROP) != 0)
			continue;
		if (!lfs_vdirty(vp)) {
			vp->v_flag &= ~VDIROP;
			continue;
		}
		vget(vp);
		vps[n++] = vp;
	}
	*np = n;
	return vps;
}

/* Drop the references taken, and the holds of vnodes now written. */
static void
lfs_vunref(struct vnode **vps, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		struct vnode *vp = vps[i];

		if ((vp->v_flag & VHELD) && !lfs_vdirty(vp)) {
			vp->v_flag &= ~VHELD;
			VFSTOLFS(vp->v_mount)->lfs_nheld--;
			vrele(vp);
		}
		vrele(vp);
	}
	free(vps);
}

/*
 * Write the n vnodes vps.  A forced write takes first the files it may
 * write data only, in partial segments of their own (SS_DATAONLY, the
 * ones roll-forward reads pointers from), then the others whole.
 */
static int
lfs_writevnodes(struct lfs *fs, struct segment *sp, struct vnode **vps,
    int n)
{
	char *whole = NULL;
	int i, nwhole = n, error = 0;

	if ((sp->sg_flags & SEGM_DATAONLY) && !sp->sg_dirop &&
	    !sp->sg_ifile && n > 0) {
		whole = malloc(n, M_WAITOK);
		for (i = 0; i < n && error == 0; i++) {
			whole[i] = !lfs_dataonly(fs, sp, vps[i]);
			if (!whole[i]) {
				nwhole--;
				error = lfs_writedata(fs, sp, vps[i]);
			}
		}
		/* Left open if nothing follows: the write's last closes it. */
		if (error == 0 && sp->sg_dataonly && nwhole > 0) {
			lfs_writeseg(fs, sp, LFS_PSEG_MORE);
			sp->sg_dataonly = 0;
		}
	}
	for (i = 0; i < n && error == 0; i++) {
		if (whole != NULL && !whole[i])
			continue;
		error = lfs_writefile(fs, sp, vps[i]);
		if (error == 0 && sp->sg_dirop)
			vps[i]->v_flag &= ~VDIROP;
	}
	free(whole);
	return error;
}

/*
 * A cleaner's write (lfs_markv) first puts the cleaner's copies, and
 * only them, at the cold head, in partial segments that name no inode;
 * the rest of those files (their other dirty blocks, indirect blocks and
 * inodes, which point at the copies) then go to the hot head as any
 * write.  Their serials come after the copies', so roll-forward never
 * takes an inode without the blocks it names; a crash in between leaves
 * the copies unnamed and the blocks where the cleaner found them.  When
 * the cold head has no segment to go to, the copies left go to the hot
 * head with the rest.
 */
static int
lfs_writecold(struct lfs *fs, struct segment *sp, struct vnode **vps, int n)
{
	int i, error;

	if ((error = lfs_usehead(fs, 1)) == 0) {
		sp->sg_cleancopy = 1;
		for (i = 0; i < n && error == 0; i++) {
			error = lfs_gather(fs, sp, VTOI(vps[i]), LFS_DATA);
			if (sp->sg_open)
				lfs_endfinfo(fs, sp);
		}
		sp->sg_cleancopy = 0;
		lfs_writeseg(fs, sp, LFS_PSEG_LAST);
	}
	lfs_usehead(fs, 0);
	return error == ENOSPC ? 0 : error;
}

/*
 * Unlinked files only the writer's hold keeps (VHELD, lfs_inactive) need
 * no writing: let them go first, so that the ifile this write carries
 * has them freed (written after it, a crash between would leave inodes
 * allocated that no directory names).
 */
static void
lfs_reapheld(struct lfs *fs, struct mount *mp)
{
	struct vnode *vp, **vps;
	int n = 0, max = 0;

	LIST_FOREACH(vp, &mp->mnt_vnodelist, v_mntvnodes)
		max++;
	vps = malloc((max + 1) * sizeof(*vps), M_WAITOK);
	LIST_FOREACH(vp, &mp->mnt_vnodelist, v_mntvnodes)
		if (n < max && (vp->v_flag & VHELD) && vp->v_usecount == 1 &&
		    vp->v_data != NULL && VTOI(vp)->i_nlink <= 0 &&
		    VTOI(vp)->i_mode != 0) {
			vget(vp);	/* a concurrent lfs_vunref may drop the hold */
			vps[n++] = vp;
		}
	while (n-- > 0) {
		if (vps[n]->v_flag & VHELD) {
			vps[n]->v_flag &= ~VHELD;
			fs->lfs_nheld--;
			vrele(vps[n]);
		}
		vrele(vps[n]);		/* the last: lfs_inactive frees it */
	}
	free(vps);
}

/* Write everything dirty of mp to the log (see the top of the file). */
int
lfs_segwrite(struct mount *mp, int flags)
{
	return lfs_segwrite_vnodes(mp, flags, NULL, 0);
}

/*
 * The same, with pass 1 restricted to the n vnodes vps (when not NULL):
 * those lfs_markv moves, the file fsync was given.  Pass 2 writes every
 * dirop in progress, as before, so what fsync makes durable is the file
 * and every directory operation before it (as on FFS, whose directory
 * operations are synchronous).
 */
int
lfs_segwrite_vnodes(struct mount *mp, int flags, struct vnode **vps, int n)
{
	struct lfs *fs = VFSTOLFS(mp);
	struct dlfs *d = &fs->lfs_dlfs;
	struct segment *sp = fs->lfs_sp;
	struct vnode **vps1, **vps2 = NULL, *vp;
	int n1, n2 = 0, error, dirop;

	if (mp->mnt_flag & MNT_RDONLY)
		return 0;
	/* Clean segments run low: let the cleaner go first (6.3.4). */
	if (!(flags & SEGM_CLEAN) && fs->lfs_nclean <= d->dlfs_minfreeseg &&
	    fs->lfs_cleaners > 0) {
		wakeup(&fs->lfs_cleaners);
		tsleep(&d->dlfs_avail, 0, "lfsclean", hz);
	}
	lfs_reapheld(fs, mp);
	lfs_seglock(fs);
	fs->lfs_stats.segwrites++;
	sp->sg_flags = flags;
	sp->sg_dirop = sp->sg_ifile = sp->sg_end = sp->sg_dataonly = 0;
	if (flags & SEGM_TXN)
		txn_release_pages(fs);	/* the committing group's pages */
	sp->sg_vps = vps;
	sp->sg_nvps = n;

	vps1 = lfs_collect(fs, mp, 0, &n1);
	error = (flags & SEGM_CLEAN) ? lfs_writecold(fs, sp, vps1, n1) : 0;
	if (error == 0)
		error = lfs_writevnodes(fs, sp, vps1, n1);
	dirop = fs->lfs_doneops;
	LIST_FOREACH(vp, &mp->mnt_vnodelist, v_mntvnodes)
		if (vp->v_flag & VDIROP)
			dirop = 1;
	if (flags & SEGM_CLEAN)
		dirop = 0;		/* dirops wait for the next write */
	if (error == 0 && (dirop || (flags & SEGM_CKP))) {
		lfs_writeseg(fs, sp, LFS_PSEG_LAST);
		sp->sg_dataonly = 0;
		lfs_drain(fs, 1);
		lfs_writer_enter(fs);
		sp->sg_dirop = dirop || fs->lfs_doneops;
		fs->lfs_doneops = 0;
		vps2 = lfs_collect(fs, mp, 1, &n2);
		error = lfs_writevnodes(fs, sp, vps2, n2);
		if (error == 0)
			error = lfs_writeifile(fs, sp);
		lfs_writer_leave(fs);
	}
	sp->sg_end = 1;
	lfs_writeseg(fs, sp, LFS_PSEG_LAST);
	sp->sg_dataonly = 0;
	lfs_drain(fs, 1);
	if (error == 0 && (flags & SEGM_CKP)) {
		fs->lfs_ckpsb.dlfs_clean = (flags & SEGM_UNMOUNT) != 0;
		error = lfs_writesuper(fs, &fs->lfs_ckpsb);
		fs->lfs_stats.ckps++;
		fs->lfs_lastckp = lfs_time();
		if (error == 0)
			fs->lfs_unnamed = 0;
	}
	sp->sg_dirop = 0;
	sp->sg_vps = NULL;
	lfs_usehead(fs, 0);
	/*
	 * Let the vnodes go before the lock: an unlinked file whose last
	 * reference was the writer's is freed now, so a sync that waited
	 * for this write finds its space free (statfs after sync).
	 */
	lfs_vunref(vps1, n1);
	if (vps2 != NULL)
		lfs_vunref(vps2, n2);
	lfs_segunlock(fs);
	/* The log went where roll-forward cannot follow (lfs_newseg). */
	if (error == 0 && fs->lfs_unnamed && !(flags & SEGM_CKP))
		return lfs_segwrite_vnodes(mp, SEGM_CKP | SEGM_SYNC, NULL, 0);
	if (error)
		printf("lfs: %s: segment write: error %d\n",
		    fs->lfs_ump->um_fspec, error);
	return error;
}
