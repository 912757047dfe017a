/*
 * Passes 5-7: the counts the kernel keeps (thesis 6.2.2, 6.3.2).
 *
 *	5  SEGUSE: su_nbytes is what account() counts live in the segment
 *	   (bsize a data or indirect block, sizeof(struct dinode) an
 *	   inode at its map address); a segment with live bytes, and the
 *	   current one, are SEGUSE_DIRTY; SEGUSE_SUPERBLOCK is set exactly
 *	   on the segments holding a copy; dlfs_nextseg, where the log
 *	   goes on, is clean (or dlfs_curseg, when none was: lfs_pickseg);
 *	   CLEANERINFO clean and dirty count the flags.
 *	6  the free list, from dlfs_free through if_nextfree: in range,
 *	   acyclic, only free entries and every free entry but 0 and 1;
 *	   dlfs_nfiles and CLEANERINFO free_head.
 *	7  dlfs_bfree = dlfs_dsize - the live file blocks (summaries and
 *	   inode blocks are log overhead, not counted); dlfs_avail = the
 *	   log blocks of clean segments + those of dlfs_curseg from
 *	   dlfs_offset; CLEANERINFO's copies of both.  A mounted file
 *	   system's checkpoint may differ by blocks cached in the kernel:
 *	   a note, not a problem.
 */
#include <sys/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/lfs.h"
#include "fsck_lfs.h"

#define CLEANINFO()	((CLEANERINFO *)ifbuf)

/* Does segment sn hold a superblock copy? */
static int
hassb(u_int32_t sn)
{
	int i;

	for (i = 0; i < LFS_NSB; i++)
		if (fs.dlfs_sboffs[i] != 0 &&
		    lfs_dtosn(&fs, fs.dlfs_sboffs[i]) == sn)
			return (1);
	return (0);
}

static int
segclean(u_int32_t sn)
{

	return ((seguse(sn)->su_flags & (SEGUSE_DIRTY | SEGUSE_ACTIVE)) == 0);
}

/*
 * Where the log goes on after segment sn, as lfs_pickseg chooses: the
 * first segment after it that ok() takes and the cold head did not
 * choose, else the cold head's choice if ok() takes it (the kernel's
 * cold head then chooses again at mount, lfs_coldcheck), else
 * dlfs_nseg: none.
 */
u_int32_t
pickseg(u_int32_t sn, int (*ok)(u_int32_t))
{
	u_int32_t n, next;

	for (n = 1; n < fs.dlfs_nseg; n++) {
		next = (sn + n) % fs.dlfs_nseg;
		if (next != fs.dlfs_cnextseg && ok(next))
			return (next);
	}
	if (fs.dlfs_cnextseg != sn && ok(fs.dlfs_cnextseg))
		return (fs.dlfs_cnextseg);
	return (fs.dlfs_nseg);
}

/* dlfs_nextseg as the kernel wants it: clean, or curseg when none is. */
void
fixnextseg(void)
{
	u_int32_t sn = pickseg(fs.dlfs_curseg, segclean);

	fs.dlfs_nextseg = sn < fs.dlfs_nseg ? sn : fs.dlfs_curseg;
}

/*
 * dlfs_cnextseg once a repair took it (pickseg) or it is the hot head's
 * too: another clean segment, as lfs_pickcold chooses; as it is if
 * there is none (the kernel's cold head writes to the hot one's then).
 */
void
fixcnextseg(void)
{
	u_int32_t n, sn;

	if (segclean(fs.dlfs_cnextseg) && fs.dlfs_cnextseg != fs.dlfs_nextseg)
		return;
	for (n = 1; n < fs.dlfs_nseg; n++) {
		sn = (fs.dlfs_curseg + n) % fs.dlfs_nseg;
		if (sn != fs.dlfs_nextseg && segclean(sn)) {
			fs.dlfs_cnextseg = sn;
			if (fs.dlfs_coffset == 0)	/* said to be in it */
				fs.dlfs_ccurseg = sn;
			return;
		}
	}
}

/* Is sn a segment a log head writes (the hot one, or the cold one)? */
int
headseg(u_int32_t sn)
{

	return (sn == fs.dlfs_curseg ||
	    (fs.dlfs_coffset != 0 && sn == fs.dlfs_ccurseg));
}

/*
 * The log blocks of clean segments, and of each head's segment from
 * where it goes on.
 */
int64_t
availblocks(void)
{
	int64_t n;
	u_int32_t sn;

	n = lfs_sntod(&fs, fs.dlfs_curseg + 1) - fs.dlfs_offset;
	if (fs.dlfs_coffset != 0)
		n += lfs_sntod(&fs, fs.dlfs_ccurseg + 1) - fs.dlfs_coffset;
	for (sn = 0; sn < fs.dlfs_nseg; sn++)
		if (segclean(sn) && !headseg(sn))
			n += lfs_sntod(&fs, sn + 1) - lfs_sbfirstblock(&fs, sn);
	return (n);
}

static void
countflags(u_int32_t *nclean, u_int32_t *ndirty)
{
	u_int32_t sn;

	*nclean = *ndirty = 0;
	for (sn = 0; sn < fs.dlfs_nseg; sn++)
		if (seguse(sn)->su_flags & SEGUSE_DIRTY)
			(*ndirty)++;
		else
			(*nclean)++;
}

void
pass5(void)
{
	CLEANERINFO *ci = CLEANINFO();
	u_int32_t sn, nclean, ndirty, want;
	SEGUSE *sup;

	account();
	for (sn = 0; sn < fs.dlfs_nseg; sn++) {
		sup = seguse(sn);
		want = hassb(sn) ? SEGUSE_SUPERBLOCK : 0;
		if ((sup->su_flags & SEGUSE_SUPERBLOCK) != want &&
		    problem(FIX, "segment %u: superblock flag %s", sn,
		    want ? "missing" : "set, but it holds no copy"))
			sup->su_flags ^= SEGUSE_SUPERBLOCK;
		if (sup->su_nbytes != live[sn] && problem(FIX, "segment %u: "
		    "su_nbytes %u, %lld live bytes", sn, sup->su_nbytes,
		    (long long)live[sn]))
			sup->su_nbytes = live[sn];
		if (!(sup->su_flags & SEGUSE_DIRTY) && live[sn] > 0 &&
		    problem(FIX, "segment %u: %lld live bytes but marked "
		    "clean", sn, (long long)live[sn]))
			sup->su_flags |= SEGUSE_DIRTY;
		if (!(sup->su_flags & SEGUSE_DIRTY) && headseg(sn) &&
		    problem(FIX, "segment %u: the current segment is not "
		    "marked dirty", sn))
			sup->su_flags |= SEGUSE_DIRTY | SEGUSE_ACTIVE;
	}
	/* The log goes on there: the kernel mounts it only if so. */
	if (fs.dlfs_nextseg != fs.dlfs_curseg && !segclean(fs.dlfs_nextseg) &&
	    problem(FIX, "superblock nextseg %u: the segment is in use",
	    fs.dlfs_nextseg))
		fixnextseg();
	countflags(&nclean, &ndirty);
	if ((ci->clean != nclean || ci->dirty != ndirty) &&
	    problem(FIX, "CLEANERINFO clean %u dirty %u, the segment flags "
	    "count %u and %u", ci->clean, ci->dirty, nclean, ndirty)) {
		ci->clean = nclean;
		ci->dirty = ndirty;
	}
}

/* Chain every free entry but 0 and 1, in order, from dlfs_free. */
static void
rebuildfree(void)
{
	IFILE *ifp, *last = NULL;
	u_int32_t ino;

	fs.dlfs_free = 0;
	for (ino = ROOTINO; ino < nent; ino++) {
		if (inos[ino].is_state != IS_FREE)
			continue;
		ifp = ifentry(ino);
		ifp->if_nextfree = 0;
		if (last == NULL)
			fs.dlfs_free = ino;
		else
			last->if_nextfree = ino;
		last = ifp;
	}
}

void
pass6(void)
{
	CLEANERINFO *ci = CLEANINFO();
	u_int8_t *onlist;
	u_int32_t ino, nlost, firstlost;
	IFILE *ifp;
	int broken = 0;

	onlist = emalloc(nent / 8 + 1);
	for (ino = fs.dlfs_free; ino != 0; ino = ifp->if_nextfree) {
		if (ino >= nent || ino == LFS_IFILE_INUM) {
			broken = problem(FIX, "free list: entry %u out of "
			    "range", ino) + 1;
			break;
		}
		if (onlist[ino / 8] & (1 << ino % 8)) {
			broken = problem(FIX, "free list: loops back to "
			    "entry %u", ino) + 1;
			break;
		}
		onlist[ino / 8] |= 1 << ino % 8;
		ifp = ifentry(ino);
		if (inos[ino].is_state != IS_FREE)
			broken = problem(FIX, "free list: holds allocated "
			    "inode %u", ino) + 1;
	}
	for (ino = ROOTINO, nlost = firstlost = 0; ino < nent; ino++)
		if (inos[ino].is_state == IS_FREE &&
		    !(onlist[ino / 8] & (1 << ino % 8)) && nlost++ == 0)
			firstlost = ino;
	if (nlost > 0)
		broken = problem(FIX, "free list: %u free inodes not on it "
		    "(first %u)", nlost, firstlost) + 1;
	if (broken && yflag)
		rebuildfree();
	free(onlist);
	if (nalloc != fs.dlfs_nfiles && problem(FIX, "superblock nfiles %u, "
	    "%u inodes allocated", fs.dlfs_nfiles, nalloc))
		fs.dlfs_nfiles = nalloc;
	if (ci->free_head != fs.dlfs_free && problem(FIX, "CLEANERINFO "
	    "free_head %u, superblock free %u", ci->free_head, fs.dlfs_free))
		ci->free_head = fs.dlfs_free;
}

/* A superblock count against the computed one: a problem, or a note. */
static void
total(const char *name, int32_t *field, int64_t want)
{

	if (*field == want)
		return;
	if (fs.dlfs_clean == 0 && !yflag)
		note("superblock %s %d, %lld by the count (mounted: blocks "
		    "cached in the kernel)", name, *field, (long long)want);
	else if (problem(FIX, "superblock %s %d, %lld by the count", name,
	    *field, (long long)want))
		*field = want;
}

void
pass7(void)
{
	CLEANERINFO *ci = CLEANINFO();

	total("bfree", &fs.dlfs_bfree, fs.dlfs_dsize - nlive);
	total("avail", &fs.dlfs_avail, availblocks());
	if ((ci->bfree != fs.dlfs_bfree || ci->avail != fs.dlfs_avail) &&
	    problem(FIX, "CLEANERINFO bfree %d avail %d, superblock %d and "
	    "%d", ci->bfree, ci->avail, fs.dlfs_bfree, fs.dlfs_avail)) {
		ci->bfree = fs.dlfs_bfree;
		ci->avail = fs.dlfs_avail;
	}
}

/*
 * After write.c placed the repairs: every count from the model again,
 * as passes 5-7 would have them.
 */
void
recount(void)
{
	CLEANERINFO *ci = CLEANINFO();
	u_int32_t sn;
	SEGUSE *sup;

	account();
	for (sn = 0; sn < fs.dlfs_nseg; sn++) {
		sup = seguse(sn);
		sup->su_nbytes = live[sn];
		if (live[sn] > 0 || headseg(sn))
			sup->su_flags |= SEGUSE_DIRTY;
		else if (segbroken[sn]) {	/* emptied: clean now */
			sup->su_flags &= ~SEGUSE_DIRTY;
			sup->su_nsums = sup->su_ninos = 0;
		}
	}
	countflags(&ci->clean, &ci->dirty);
	fs.dlfs_nfiles = nalloc;
	fs.dlfs_bfree = fs.dlfs_dsize - nlive;
	fs.dlfs_avail = availblocks();
	ci->bfree = fs.dlfs_bfree;
	ci->avail = fs.dlfs_avail;
	ci->free_head = fs.dlfs_free;
}
