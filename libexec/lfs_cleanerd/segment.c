/*
 * Cleaning segments (thesis 6.2.5): read each whole from the raw device,
 * list every block its partial segments carry (FINFO blocks and the
 * inodes of its inode blocks), ask the kernel which are still live
 * (lfs_bmapv: live means the file still has that block at this
 * address) and keep those; then hand the live blocks of the whole batch
 * to lfs_markv, sorted by file and block, and tell the kernel each
 * segment is clean (lfs_segclean).  One lfs_markv for several segments
 * writes each file's inode and indirect blocks once, not once a segment,
 * and lays each file's moved blocks out in order.  The walk through the
 * partial segments is dumplfs's: it ends at a summary that fails its
 * checks or is older than the one before; a partial segment whose data
 * checksum fails is skipped (its blocks are not handed over).
 *
 * The batch: c->bi[0..nlive-1] and their data, packed at the front of
 * c->seg; the next segment is read just after them.
 */
#include <sys/types.h>
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lfs_cleanerd.h"

SEGUSE *
seguse(struct cleaner *c, u_int32_t sn)
{
	return (SEGUSE *)c->segtab + sn;
}

/* Where segment sn is read to: just after the batch's live blocks. */
static u_int8_t *
segbuf(struct cleaner *c)
{
	return c->seg + (size_t)c->nlivebl * c->sb.dlfs_bsize;
}

static int
readseg(struct cleaner *c, u_int32_t sn)
{
	off_t off = (off_t)lfs_sntod(&c->sb, sn) * c->sb.dlfs_bsize;
	size_t len = (size_t)c->sb.dlfs_ssize * c->sb.dlfs_bsize;

	if (lseek(c->rfd, off, SEEK_SET) != off ||
	    read(c->rfd, segbuf(c), len) != (ssize_t)len) {
		warn("segment %u: read", sn);
		return -1;
	}
	return 0;
}

static void
addblock(struct cleaner *c, u_int32_t ino, int32_t lbn, u_int32_t daddr,
    u_int32_t version, u_int32_t age, void *data)
{
	BLOCK_INFO *bip;

	if (c->nbi == c->maxbi)
		return;
	bip = &c->bi[c->nlive + c->nbi++];
	bip->bi_inode = ino;
	bip->bi_lbn = lbn;
	bip->bi_daddr = daddr;
	bip->bi_version = version;
	bip->bi_segcreate = age;	/* the copy keeps its data's age */
	bip->bi_bp = data;
}

/* Every block and inode the partial segments of segment sn carry, listed
 * after the batch's (c->bi[nlive..nlive+nbi-1]). */
static void
listblocks(struct cleaner *c, u_int32_t sn)
{
	struct dlfs *fs = &c->sb;
	u_int32_t start = lfs_sntod(fs, sn), end = start + fs->dlfs_ssize;
	u_int32_t daddr, i, j, k, age = seguse(c, sn)->su_lastmod;
	u_int64_t prev = 0;
	u_int8_t *sum;
#define BLK(a)	(segbuf(c) + (size_t)((a) - start) * fs->dlfs_bsize)

	c->nbi = 0;
	for (daddr = lfs_sbfirstblock(fs, sn); daddr < end;) {
		const struct segsum *ss;
		const FINFO *fip;
		u_int32_t *inoaddrs, b;

		sum = BLK(daddr);
		ss = (const struct segsum *)sum;
		if (lfs_sscheck(fs, sum) != NULL || ss->ss_serial <= prev ||
		    daddr + 1 + ss->ss_nblocks > end)
			break;
		prev = ss->ss_serial;
		c->blocks_read += 1 + ss->ss_nblocks;
		if (lfs_crc32(0, BLK(daddr + 1), (size_t)ss->ss_nblocks *
		    fs->dlfs_bsize) != ss->ss_datasum) {
			warnx("segment %u: partial segment at %u: bad data "
			    "checksum, skipped", sn, daddr);
			daddr += 1 + ss->ss_nblocks;
			continue;
		}
		b = daddr + 1;
		fip = (const FINFO *)(sum + sizeof(struct segsum));
		for (i = 0; i < ss->ss_nfinfo; i++) {
			for (j = 0; j < fip->fi_nblocks; j++, b++)
				addblock(c, fip->fi_ino, fip->fi_blocks[j], b,
				    fip->fi_version, age, BLK(b));
			fip = lfs_nextfinfo(fip);
		}
		inoaddrs = lfs_inoaddrs(fs, sum);
		for (i = 0; i < ss->ss_ninos; i++) {
			u_int32_t ia = inoaddrs[-1 - (int)i];
			struct dinode *dp;

			if (ia < start || ia >= end)
				continue;
			dp = (struct dinode *)BLK(ia);
			for (k = 0; k < fs->dlfs_inopb; k++)
				if (dp[k].di_inumber != 0)
					addblock(c, dp[k].di_inumber,
					    LFS_UNUSED_LBN, ia, dp[k].di_gen,
					    age, NULL);
		}
		daddr += 1 + ss->ss_nblocks;
	}
#undef BLK
}

/*
 * Add what is live in segment sn to the batch: 0, or -1 (errno ENOENT or
 * EBUSY: the file system is gone or going).
 */
int
gather_segment(struct cleaner *c, u_int32_t sn)
{
	BLOCK_INFO *bi;
	u_int32_t bsize = c->sb.dlfs_bsize;
	int i, n, batch = 4 * c->sb.dlfs_ssize;

	errno = 0;
	c->nbi = 0;
	if (seguse(c, sn)->su_nbytes == 0)
		return 0;
	if (readseg(c, sn) < 0)
		return 0;	/* nothing of it moves: lfs_segclean refuses it */
	listblocks(c, sn);
	/* Live: the kernel says the file still has it where we found it. */
	bi = c->bi + c->nlive;
	memcpy(c->now, bi, c->nbi * sizeof(*bi));
	for (i = 0; i < c->nbi; i += batch) {
		n = c->nbi - i < batch ? c->nbi - i : batch;
		if (lfs_bmapv(&c->fsid, c->now + i, n) < 0) {
			/* ENOENT, EBUSY: unmounted, or being unmounted. */
			if (errno != ENOENT && errno != EBUSY)
				warn("lfs_bmapv");
			return -1;
		}
	}
	/* Keep the live ones, their data packed after the batch's. */
	for (i = 0; i < c->nbi; i++) {
		if (c->now[i].bi_daddr != bi[i].bi_daddr)
			continue;
		c->bi[c->nlive] = bi[i];
		if (bi[i].bi_bp != NULL) {
			void *to = c->seg + (size_t)c->nlivebl++ * bsize;

			memmove(to, bi[i].bi_bp, bsize);
			c->bi[c->nlive].bi_bp = to;
		}
		c->nlive++;
	}
	c->nbi = 0;
	return 0;
}

/* Room in the batch for one more segment, whatever it holds. */
int
batch_has_room(struct cleaner *c)
{
	return c->nlivebl <= (int)c->sb.dlfs_ssize &&
	    c->nlive + c->maxbi <= 2 * c->maxbi;
}

static int
byfile(const void *a, const void *b)
{
	const BLOCK_INFO *x = a, *y = b;

	if (x->bi_inode != y->bi_inode)
		return x->bi_inode < y->bi_inode ? -1 : 1;
	return x->bi_lbn < y->bi_lbn ? -1 : x->bi_lbn > y->bi_lbn;
}

/* lfs_markv, in halves if the whole does not fit in the cleaner's reserve. */
static int
markv(struct cleaner *c, BLOCK_INFO *bi, int n)
{
	if (lfs_markv(&c->fsid, bi, n) >= 0) {
		c->blocks_moved += n;
		c->markv_calls++;
		return 0;
	}
	if (errno != ENOSPC || n <= (int)c->sb.dlfs_ssize)
		return -1;
	return markv(c, bi, n / 2) < 0 ? -1 : markv(c, bi + n / 2, n - n / 2);
}

/*
 * Move the batch: its blocks sorted by file and block, handed to
 * lfs_markv (at most four segments' worth a call); the batch is empty
 * after.  0, or -1 with errno ENOENT if the file system is gone.  A call
 * refused (no room, or EBUSY: a transaction holds a page) leaves its
 * blocks where they were; lfs_segclean then refuses their segments.
 */
int
move_batch(struct cleaner *c)
{
	int i, n, error = 0, batch = 4 * c->sb.dlfs_ssize;

	qsort(c->bi, c->nlive, sizeof(*c->bi), byfile);
	c->nospace = 0;
	for (i = 0; i < c->nlive; i += batch) {
		n = c->nlive - i < batch ? c->nlive - i : batch;
		if (markv(c, c->bi + i, n) < 0) {
			c->nospace |= errno == ENOSPC;
			if (c->verbose || (errno != ENOSPC && errno != EBUSY &&
			    errno != ENOENT))
				warn("lfs_markv");
			if (errno == ENOENT) {
				error = -1;
				break;
			}
		}
	}
	c->nlive = c->nlivebl = 0;
	errno = error ? ENOENT : 0;
	return error;
}

/* Segment sn holds nothing live now: 0 if the kernel took it back. */
int
reclaim_segment(struct cleaner *c, u_int32_t sn)
{
	u_int32_t live = seguse(c, sn)->su_nbytes;	/* when chosen */
	int empty = live == 0, tenth;

	if (lfs_segclean(&c->fsid, sn) < 0) {
		if (c->verbose)
			warn("lfs_segclean %u", sn);
		return -1;
	}
	if (empty)
		c->segs_empty++;
	else {
		c->segs_cleaned++;
		tenth = (int)((u_int64_t)live * 10 / lfs_segbytes(&c->sb));
		c->util[tenth < 10 ? tenth : 9]++;
	}
	return 0;
}
