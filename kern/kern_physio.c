/*
 * Raw disk I/O (4.4BSD kern_physio.c): read(2) and write(2) on a
 * character disk device go straight to the driver's strategy routine,
 * around the buffer cache, in pieces of at most MAXPHYS bytes.
 *
 * 4.4BSD wired the user's pages and let the controller DMA into them.
 * This kernel bounces instead: a private buffer header with a kernel
 * buffer of up to MAXPHYS from malloc (physically contiguous, so a DMA
 * engine can use it), not geteblk(), so raw I/O neither takes nor
 * disturbs cache buffers.  Per piece: copy the user's data in (writes), strategy,
 * biowait, copy out (reads).  A short transfer is the end of the
 * partition: stop there, as read(2) returns a short count at EOF.
 * Offsets and lengths must be whole sectors (EINVAL otherwise), as the
 * disk cannot transfer less.
 */
#include "kern/systm.h"
#include "kern/malloc.h"
#include "kern/buf.h"
#include "kern/conf.h"
#include "kern/uio.h"

int
physio(void (*strategy)(struct buf *), dev_t dev, int flags, struct uio *uio)
{
	struct buf *bp;
	int error = 0, n, done, size;

	KASSERT(flags == B_READ || flags == B_WRITE);
	KASSERT((flags == B_READ) == (uio->uio_rw == UIO_READ));
	if (uio->uio_offset < 0 || uio->uio_offset % DEV_BSIZE != 0 ||
	    uio->uio_resid % DEV_BSIZE != 0)
		return EINVAL;
	if (uio->uio_resid == 0)
		return 0;

	/* A small transfer gets a small bounce buffer. */
	size = MIN(uio->uio_resid, MAXPHYS);
	bp = malloc(sizeof(*bp), M_WAITOK | M_ZERO);
	bp->b_data = malloc(size, M_WAITOK);
	bp->b_bufsize = size;
	bp->b_qindex = QUEUE_NONE;

	while (uio->uio_resid > 0) {
		n = MIN(uio->uio_resid, size);
		if (flags == B_WRITE && (error = uiomove(bp->b_data, n, uio)))
			break;
		bp->b_flags = B_BUSY | B_RAW | flags;
		bp->b_error = 0;
		bp->b_resid = 0;
		bp->b_dev = dev;
		bp->b_bcount = n;
		bp->b_blkno = (daddr_t)(uio->uio_offset / DEV_BSIZE);
		if (flags == B_WRITE)
			bp->b_blkno -= n / DEV_BSIZE;	/* uiomove advanced */
		(*strategy)(bp);
		error = biowait(bp);
		done = n - bp->b_resid;
		if (flags == B_READ) {
			if (!error && done > 0)
				error = uiomove(bp->b_data, done, uio);
		} else if (done < n) {
			/*
			 * The bytes not written go back into the count the
			 * caller sees; the iovecs are past them, but the
			 * transfer ends here so nothing reads them again.
			 */
			uio->uio_resid += n - done;
			uio->uio_offset -= n - done;
		}
		if (error || done < n)
			break;
	}
	free(bp->b_data);
	free(bp);
	return error;
}
