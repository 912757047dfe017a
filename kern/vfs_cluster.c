/*
 * Clustering: moving a run of file blocks that lie one after another on
 * the disk in a single transfer of up to MAXPHYS (McVoy & Kleiman 1991;
 * the EFS of thesis 7.1, and LFS reads).
 *
 * Reads (cluster_read).  A vnode remembers the last block read (v_lastr),
 * the last block of the read(2) in progress (v_rqend) and a read-ahead
 * window (v_ralen, in blocks, 1 at first).  A read whose first block
 * follows the last one read is sequential: the reader is given up to a
 * window's worth of blocks ahead, read asynchronously, one transfer for
 * each run of them at consecutive disk addresses, and the window doubles,
 * up to MAXPHYS.  Any other read halves the window.  Every read gets the
 * blocks it asked for in one transfer, and the later blocks of one read
 * are not evidence of a sequential run: so a B-tree of 8 KB pages on 4 KB
 * blocks (0, 1, 2, 22, 23, 41, 42, ...) reads each page in one transfer
 * and nothing more.  The thesis' window (7.7) took the second block of
 * each page for a sequential read and read ahead of it; ours does not,
 * while a sequential scan still soon moves 64 KB per transfer.
 * Read-ahead buffers go to the LRU queue like any other (brelse), so a
 * true sequential reader finds them.
 *
 * Writes (cluster_write).  Full blocks written one after another, at
 * consecutive disk addresses, are kept as delayed writes (v_cstart ..
 * v_lastw at v_lasta) until the cluster holds MAXPHYS, or the pattern
 * breaks; then they go out in one transfer.  fsync and sync push the
 * rest through cluster_push.
 *
 * A cluster transfer has a header buffer of its own, which the driver
 * sees, and the member buffers, which stay in the cache.  The data is
 * copied between them (our buffers own their memory, unlike 4.4BSD's
 * page-moving ones); a copy of 64 KB costs far less than the 40 ms the
 * disk takes to move it.  When the transfer ends, every member is
 * finished with biodone as if it had had an I/O of its own.
 */
#include "kern/systm.h"
#include "kern/buf.h"
#include "kern/vnode.h"
#include "kern/conf.h"
#include "kern/malloc.h"
#include "kern/proc.h"
#include "kern/i386/cpu.h"

#define MAXCLUSTER	(MAXPHYS / 1024)	/* members: blocks >= 1 KB */
#define MAXBLKS(size)	MIN(MAXPHYS / (size), MAXCLUSTER)	/* per transfer */

struct cluster {
	struct buf c_hdr;		/* the transfer the driver sees */
	int	c_n;			/* members */
	struct buf *c_bufs[MAXCLUSTER];
};

void
cluster_init(struct vnode *vp)
{
	vp->v_lastr = vp->v_rqend = -1;
	vp->v_ralen = 1;
	vp->v_clen = 0;
}

/* The transfer is over: hand each member its data and its ending. */
static void
cluster_done(struct buf *hdr)
{
	struct cluster *c = hdr->b_private;
	long size = c->c_bufs[0]->b_bcount, done;
	int i;

	done = hdr->b_bcount - hdr->b_resid;
	for (i = 0; i < c->c_n; i++) {
		struct buf *bp = c->c_bufs[i];

		if ((hdr->b_flags & B_ERROR) || (i + 1) * size > done) {
			bp->b_flags |= B_ERROR;
			bp->b_error = hdr->b_error ? hdr->b_error : EIO;
		} else if (bp->b_flags & B_READ)
			memcpy(bp->b_data, hdr->b_data + i * size, size);
		biodone(bp);
	}
	free(hdr->b_data);
	free(c);
}

/*
 * Start one transfer for the n busy buffers bufs[], already readied by
 * biostart, of one vnode, all of one size, at consecutive disk addresses
 * on devvp.
 */
static void
cluster_start(struct vnode *devvp, struct buf **bufs, int n)
{
	struct cluster *c;
	struct buf *hdr;
	long size = bufs[0]->b_bcount;
	int i;

	if (n == 1) {
		VOP_STRATEGY(bufs[0]);
		return;
	}
	c = malloc(sizeof(*c), M_WAITOK | M_ZERO);
	hdr = &c->c_hdr;
	hdr->b_data = malloc(n * size, M_WAITOK);
	hdr->b_bufsize = hdr->b_bcount = n * size;
	hdr->b_flags = B_BUSY | B_CALL | B_ASYNC |
	    (bufs[0]->b_flags & (B_READ | B_SYNC));
	hdr->b_iodone = cluster_done;
	hdr->b_private = c;
	hdr->b_blkno = bufs[0]->b_blkno;
	hdr->b_dev = devvp->v_rdev;
	c->c_n = n;
	for (i = 0; i < n; i++) {
		c->c_bufs[i] = bufs[i];
		if (!(hdr->b_flags & B_READ))
			memcpy(hdr->b_data + i * size, bufs[i]->b_data, size);
	}
	bdevsw[major(hdr->b_dev)].d_strategy(hdr);
}

/*
 * Read bp (busy, not valid) and up to n - 1 blocks after it that follow
 * it on disk, lie wholly inside the file and are not in the cache, in one
 * transfer.  The followers are read asynchronously; bp too if async.
 * Returns how many blocks the transfer covers.
 */
static int
cluster_rbuild(struct vnode *vp, off_t filesize, struct buf *bp, int n,
    int async)
{
	struct buf *bufs[MAXCLUSTER], *tbp;
	struct vnode *devvp;
	daddr_t lbn = bp->b_lblkno, blkno;
	long size = bp->b_bcount;
	int run = 0, k;

	if (async)
		bp->b_flags |= B_ASYNC;
	if (VOP_BMAP(vp, lbn, &devvp, &blkno, &run) != 0 || blkno == -1) {
		/* A hole, or no map: the file's strategy fills or fails it. */
		biostart(bp, B_READ);
		VOP_STRATEGY(bp);
		vp->v_maxra = MAX(vp->v_maxra, lbn);
		return 1;
	}
	bp->b_blkno = blkno;
	n = MIN(MIN(n, run + 1), MAXBLKS(size));
	while (n > 1 && (lbn + n) * (off_t)size > filesize)
		n--;
	bufs[0] = bp;
	for (k = 1; k < n; k++) {
		if (incore(vp, lbn + k) != NULL)
			break;
		tbp = getblk(vp, lbn + k, size);
		if (tbp->b_flags & (B_DONE | B_DELWRI)) {
			brelse(tbp);	/* appeared while getblk slept */
			break;
		}
		tbp->b_blkno = blkno + k * btodb(size);
		tbp->b_flags |= B_ASYNC;
		bufs[k] = tbp;
	}
	for (n = 0; n < k; n++)
		biostart(bufs[n], B_READ);
	cluster_start(devvp, bufs, k);
	vp->v_maxra = MAX(vp->v_maxra, lbn + k - 1);
	return k;
}

/*
 * How a read of block lbn, the first of nblks the reader asked for in one
 * call, follows the vnode's last reads (v_lastr, v_rqend): the rest of a
 * read already begun, the next read of a sequential run, the same block
 * again, or a read elsewhere.  A new read notes whether it continues a
 * sequential run (v_rqseq; from block 0, a file's first read is taken
 * for one).  FFS's one-block read-ahead asks too.
 */
int
cluster_pattern(struct vnode *vp, daddr_t lbn, int nblks)
{
	int how;

	if (lbn == vp->v_lastr + 1 && lbn <= vp->v_rqend)
		how = CR_INREAD;
	else if (lbn == vp->v_lastr)
		how = CR_AGAIN;
	else if (lbn == vp->v_lastr + 1 && lbn != 0)
		how = CR_SEQUENTIAL;
	else
		how = CR_ELSEWHERE;
	if (how == CR_SEQUENTIAL || how == CR_ELSEWHERE) {
		vp->v_rqend = lbn + MAX(nblks, 1) - 1;
		vp->v_rqseq = how == CR_SEQUENTIAL || lbn == 0;
	}
	vp->v_lastr = lbn;
	return how;
}

/*
 * Block lbn (size bytes; the file is filesize long), the first of the
 * nblks the reader wants, busy in *bpp, with read-ahead as the window
 * allows (see the top).
 */
int
cluster_read(struct vnode *vp, off_t filesize, daddr_t lbn, int size,
    int nblks, struct buf **bpp)
{
	/* LAB(cluster) begin */
	int window = MAX(vp->v_ralen, 1), maxblks = MAXBLKS(size), n;
	int how = cluster_pattern(vp, lbn, nblks), wait = 0;
	int seq = how == CR_SEQUENTIAL;
	struct buf *bp, *rabp;
	daddr_t rablk, end;

	if (how == CR_ELSEWHERE) {
		vp->v_ralen = window = MAX(window / 2, 1);
		vp->v_maxra = lbn;
	}
	bp = *bpp = getblk(vp, lbn, size);
	if (!(bp->b_flags & (B_DONE | B_DELWRI))) {
		/* what the read asked for, or the window if that is more */
		n = (int)MIN(vp->v_rqend - lbn + 1, maxblks);
		cluster_rbuild(vp, filesize, bp, MAX(n, seq ? window : 1), 0);
		wait = 1;
	}
	/*
	 * Sequential: keep a window's worth read ahead of what the reader
	 * asked for, one transfer for each run of consecutive disk addresses
	 * in it.  A block that lies elsewhere (LFS rewrote it) costs a
	 * transfer of its own, not the window; the driver's disksort orders
	 * the transfers.
	 */
	rablk = MAX(vp->v_maxra, vp->v_rqend) + 1;
	if (seq && rablk <= vp->v_rqend + window) {
		for (end = rablk + window; rablk < end &&
		    (rablk + 1) * (off_t)size <= filesize; rablk += n) {
			n = 1;
			if (incore(vp, rablk) != NULL)
				continue;
			rabp = getblk(vp, rablk, size);
			if (rabp->b_flags & (B_DONE | B_DELWRI))
				brelse(rabp);
			else
				n = cluster_rbuild(vp, filesize, rabp,
				    end - rablk, 1);
		}
		vp->v_ralen = MIN(2 * window, maxblks);
	}
	return wait ? biowait(bp) : 0;
	/* LAB(cluster) end, stub:
	 *	(void)nblks;
	 *	*bpp = getblk(vp, lbn, size);
	 *	if ((*bpp)->b_flags & (B_DONE | B_DELWRI))
	 *		return 0;
	 *	cluster_rbuild(vp, filesize, *bpp, 1, 0);
	 *	return biowait(*bpp);
	 */
}

/* bp's disk address, looked up if the buffer does not know it yet;
 * -1 if it cannot be known. */
static daddr_t
cluster_blkno(struct buf *bp)
{
	daddr_t blkno;

	if (bp->b_blkno == bp->b_lblkno) {
		if (VOP_BMAP(bp->b_vp, bp->b_lblkno, NULL, &blkno, NULL) != 0 ||
		    blkno == -1)
			return -1;
		bp->b_blkno = blkno;
	}
	return bp->b_blkno;
}

/*
 * Write the delayed-write buffers of vp for blocks start .. start+len-1
 * that are in the cache, of the given size, each run of them at
 * consecutive disk addresses in one asynchronous transfer.
 */
static void
cluster_wbuild(struct vnode *vp, long size, daddr_t start, int len)
{
	struct buf *bufs[MAXCLUSTER], *tbp;
	struct vnode *devvp;
	daddr_t lbn = start, end = start + MIN(len, MAXBLKS(size)), blkno;
	int n, i, s;

	if (VOP_BMAP(vp, start, &devvp, NULL, NULL) != 0)
		return;
	while (lbn < end) {
		for (n = 0; lbn < end; n++, lbn++) {
			s = splbio();
			tbp = incore(vp, lbn);
			if (tbp == NULL || tbp->b_bcount != size ||
			    (tbp->b_flags & (B_BUSY | B_DELWRI)) != B_DELWRI) {
				splx(s);
				if (n == 0)
					lbn++;	/* nothing to write here */
				break;
			}
			bremfree(tbp);
			tbp->b_flags |= B_BUSY | B_ASYNC;
			splx(s);
			blkno = cluster_blkno(tbp);
			if (n > 0 && blkno != bufs[n - 1]->b_blkno +
			    btodb(size)) {
				brelse(tbp);	/* still dirty: next run */
				break;
			}
			if (blkno == -1) {	/* unmapped: alone */
				bawrite(tbp);
				lbn++;
				break;
			}
			bufs[n] = tbp;
		}
		if (n == 0)
			continue;
		for (i = 0; i < n; i++)
			biostart(bufs[i], B_WRITE);
		cluster_start(devvp, bufs, n);
	}
}

/*
 * A full block of a file (filesize long) has been written into bp: add
 * it to the vnode's write cluster, and write the cluster when it is
 * full, or when this block does not continue it.
 */
void
cluster_write(struct buf *bp, off_t filesize)
{
	/* LAB(cluster) begin */
	struct vnode *vp = bp->b_vp;
	daddr_t lbn = bp->b_lblkno, blkno = cluster_blkno(bp);
	long size = bp->b_bcount;
	int maxclen = MAXBLKS(size) - 1;

	if (maxclen == 0 || lbn < 0) {
		bawrite(bp);
		return;
	}
	if (vp->v_clen == 0 || lbn != vp->v_lastw + 1 ||
	    blkno != vp->v_lasta + btodb(size)) {
		/* Not the next block: push the old cluster, start anew. */
		if (vp->v_clen != 0)
			cluster_wbuild(vp, size, vp->v_cstart,
			    vp->v_lastw - vp->v_cstart + 1);
		vp->v_cstart = lbn;
		vp->v_clen = maxclen;
		bdwrite(bp);
	} else if (lbn == vp->v_cstart + vp->v_clen) {
		bdwrite(bp);
		cluster_wbuild(vp, size, vp->v_cstart, vp->v_clen + 1);
		vp->v_clen = 0;
	} else
		bdwrite(bp);
	vp->v_lastw = lbn;
	vp->v_lasta = blkno;
	/* LAB(cluster) end, stub:
	 *	bawrite(bp);
	 */
}

/*
 * fsync and sync: write the dirty block bp (not busy) together with the
 * dirty blocks around it that are contiguous with it on disk.
 */
void
cluster_push(struct vnode *vp, struct buf *bp)
{
	long size = bp->b_bcount;
	daddr_t start = bp->b_lblkno, blkno = bp->b_blkno;
	int maxblks = MAXBLKS(size);
	struct buf *tbp;

	if (start < 0 || blkno == bp->b_lblkno) {
		bremfree(bp);
		bp->b_flags |= B_BUSY;
		bawrite(bp);
		return;
	}
	/* Walk back to the first block of the dirty contiguous run. */
	while (start > 0 && bp->b_lblkno - start < maxblks - 1 &&
	    (tbp = incore(vp, start - 1)) != NULL && tbp->b_bcount == size &&
	    (tbp->b_flags & (B_BUSY | B_DELWRI)) == B_DELWRI &&
	    tbp->b_blkno == blkno - btodb(size)) {
		start--;
		blkno = tbp->b_blkno;
	}
	vp->v_clen = 0;		/* what cluster_write gathered goes now */
	cluster_wbuild(vp, size, start, maxblks);
}
