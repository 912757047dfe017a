/*
 * Roll-forward: mounting after a crash (thesis 6.2.4, 6.3.3).
 *
 * The newest checkpoint is a consistent file system; the partial
 * segments written after it are found by following the log from the
 * checkpoint's dlfs_offset: each must carry the next serial number and
 * valid checksums (summary and data), and the first that does not ends
 * the log.  A partial segment that stopped a write halfway (torn) fails
 * its data checksum, so it and everything after it are discarded.
 *
 * Directory operations (thesis 6.3.3): a dirop's partial segments carry
 * SS_DIROP, all but the last SS_CONT, and the last one ends with the
 * ifile and its inode.  So the trailing run of SS_CONT partial segments
 * whose end never reached the disk is an unfinished dirop: discarded.
 * Every other one is applied:
 *
 *  - the newest ifile inode among them is taken as the ifile (its inode
 *    map, segment usage table and free list are those of that moment,
 *    like a checkpoint's: lfs_rfw_scan);
 *  - the partial segments after it, which the ifile does not describe,
 *    are applied one by one (lfs_rfw_apply): each inode in their inode
 *    blocks becomes the map's entry for that inode, and the segment
 *    usage table moves the live bytes of every block the new copy
 *    points to and the old one did not, and back;
 *  - inodes the log has with no links left (open when the power went,
 *    or removed with the free not yet written) are freed, the free
 *    inode list is checked against the map (and rebuilt if they
 *    disagree), the totals (nfiles, bfree, avail) are recounted;
 *  - once the file system can read files, the blocks of forced writes
 *    that carried no inode (SS_DATAONLY) are put back: each file whose
 *    newest inode is older than such a partial segment is pointed at
 *    its blocks there and grows to the size they give (lfs_rfw_blocks,
 *    in lfs_rfwdata.c), and the DELTAs of commits are written into the
 *    blocks they name (lfs_rfw_delta); then a checkpoint is written.
 *
 * The writer goes on after the last partial segment rolled forward, with
 * serial numbers LFS_RFW_GAP higher: a discarded or torn partial segment
 * left behind can then never pass for the continuation of the new log.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/malloc.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"

/* More partial segments than can be in flight (lfs_inflight_max). */
#define LFS_RFW_GAP	1024

/* Read n blocks of the log at daddr, bypassing what the cache holds. */
int
lfs_rfw_read(struct lfs *fs, u_int32_t daddr, int n, struct buf **bpp)
{
	struct dlfs *d = &fs->lfs_dlfs;
	int error;

	*bpp = NULL;
	if (daddr == LFS_UNUSED_DADDR || daddr + n > d->dlfs_size)
		return EINVAL;
	lfs_devinval(fs, daddr, n);
	error = bread(fs->lfs_ump->um_devvp, lfs_fsbtodb(d, daddr),
	    n * d->dlfs_bsize, bpp);
	if (error) {
		brelse(*bpp);
		*bpp = NULL;
	}
	return error;
}

void
lfs_rfw_done(struct buf *bp)
{
	if (bp != NULL) {
		bp->b_flags |= B_INVAL | B_AGE;
		brelse(bp);
	}
}

/*
 * Is there a valid partial segment at daddr with this serial, ending by
 * limit?  Its summary into sum; *ifblk: the block holding the ifile's
 * inode in it, or 0.  Valid: a sound summary (magic number, ss_sumsum,
 * FINFOs: lfs_sscheck) with the serial asked for, whose blocks fit
 * before limit, and whose ss_datasum is the checksum of those blocks
 * (where a torn write fails).
 */
static int
lfs_rfw_valid(struct lfs *fs, u_int32_t daddr, u_int64_t serial,
    u_int32_t limit, u_int8_t *sum, u_int32_t *ifblk)
{
	/* LAB(rollforward) begin */
	struct dlfs *d = &fs->lfs_dlfs;
	struct segsum *ss = (struct segsum *)sum;
	const struct dinode *dip;
	u_int32_t crc = 0, b, n, i, j, first;
	struct buf *bp;

	*ifblk = 0;
	if (daddr >= limit || lfs_rfw_read(fs, daddr, 1, &bp) != 0)
		return 0;
	memcpy(sum, bp->b_data, d->dlfs_sumsize);
	lfs_rfw_done(bp);
	if (lfs_sscheck(d, sum) != NULL || ss->ss_serial != serial ||
	    daddr + 1 + ss->ss_nblocks > limit || ss->ss_ninos > ss->ss_nblocks)
		return 0;
	/* The data checksum, a transfer at a time; inode blocks at the end. */
	first = daddr + 1 + ss->ss_nblocks - ss->ss_ninos;
	for (b = daddr + 1; b < daddr + 1 + ss->ss_nblocks; b += n) {
		n = MIN(daddr + 1 + ss->ss_nblocks - b,
		    (u_int32_t)MAXPHYS >> d->dlfs_bshift);
		if (lfs_rfw_read(fs, b, n, &bp) != 0)
			return 0;
		crc = lfs_crc32(crc, bp->b_data, n * d->dlfs_bsize);
		for (i = 0; i < n; i++) {
			if (b + i < first)
				continue;		/* a data block */
			dip = (const struct dinode *)(bp->b_data +
			    i * d->dlfs_bsize);
			for (j = 0; j < d->dlfs_inopb; j++)
				if (dip[j].di_inumber == LFS_IFILE_INUM)
					*ifblk = b + i;
		}
		lfs_rfw_done(bp);
	}
	return crc == ss->ss_datasum;
	/* LAB(rollforward) end, stub:
	 *	*ifblk = 0;
	 *	return 0;
	 */
}

/*
 * Record the valid partial segment at daddr, summary ssp, ifblk the
 * block in it holding the ifile inode (or 0), written by head h (cold:
 * the cold one), which goes on after it.  The log is whole up to it
 * unless it continues a dirop or a forced write (SS_CONT).
 */
static void
lfs_rfw_accept(struct lfs_rfw *rf, struct dlfs *d, u_int32_t daddr,
    const struct segsum *ssp, u_int32_t ifblk, struct lfs_rfwhead *h,
    int cold)
{
	struct lfs_rfwpseg *grown, *p;
	int i;

	/* GDB: accept (a partial segment is accepted here) */
	h->h_end = daddr + 1 + ssp->ss_nblocks;
	h->h_nextseg = lfs_dtosn(d, ssp->ss_next);
	if (rf->rf_nvalid == rf->rf_nalloc) {
		rf->rf_nalloc = rf->rf_nalloc ? 2 * rf->rf_nalloc : 64;
		grown = malloc(rf->rf_nalloc * sizeof(*grown), M_WAITOK);
		for (i = 0; i < rf->rf_nvalid; i++)
			grown[i] = rf->rf_psegs[i];
		free(rf->rf_psegs);
		rf->rf_psegs = grown;
	}
	p = &rf->rf_psegs[rf->rf_nvalid++];
	p->p_daddr = daddr;
	p->p_nblocks = ssp->ss_nblocks;
	/* LAB(rollforward) begin */
	/*
	 * An ifile is whole only in the last partial segment of its write
	 * (SS_CKP, or a dirop's without SS_CONT): an earlier one may have
	 * copied the segment usage table before lfs_newseg changed it.
	 */
	p->p_ifblk = (ssp->ss_flags & SS_CKP) ||
	    (ssp->ss_flags & (SS_DIROP | SS_CONT)) == SS_DIROP ? ifblk : 0;
	if (ssp->ss_flags & SS_CONT)
		return;
	rf->rf_naccept = rf->rf_nvalid;
	if (cold)
		rf->rf_cold = *h;
	else
		rf->rf_hot = *h;
	rf->rf_serial = ssp->ss_serial;
	rf->rf_lastpseg = daddr;
	/* LAB(rollforward) end, stub:
	 *	p->p_ifblk = 0;
	 */
}

/*
 * Where does head h's partial segment with this serial start, if it
 * wrote it: where the head ended, or at the start of the segment it
 * had chosen next.  Its summary into sum; 0 if it is not there.
 */
static u_int32_t
lfs_rfw_next(struct lfs *fs, struct lfs_rfwhead *h, u_int64_t serial,
    u_int8_t *sum, u_int32_t *ifblk)
{
	struct dlfs *d = &fs->lfs_dlfs;
	u_int32_t first;

	if (h->h_end != 0 && lfs_rfw_valid(fs, h->h_end, serial,
	    lfs_sntod(d, h->h_curseg + 1), sum, ifblk))
		return h->h_end;
	if (h->h_nextseg >= d->dlfs_nseg ||
	    (h->h_end != 0 && h->h_nextseg == h->h_curseg))
		return 0;
	first = lfs_sbfirstblock(d, h->h_nextseg);
	if (!lfs_rfw_valid(fs, first, serial, lfs_sntod(d, h->h_nextseg + 1),
	    sum, ifblk))
		return 0;
	h->h_curseg = h->h_nextseg;
	return first;
}

/*
 * Follow the log from the checkpoint in *d: which partial segments are
 * valid, which of them to roll forward, and the newest ifile inode.
 * Serial by serial, the next one is where one of the two heads goes on
 * (lfs_seguse.c: the hot head, and the cold head of the cleaner's copies).
 */
int
lfs_rfw_scan(struct lfs *fs, struct lfs_rfw *rf)
{
	struct dlfs *d = &fs->lfs_dlfs;
	u_int8_t *sum = malloc(d->dlfs_sumsize, M_WAITOK);
	const struct segsum *ssp = (const struct segsum *)sum;
	struct lfs_rfwhead head[2];
	u_int64_t serial = d->dlfs_serial + 1;
	u_int32_t daddr = 0, ifblk;
	int i, k;

	memset(rf, 0, sizeof(*rf));
	head[0].h_end = d->dlfs_offset;
	head[0].h_curseg = d->dlfs_curseg;
	head[0].h_nextseg = d->dlfs_nextseg;
	head[1].h_end = d->dlfs_coffset;
	head[1].h_curseg = d->dlfs_ccurseg;
	head[1].h_nextseg = d->dlfs_cnextseg;
	rf->rf_hot = head[0];
	rf->rf_cold = head[1];
	rf->rf_serial = d->dlfs_serial;
	for (;; serial++) {
		for (k = 0; k < 2; k++)
			if ((daddr = lfs_rfw_next(fs, &head[k], serial, sum,
			    &ifblk)) != 0)
				break;
		if (k == 2)
			break;
		lfs_rfw_accept(rf, d, daddr, ssp, ifblk, &head[k], k);
	}
	free(sum);
	rf->rf_ndiscard = rf->rf_nvalid - rf->rf_naccept;
	/* The newest ifile inode rolled forward is where the ifile starts. */
	for (i = rf->rf_naccept - 1; i >= 0; i--)
		if (rf->rf_psegs[i].p_ifblk != 0) {
			rf->rf_idaddr = rf->rf_psegs[i].p_ifblk;
			rf->rf_base = i + 1;
			break;
		}
	return 0;
}

/* Inode ino's copy in inode block daddr, or -1. */
static int
lfs_rfw_getdin(struct lfs *fs, u_int32_t daddr, ino_t ino,
    struct dinode *dp)
{
	const struct dinode *dip;
	struct buf *bp;
	u_int32_t i;

	if (lfs_rfw_read(fs, daddr, 1, &bp) != 0)
		return -1;
	dip = (const struct dinode *)bp->b_data;
	for (i = 0; i < fs->lfs_dlfs.dlfs_inopb && dip[i].di_inumber != ino;
	    i++)
		continue;
	if (i < fs->lfs_dlfs.dlfs_inopb)
		*dp = dip[i];
	lfs_rfw_done(bp);
	return i < fs->lfs_dlfs.dlfs_inopb ? 0 : -1;
}

/*
 * Block pointer o (old copy) became n (new copy); level > 0: they are
 * indirect blocks of that many levels.  Live bytes move from the blocks
 * only the old tree has to those only the new one has; equal pointers
 * name equal subtrees (LFS never rewrites a block in place).
 */
static void
lfs_rfw_diff(struct lfs *fs, u_int32_t o, u_int32_t n, int level)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct buf *obp = NULL, *nbp = NULL;
	u_int32_t i, oc, nc;

	if (o == n)
		return;
	lfs_seguse_add(fs, n, d->dlfs_bsize);	/* credit, then debit */
	lfs_seguse_add(fs, o, -(int32_t)d->dlfs_bsize);
	if (level == 0)
		return;
	if (o != LFS_UNUSED_DADDR && lfs_rfw_read(fs, o, 1, &obp) != 0)
		obp = NULL;
	if (n != LFS_UNUSED_DADDR && lfs_rfw_read(fs, n, 1, &nbp) != 0)
		nbp = NULL;
	for (i = 0; i < d->dlfs_nindir; i++) {
		oc = obp ? ((u_int32_t *)obp->b_data)[i] : LFS_UNUSED_DADDR;
		nc = nbp ? ((u_int32_t *)nbp->b_data)[i] : LFS_UNUSED_DADDR;
		lfs_rfw_diff(fs, oc, nc, level - 1);
	}
	lfs_rfw_done(obp);
	lfs_rfw_done(nbp);
}

/* Do this inode's block pointers point at blocks (not a fast link)? */
static int
lfs_rfw_hasblocks(struct lfs *fs, const struct dinode *dp)
{
	switch (dp->di_mode & IFMT) {
	case IFREG:
	case IFDIR:
		return 1;
	case IFLNK:
		return dp->di_size >= (u_int64_t)fs->lfs_dlfs.dlfs_maxsymlinklen;
	}
	return 0;
}

/*
 * The copy of inode dp in block iaddr becomes the map's, unless the map
 * has the inode free or at another version (freed, or freed and reused,
 * after this copy was written: the newer ifile knows better).  The live
 * bytes go with it: the inode's own from its old block's segment to
 * iaddr's, and those of every block it points to and the old copy did
 * not (lfs_rfw_diff), and back.
 */
static void
lfs_rfw_inode(struct lfs *fs, const struct dinode *dp, u_int32_t iaddr)
{
	/* LAB(rollforward) begin */
	static const struct dinode none;
	struct dinode old;
	struct lfs_ifref r;
	u_int32_t prev;
	IFILE *ifp;
	int i;

	if (dp->di_inumber < ROOTINO || dp->di_inumber >= fs->lfs_maxino)
		return;
	if ((ifp = LFS_IENTRY(fs, dp->di_inumber, &r)) == NULL)
		return;
	prev = ifp->if_daddr;
	if (prev == LFS_UNUSED_DADDR || prev == iaddr ||
	    ifp->if_version != (u_int32_t)dp->di_gen) {
		lfs_ifput(fs, &r, 0);		/* freed since, or stale */
		return;
	}
	ifp->if_daddr = iaddr;
	lfs_ifput(fs, &r, 1);
	lfs_seguse_add(fs, iaddr, sizeof(*dp));
	lfs_seguse_add(fs, prev, -(int32_t)sizeof(*dp));
	old = none;
	if (lfs_rfw_getdin(fs, prev, dp->di_inumber, &old) != 0 ||
	    !lfs_rfw_hasblocks(fs, &old))
		old = none;
	if (!lfs_rfw_hasblocks(fs, dp))
		dp = &none;
	for (i = 0; i < NDADDR; i++)
		lfs_rfw_diff(fs, old.di_db[i], dp->di_db[i], 0);
	for (i = 0; i < NIADDR; i++)
		lfs_rfw_diff(fs, old.di_ib[i], dp->di_ib[i], i + 1);
	/* LAB(rollforward) end, stub:
	 *	return;
	 */
}

/* fn for every inode of the inode blocks of the partial segment ss. */
static void
lfs_rfw_eachinode(struct lfs *fs, const struct segsum *ss,
    void (*fn)(struct lfs *, const struct dinode *, u_int32_t))
{
	u_int32_t *inoaddrs = lfs_inoaddrs(&fs->lfs_dlfs, ss), j, k;
	struct dinode *dip;
	struct buf *ibp;

	for (j = 0; j < ss->ss_ninos; j++) {
		if (lfs_rfw_read(fs, inoaddrs[-1 - (int)j], 1, &ibp) != 0)
			continue;
		dip = (struct dinode *)ibp->b_data;
		for (k = 0; k < fs->lfs_dlfs.dlfs_inopb; k++)
			fn(fs, &dip[k], inoaddrs[-1 - (int)j]);
		lfs_rfw_done(ibp);
	}
}

/*
 * Apply the partial segment at daddr: its segment holds log, and each
 * inode in its inode blocks is the newest copy.
 */
int
lfs_rfw_apply(struct lfs *fs, u_int32_t daddr)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct segsum *ss;
	struct lfs_ifref r;
	struct buf *bp;
	SEGUSE *sup;
	int error;

	if ((error = lfs_rfw_read(fs, daddr, 1, &bp)) != 0)
		return error;
	ss = (struct segsum *)bp->b_data;
	if ((sup = LFS_SEGENTRY(fs, lfs_dtosn(d, daddr), &r)) == NULL) {
		lfs_rfw_done(bp);
		return EIO;
	}
	/* The writer entered it since the ifile was written (lfs_newseg). */
	if (!(sup->su_flags & SEGUSE_DIRTY) ||
	    daddr == lfs_sbfirstblock(d, lfs_dtosn(d, daddr))) {
		sup->su_flags |= SEGUSE_DIRTY | SEGUSE_ACTIVE;
		sup->su_nbytes = 0;
		sup->su_nsums = sup->su_ninos = 0;
	}
	sup->su_nsums++;
	sup->su_ninos += ss->ss_ninos;
	if (!(ss->ss_flags & SS_CLEAN) || sup->su_lastmod == 0)
		sup->su_lastmod = (u_int32_t)ss->ss_create;
	lfs_ifput(fs, &r, 1);

	lfs_rfw_eachinode(fs, ss, lfs_rfw_inode);
	lfs_rfw_done(bp);
	return 0;
}

/*
 * Count what the checkpoint will carry: allocated inodes, blocks of live
 * file data (live bytes less the inodes' share), clean log blocks.
 */
void
lfs_rfw_totals(struct lfs *fs)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct lfs_ifref r;
	int64_t live = 0;
	u_int32_t ino, sn, nfiles = 0;
	IFILE *ifp;
	SEGUSE *sup;

	for (ino = 1; ino < fs->lfs_maxino; ino++) {
		if ((ifp = LFS_IENTRY(fs, ino, &r)) == NULL)
			continue;
		if (ifp->if_daddr != LFS_UNUSED_DADDR)
			nfiles++;
		lfs_ifput(fs, &r, 0);
	}
	for (sn = 0; sn < d->dlfs_nseg; sn++) {
		if ((sup = LFS_SEGENTRY(fs, sn, &r)) == NULL)
			continue;
		live += sup->su_nbytes;
		lfs_ifput(fs, &r, 0);
	}
	d->dlfs_nfiles = nfiles;
	d->dlfs_bfree = d->dlfs_dsize -
	    (live - (int64_t)nfiles * sizeof(struct dinode)) / d->dlfs_bsize;
	d->dlfs_avail = lfs_cleanblocks(fs) - fs->lfs_nlocked;
}

/*
 * Free inode dp (in block iaddr) if it has no links left and the map
 * still has it: its blocks' live bytes go, its entry to the free list.
 */
static void
lfs_rfw_orphan(struct lfs *fs, const struct dinode *dp, u_int32_t iaddr)
{
	struct lfs_ifref r;
	IFILE *ifp;
	int i;

	if (dp->di_inumber <= ROOTINO || dp->di_inumber >= fs->lfs_maxino ||
	    dp->di_nlink > 0 || dp->di_mode == 0)
		return;			/* not an orphan */
	if ((ifp = LFS_IENTRY(fs, dp->di_inumber, &r)) == NULL)
		return;
	if (ifp->if_daddr != iaddr ||
	    ifp->if_version != (u_int32_t)dp->di_gen) {
		lfs_ifput(fs, &r, 0);		/* a newer copy, or freed */
		return;
	}
	ifp->if_daddr = LFS_UNUSED_DADDR;
	ifp->if_version++;
	ifp->if_nextfree = fs->lfs_dlfs.dlfs_free;
	fs->lfs_dlfs.dlfs_free = dp->di_inumber;
	lfs_ifput(fs, &r, 1);
	lfs_seguse_add(fs, iaddr, -(int32_t)sizeof(*dp));
	if (!lfs_rfw_hasblocks(fs, dp))
		return;
	for (i = 0; i < NDADDR; i++)
		lfs_rfw_diff(fs, dp->di_db[i], LFS_UNUSED_DADDR, 0);
	for (i = 0; i < NIADDR; i++)
		lfs_rfw_diff(fs, dp->di_ib[i], LFS_UNUSED_DADDR, i + 1);
}

/*
 * Inodes the log after the checkpoint has with no links left: removed
 * files whose free did not reach the disk (lfs_inactive frees after the
 * remove's dirop), or open when the power went.  Freed, as fsck would.
 */
static int
lfs_rfw_orphans(struct lfs *fs, struct lfs_rfw *rf)
{
	struct buf *bp;
	int i, error;

	for (i = 0; i < rf->rf_naccept; i++) {
		if ((error = lfs_rfw_read(fs, rf->rf_psegs[i].p_daddr, 1,
		    &bp)) != 0)
			return error;
		lfs_rfw_eachinode(fs, (struct segsum *)bp->b_data,
		    lfs_rfw_orphan);
		lfs_rfw_done(bp);
	}
	return 0;
}

/*
 * Inodes the map marks LFS_ORPHANED: a dirop left them with no links
 * while something still held them (an open file, the cleaner), and
 * their free never reached the disk, whether before the checkpoint or
 * after.  Freed, as the rolled-forward ones.
 */
static int
lfs_rfw_orphaned(struct lfs *fs)
{
	struct lfs_ifref r;
	struct dinode din;
	u_int32_t ino, daddr;
	IFILE *ifp;
	int marked;

	for (ino = ROOTINO + 1; ino < fs->lfs_maxino; ino++) {
		if ((ifp = LFS_IENTRY(fs, ino, &r)) == NULL)
			return EIO;
		daddr = ifp->if_daddr;
		marked = daddr != LFS_UNUSED_DADDR &&
		    ifp->if_nextfree == LFS_ORPHANED;
		lfs_ifput(fs, &r, 0);
		if (!marked)
			continue;
		if (daddr < fs->lfs_dlfs.dlfs_size &&
		    lfs_rfw_getdin(fs, daddr, ino, &din) == 0 &&
		    din.di_nlink <= 0) {
			lfs_rfw_orphan(fs, &din, daddr);
			continue;
		}
		/* Linked after all (or unreadable): not an orphan. */
		if ((ifp = LFS_IENTRY(fs, ino, &r)) == NULL)
			return EIO;
		ifp->if_nextfree = 0;
		lfs_ifput(fs, &r, 1);
	}
	return 0;
}

/*
 * The free list as the ifile has it may miss inodes freed while the ifile
 * was being copied out (lfs_vfree does not wait for the segment lock):
 * if it does not hold exactly the free entries of the map, rebuild it.
 */
static int
lfs_rfw_freelist(struct lfs *fs)
{
	struct dlfs *d = &fs->lfs_dlfs;
	u_int32_t ino, next, head, n = 0, nfree = 0;
	struct lfs_ifref r;
	IFILE *ifp;
	int ok = 1;

	for (ino = d->dlfs_free; ino != 0 && ok; ino = next, n++) {
		if (ino < ROOTINO || ino >= fs->lfs_maxino ||
		    n >= fs->lfs_maxino) {
			ok = 0;			/* out of range, or a cycle */
			break;
		}
		if ((ifp = LFS_IENTRY(fs, ino, &r)) == NULL)
			return EIO;
		ok = ifp->if_daddr == LFS_UNUSED_DADDR;
		next = ifp->if_nextfree;
		lfs_ifput(fs, &r, 0);
	}
	for (ino = ROOTINO; ino < fs->lfs_maxino; ino++) {
		if ((ifp = LFS_IENTRY(fs, ino, &r)) == NULL)
			return EIO;
		nfree += ifp->if_daddr == LFS_UNUSED_DADDR;
		lfs_ifput(fs, &r, 0);
	}
	if (ok && n == nfree)
		return 0;
	/* Rebuilt in inode order, lowest first as newfs_lfs makes it. */
	for (head = 0, ino = fs->lfs_maxino - 1; ino >= ROOTINO; ino--) {
		if ((ifp = LFS_IENTRY(fs, ino, &r)) == NULL)
			return EIO;
		if (ifp->if_daddr != LFS_UNUSED_DADDR) {
			lfs_ifput(fs, &r, 0);
			continue;
		}
		n = ifp->if_nextfree != head;
		ifp->if_nextfree = head;
		lfs_ifput(fs, &r, n);
		head = ino;
	}
	d->dlfs_free = head;
	return 0;
}

/*
 * Where a head goes on may hold a partial segment roll-forward did not
 * take (torn, or the rest of an unfinished dirop).  The hot head writes
 * the checkpoint there next, but the cold head may not for a while, and
 * a walk of its segment (the cleaner's, fsck_lfs's) would take it for
 * log: the block is zeroed, so every walk ends there.
 */
static int
lfs_rfw_clearend(struct lfs *fs, u_int32_t seg, u_int32_t end)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct buf *bp;

	if (end == 0 || end >= lfs_sntod(d, seg + 1))
		return 0;
	lfs_devinval(fs, end, 1);
	bp = getblk(fs->lfs_ump->um_devvp, lfs_fsbtodb(d, end), d->dlfs_bsize);
	memset(bp->b_data, 0, d->dlfs_bsize);
	bp->b_flags |= B_NOCACHE;
	return bwrite(bp);
}

/*
 * After lfs_rfw_scan and with the ifile in place: apply the partial
 * segments the ifile does not describe and set the log's end.
 */
int
lfs_rollforward(struct lfs *fs, struct lfs_rfw *rf)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct lfs_ifref r;
	CLEANERINFO *ci;
	SEGUSE *sup;
	int i, busy, error = 0;

	for (i = rf->rf_base; i < rf->rf_naccept && error == 0; i++)
		error = lfs_rfw_apply(fs, rf->rf_psegs[i].p_daddr);
	if (error)
		return error;
	if (rf->rf_base > 0) {		/* the free list as the ifile has it */
		if ((ci = LFS_CLEANERINFO(fs, &r)) == NULL)
			return EIO;
		d->dlfs_free = ci->free_head;
		lfs_ifput(fs, &r, 0);
	}
	if (rf->rf_naccept > 0) {
		d->dlfs_curseg = rf->rf_hot.h_curseg;
		d->dlfs_offset = rf->rf_hot.h_end;
		d->dlfs_nextseg = rf->rf_hot.h_nextseg;
		d->dlfs_ccurseg = rf->rf_cold.h_curseg;
		d->dlfs_coffset = rf->rf_cold.h_end;
		d->dlfs_cnextseg = rf->rf_cold.h_nextseg;
		d->dlfs_lastpseg = rf->rf_lastpseg;
	}
	if ((error = lfs_rfw_clearend(fs, d->dlfs_curseg, d->dlfs_offset)) != 0 ||
	    (error = lfs_rfw_clearend(fs, d->dlfs_ccurseg, d->dlfs_coffset)) != 0)
		return error;
	if ((error = lfs_rfw_orphans(fs, rf)) != 0 ||
	    (error = lfs_rfw_orphaned(fs)) != 0 ||
	    (error = lfs_rfw_freelist(fs)) != 0)
		return error;
	d->dlfs_serial = rf->rf_serial + LFS_RFW_GAP;
	/*
	 * The segment the log was to go to next may be one lfs_segclean
	 * had given back after the ifile was written: choose again.
	 */
	if ((sup = LFS_SEGENTRY(fs, d->dlfs_nextseg, &r)) == NULL)
		return EIO;
	busy = sup->su_flags & (SEGUSE_DIRTY | SEGUSE_ACTIVE);
	lfs_ifput(fs, &r, 0);
	if (busy && (error = lfs_pickseg(fs)) != 0)
		return error;
	lfs_rfw_totals(fs);
	return 0;
}

void
lfs_rfw_free(struct lfs_rfw *rf)
{
	free(rf->rf_psegs);
	rf->rf_psegs = NULL;
}
