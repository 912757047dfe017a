/*
 * The log's I/O (thesis 6.2.3, 6.5.3): a closed partial segment is
 * copied, summary first, into transfers of up to MAXPHYS that go to the
 * driver together (lfs_startio); the cache buffers it carries stay busy,
 * owned by the writer (B_GATHERED), until their transfer is done, and
 * lfs_drain then lets them go, clean unless the writer changed them
 * again.  Several partial segments may be in flight, up to a cap scaled
 * to the cache, so the disk streams.  A checkpoint ends with
 * lfs_writesuper once all of it is on the disk.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/conf.h"
#include "kern/malloc.h"
#include "kern/proc.h"
#include "kern/i386/cpu.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"
#include <sys/time.h>

static void lfs_chunkdone(struct buf *);

/* One partial segment on its way to the disk. */
struct lfs_pseg {
	TAILQ_ENTRY(lfs_pseg) ps_link;
	int	ps_pending;		/* transfers not done */
	int	ps_error;
	long	ps_bytes;
	int	ps_nbufs;
	struct buf *ps_bufs[1];		/* cache buffers it carries */
};

/* One transfer of a partial segment. */
struct lfs_chunk {
	struct buf ch_buf;
	struct lfs_pseg *ch_ps;
};

/* Seconds since 1970: timestamps of summaries, segments, checkpoints. */
int64_t
lfs_time(void)
{
	struct timeval tv;

	microtime(&tv);
	return tv.tv_sec;
}

struct lfs_pseg *
lfs_pseg_alloc(int nbufs)
{
	struct lfs_pseg *ps = malloc(sizeof(*ps) + nbufs * sizeof(struct buf *),
	    M_WAITOK | M_ZERO);

	ps->ps_nbufs = nbufs;
	return ps;
}

void
lfs_pseg_add(struct lfs_pseg *ps, int i, struct buf *bp)
{
	ps->ps_bufs[i] = bp;
}

long
lfs_inflight_max(void)
{
	return MIN(2 * 1024 * 1024, MAX(256 * 1024, maxbufspace / 4));
}

/*
 * Inode blocks are read through the device's buffers (lfs_readdin); a
 * block of the log being written anew must not be found there stale.
 */
void
lfs_devinval(struct lfs *fs, u_int32_t daddr, int n)
{
	struct vnode *devvp = fs->lfs_ump->um_devvp;
	struct buf *bp;
	int s;

	for (; n > 0; n--, daddr++) {
		s = splbio();
		bp = incore(devvp, lfs_fsbtodb(&fs->lfs_dlfs, daddr));
		if (bp != NULL && !(bp->b_flags & B_BUSY)) {
			bremfree(bp);
			bp->b_flags |= B_BUSY | B_INVAL;
			splx(s);
			brelse(bp);
			continue;
		}
		splx(s);
	}
}

/* Copy the partial segment's blocks into transfers and start them. */
void
lfs_startio(struct lfs *fs, struct segment *sp, struct lfs_pseg *ps,
    int nblocks)
{
	struct dlfs *d = &fs->lfs_dlfs;
	int perchunk = MAXPHYS / d->dlfs_bsize, b, n, i;
	struct segsum *ss = (struct segsum *)sp->sg_sum;
	int nchunks = (nblocks + perchunk - 1) / perchunk;
	struct lfs_chunk **chunks = malloc(nchunks * sizeof(*chunks), M_WAITOK);
	u_int32_t crc = 0;

	LFS_ASSERT_SEGLOCK(fs);
	for (i = 0; i < nchunks; i++) {
		struct lfs_chunk *ch = malloc(sizeof(*ch), M_WAITOK | M_ZERO);
		struct buf *hdr = &ch->ch_buf;

		n = MIN(perchunk, nblocks - i * perchunk);
		hdr->b_data = malloc(n * d->dlfs_bsize, M_WAITOK);
		hdr->b_bufsize = hdr->b_bcount = n * d->dlfs_bsize;
		hdr->b_flags = B_BUSY | B_CALL | B_ASYNC |
		    ((sp->sg_flags & SEGM_SYNC) ? B_SYNC : 0);
		hdr->b_iodone = lfs_chunkdone;
		hdr->b_private = ch;
		hdr->b_blkno = lfs_fsbtodb(d, sp->sg_start + i * perchunk);
		hdr->b_dev = fs->lfs_ump->um_dev;
		ch->ch_ps = ps;
		chunks[i] = ch;
	}
	/* Block 0 is the summary; the checksum covers the rest, in order. */
	for (b = 1; b < nblocks; b++) {
		caddr_t dst = chunks[b / perchunk]->ch_buf.b_data +
		    (b % perchunk) * d->dlfs_bsize;
		const void *src = b - 1 < sp->sg_nbufs ?
		    sp->sg_bufs[b - 1]->b_data :
		    (void *)sp->sg_iblks[b - 1 - sp->sg_nbufs];

		memcpy(dst, src, d->dlfs_bsize);
		if (b - 1 < sp->sg_nbufs && sp->sg_bufs[b - 1]->b_lblkno < 0) {
			/*
			 * An indirect block: a child still only in the cache
			 * (a running transaction's, NO-STEAL) has no address
			 * on the disk; there it is a hole.
			 */
			int32_t *p = (int32_t *)dst;
			u_int32_t k;

			for (k = 0; k < d->dlfs_nindir; k++)
				if (p[k] == LFS_UNASSIGNED)
					p[k] = 0;
		}
		crc = lfs_crc32(crc, dst, d->dlfs_bsize);
	}
	ss->ss_datasum = crc;
	ss->ss_sumsum = lfs_sssum(d, sp->sg_sum);  /* COMMIT POINT of a partial
						    * segment: valid once on
						    * disk with its checksums */
	memcpy(chunks[0]->ch_buf.b_data, sp->sg_sum, d->dlfs_sumsize);
	lfs_devinval(fs, sp->sg_start, nblocks);
	ps->ps_pending = nchunks;
	ps->ps_bytes = (long)nblocks * d->dlfs_bsize;
	TAILQ_INSERT_TAIL(&fs->lfs_inflight, ps, ps_link);
	fs->lfs_inflight_bytes += ps->ps_bytes;
	fs->lfs_stats.writes += nchunks;
	for (i = 0; i < nchunks; i++)
		bdevsw[major(fs->lfs_ump->um_dev)].d_strategy(&chunks[i]->ch_buf);
	free(chunks);
}

/* A transfer is done (interrupt level). */
static void
lfs_chunkdone(struct buf *hdr)
{
	struct lfs_chunk *ch = hdr->b_private;
	struct lfs_pseg *ps = ch->ch_ps;

	if (hdr->b_flags & B_ERROR)
		ps->ps_error = hdr->b_error ? hdr->b_error : EIO;
	free(hdr->b_data);
	free(ch);
	if (--ps->ps_pending == 0)
		wakeup(ps);
}

/* A block the writer took is on disk (or failed): let it go. */
static void
lfs_release(struct lfs *fs, struct buf *bp, int error)
{
	bp->b_flags &= ~B_GATHERED;
	if (error)
		lfs_redirty(fs, bp);	/* written again, elsewhere */
	if (!(bp->b_flags & B_DELWRI)) {
		bclrlocked(bp);
		fs->lfs_nlocked--;
	}
	bp->b_flags |= B_DONE;
	brelse(bp);
}

/* Wait for partial segments in flight: all, or until under the cap. */
void
lfs_drain(struct lfs *fs, int all)
{
	struct lfs_pseg *ps;
	int i, s;

	LFS_ASSERT_SEGLOCK(fs);
	while ((ps = TAILQ_FIRST(&fs->lfs_inflight)) != NULL) {
		if (!all && fs->lfs_inflight_bytes <= lfs_inflight_max())
			break;
		s = splbio();
		while (ps->ps_pending > 0)
			tsleep(ps, 0, "lfsio", 0);
		splx(s);
		TAILQ_REMOVE(&fs->lfs_inflight, ps, ps_link);
		fs->lfs_inflight_bytes -= ps->ps_bytes;
		if (ps->ps_error)
			printf("lfs: %s: write error %d in the log\n",
			    fs->lfs_ump->um_fspec, ps->ps_error);
		for (i = 0; i < ps->ps_nbufs; i++)
			lfs_release(fs, ps->ps_bufs[i], ps->ps_error);
		free(ps);
	}
	wakeup(&locked_queue_count);
}

/*
 * Write the checkpoint sb to the superblock copy whose turn it is (the
 * two first copies alternate); at unmount to every copy.
 */
int
lfs_writesuper(struct lfs *fs, struct dlfs *sb)
{
	struct dlfs *d = &fs->lfs_dlfs;
	int i, error = 0, copy;

	LFS_ASSERT_SEGLOCK(fs);
	copy = (d->dlfs_ckpidx + 1) % LFS_NCKP;
	if (d->dlfs_sboffs[copy] == 0)
		copy = 0;
	d->dlfs_ckpidx = copy;
	sb->dlfs_ckpidx = copy;
	sb->dlfs_tstamp = lfs_time();
	sb->dlfs_cksum = lfs_sbsum(sb);
	fs->lfs_ckpserial = sb->dlfs_serial;
	for (i = 0; i < LFS_NSB; i++) {
		struct buf *bp;
		int e;

		if (d->dlfs_sboffs[i] == 0 ||
		    (i != copy && !(sb->dlfs_clean && i >= LFS_NCKP)))
			continue;
		bp = getblk(fs->lfs_ump->um_devvp,
		    lfs_fsbtodb(d, d->dlfs_sboffs[i]), LFS_SBPAD);
		memset(bp->b_data, 0, LFS_SBPAD);
		memcpy(bp->b_data, sb, sizeof(*sb));
		bp->b_flags |= B_NOCACHE;
		if ((e = bwrite(bp)) != 0)	/* COMMIT POINT of a checkpoint */
			error = e;
	}
	return error;
}
