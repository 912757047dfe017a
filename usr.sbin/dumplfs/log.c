/*
 * The log, segment by segment (thesis 6.2.3, Figure 6-3): a segment's
 * first partial segment starts at lfs_sbfirstblock(); each is a summary,
 * the blocks its FINFOs list, then its inode blocks; the next summary
 * follows right after, at address + 1 + ss_nblocks.  A walk ends at the
 * end of the segment, at a block that is not a valid summary (a zero
 * block is simply the end; anything else is named), or at a summary
 * whose serial is not above the previous one: an older log the segment
 * held before it was last cleaned.
 *
 * Each partial segment is printed (its summary, FINFOs as runs of
 * lbn@address, inode blocks and the inodes in them) and its data
 * checksum verified; a bad data checksum, a partial segment that
 * crosses its segment's end, or an inode block not at its place after
 * the FINFO blocks make the exit status 1.
 */
#include <sys/types.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/lfs.h"
#include "lib/fsutil/lfs_read.h"
#include "dumplfs.h"

static u_int8_t *sum;			/* the summary being looked at */
static u_int8_t *blk;			/* any other block */

static void
pflags(u_int16_t f)
{
	static const struct {
		u_int16_t flag;
		const char *name;
	} names[] = {
		{ SS_DIROP, "DIROP" }, { SS_CONT, "CONT" },
		{ SS_CLEAN, "CLEAN" }, { SS_CKP, "CKP" }, { SS_TXN, "TXN" },
		{ SS_DATAONLY, "DATAONLY" },
	};
	int i, n;

	for (i = 0, n = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		if (f & names[i].flag)
			printf("%s%s", n++ ? "," : "", names[i].name);
	if (n == 0)
		printf("none");
}

/* A FINFO, its blocks as runs: lbn@daddr or lbn-lbn@daddr-daddr. */
static void
pfinfo(const FINFO *fip, u_int32_t daddr)
{
	u_int32_t i, j;

	printf("finfo\tino %u version %u nblocks %u lastlength %u:",
	    fip->fi_ino, fip->fi_version, fip->fi_nblocks,
	    fip->fi_lastlength);
	for (i = 0; i < fip->fi_nblocks; i = j) {
		for (j = i + 1; j < fip->fi_nblocks &&
		    (int64_t)fip->fi_blocks[j] == fip->fi_blocks[j - 1] + 1LL;
		    j++)
			;
		if (j - i == 1)
			printf(" %d@%u", fip->fi_blocks[i], daddr + i);
		else
			printf(" %d-%d@%u-%u", fip->fi_blocks[i],
			    fip->fi_blocks[j - 1], daddr + i, daddr + j - 1);
	}
	printf("\n");
}

static void
pinoblock(u_int32_t daddr)
{
	struct dinode *dp;
	u_int32_t i;

	printf("inoblock\t%u\n", daddr);
	if (!bread(daddr, blk)) {
		printf("inoblock\t%u: unreadable\n", daddr);
		bad = 1;
		return;
	}
	dp = (struct dinode *)blk;
	for (i = 0; i < fs.dlfs_inopb; i++, dp++)
		if (dp->di_inumber != 0 || dp->di_mode != 0)
			printf("dinode\t%u mode %o size %llu nlink %d%s\n",
			    dp->di_inumber, dp->di_mode,
			    (unsigned long long)dp->di_size, dp->di_nlink,
			    (dp->di_flags & DI_TXN) ? " flags txn" : "");
}

/* ss_datasum: lfs_crc32 over the blocks after the summary, in order. */
static void
datasum(const struct segsum *ss, u_int32_t daddr)
{
	u_int32_t crc, ba;

	if ((ba = lfs_datasum(rdbytes, &fs, ss, daddr, blk, &crc)) != 0) {
		printf("datasum\tunreadable block %u\n", ba);
		bad = 1;
		return;
	}
	if (crc == ss->ss_datasum)
		printf("datasum\tok\n");
	else {
		printf("datasum\tBAD: %08x, the summary says %08x\n", crc,
		    ss->ss_datasum);
		bad = 1;
	}
}

/* One partial segment whose summary, at daddr, passed lfs_sscheck. */
static void
ppseg(const struct segsum *ss, u_int32_t daddr)
{
	const FINFO *fip;
	const DELTA *dr;
	u_int32_t b, i, ia;

	printf("pseg\t%u serial %llu create %lld flags ", daddr,
	    (unsigned long long)ss->ss_serial, (long long)ss->ss_create);
	pflags(ss->ss_flags);
	printf(" nblocks %u next %u ninos %u%s\n", ss->ss_nblocks,
	    ss->ss_next, ss->ss_ninos, ss->ss_serial > fs.dlfs_serial ?
	    " (after the checkpoint)" : "");
	fip = (const FINFO *)(ss + 1);
	b = daddr + 1;
	for (i = 0; i < ss->ss_nfinfo; i++) {
		pfinfo(fip, b);
		b += fip->fi_nblocks;
		fip = lfs_nextfinfo(fip);
	}
	dr = lfs_firstdelta(ss);
	for (i = 0; i < ss->ss_ndelta; i++, dr = lfs_nextdelta(dr))
		printf("delta	ino %u version %u lbn %d bytes %u-%u size %llu\n",
		    dr->dr_ino, dr->dr_version, dr->dr_lbn, dr->dr_off,
		    dr->dr_off + dr->dr_len - 1, (unsigned long long)dr->dr_size);
	for (i = 0; i < ss->ss_ninos; i++) {
		ia = lfs_inoaddrs(&fs, sum)[-1 - (int)i];
		if (ia != b + i) {
			printf("inoblock\t%u: PROBLEM: not at its place, "
			    "block %u\n", ia, b + i);
			bad = 1;
		}
		pinoblock(ia);
	}
	datasum(ss, daddr);
}

/* Why the walk of segment sn ended at daddr: lfs_readpseg's st, why. */
static void
pend(int st, const char *why, u_int32_t daddr, u_int32_t sn, u_int64_t prev)
{
	const struct segsum *ss = (const struct segsum *)sum;

	switch (st) {
	case LFS_PSEG_UNREAD:
		printf("end\t%u: unreadable\n", daddr);
		bad = 1;
		break;
	case LFS_PSEG_ZERO:
		printf("end\t%u\n", daddr);
		break;
	case LFS_PSEG_BAD:
		printf("end\t%u: %s\n", daddr, why);
		break;
	case LFS_PSEG_SERIAL:
		printf("end\t%u: serial %llu, not after %llu\n", daddr,
		    (unsigned long long)ss->ss_serial,
		    (unsigned long long)prev);
		break;
	case LFS_PSEG_LONG:
		printf("pseg\t%u: PROBLEM: runs past the end of segment %u\n",
		    daddr, sn);
		bad = 1;
		break;
	}
}

static void
walkseg(u_int32_t sn)
{
	const struct segsum *ss = (const struct segsum *)sum;
	SEGUSE *sup = seguse(sn);
	u_int32_t daddr, end, n;
	u_int64_t prev;
	const char *why;
	int st;

	printf("log\tsegment %u", sn);
	if (sup != NULL)
		printf(" nbytes %u nsums %u ninos %u", sup->su_nbytes,
		    sup->su_nsums, sup->su_ninos);
	printf("\n");
	end = lfs_sntod(&fs, sn + 1);
	prev = 0;
	n = 0;
	for (daddr = lfs_sbfirstblock(&fs, sn); daddr < end;
	    daddr += 1 + ss->ss_nblocks) {
		st = lfs_readpseg(rdbytes, &fs, daddr, prev, ULLONG_MAX, sum,
		    &why);
		if (st != LFS_PSEG_OK) {
			pend(st, why, daddr, sn, prev);
			break;
		}
		ppseg(ss, daddr);
		prev = ss->ss_serial;
		n++;
	}
	if (daddr >= end)
		printf("end\t%u: end of segment\n", daddr);
	printf("psegs\t%u\n", n);
}

/* Walk the dirty and active segments and the current one; all with -a
 * or when there is no ifile to tell. */
void
log_walk(int all)
{
	SEGUSE *sup;
	u_int32_t sn;

	sum = emalloc(fs.dlfs_bsize);
	blk = emalloc(fs.dlfs_bsize);
	printf("\nlog:\n");
	for (sn = 0; sn < fs.dlfs_nseg; sn++) {
		sup = seguse(sn);
		if (!all && sup != NULL && sn != fs.dlfs_curseg &&
		    (fs.dlfs_coffset == 0 || sn != fs.dlfs_ccurseg) &&
		    (sup->su_flags & (SEGUSE_DIRTY | SEGUSE_ACTIVE)) == 0)
			continue;
		walkseg(sn);
	}
}
