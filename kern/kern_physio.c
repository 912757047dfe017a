/*
 * Raw disk I/O (4.4BSD kern_physio.c): read(2) and write(2) on a
 * character disk device go straight to the driver's strategy routine,
 * around the buffer cache, in pieces of at most MAXPHYS bytes.
 *
 * 4.4BSD wired the user's pages and let the controller DMA into them.
 * This kernel bounces instead: private buffer headers with kernel
 * buffers of up to MAXPHYS from malloc (physically contiguous, so a DMA
 * engine can use them), not geteblk(), so raw I/O neither takes nor
 * disturbs cache buffers.  Per piece: copy the user's data in (writes), strategy,
 * biowait, copy out (reads).  A short transfer is the end of the
 * partition: stop there, as read(2) returns a short count at EOF.
 * Offsets and lengths must be whole sectors (EINVAL otherwise), as the
 * disk cannot transfer less.
 *
 * A long read keeps PHYS_AHEAD pieces queued at once, so the elevator
 * serves them in one sweep: one piece at a time let every other
 * process's request in between two pieces, and the arm went away and
 * back each time (lfs_cleanerd reads a whole segment this way while
 * TPC-B runs).  Writes go a piece at a time, so a failed piece is where
 * the writing stopped.
 */
#include "kern/systm.h"
#include "kern/malloc.h"
#include "kern/buf.h"
#include "kern/conf.h"
#include "kern/uio.h"

#define PHYS_AHEAD	4		/* pieces of a read queued at once */

/* Start bp on the next n bytes at byte offset off. */
static void
phys_start(void (*strategy)(struct buf *), dev_t dev, int flags,
    struct buf *bp, off_t off, int n)
{
	bp->b_flags = B_BUSY | B_RAW | flags;
	bp->b_error = 0;
	bp->b_resid = 0;
	bp->b_dev = dev;
	bp->b_bcount = n;
	bp->b_blkno = (daddr_t)(off / DEV_BSIZE);
	(*strategy)(bp);
}

/* Writes: a piece at a time; a failed or short one ends the transfer. */
static int
phys_write(void (*strategy)(struct buf *), dev_t dev, struct buf *bp,
    struct uio *uio)
{
	int error, n, done;

	while (uio->uio_resid > 0) {
		n = MIN(uio->uio_resid, bp->b_bufsize);
		if ((error = uiomove(bp->b_data, n, uio)) != 0)
			return error;
		phys_start(strategy, dev, B_WRITE, bp, uio->uio_offset - n, n);
		error = biowait(bp);
		done = n - bp->b_resid;
		if (error || done < n) {
			/*
			 * The bytes not written go back into the count the
			 * caller sees; the iovecs are past them, but the
			 * transfer ends here so nothing reads them again.
			 */
			uio->uio_resid += n - done;
			uio->uio_offset -= n - done;
			return error;
		}
	}
	return 0;
}

/* Start bp reading the next piece: at *next, of what *left says. */
static void
phys_readnext(void (*strategy)(struct buf *), dev_t dev, struct buf *bp,
    off_t *next, long *left)
{
	int n = MIN(*left, bp->b_bufsize);

	phys_start(strategy, dev, B_READ, bp, *next, n);
	*next += n;
	*left -= n;
}

/*
 * Reads: nbufs pieces queued, taken back in order (a ring); after a
 * failed or short one, those still queued are waited out and dropped.
 */
static int
phys_read(void (*strategy)(struct buf *), dev_t dev, struct buf **bufs,
    int nbufs, struct uio *uio)
{
	off_t next = uio->uio_offset;	/* where the next piece starts */
	long left = uio->uio_resid;	/* bytes no piece has started on */
	int error = 0, e, done, i, busy, stop = 0;
	struct buf *bp;

	for (busy = 0; busy < nbufs; busy++)
		phys_readnext(strategy, dev, bufs[busy], &next, &left);
	for (i = 0; busy > 0; i = (i + 1) % nbufs, busy--) {
		bp = bufs[i];
		e = biowait(bp);
		if (stop)
			continue;	/* past where the read ended */
		done = bp->b_bcount - bp->b_resid;
		if ((error = e) == 0 && done > 0)
			error = uiomove(bp->b_data, done, uio);
		if (error || done < bp->b_bcount)
			stop = 1;
		else if (left > 0) {
			phys_readnext(strategy, dev, bp, &next, &left);
			busy++;
		}
	}
	return error;
}

int
physio(void (*strategy)(struct buf *), dev_t dev, int flags, struct uio *uio)
{
	struct buf *bufs[PHYS_AHEAD], *bp;
	int error, size, nbufs, i;

	KASSERT(flags == B_READ || flags == B_WRITE);
	KASSERT((flags == B_READ) == (uio->uio_rw == UIO_READ));
	if (uio->uio_offset < 0 || uio->uio_offset % DEV_BSIZE != 0 ||
	    uio->uio_resid % DEV_BSIZE != 0)
		return EINVAL;
	if (uio->uio_resid == 0)
		return 0;

	/* A small transfer gets a small bounce buffer. */
	size = MIN(uio->uio_resid, MAXPHYS);
	nbufs = flags == B_READ ?
	    MIN(PHYS_AHEAD, (uio->uio_resid + size - 1) / size) : 1;
	for (i = 0; i < nbufs; i++) {
		bp = bufs[i] = malloc(sizeof(*bp), M_WAITOK | M_ZERO);
		bp->b_data = malloc(size, M_WAITOK);
		bp->b_bufsize = size;
		bp->b_qindex = QUEUE_NONE;
	}
	error = flags == B_READ ? phys_read(strategy, dev, bufs, nbufs, uio) :
	    phys_write(strategy, dev, bufs[0], uio);
	for (i = 0; i < nbufs; i++) {
		free(bufs[i]->b_data);
		free(bufs[i]);
	}
	return error;
}
