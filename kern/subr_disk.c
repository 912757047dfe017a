/*
 * The disk queue and its elevator: 4.4BSD's disksort (ufs_disksubr.c),
 * keyed by b_pblkno, the sector relative to the start of the disk.
 *
 * The queue is a one-way elevator (C-LOOK) kept as two ascending lists
 * one after the other:
 *   first   requests at or beyond the arm position bq_lastpos, in
 *           ascending order: the arm sweeps up through them;
 *   second  requests behind the arm, in ascending order: served after the
 *           arm returns to the lowest of them.
 * The driver starts the head of the queue (bufq_first) and takes it off
 * with bufq_remove, which moves bq_lastpos to where the arm was sent.
 * 4.4BSD left the active request at the head and compared with it; here
 * the active request is off the queue and bq_lastpos plays its part.
 * Because bq_lastpos only moves to the head's position, everything in
 * the first list is still at or beyond it, and when the first list is
 * empty the whole second list is: the two-list invariant survives every
 * removal, with no re-sorting.  Equal positions keep arrival order.
 * Callers hold splbio(): the disk's interrupt handler takes requests off.
 */
#include "kern/systm.h"
#include "kern/buf.h"

void
bufq_init(struct buf_queue *bq)
{
	TAILQ_INIT(&bq->bq_head);
	bq->bq_lastpos = 0;
}

/* Which list bp belongs in: 0 = ahead of the arm, 1 = behind it. */
static int
bufq_pass(struct buf_queue *bq, struct buf *bp)
{
	return bp->b_pblkno < bq->bq_lastpos;
}

/*
 * Insert bp before the first request that sorts after it: a request of
 * a later list, or of the same list at a higher sector.
 */
void
disksort(struct buf_queue *bq, struct buf *bp)
{
	struct buf *q;
	int pass = bufq_pass(bq, bp);

	TAILQ_FOREACH(q, &bq->bq_head, b_actq) {
		int qpass = bufq_pass(bq, q);

		if (qpass > pass ||
		    (qpass == pass && q->b_pblkno > bp->b_pblkno)) {
			TAILQ_INSERT_BEFORE(q, bp, b_actq);
			return;
		}
	}
	TAILQ_INSERT_TAIL(&bq->bq_head, bp, b_actq);
}

/* The request the driver should start next, or NULL. */
struct buf *
bufq_first(struct buf_queue *bq)
{
	return TAILQ_FIRST(&bq->bq_head);
}

/*
 * Take bp off the queue.  Removing the head means the driver is sending
 * the arm there: that position divides the two lists from now on.
 */
void
bufq_remove(struct buf_queue *bq, struct buf *bp)
{
	if (bp == TAILQ_FIRST(&bq->bq_head))
		bq->bq_lastpos = bp->b_pblkno;
	TAILQ_REMOVE(&bq->bq_head, bp, b_actq);
}
