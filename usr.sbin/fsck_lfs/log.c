/*
 * Pass 2: the log's checksums (thesis 6.2.3).
 *
 * Every segment marked SEGUSE_DIRTY is walked from lfs_sbfirstblock():
 * summary, the blocks its FINFOs list, its inode blocks, the next
 * summary right after.  A walk ends at the segment's end, at a block
 * that is not a valid summary, at a serial not above the previous one
 * (the older log of a segment cleaned and reused), or at a serial past
 * the checkpoint's (log the checkpoint does not cover).  Each partial
 * segment must pass lfs_sscheck, keep its inode blocks right after its
 * FINFO blocks, and match its data checksum; the walk must find as many
 * summaries and inode blocks as SEGUSE says (su_nsums, su_ninos: the
 * writer counts each as it closes a partial segment, lfs_writeseg).
 *
 * Summaries and inode blocks are marked in the owner map, so pass 3
 * can tell an inode block from a data block.  The log after the
 * checkpoint (serials dlfs_serial + 1, ..., each where one of the two
 * log heads goes on) is counted as information: a crash leaves it until
 * a roll-forward.
 */
#include <sys/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/lfs.h"
#include "lib/fsutil/lfs_read.h"
#include "fsck_lfs.h"

static u_int8_t *sum;			/* the summary being looked at */
static u_int8_t *blk;			/* any other block */

/* Does the data checksum of the partial segment at daddr match? */
static int
datasum(const struct segsum *ss, u_int32_t daddr)
{
	u_int32_t crc;

	return (lfs_datasum(rdbytes, &fs, ss, daddr, blk, &crc) == 0 &&
	    crc == ss->ss_datasum);
}

/* One segment's partial segments of the checkpoint. */
static void
walkseg(u_int32_t sn)
{
	const struct segsum *ss = (const struct segsum *)sum;
	SEGUSE *sup = seguse(sn);
	u_int32_t daddr, end, b, i, ia, npseg, ninos;
	const char *why = NULL;
	u_int64_t prev;

	end = lfs_sntod(&fs, sn + 1);
	prev = 0;
	npseg = ninos = 0;
	for (daddr = lfs_sbfirstblock(&fs, sn); daddr < end;
	    daddr += 1 + ss->ss_nblocks) {
		if (lfs_readpseg(rdbytes, &fs, daddr, prev, fs.dlfs_serial,
		    sum, &why) != LFS_PSEG_OK)
			break;
		owner[daddr] = OWN_SUMMARY;
		b = daddr + 1 + ss->ss_nblocks - ss->ss_ninos;
		for (i = 0; i < ss->ss_ninos; i++) {
			ia = lfs_inoaddrs(&fs, sum)[-1 - (int)i];
			if (ia != b + i)
				problem(NOFIX, "partial segment at %u: inode "
				    "block %u not at its place %u", daddr, ia,
				    b + i);
			else
				owner[ia] = OWN_INOBLK;
		}
		if (!datasum(ss, daddr))
			problem(NOFIX, "partial segment at %u (segment %u, "
			    "serial %llu): bad data checksum", daddr, sn,
			    (unsigned long long)ss->ss_serial);
		prev = ss->ss_serial;
		npseg++;
		ninos += ss->ss_ninos;
	}
	if (npseg == sup->su_nsums && ninos == sup->su_ninos)
		return;
	if (why != NULL && npseg < sup->su_nsums)
		problem(NOFIX, "segment %u: block %u: %s (after %u of %u "
		    "partial segments)", sn, daddr, why, npseg,
		    sup->su_nsums);
	else if (problem(FIX, "segment %u: %u partial segments and %u inode "
	    "blocks, SEGUSE says %u and %u", sn, npseg, ninos,
	    sup->su_nsums, sup->su_ninos)) {
		sup->su_nsums = npseg;
		sup->su_ninos = ninos;
	}
}

/* Is there a valid partial segment at daddr with this serial? */
static int
psegat(u_int32_t daddr, u_int64_t serial)
{
	const char *why;

	return (lfs_readpseg(rdbytes, &fs, daddr, serial - 1, serial, sum,
	    &why) == LFS_PSEG_OK &&
	    datasum((const struct segsum *)sum, daddr));
}

/*
 * The valid partial segments after the checkpoint, in serial order: each
 * where a head left off, or at the start of the segment it chose next
 * (ss_next, when a segment fills).  The cold head that had not written
 * (coffset 0) starts at its next segment.
 */
static u_int32_t
afterckp(void)
{
	const struct segsum *ss = (const struct segsum *)sum;
	u_int32_t daddr[2], next[2], n, k;

	daddr[0] = fs.dlfs_offset;
	next[0] = fs.dlfs_nextseg;
	daddr[1] = fs.dlfs_coffset;
	next[1] = fs.dlfs_cnextseg;
	for (n = 0; n < fs.dlfs_size; n++) {
		for (k = 0; k < 2; k++) {
			if (daddr[k] != 0 &&
			    psegat(daddr[k], fs.dlfs_serial + 1 + n))
				break;
			daddr[k] = lfs_sbfirstblock(&fs, next[k]);
			if (psegat(daddr[k], fs.dlfs_serial + 1 + n))
				break;
		}
		if (k == 2)
			break;
		next[k] = lfs_dtosn(&fs, ss->ss_next);
		daddr[k] += 1 + ss->ss_nblocks;
	}
	return (n);
}

void
pass2(void)
{
	u_int32_t sn, i, n;

	sum = emalloc(fs.dlfs_bsize);
	blk = emalloc(fs.dlfs_bsize);
	for (i = 0; i < LFS_NSB; i++)
		if (fs.dlfs_sboffs[i] != 0)
			owner[fs.dlfs_sboffs[i]] = OWN_SUPER;
	for (sn = 0; sn < fs.dlfs_nseg; sn++)
		if (seguse(sn)->su_flags & SEGUSE_DIRTY)
			walkseg(sn);
	if ((n = afterckp()) > 0)
		note("%u valid partial segments after the checkpoint (serial "
		    "%llu on), not rolled forward", n,
		    (unsigned long long)fs.dlfs_serial + 1);
	free(sum);
	free(blk);
}
