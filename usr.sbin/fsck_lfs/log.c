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
 * A bad data checksum of a partial segment the checkpoint covers means
 * some block changed after it was written; which one cannot be told, so
 * the files with blocks there are named, and -y gives the summary the
 * checksum of what is there now (sumfix_write: the summary's first
 * sector alone changes, in one write, so a crash cannot tear it).
 *
 * A summary that is not valid where SEGUSE says more follow breaks the
 * walk: it goes on at the next valid summary of the segment, and the
 * blocks between are OWN_GAP (pass 3 accepts an inode block there if it
 * holds the inode the map says).
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

#include "sys/param.h"
#include "sys/ufs/dinode.h"
#include "sys/ufs/lfs.h"
#include "lib/fsutil/lfs_read.h"
#include "fsck_lfs.h"

static u_int8_t *sum;			/* the summary being looked at */
static u_int8_t *blk;			/* any other block */

/* Summaries whose data checksum -y sets. */
struct sumfix {
	u_int32_t sf_daddr;
	u_int32_t sf_datasum;
};
static struct sumfix *sumfixes;
static u_int32_t nsumfixes;

u_int8_t *segbroken;			/* [nseg]: -y empties and cleans it */

/* Does the data checksum of the partial segment at daddr match? */
static int
datasum(const struct segsum *ss, u_int32_t daddr)
{
	u_int32_t crc;

	return (lfs_datasum(rdbytes, &fs, ss, daddr, blk, &crc) == 0 &&
	    crc == ss->ss_datasum);
}

/* The partial segment at daddr of segment sn has a bad data checksum. */
static void
baddata(const struct segsum *ss, u_int32_t daddr, u_int32_t sn)
{
	char files[64];
	const FINFO *fip;
	u_int32_t i, crc, bad;
	int n = 0;

	files[0] = '\0';
	fip = (const FINFO *)(ss + 1);
	for (i = 0; i < ss->ss_nfinfo; i++, fip = lfs_nextfinfo(fip))
		if (fip->fi_nblocks > 0 && n < (int)sizeof(files) - 16)
			n += snprintf(files + n, sizeof(files) - n, "%s%u",
			    n ? ", " : "", fip->fi_ino);
	if ((bad = lfs_datasum(rdbytes, &fs, ss, daddr, blk, &crc)) != 0) {
		problem(NOFIX, "partial segment at %u (segment %u, serial "
		    "%llu): block %u unreadable", daddr, sn,
		    (unsigned long long)ss->ss_serial, bad);
		return;
	}
	if (!problem(FIX, "partial segment at %u (segment %u, serial %llu): "
	    "bad data checksum: a block changed since written (inodes %s)",
	    daddr, sn, (unsigned long long)ss->ss_serial,
	    files[0] ? files : "(none)"))
		return;
	sumfixes = realloc(sumfixes, (nsumfixes + 1) * sizeof(*sumfixes));
	if (sumfixes == NULL)
		fatal("out of memory");
	sumfixes[nsumfixes].sf_daddr = daddr;
	sumfixes[nsumfixes++].sf_datasum = crc;
}

/* -y: the data checksums baddata found wrong, set; 0 if a write failed. */
int
sumfix_write(void)
{
	struct segsum *ss;
	u_int8_t *buf;
	u_int32_t i;
	int ok = 1;

	buf = emalloc(fs.dlfs_bsize);
	ss = (struct segsum *)buf;
	for (i = 0; i < nsumfixes && ok; i++) {
		ok = bread(sumfixes[i].sf_daddr, buf);
		ss->ss_datasum = sumfixes[i].sf_datasum;
		ss->ss_sumsum = lfs_sssum(&fs, ss);
		ok = ok && bwrite(sumfixes[i].sf_daddr, buf, DEV_BSIZE);
	}
	free(buf);
	return (ok);
}

/*
 * After a broken summary at from - 1: the next valid one of the walk in
 * segment sn (a checksummed summary with a serial after prev), or end.
 */
static u_int32_t
resync(u_int32_t from, u_int32_t end, u_int64_t prev)
{
	const char *why;

	for (; from < end; from++)
		if (lfs_readpseg(rdbytes, &fs, from, prev, fs.dlfs_serial,
		    sum, &why) == LFS_PSEG_OK)
			break;
	return (from);
}

/* One segment's partial segments of the checkpoint. */
static void
walkseg(u_int32_t sn)
{
	const struct segsum *ss = (const struct segsum *)sum;
	SEGUSE *sup = seguse(sn);
	u_int32_t daddr, end, b, i, ia, npseg, ninos, gap = 0, gapn = 0, next;
	const char *why = NULL, *gapwhy = NULL;
	u_int64_t prev;
	int cold;

	end = lfs_sntod(&fs, sn + 1);
	prev = 0;
	npseg = ninos = 0;
	for (daddr = lfs_sbfirstblock(&fs, sn); daddr < end;) {
		if (lfs_readpseg(rdbytes, &fs, daddr, prev, fs.dlfs_serial,
		    sum, &why) != LFS_PSEG_OK) {
			if (why == NULL || npseg >= sup->su_nsums)
				break;		/* where the log ends */
			/* Broken, where SEGUSE says the log goes on. */
			if (gap == 0) {
				gap = daddr;
				gapwhy = why;
				gapn = npseg;
			}
			next = resync(daddr + 1, end, prev);
			for (b = daddr; b < next; b++)
				if (owner[b] == OWN_NONE)
					owner[b] = OWN_GAP;
			daddr = next;
			continue;
		}
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
			baddata(ss, daddr, sn);
		prev = ss->ss_serial;
		npseg++;
		ninos += ss->ss_ninos;
		daddr += 1 + ss->ss_nblocks;
	}
	/*
	 * What a broken summary hides is still found through the inodes;
	 * -y moves it all out and cleans the segment (write.c).  The repair
	 * moves the hot head on; the cold head, if it is in the segment,
	 * leaves it as one that has not written (coffset 0), said to be in
	 * its next segment (fixcnextseg makes sure that one is clean).
	 */
	cold = fs.dlfs_coffset != 0 && sn == fs.dlfs_ccurseg;
	if (gap != 0) {
		if (problem(FIX, "segment %u: block %u: %s (after %u of %u "
		    "partial segments): to be emptied%s", sn, gap, gapwhy,
		    gapn, sup->su_nsums, cold ? ", the cold log head moved "
		    "on" : "")) {
			segbroken[sn] = 1;
			if (cold) {
				fs.dlfs_coffset = 0;
				fs.dlfs_ccurseg = fs.dlfs_cnextseg;
			}
		}
		return;
	}
	if (npseg == sup->su_nsums && ninos == sup->su_ninos)
		return;
	if (problem(FIX, "segment %u: %u partial segments and %u inode "
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
	free(sumfixes);
	sumfixes = NULL;
	nsumfixes = 0;
	free(segbroken);
	segbroken = emalloc(fs.dlfs_nseg);
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
