/*
 * Disk subroutines any disk driver uses, as 4.4BSD's ufs_disksubr.c:
 * the elevator queue, label checks, and the thesis 7.2 counters with the
 * diskstats(2) call that reads them.
 *
 * The elevator is 4.4BSD's disksort, keyed by b_pblkno, the sector from
 * the start of the disk: a one-way elevator (C-LOOK) kept as two
 * ascending lists, one after the other:
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
#include "kern/malloc.h"
#include "kern/buf.h"
#include "kern/uio.h"
#include "kern/syscallargs.h"
#include "kern/i386/cpu.h"
#include "kern/dev/sd.h"
#include <sys/disklabel.h>
#include <sys/diskstats.h>

#define DEFAULT_RPM	3600		/* 4.4BSD's guess, for a drive that
					 * does not say */

_Static_assert(offsetof(struct diskstats, ds_log) % 8 == 0 &&
    sizeof(struct diskstats_io) == 32,
    "struct diskstats would differ between the guest and a 64-bit host");

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

/*
 * Why lp (as read from the disk) is not a label to use, or NULL if it
 * is one: both magics, a sane partition count, a zero checksum, and
 * every partition inside a disk of nsectors.
 */
const char *
disklabel_check(struct disklabel *lp, u_int32_t nsectors)
{
	int i;

	if (lp->d_magic != DISKMAGIC || lp->d_magic2 != DISKMAGIC)
		return "no disk label";
	if (lp->d_npartitions == 0 || lp->d_npartitions > MAXPARTITIONS)
		return "bad partition count in disk label";
	if (dkcksum(lp) != 0)
		return "disk label checksum wrong";
	for (i = 0; i < lp->d_npartitions; i++) {
		struct partition *pp = &lp->d_partitions[i];

		if ((u_int64_t)pp->p_offset + pp->p_size > nsectors)
			return "disk label partition outside the disk";
	}
	return NULL;
}

/*
 * The label of a disk without one: 'a' and 'c' the whole disk, the
 * geometry and rpm the drive reported (0 = unknown: a made-up 64 x 32,
 * 4.4BSD's 3600 rpm).
 */
void
disklabel_default(struct disklabel *lp, const char *typename,
    u_int32_t nsectors, u_int32_t cyls, u_int32_t heads, u_int32_t secs,
    u_int32_t rpm)
{
	memset(lp, 0, sizeof(*lp));
	lp->d_magic = lp->d_magic2 = DISKMAGIC;
	lp->d_type = DTYPE_SCSI;
	strncpy(lp->d_typename, typename, sizeof(lp->d_typename));
	strncpy(lp->d_packname, "default", sizeof(lp->d_packname));
	lp->d_secsize = DEV_BSIZE;
	lp->d_nsectors = secs ? secs : 32;
	lp->d_ntracks = heads ? heads : 64;
	lp->d_secpercyl = lp->d_nsectors * lp->d_ntracks;
	lp->d_ncylinders = cyls ? cyls : nsectors / lp->d_secpercyl;
	lp->d_secperunit = nsectors;
	lp->d_rpm = rpm ? rpm : DEFAULT_RPM;
	lp->d_interleave = 1;
	lp->d_npartitions = RAW_PART + 1;
	lp->d_partitions[0].p_size = nsectors;
	lp->d_partitions[RAW_PART].p_size = nsectors;
	lp->d_checksum = 0;
	lp->d_checksum = dkcksum(lp);
}

/*
 * Counters (thesis 7.2, sys/diskstats.h).  The disk is busy from
 * disk_busy (a command sent) to disk_unbusy (it completed), idle
 * otherwise; disk_unbusy with a buffer counts the I/O and logs it in the
 * ring of the last DISKSTATS_NLOG.  Callers hold splbio().
 */
static struct disk *disks;		/* attached, for diskstats(2) */

void
disk_attach(struct disk *dk, const char *name, int unit)
{
	struct diskstats *ds;

	ds = dk->dk_stats = malloc(sizeof(*ds), M_WAITOK | M_ZERO);
	ds->ds_version = DISKSTATS_VERSION;
	ds->ds_unit = unit;
	strlcpy(ds->ds_name, name, DISKSTATS_NAMELEN);
	dk->dk_busy = 0;
	dk->dk_stamp = ds->ds_since_us = uptime_us();
	dk->dk_next = disks;
	disks = dk;
}

void
disk_detach(struct disk *dk)
{
	struct disk **dkp;

	for (dkp = &disks; *dkp != dk; dkp = &(*dkp)->dk_next)
		continue;
	*dkp = dk->dk_next;
	free(dk->dk_stats);
}

/* Close the busy or idle interval that ends now. */
static u_int64_t
disk_interval(struct disk *dk)
{
	u_int64_t now = uptime_us();

	if (dk->dk_busy)
		dk->dk_stats->ds_busy_us += now - dk->dk_stamp;
	else
		dk->dk_stats->ds_idle_us += now - dk->dk_stamp;
	dk->dk_stamp = now;
	return now;
}

void
disk_busy(struct disk *dk)
{
	disk_interval(dk);
	dk->dk_busy = 1;
}

/*
 * The command is over.  For a buffer's READ or WRITE: count it (it is
 * synchronous unless B_ASYNC), its nbytes transferred, and log it.
 */
void
disk_unbusy(struct disk *dk, struct buf *bp, int nbytes, int error)
{
	struct diskstats *ds = dk->dk_stats;
	struct diskstats_io *io;
	int sync;

	disk_interval(dk);
	dk->dk_busy = 0;
	if (bp == NULL)
		return;
	sync = !(bp->b_flags & B_ASYNC);
	if (bp->b_flags & B_READ) {
		ds->ds_reads++;
		ds->ds_syncreads += sync;
		ds->ds_rsectors += nbytes >> DEV_BSHIFT;
	} else {
		ds->ds_writes++;
		ds->ds_syncwrites += sync;
		ds->ds_wsectors += nbytes >> DEV_BSHIFT;
	}
	io = &ds->ds_log[ds->ds_lognext];
	io->io_begin_us = bp->b_start_us;
	io->io_end_us = dk->dk_stamp;
	io->io_sector = bp->b_pblkno;
	io->io_bytes = nbytes;
	io->io_flags = ((bp->b_flags & B_READ) ? DSIO_READ : 0) |
	    (sync ? DSIO_SYNC : 0) | (error ? DSIO_ERROR : 0);
	ds->ds_lognext = (ds->ds_lognext + 1) % DISKSTATS_NLOG;
	if (ds->ds_logcount < DISKSTATS_NLOG)
		ds->ds_logcount++;
}

/*
 * diskstats(2) for one disk: copy a snapshot out to ubuf (if not NULL),
 * the running interval included, then zero the counters if reset.
 */
static int
disk_stats(struct disk *dk, struct diskstats *ubuf, int reset)
{
	struct diskstats *snap, *ds = dk->dk_stats;
	int s, error = 0;

	/* Snapshot and reset together, so no I/O falls between them. */
	snap = malloc(sizeof(*snap), M_WAITOK);
	s = splbio();
	disk_interval(dk);
	memcpy(snap, ds, sizeof(*snap));
	snap->ds_now_us = dk->dk_stamp;
	if (reset) {
		memset(&ds->ds_reads, 0,
		    sizeof(*ds) - offsetof(struct diskstats, ds_reads));
		ds->ds_since_us = dk->dk_stamp;
	}
	splx(s);
	if (ubuf != NULL)
		error = copyout(snap, ubuf, sizeof(*snap));
	free(snap);
	return error;
}

/* diskstats(unit, buf, reset) (sys/diskstats.h): unit is sdN's N. */
int
sys_diskstats(struct proc *p, struct diskstats_args *uap, int *retval)
{
	struct disk *dk;

	for (dk = disks; dk != NULL; dk = dk->dk_next)
		if ((int)dk->dk_stats->ds_unit == uap->unit)
			return disk_stats(dk, uap->buf, uap->reset);
	return ENXIO;
}
