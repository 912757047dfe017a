/*
 * Reading a BSD-LFS (sys/ufs/lfs.h) from user space: the readers that
 * dumplfs prints from and fsck_lfs checks from.
 *
 * Finding the checkpoint (thesis 6.1.2): copy 0 is at byte
 * max(LFS_LABELPAD, bsize), so it is looked for at 8, 16, 32 and 64 KB.
 * If it passes lfs_sbcheck, its sboffs say where the other copies are;
 * if not, its sboffs are tried as hints and, failing those, the disk is
 * scanned in 4 KB steps for the first copy that passes and sits where
 * its own sboffs say.  Every copy must pass, agree with that one on the
 * parameters, and (copies 0 and 1) carry its own ckpidx.  The valid copy
 * with the highest serial is the checkpoint; of equal serials, one not
 * marked clean, as in lfs_findsb (mounting marks a copy in use after
 * the clean one, with the same serial); else the first.
 *
 * Nothing read from the disk is trusted: every block address is checked
 * against dlfs_size before it is read.  Running out of memory reads as
 * not finding what was looked for.
 */
#include <sys/types.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/lfs.h"
#include "lib/fsutil/lfs_read.h"

#define SCANCHUNK	65536		/* bytes read at a time by the scan */

int
lfs_bread(lfs_rdfn rd, const struct dlfs *fs, u_int32_t daddr, void *buf)
{

	if (daddr == LFS_UNUSED_DADDR || daddr >= fs->dlfs_size)
		return (0);
	return (rd((int64_t)daddr * fs->dlfs_bsize, buf, fs->dlfs_bsize));
}

/* The struct dlfs at byte off; 0 if it cannot be read. */
static int
rdsb(lfs_rdfn rd, int64_t off, struct dlfs *sb)
{
	u_int8_t sec[512];

	if (!rd(off, sec, sizeof(sec)))
		return (0);
	memcpy(sb, sec, sizeof(*sb));
	return (1);
}

/* Does the copy sb, read at byte off, pass and say it is there? */
static int
goodat(int64_t off, const struct dlfs *sb)
{
	int i;

	if (sb->dlfs_magic != LFS_MAGIC || lfs_sbcheck(sb) != NULL)
		return (0);
	for (i = 0; i < LFS_NSB; i++)
		if (sb->dlfs_sboffs[i] != 0 &&
		    (int64_t)sb->dlfs_sboffs[i] * sb->dlfs_bsize == off)
			return (1);
	return (0);
}

/*
 * The first good copy at a 4 KB step of the disk, read in chunks (and
 * the tail of the disk, if shorter than a chunk, 4 KB at a time).
 */
static int
scan(lfs_rdfn rd, struct dlfs *ref)
{
	u_int8_t *buf;
	int64_t off;
	int i, n;

	if ((buf = malloc(SCANCHUNK)) == NULL)
		return (0);
	for (off = 0;; off += n) {
		if (rd(off, buf, SCANCHUNK))
			n = SCANCHUNK;
		else if (rd(off, buf, 4096))
			n = 4096;
		else
			break;
		for (i = 0; i < n; i += 4096) {
			if (off + i < LFS_LABELPAD)
				continue;
			memcpy(ref, buf + i, sizeof(*ref));
			if (goodat(off + i, ref)) {
				free(buf);
				return (1);
			}
		}
	}
	free(buf);
	return (0);
}

/* Copy 0, else one that copy 0's sboffs point to, else a scan's. */
int
lfs_findlayout(lfs_rdfn rd, struct dlfs *ref, const char **copy0why)
{
	static const int64_t probe[] = { LFS_LABELPAD, 16384, 32768, 65536 };
	struct dlfs sb0;
	int i, p, np = sizeof(probe) / sizeof(probe[0]);

	*copy0why = "not found";
	for (p = 0; p < np; p++)
		if (rdsb(rd, probe[p], &sb0) && sb0.dlfs_magic == LFS_MAGIC)
			break;
	if (p == np)
		return (scan(rd, ref));
	if ((*copy0why = lfs_sbcheck(&sb0)) == NULL)
		*copy0why = "not where its sboffs say";
	if (goodat(probe[p], &sb0)) {
		*ref = sb0;
		return (1);
	}
	/* Hints only: whatever they point to must pass on its own. */
	if (sb0.dlfs_bsize >= 4096 && sb0.dlfs_bsize <= 65536 &&
	    (sb0.dlfs_bsize & (sb0.dlfs_bsize - 1)) == 0)
		for (i = 1; i < LFS_NSB; i++)
			if (sb0.dlfs_sboffs[i] != 0 &&
			    rdsb(rd, (int64_t)sb0.dlfs_sboffs[i] *
			    sb0.dlfs_bsize, ref) &&
			    goodat((int64_t)sb0.dlfs_sboffs[i] *
			    sb0.dlfs_bsize, ref))
				return (1);
	return (scan(rd, ref));
}

/* Copy i as read (zero if unreadable); what is wrong with it, or NULL. */
static const char *
readcopy(lfs_rdfn rd, const struct dlfs *ref, int i, struct dlfs *sb)
{
	const char *why;

	if (!rdsb(rd, (int64_t)ref->dlfs_sboffs[i] * ref->dlfs_bsize, sb)) {
		memset(sb, 0, sizeof(*sb));
		return ("unreadable");
	}
	if ((why = lfs_sbcheck(sb)) != NULL)
		return (why);
	if (memcmp(sb, ref, offsetof(struct dlfs, dlfs_serial)) != 0)
		return ("parameters differ from the other copies");
	if (i < LFS_NCKP && sb->dlfs_ckpidx != (u_int32_t)i)
		return ("wrong checkpoint index");
	return (NULL);
}

/* Is the valid copy a a later checkpoint than the valid copy b? */
static int
newer(const struct dlfs *a, const struct dlfs *b)
{

	return (a->dlfs_serial > b->dlfs_serial ||
	    (a->dlfs_serial == b->dlfs_serial && !a->dlfs_clean &&
	    b->dlfs_clean));
}

/* Unused copies (sboffs 0) are left alone, why[i] NULL. */
int
lfs_readcopies(lfs_rdfn rd, const struct dlfs *ref, struct dlfs *sb,
    const char **why)
{
	int i, best;

	best = -1;
	for (i = 0; i < LFS_NSB; i++) {
		why[i] = NULL;
		if (ref->dlfs_sboffs[i] == 0)
			continue;
		why[i] = readcopy(rd, ref, i, &sb[i]);
		if (why[i] == NULL && (best < 0 || newer(&sb[i], &sb[best])))
			best = i;
	}
	return (best);
}

/* One cached block: a tool reads one file system per run. */
int
lfs_getinode(lfs_rdfn rd, const struct dlfs *fs, u_int32_t daddr,
    u_int32_t ino, struct dinode *dp)
{
	static u_int8_t *blk;
	static u_int32_t cached;
	struct dinode *dip;
	u_int32_t i;

	if (blk == NULL && (blk = malloc(fs->dlfs_bsize)) == NULL)
		return (0);
	if (daddr != cached) {
		cached = 0;
		if (!lfs_bread(rd, fs, daddr, blk))
			return (0);
		cached = daddr;
	}
	dip = (struct dinode *)blk;
	for (i = 0; i < fs->dlfs_inopb; i++)
		if (dip[i].di_inumber == ino) {
			*dp = dip[i];
			return (1);
		}
	return (0);
}

static int
allzero(const u_int8_t *p, u_int32_t n)
{

	while (n-- > 0)
		if (*p++ != 0)
			return (0);
	return (1);
}

/*
 * The summary must pass lfs_sscheck (its own checksum), carry a serial
 * after prev (else it is the older log of a segment cleaned and reused)
 * and not after last, and end within its segment.
 */
int
lfs_readpseg(lfs_rdfn rd, const struct dlfs *fs, u_int32_t daddr,
    u_int64_t prev, u_int64_t last, void *sum, const char **why)
{
	const struct segsum *ss = sum;

	*why = NULL;
	if (!lfs_bread(rd, fs, daddr, sum)) {
		*why = "unreadable";
		return (LFS_PSEG_UNREAD);
	}
	if ((*why = lfs_sscheck(fs, sum)) != NULL) {
		if (!allzero(sum, fs->dlfs_sumsize))
			return (LFS_PSEG_BAD);
		*why = NULL;
		return (LFS_PSEG_ZERO);
	}
	if (ss->ss_serial <= prev || ss->ss_serial > last)
		return (LFS_PSEG_SERIAL);
	if (daddr + 1 + ss->ss_nblocks >
	    lfs_sntod(fs, lfs_dtosn(fs, daddr) + 1)) {
		*why = "runs past the end of its segment";
		return (LFS_PSEG_LONG);
	}
	return (LFS_PSEG_OK);
}

/* ss_datasum: lfs_crc32 over the blocks after the summary, in order. */
u_int32_t
lfs_datasum(lfs_rdfn rd, const struct dlfs *fs, const struct segsum *ss,
    u_int32_t daddr, void *blk, u_int32_t *crc)
{
	u_int32_t i;

	for (*crc = 0, i = 0; i < ss->ss_nblocks; i++) {
		if (!lfs_bread(rd, fs, daddr + 1 + i, blk))
			return (daddr + 1 + i);
		*crc = lfs_crc32(*crc, blk, fs->dlfs_bsize);
	}
	return (0);
}
