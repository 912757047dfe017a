/*
 * Delta fsyncs: a forced write of a plain file logs the bytes write(2)
 * changed of blocks the disk already holds, as DELTAs in its summary,
 * instead of writing those blocks (issue 22; a kernel commit does the
 * same for a transaction's pages, lfs_txndelta.c).  A database's log
 * force, a few hundred bytes appended to the log file's last block, is
 * then one summary block where it was a summary and the data block.
 * The block stays dirty and goes whole with a later write of the
 * segment writer.  Roll-forward (lfs_rfw_delta) writes each DELTA into
 * the block it names unless the block there is newer.
 *
 * What a buffer knows (kern/buf.h):
 *   b_dirtyoff..end  with B_DELTAOK: the bytes write(2) changed since
 *                    the block was as the disk has it (ufs_write notes
 *                    them, lfs_bwrite_data keeps them valid; any other
 *                    change of the block, lfs_bwrite, makes it unknown);
 *   b_logoff..end    with B_LOGGED: the bytes a forced write logged that
 *                    the disk's copy lacks.
 * Once logged, the dirty range is empty: the next fsync logs only what
 * came since.  The segment writer taking the block clears both.  A
 * checkpoint moves where roll-forward starts past the DELTAs: a logged
 * block it could not take (busy) has its logged bytes logged again
 * after it (lfs_relog).  The kernel argument fsyncdelta=0 turns delta
 * fsyncs off (every forced block goes whole, as before them): for
 * comparing the two, and for the recovery walk-through's image.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/malloc.h"
#include "kern/i386/cpu.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"
#include "lfs/lfs_txn.h"

static int lfs_fsyncdelta = -1;		/* not read yet */

/* The longest DELTA of one block: half a summary. */
int
lfs_deltamax(struct lfs *fs)
{
	return ((fs->lfs_dlfs.dlfs_sumsize - sizeof(struct segsum) -
	    sizeof(DELTA)) / 2) & ~3;
}

/* A DELTA at `at` of bytes off..end of data, block lbn of ip; its size. */
int
lfs_mkdelta(char *at, struct inode *ip, daddr_t lbn, const char *data,
    int off, int end, u_int64_t size)
{
	DELTA *dr = (DELTA *)at;

	dr->dr_ino = ip->i_number;
	dr->dr_version = ip->i_gen;
	dr->dr_lbn = lbn;
	dr->dr_off = off;
	dr->dr_len = end - off;
	dr->dr_size = size;
	memcpy(dr + 1, data + off, end - off);
	return DELTASIZE(end - off);
}

/* The DELTA placed where the open summary's free bytes begin is in it. */
void
lfs_sumdelta(struct lfs *fs, struct segment *sp)
{
	DELTA *dr = (DELTA *)(sp->sg_sum + sp->sg_sumused);

	sp->sg_sumused += DELTASIZE(dr->dr_len);
	((struct segsum *)sp->sg_sum)->ss_ndelta++;
	fs->lfs_stats.deltas++;
	fs->lfs_stats.delta_bytes += dr->dr_len;
}

/* Copy n bytes of DELTAs (recs) into the open summaries, as room allows. */
int
lfs_putdeltas(struct lfs *fs, struct segment *sp, const char *recs, int n)
{
	const char *r;
	int len, error;

	if (n > 0 && sp->sg_open)
		lfs_endfinfo(fs, sp);
	for (r = recs; r < recs + n; r += len) {
		len = DELTASIZE(((const DELTA *)r)->dr_len);
		if ((error = lfs_needroom(fs, sp, 0, len, 0)) != 0)
			return error;
		memcpy(sp->sg_sum + sp->sg_sumused, r, len);
		lfs_sumdelta(fs, sp);
	}
	return 0;
}

/*
 * May a forced write skip bp, all its changes being in the log?  Then a
 * data-only write need not carry it (lfs_gather).
 */
int
lfs_alllogged(struct buf *bp)
{
	return (bp->b_flags & (B_DELTAOK | B_LOGGED)) ==
	    (B_DELTAOK | B_LOGGED) && bp->b_dirtyend <= bp->b_dirtyoff;
}

/* Does the disk hold a copy of bp's block, which a DELTA can apply to? */
int
lfs_ondisk(struct buf *bp)
{
	daddr_t sector;

	return ufs_bmaparray(bp->b_vp, bp->b_lblkno, &sector, NULL) == 0 &&
	    sector > 0;
}

/* Could bp's changes go as a DELTA of at most max bytes? */
static int
lfs_deltaable(struct buf *bp, int max)
{
	return bp->b_lblkno >= 0 && lfs_cantake(bp) &&
	    (bp->b_flags & B_DELTAOK) && bp->b_dirtyend > bp->b_dirtyoff &&
	    bp->b_dirtyend - bp->b_dirtyoff <= max && lfs_ondisk(bp);
}

/*
 * A data-only forced write of vp (lfs_writedata), before it gathers the
 * blocks: the changed bytes of the blocks that can go as DELTAs, copied
 * into *recsp (malloc'd; its length is returned), and those blocks
 * marked as logged and planned (B_DELTAPLAN), so the gathering passes
 * them by even if written meanwhile: a whole copy in this write before
 * the DELTA would have the DELTA's older bytes put over it.  At most
 * half a summary in all, so they fit beside the FINFOs.  The caller puts
 * the records in the summary after the FINFOs (lfs_putdeltas), then
 * calls lfs_planned.
 */
int
lfs_plandeltas(struct lfs *fs, struct vnode *vp, char **recsp)
{
	struct inode *ip = VTOI(vp);
	int max = lfs_deltamax(fs), n = 0, len, s;
	struct buf *bp;
	char *recs;

	*recsp = NULL;
	if (lfs_fsyncdelta < 0)		/* kernel argument fsyncdelta=0: off */
		lfs_fsyncdelta = getkarg_int("fsyncdelta", 1);
	if (!lfs_fsyncdelta || vp->v_type != VREG || TXN_PROTECTED(vp))
		return 0;
	recs = malloc(max + sizeof(DELTA) + 4, M_WAITOK);
	s = splbio();
	LIST_FOREACH(bp, &vp->v_dirtyblkhd, b_vnbufs) {
		if (!lfs_deltaable(bp, max))
			continue;
		len = DELTASIZE(bp->b_dirtyend - bp->b_dirtyoff);
		if (n + len > max + (int)sizeof(DELTA) + 4)
			continue;		/* goes whole */
		n += lfs_mkdelta(recs + n, ip, bp->b_lblkno, bp->b_data,
		    bp->b_dirtyoff, bp->b_dirtyend, ip->i_size);
		if (bp->b_flags & B_LOGGED) {
			bp->b_logoff = MIN(bp->b_logoff, bp->b_dirtyoff);
			bp->b_logend = MAX(bp->b_logend, bp->b_dirtyend);
		} else {
			bp->b_logoff = bp->b_dirtyoff;
			bp->b_logend = bp->b_dirtyend;
		}
		bp->b_flags |= B_LOGGED | B_DELTAPLAN;
		bp->b_dirtyoff = bp->b_dirtyend = 0;
		fs->lfs_stats.blocks_delta++;
	}
	splx(s);
	if (n == 0)
		free(recs);
	else
		*recsp = recs;
	return n;
}

/*
 * The planned DELTAs of vp are in the summary: its blocks are no longer
 * planned.  If they could not be put there (error), the log may lack
 * what its blocks say it has: they go whole next time.
 */
void
lfs_planned(struct vnode *vp, int error)
{
	struct buf *bp;
	int s = splbio();

	LIST_FOREACH(bp, &vp->v_dirtyblkhd, b_vnbufs) {
		if (error && (bp->b_flags & B_LOGGED))
			bp->b_flags &= ~B_DELTAOK;
		bp->b_flags &= ~B_DELTAPLAN;
	}
	splx(s);
}

/*
 * The bytes of dirty block bp the log holds and the disk does not, as
 * lo..hi of *data, and the file's size to log with them: 0 if none.  A
 * transaction's page says its own (txn_page_relog).
 */
static int
lfs_logged(struct buf *bp, int *lo, int *hi, const char **data,
    u_int64_t *size)
{
	if (txn_page_relog(bp, lo, hi, data, size))
		return 1;
	if (!(bp->b_flags & B_LOGGED))
		return 0;
	*lo = bp->b_logoff;
	*hi = bp->b_logend;
	*data = bp->b_data;
	*size = VTOI(bp->b_vp)->i_size;
	return 1;
}

/*
 * A checkpoint, after its ifile (roll-forward will start after it): the
 * logged bytes of every block it left dirty (a running transaction's
 * pages, any the writer passed by) logged again; *np says how many
 * blocks.  Copied out first, all at once: no commit can run during the
 * checkpoint (the segment lock), and nothing here sleeps.
 */
int
lfs_relog(struct lfs *fs, struct segment *sp, int *np)
{
	struct mount *mp = fs->lfs_ump->um_mountp;
	int max = lfs_deltamax(fs), n, size, room = 0, off, lo, hi, error;
	struct vnode *vp;
	struct buf *bp;
	const char *data;
	char *recs = NULL;
	u_int64_t fsize;

	for (;;) {
		n = size = 0;
		LIST_FOREACH(vp, &mp->mnt_vnodelist, v_mntvnodes)
			LIST_FOREACH(bp, &vp->v_dirtyblkhd, b_vnbufs) {
				if (!lfs_logged(bp, &lo, &hi, &data, &fsize))
					continue;
				n++;
				for (off = lo; off < hi; off += max) {
					if (size + (int)DELTASIZE(max) > room) {
						size = room + 1;
						continue;	/* counted */
					}
					size += lfs_mkdelta(recs + size,
					    VTOI(vp), bp->b_lblkno, data, off,
					    MIN(off + max, hi), fsize);
				}
			}
		if (size <= room)
			break;
		free(recs);		/* more than room was made for */
		room = n * (fs->lfs_dlfs.dlfs_bsize / max + 1) * DELTASIZE(max);
		recs = malloc(room, M_WAITOK);
	}
	*np = n;
	error = lfs_putdeltas(fs, sp, recs, size);
	free(recs);
	return error;
}
