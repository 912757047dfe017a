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

int
physio(void (*strategy)(struct buf *), dev_t dev, int flags, struct uio *uio)
{
	struct buf *bufs[PHYS_AHEAD], *bp;
	off_t next;			/* where the next piece starts */
	long left;			/* bytes no piece has started on */
	int error = 0, e, n, done, size, nbufs, i, busy = 0, stop = 0;

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
	next = uio->uio_offset;
	left = uio->uio_resid;
	for (i = 0; i < nbufs && flags == B_READ; i++, busy++) {
		n = MIN(left, size);
		phys_start(strategy, dev, flags, bufs[i], next, n);
		next += n;
		left -= n;
	}
	for (i = 0; flags == B_WRITE ? !stop && uio->uio_resid > 0 : busy > 0;
	    i = (i + 1) % nbufs) {
		bp = bufs[i];
		if (flags == B_WRITE) {
			n = MIN(uio->uio_resid, size);
			if ((error = uiomove(bp->b_data, n, uio)) != 0)
				break;
			phys_start(strategy, dev, flags, bp,
			    uio->uio_offset - n, n);	/* uiomove advanced */
		}
		e = biowait(bp);
		n = bp->b_bcount;
		done = n - bp->b_resid;
		if (flags == B_READ) {
			busy--;
			if (stop)
				continue;	/* past where the read ended */
			if ((error = e) == 0 && done > 0)
				error = uiomove(bp->b_data, done, uio);
		} else if ((error = e) != 0 || done < n) {
			/*
			 * The bytes not written go back into the count the
			 * caller sees; the iovecs are past them, but the
			 * transfer ends here so nothing reads them again.
			 */
			uio->uio_resid += n - done;
			uio->uio_offset -= n - done;
		}
		if (error || done < n)
			stop = 1;	/* pieces still queued are waited out */
		if (flags == B_READ && !stop && left > 0) {
			n = MIN(left, size);
			phys_start(strategy, dev, flags, bp, next, n);
			next += n;
			left -= n;
			busy++;
		}
	}
	for (i = 0; i < nbufs; i++) {
		free(bufs[i]->b_data);
		free(bufs[i]);
	}
	return error;
}
