/*
 * Pass 1: the superblock copies and the checkpoint (thesis 6.1.2),
 * found as lib/fsutil/lfs_read.c says: copy 0 at 8, 16, 32 or 64 KB, its
 * sboffs, or a scan of the disk, for the layout; then every copy must
 * pass, agree with the others on the parameters, and (copies 0 and 1)
 * carry its own ckpidx.  The valid copy with the highest serial (of
 * equals, one not marked clean) is the checkpoint checked.
 */
#include <sys/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/lfs.h"
#include "lib/fsutil/lfs_read.h"
#include "fsck_lfs.h"

static struct dlfs copies[LFS_NSB];	/* as read by lfs_readcopies */
static const char *copywhy[LFS_NSB];

/*
 * Find the checkpoint and check the copies; 0 (after a message) if no
 * copy can be trusted.  try > 0: a re-check, the layout is known.
 */
int
pass1(int try)
{
	static struct dlfs ref;
	const char *copy0why;
	int i, best;

	if (try == 0 && !lfs_findlayout(rdbytes, &ref, &copy0why)) {
		fprintf(stderr, "fsck_lfs: %s: no valid superblock: not a "
		    "BSD-LFS, or too damaged\n", special);
		return (0);
	}
	best = lfs_readcopies(rdbytes, &ref, copies, copywhy);
	for (i = 0; i < LFS_NSB; i++)
		if (copywhy[i] != NULL)
			problem(FIX, "superblock copy %d at block %u: %s", i,
			    ref.dlfs_sboffs[i], copywhy[i]);
	if (best < 0) {
		fprintf(stderr, "fsck_lfs: %s: no valid superblock copy\n",
		    special);
		return (0);
	}
	fs = copies[best];
	fs.dlfs_ckpidx = 0;
	return (1);
}

/* The serial of the newest valid copy now on disk (0: none). */
u_int64_t
sb_newest(void)
{
	int best;

	best = lfs_readcopies(rdbytes, &fs, copies, copywhy);
	return (best < 0 ? 0 : copies[best].dlfs_serial);
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
