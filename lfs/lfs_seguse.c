/*
 * The segment usage table (thesis 6.1.1, SEGUSE in the ifile): how many
 * live bytes each segment holds, and whether it is dirty, or ACTIVE
 * (written since the last checkpoint, so not yet the cleaner's).  The
 * writer moves the log to the next clean segment (lfs_newseg) and picks
 * the one after (lfs_pickseg); a checkpoint clears ACTIVE
 * (lfs_clearactive); every block written, moved or freed moves its
 * bytes (lfs_seguse_add).  The cleaner reads the table through the ifile
 * and gives a segment back with lfs_segclean (lfs_syscalls.c).
 *
 * The log has two heads, each with its segment, offset and next segment
 * in the superblock: the hot one, where every write goes, and the cold
 * one, where the cleaner's copies go (SEGM_CLEAN), and the blocks users
 * rewrote when a write nobody waits for takes them (lfs_writecold), so
 * that what dies young (commits, fsyncs' DELTAs, inodes) does not share
 * segments with blocks that already lived through a cleaning or a
 * rewrite, and hot segments come to the cleaner nearly empty (Rosenblum
 * and Ousterhout's hot and cold data).  Every partial segment takes the
 * next serial number, so the log is still one sequence, which
 * roll-forward follows across both heads.  The writer works on the
 * dlfs_curseg fields; lfs_usehead swaps the cold head (dlfs_ccurseg...)
 * in for a cold write and back.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/proc.h"
#include "kern/i386/cpu.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"

/*
 * bytes more (or fewer) live in the segment holding block daddr.  This
 * may sleep (reading the ifile), so its callers keep one order: a segment
 * is credited before a pointer names the new place, and debited after the
 * pointer has left the old one.  A debit then never meets a segment short
 * of it, unless the count was wrong: that is said, and the count is 0.
 */
void
lfs_seguse_add(struct lfs *fs, u_int32_t daddr, int32_t bytes)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct lfs_ifref r;
	u_int32_t sn;
	SEGUSE *sup;

	if (daddr == LFS_UNUSED_DADDR || daddr == (u_int32_t)LFS_UNASSIGNED ||
	    daddr >= d->dlfs_size || bytes == 0)
		return;
	sn = lfs_dtosn(d, daddr);
	if ((sup = LFS_SEGENTRY(fs, sn, &r)) == NULL)
		return;
	if (bytes < 0 && sup->su_nbytes < (u_int32_t)-bytes) {
		printf("lfs: %s: segment %u: live bytes %u less %d\n",
		    fs->lfs_ump->um_fspec, sn, sup->su_nbytes, -bytes);
		sup->su_nbytes = 0;
	} else
		sup->su_nbytes += bytes;
	lfs_ifput(fs, &r, 1);
}

/*
 * The writer's fields name the cold head (cold) or the hot one.  The
 * cold head that has not written yet (coffset 0) enters its next
 * segment now.
 */
static void
lfs_swapheads(struct lfs *fs)
{
	struct dlfs *d = &fs->lfs_dlfs;
	u_int32_t t;

	t = d->dlfs_curseg, d->dlfs_curseg = d->dlfs_ccurseg;
	d->dlfs_ccurseg = t;
	t = d->dlfs_offset, d->dlfs_offset = d->dlfs_coffset;
	d->dlfs_coffset = t;
	t = d->dlfs_nextseg, d->dlfs_nextseg = d->dlfs_cnextseg;
	d->dlfs_cnextseg = t;
	fs->lfs_coldin = !fs->lfs_coldin;
}

int
lfs_usehead(struct lfs *fs, int cold)
{
	LFS_ASSERT_SEGLOCK(fs);
	if (cold != fs->lfs_coldin)
		lfs_swapheads(fs);
	return cold && fs->lfs_dlfs.dlfs_offset == 0 ? lfs_newseg(fs) : 0;
}

/*
 * Choose the cold head's next segment: the first clean one after the
 * hot head's that the hot head has not chosen.  A cold head that has
 * not written (coffset 0) is said to be in the segment it goes to next.
 */
int
lfs_pickcold(struct lfs *fs)
{
	struct dlfs *d = &fs->lfs_dlfs;
	u_int32_t cur;
	int error;

	KASSERT(!fs->lfs_coldin);
	lfs_swapheads(fs);
	cur = d->dlfs_curseg;
	if (d->dlfs_offset == 0)
		d->dlfs_curseg = d->dlfs_ccurseg;
	error = lfs_pickseg(fs);
	d->dlfs_curseg = d->dlfs_offset == 0 ? d->dlfs_nextseg : cur;
	lfs_swapheads(fs);
	/* Found: not the hot head's, nor (written) the one it is in. */
	if (error == 0 && d->dlfs_cnextseg != d->dlfs_nextseg &&
	    d->dlfs_cnextseg != d->dlfs_curseg &&
	    (d->dlfs_coffset == 0 || d->dlfs_cnextseg != d->dlfs_ccurseg))
		fs->lfs_coldlost = 0;
	return error;
}

/* Is sn a segment one of the heads writes, or is to write next? */
int
lfs_isheadseg(struct lfs *fs, u_int32_t sn)
{
	struct dlfs *d = &fs->lfs_dlfs;

	return sn == d->dlfs_curseg || sn == d->dlfs_nextseg ||
	    (d->dlfs_coffset != 0 && sn == d->dlfs_ccurseg) ||
	    sn == d->dlfs_cnextseg;
}

/* Move the log to dlfs_nextseg, and choose the segment after it. */
int
lfs_newseg(struct lfs *fs)
{
	struct dlfs *d = &fs->lfs_dlfs;
	u_int32_t sn = d->dlfs_nextseg, end;
	struct lfs_ifref r;
	SEGUSE *sup;

	LFS_ASSERT_SEGLOCK(fs);
	if (fs->lfs_coldin && fs->lfs_coldlost)
		return ENOSPC;		/* its choice was taken: lfs_markv */
	if (d->dlfs_offset != 0 && sn == d->dlfs_curseg) {
		/*
		 * No clean segment was left when the next was chosen; the
		 * cleaner may have freed one since.  No summary names it, so
		 * roll-forward cannot follow: the write ends in a checkpoint
		 * (lfs_segwrite_vnodes).
		 */
		if (fs->lfs_coldin) {
			fs->lfs_coldlost = 1;	/* lfs_markv chooses again */
			return ENOSPC;
		}
		if (lfs_pickseg(fs) != 0 ||
		    (sn = d->dlfs_nextseg) == d->dlfs_curseg) {
			printf("lfs: %s: no clean segment after segment %u\n",
			    fs->lfs_ump->um_fspec, d->dlfs_curseg);
			return ENOSPC;
		}
		fs->lfs_unnamed = 1;
	}
	if ((sup = LFS_SEGENTRY(fs, sn, &r)) == NULL)
		return EIO;
	if (sup->su_flags & (SEGUSE_DIRTY | SEGUSE_ACTIVE)) {
		lfs_ifput(fs, &r, 0);
		printf("lfs: %s: next segment %u is not clean\n",
		    fs->lfs_ump->um_fspec, sn);
		return EIO;
	}
	end = lfs_sntod(d, d->dlfs_curseg + 1);
	if (d->dlfs_offset != 0 && d->dlfs_offset < end)
		d->dlfs_avail -= end - d->dlfs_offset;	/* the tail unused */
	fs->lfs_nclean--;
	fs->lfs_ndirty++;
	sup->su_flags |= SEGUSE_ACTIVE | SEGUSE_DIRTY;
	sup->su_nbytes = 0;
	sup->su_nsums = sup->su_ninos = 0;
	sup->su_lastmod = lfs_time();
	lfs_ifput(fs, &r, 1);
	d->dlfs_curseg = sn;
	d->dlfs_offset = lfs_sbfirstblock(d, sn);
	fs->lfs_stats.segs_used++;
	if (fs->lfs_nclean <= d->dlfs_minfreeseg + 2)
		wakeup(&fs->lfs_cleaners);	/* clean segments run low */
	return lfs_pickseg(fs);
}

/*
 * Choose dlfs_nextseg: the first clean segment after dlfs_curseg that
 * the other head has not chosen.  When the hot head finds only the cold
 * head's choice, it takes it (the hot head must always find one while
 * avail says there is room); the cold head then chooses again, and
 * a checkpoint says where, before it writes there (lfs_markv), for that
 * is where roll-forward looks for it.
 */
int
lfs_pickseg(struct lfs *fs)
{
	struct dlfs *d = &fs->lfs_dlfs;
	u_int32_t sn = d->dlfs_curseg, i;
	struct lfs_ifref r;
	SEGUSE *sup;

	for (i = 1; i < d->dlfs_nseg; i++) {
		u_int32_t n = (sn + i) % d->dlfs_nseg;
		int clean;

		if ((sup = LFS_SEGENTRY(fs, n, &r)) == NULL)
			return EIO;
		clean = !(sup->su_flags & (SEGUSE_DIRTY | SEGUSE_ACTIVE)) &&
		    n != d->dlfs_cnextseg;
		lfs_ifput(fs, &r, 0);
		if (clean) {
			d->dlfs_nextseg = n;
			return 0;
		}
	}
	if (!fs->lfs_coldin && d->dlfs_cnextseg != sn &&
	    (sup = LFS_SEGENTRY(fs, d->dlfs_cnextseg, &r)) != NULL) {
		int clean = !(sup->su_flags & (SEGUSE_DIRTY | SEGUSE_ACTIVE));

		lfs_ifput(fs, &r, 0);
		if (clean && (d->dlfs_coffset == 0 ||
		    d->dlfs_cnextseg != d->dlfs_ccurseg)) {
			d->dlfs_nextseg = d->dlfs_cnextseg;
			fs->lfs_coldlost = 1;
			return 0;
		}
	}
	/*
	 * None left: this is the last segment the log can take for now.
	 * lfs_newseg chooses again when the head must move on (the
	 * cleaner may have reclaimed one by then); the cold head's copies
	 * go to the hot head until lfs_markv has chosen for it again.
	 */
	if (fs->lfs_coldin)
		fs->lfs_coldlost = 1;
	d->dlfs_nextseg = sn;
	return 0;
}

/* A checkpoint keeps ACTIVE only on the segments being written. */
void
lfs_clearactive(struct lfs *fs)
{
	struct dlfs *d = &fs->lfs_dlfs;
	struct lfs_ifref r;
	u_int32_t sn;
	SEGUSE *sup;

	LFS_ASSERT_SEGLOCK(fs);
	for (sn = 0; sn < d->dlfs_nseg; sn++) {
		if (sn == d->dlfs_curseg || (d->dlfs_coffset != 0 &&
		    sn == d->dlfs_ccurseg) ||
		    (sup = LFS_SEGENTRY(fs, sn, &r)) == NULL)
			continue;
		if (sup->su_flags & SEGUSE_ACTIVE) {
			sup->su_flags &= ~SEGUSE_ACTIVE;
			lfs_ifput(fs, &r, 1);
		} else
			lfs_ifput(fs, &r, 0);
	}
}
