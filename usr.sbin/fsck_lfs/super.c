/*
 * Pass 1: the superblock copies and the checkpoint (thesis 6.1.2).
 *
 * Copy 0 sits at byte max(LFS_LABELPAD, bsize), so it is looked for at
 * 8, 16, 32 and 64 KB; if it passes lfs_sbcheck its sboffs say where the
 * others are.  If not, its sboffs are tried as hints, and failing those
 * the disk is scanned in 4 KB steps for a copy that passes and sits
 * where its own sboffs say.  The valid copy with the highest serial is
 * the checkpoint checked; every copy must pass, agree with the others
 * on the parameters, and (copies 0 and 1) carry its own ckpidx.
 */
#include <sys/types.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/lfs.h"
#include "fsck_lfs.h"

#define SCANCHUNK	65536		/* bytes read at a time by the scan */

/* The struct dlfs at byte off; 0 if it cannot be read. */
static int
rdsb(int64_t off, struct dlfs *sb)
{
	u_int8_t sec[512];

	if (!rdbytes(off, sec, sizeof(sec)))
		return (0);
	memcpy(sb, sec, sizeof(*sb));
	return (1);
}

/* Does sb, read at byte off, pass and say it is there? */
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

/* The first good copy at a 4 KB step of the disk. */
static int
scan(struct dlfs *ref)
{
	u_int8_t *buf;
	int64_t off;
	int i, n;

	buf = emalloc(SCANCHUNK);
	for (off = 0;; off += n) {
		if (rdbytes(off, buf, SCANCHUNK))
			n = SCANCHUNK;
		else if (rdbytes(off, buf, 4096))
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

/* A good copy to take the layout from: copy 0, its hints, a scan. */
static int
findlayout(struct dlfs *ref)
{
	static const int64_t probe[] = { LFS_LABELPAD, 16384, 32768, 65536 };
	struct dlfs sb0;
	int i, p, np = sizeof(probe) / sizeof(probe[0]);

	for (p = 0; p < np; p++)
		if (rdsb(probe[p], &sb0) && sb0.dlfs_magic == LFS_MAGIC)
			break;
	if (p == np)
		return (scan(ref));
	if (goodat(probe[p], &sb0)) {
		*ref = sb0;
		return (1);
	}
	if (sb0.dlfs_bsize >= 4096 && sb0.dlfs_bsize <= 65536 &&
	    (sb0.dlfs_bsize & (sb0.dlfs_bsize - 1)) == 0)
		for (i = 1; i < LFS_NSB; i++)
			if (sb0.dlfs_sboffs[i] != 0 &&
			    rdsb((int64_t)sb0.dlfs_sboffs[i] * sb0.dlfs_bsize,
			    ref) && goodat((int64_t)sb0.dlfs_sboffs[i] *
			    sb0.dlfs_bsize, ref))
				return (1);
	return (scan(ref));
}

/*
 * Copy i as read, and what is wrong with it (NULL: good) compared with
 * the layout ref.
 */
static const char *
readcopy(const struct dlfs *ref, int i, struct dlfs *sb)
{
	const char *why;

	if (!rdsb((int64_t)ref->dlfs_sboffs[i] * ref->dlfs_bsize, sb))
		return ("unreadable");
	if ((why = lfs_sbcheck(sb)) != NULL)
		return (why);
	if (memcmp(sb, ref, offsetof(struct dlfs, dlfs_serial)) != 0)
		return ("parameters differ from the other copies");
	if (i < LFS_NCKP && sb->dlfs_ckpidx != (u_int32_t)i)
		return ("wrong checkpoint index");
	return (NULL);
}

/*
 * Find the checkpoint and check the copies; 0 (after a message) if no
 * copy can be trusted.  try > 0: a re-check, the layout is known.
 */
int
pass1(int try)
{
	static struct dlfs ref;
	struct dlfs sb;
	const char *why;
	int i, found;

	if (try == 0 && !findlayout(&ref)) {
		fprintf(stderr, "fsck_lfs: %s: no valid superblock: not a "
		    "BSD-LFS, or too damaged\n", special);
		return (0);
	}
	found = 0;
	for (i = 0; i < LFS_NSB; i++) {
		if (ref.dlfs_sboffs[i] == 0)
			continue;
		if ((why = readcopy(&ref, i, &sb)) != NULL) {
			problem(FIX, "superblock copy %d at block %u: %s", i,
			    ref.dlfs_sboffs[i], why);
			continue;
		}
		if (!found || sb.dlfs_serial > fs.dlfs_serial)
			fs = sb;
		found = 1;
	}
	if (!found) {
		fprintf(stderr, "fsck_lfs: %s: no valid superblock copy\n",
		    special);
		return (0);
	}
	fs.dlfs_ckpidx = 0;
	return (1);
}

/* The serial of the newest valid copy now on disk (0: none). */
u_int64_t
sb_newest(void)
{
	struct dlfs sb;
	u_int64_t best = 0;
	int i;

	for (i = 0; i < LFS_NSB; i++)
		if (fs.dlfs_sboffs[i] != 0 &&
		    readcopy(&fs, i, &sb) == NULL && sb.dlfs_serial > best)
			best = sb.dlfs_serial;
	return (best);
}

/*
 * Write the checkpoint in fs to every copy, each with its ckpidx and
 * checksum; copy 0 last.  1 on success.
 */
int
sb_writeall(void)
{
	u_int8_t *blk;
	int i, ok = 1;

	blk = emalloc(fs.dlfs_bsize);
	for (i = LFS_NSB - 1; i >= 0; i--) {
		if (fs.dlfs_sboffs[i] == 0)
			continue;
		fs.dlfs_ckpidx = i == 1 ? 1 : 0;
		fs.dlfs_cksum = lfs_sbsum(&fs);
		memset(blk, 0, fs.dlfs_bsize);
		memcpy(blk, &fs, sizeof(fs));
		/* Commit point (copy 0): the repaired checkpoint is the one. */
		if (!bwrite(fs.dlfs_sboffs[i], blk, fs.dlfs_bsize))
			ok = 0;
	}
	fs.dlfs_ckpidx = 0;
	free(blk);
	return (ok);
}
