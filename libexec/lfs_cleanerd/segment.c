/*
 * Cleaning one segment (thesis 6.2.5): read it whole from the raw device,
 * list every block its partial segments carry (FINFO blocks and the
 * inodes of its inode blocks), ask the kernel which are still live
 * (lfs_bmapv: live means the file still has that block at this
 * address), hand those to lfs_markv with the copies just read, and tell
 * the kernel the segment is clean (lfs_segclean).  The walk through the
 * partial segments is dumplfs's: it ends at a summary that fails its
 * checks or is older than the one before; a partial segment whose data
 * checksum fails is skipped (its blocks are not handed over).
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

static int
readseg(struct cleaner *c, u_int32_t sn)
{
	off_t off = (off_t)lfs_sntod(&c->sb, sn) * c->sb.dlfs_bsize;
	size_t len = (size_t)c->sb.dlfs_ssize * c->sb.dlfs_bsize;

	if (lseek(c->rfd, off, SEEK_SET) != off ||
	    read(c->rfd, c->seg, len) != (ssize_t)len) {
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
	bip = &c->bi[c->nbi++];
	bip->bi_inode = ino;
	bip->bi_lbn = lbn;
	bip->bi_daddr = daddr;
	bip->bi_version = version;
	bip->bi_segcreate = age;	/* the copy keeps its data's age */
	bip->bi_bp = data;
}

/* Every block and inode the partial segments of segment sn carry. */
static void
listblocks(struct cleaner *c, u_int32_t sn)
{
	struct dlfs *fs = &c->sb;
	u_int32_t start = lfs_sntod(fs, sn), end = start + fs->dlfs_ssize;
	u_int32_t daddr, i, j, k, age = seguse(c, sn)->su_lastmod;
	u_int64_t prev = 0;
	u_int8_t *sum;
#define BLK(a)	(c->seg + (size_t)((a) - start) * fs->dlfs_bsize)

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
 * Move what is live out of segment sn: 0, or -1 if the kernel refused
 * (no room left to move it to).  lfs_segclean comes after a batch, so
 * one checkpoint serves them all (reclaim_segment).
 */
int
move_segment(struct cleaner *c, u_int32_t sn)
{
	int i, n, live, batch = 4 * c->sb.dlfs_ssize;

	errno = 0;
	if (seguse(c, sn)->su_nbytes == 0)
		return 0;
	if (readseg(c, sn) < 0)
		return -1;
	listblocks(c, sn);
	/* Live: the kernel says the file still has it where we found it. */
	memcpy(c->now, c->bi, c->nbi * sizeof(*c->bi));
	for (i = 0; i < c->nbi; i += batch) {
		n = c->nbi - i < batch ? c->nbi - i : batch;
		if (lfs_bmapv(&c->fsid, c->now + i, n) < 0) {
			/* ENOENT, EBUSY: unmounted, or being unmounted. */
			if (errno != ENOENT && errno != EBUSY)
				warn("lfs_bmapv");
			return -1;
		}
	}
	for (i = live = 0; i < c->nbi; i++)
		if (c->now[i].bi_daddr == c->bi[i].bi_daddr)
			c->bi[live++] = c->bi[i];
	for (i = 0; i < live; i += batch) {
		n = live - i < batch ? live - i : batch;
		if (lfs_markv(&c->fsid, c->bi + i, n) < 0) {
			/* EBUSY: a transaction holds a page; later. */
			if (c->verbose || (errno != ENOSPC && errno != EBUSY &&
			    errno != ENOENT))
				warn("lfs_markv, segment %u", sn);
			return -1;
		}
		c->blocks_moved += n;
	}
	return 0;
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
