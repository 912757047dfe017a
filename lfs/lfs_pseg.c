/*
 * The partial segment (thesis 6.3.1, 6.5.3): opened (lfs_initseg) at
 * dlfs_offset with room for what is to come, filled by lfs_gather.c, and
 * closed (lfs_writeseg) when it is full, at the end of a pass, or when
 * its segment is.  Closing it gives its inode blocks the addresses after
 * its blocks, tells the inode map and segment usage table, fills in the
 * summary (its flags: the lines marked COMMIT POINT, and lfs_txnsum for
 * a commit) and hands the whole to lfs_segio.c, which computes the
 * checksums and starts the transfers.  The cache buffers stay busy,
 * owned by the writer (B_GATHERED), until their transfer is done
 * (lfs_drain); then they are clean, and leave the LOCKED queue.
 *
 * The writer changes ifile blocks it may already hold (lfs_ifget hands
 * it those, and lfs_redirty marks them to be written again if their
 * copy has left): a dirop's or checkpoint's last partial segment is the
 * last only if its copy of the ifile misses no change.
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

/* Open a partial segment with room for at least need blocks. */
int
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

	/* A summary's DELTAs follow its FINFOs: no block after one. */
	if (nb > 0 && ((struct segsum *)sp->sg_sum)->ss_ndelta > 0)
		return 0;
	return sp->sg_open && niblks <= LFS_MAXINOBLKS &&
	    sp->sg_start + 1 + sp->sg_nbufs + nb + niblks <= sp->sg_limit &&
	    sp->sg_sumused + sum + 4 * niblks <= fs->lfs_dlfs.dlfs_sumsize;
}

/* Close the FINFO of the file being gathered. */
void
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
	int i;

	LFS_ASSERT_SEGLOCK(fs);
	lfs_seguse_add(fs, iaddr, sp->sg_ninos * dsize);
	for (i = 0; i < sp->sg_ninos; i++) {
		struct dinode *dp = lfs_inoslot(fs, sp, i);
		u_int32_t daddr = iaddr + i / d->dlfs_inopb;	/* its block */
		struct lfs_ifref r;
		IFILE *ifp;
		u_int32_t old;

		if (dp->di_inumber == LFS_IFILE_INUM)
			d->dlfs_idaddr = daddr;
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
		ifp->if_daddr = daddr;
		lfs_ifput(fs, &r, 1);
		lfs_seguse_add(fs, old, -dsize);
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
void
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
	if (sp->sg_nbufs == 0 && sp->sg_niblks == 0 && ss->ss_ndelta == 0) {
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
int
lfs_needroom(struct lfs *fs, struct segment *sp, int nb, int sum, int iblk)
{
	if (lfs_room(fs, sp, nb, sum, iblk))
		return 0;
	lfs_writeseg(fs, sp, LFS_PSEG_MORE);
	return lfs_initseg(fs, sp, nb + iblk + 1);
}
