/*
 * Phase 1 - Check Blocks and Sizes (thesis table 6-2: traverse inodes,
 * validate all block pointers, record inode state and file type, and
 * the blocks of every directory).
 *
 * First the fragments no file may own are claimed: the boot area and
 * primary superblock, every group's superblock copy, group block and
 * inodes, and the summary array.  Then every inode: an unallocated one
 * must be all zero; an allocated one must have a known type, a size the
 * file system allows, no block pointers past its size, and block
 * pointers that are in range (else BAD) and not claimed by another inode
 * (else DUP).  An inode with BAD or DUP blocks is marked for clearing;
 * its di_blocks must match the fragments it holds.
 */
#include <sys/types.h>
#include <stdio.h>
#include <string.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/dir.h"
#include "sys/ufs/fs.h"
#include "fsck.h"

static int badblk, dupblk;

static int
pass1check(struct inodesc *idesc)
{
	ufs_daddr_t blkno = idesc->id_blkno;
	int nfrags, anyout, res = KEEPON;

	if ((anyout = chkrange(blkno, idesc->id_numfrags)) != 0) {
		blkerror(idesc->id_number, "BAD", blkno);
		if (badblk++ >= MAXBAD) {
			pwarn("EXCESSIVE BAD BLKS I=%u", idesc->id_number);
			if (preen)
				printf(" (SKIPPING)\n");
			else if (reply("CONTINUE") == 0)
				errexit("Program terminated");
			return (STOP);
		}
	}
	for (nfrags = idesc->id_numfrags; nfrags > 0; blkno++, nfrags--) {
		if (anyout && chkrange(blkno, 1))
			res = SKIP;
		else if (!testbmap(blkno))
			setbmap(blkno);
		else {
			blkerror(idesc->id_number, "DUP", blkno);
			if (dupblk++ >= MAXDUP) {
				pwarn("EXCESSIVE DUP BLKS I=%u",
				    idesc->id_number);
				if (preen)
					printf(" (SKIPPING)\n");
				else if (reply("CONTINUE") == 0)
					errexit("Program terminated");
				return (STOP);
			}
			adddup(blkno);
		}
		idesc->id_entryno++;	/* fragments held */
	}
	return (res);
}

/* Claim what belongs to the file system itself. */
static void
claimmeta(void)
{
	ufs_daddr_t b, end;
	int c;

	for (c = 0; c < sblock.fs_ncg; c++) {
		b = c == 0 ? cgbase(&sblock, c) : cgsblock(&sblock, c);
		end = cgdmin(&sblock, c);
		if (c == 0)
			end += numfrags(&sblock, sblock.fs_cssize);
		for (; b < end; b++)
			setbmap(b);
	}
}

/*
 * How many direct pointers (*ndirect) and indirect levels (the result)
 * a file of this size uses.  Devices use di_db[0] for di_rdev; a fast
 * symlink's pointers hold its target and are not pointers at all.
 */
static int
ptrsused(const struct dinode *dp, int *ndirect)
{
	int64_t n;
	int mode, levels;

	mode = dp->di_mode & IFMT;
	if (mode == IFLNK &&
	    dp->di_size < (u_int64_t)sblock.fs_maxsymlinklen) {
		*ndirect = NDADDR;
		return (NIADDR);
	}
	n = howmany(dp->di_size, (u_int64_t)sblock.fs_bsize);
	if (mode == IFBLK || mode == IFCHR)
		n = 1;
	*ndirect = n < NDADDR ? (int)n : NDADDR;
	/*
	 * n blocks past the direct ones: the single indirect maps NINDIR,
	 * each further level maps NINDIR times as many.
	 */
	for (levels = 0, n -= NDADDR; n > 0; levels++)
		n = howmany(n, NINDIR(&sblock)) - 1;
	return (levels);
}

/* Are all block pointers past the end of the file zero? */
static int
pastend(const struct dinode *dp)
{
	int j, ndirect, levels;

	levels = ptrsused(dp, &ndirect);
	for (j = ndirect; j < NDADDR; j++)
		if (dp->di_db[j] != 0)
			return (1);
	for (j = levels; j < NIADDR; j++)
		if (dp->di_ib[j] != 0)
			return (1);
	return (0);
}

static void
checkinode(u_int32_t ino, struct inodesc *idesc)
{
	static struct dinode zino;
	struct dinode *dp;
	int mode;

	dp = ginode(ino);
	mode = dp->di_mode & IFMT;
	if (mode == 0) {
		if (memcmp(dp->di_db, zino.di_db, sizeof(zino.di_db)) ||
		    memcmp(dp->di_ib, zino.di_ib, sizeof(zino.di_ib)) ||
		    dp->di_mode != 0 || dp->di_size != 0) {
			pfatal("PARTIALLY ALLOCATED INODE I=%u", ino);
			if (reply("CLEAR") == 1) {
				dp = ginode(ino);
				memset(dp, 0, sizeof(*dp));
				inodirty();
			}
		}
		statemap[ino] = USTATE;
		return;
	}
	if (!ftypeok(dp) ||
	    dp->di_size > (u_int64_t)sblock.fs_maxfilesize) {
		pfatal("UNKNOWN FILE TYPE I=%u", ino);
		statemap[ino] = FCLEAR;
		if (reply("CLEAR") == 1) {
			statemap[ino] = USTATE;
			dp = ginode(ino);
			memset(dp, 0, sizeof(*dp));
			inodirty();
		}
		return;
	}
	if (pastend(dp)) {
		/*
		 * A crash between allocating a block and growing the size
		 * leaves this; the blocks past the end are given back.
		 */
		pwarn("BLOCKS PAST END OF FILE I=%u", ino);
		if (preen)
			printf(" (TRUNCATED)\n");
		if (preen || reply("TRUNCATE") == 1) {
			int j, ndirect, levels;

			dp = ginode(ino);
			levels = ptrsused(dp, &ndirect);
			for (j = ndirect; j < NDADDR; j++)
				dp->di_db[j] = 0;
			for (j = levels; j < NIADDR; j++)
				dp->di_ib[j] = 0;
			inodirty();
		}
	}
	dp = ginode(ino);
	n_files++;
	lncntp[ino] = dp->di_nlink;
	typemap[ino] = IFTODT(dp->di_mode);
	if (mode == IFDIR) {
		statemap[ino] = dp->di_size == 0 ? DCLEAR : DSTATE;
		cacheino(dp, ino);
	} else
		statemap[ino] = FSTATE;
	badblk = dupblk = 0;
	idesc->id_number = ino;
	(void)ckinode(dp, idesc);
	idesc->id_entryno *= NSPF(&sblock);	/* fragments to sectors */
	dp = ginode(ino);
	if (dp->di_blocks != idesc->id_entryno) {
		pwarn("INCORRECT BLOCK COUNT I=%u (%d should be %d)", ino,
		    dp->di_blocks, idesc->id_entryno);
		if (preen)
			printf(" (CORRECTED)\n");
		else if (reply("CORRECT") == 0)
			return;
		dp = ginode(ino);
		dp->di_blocks = idesc->id_entryno;
		inodirty();
	}
}

void
pass1(void)
{
	struct inodesc idesc;
	u_int32_t ino;

	claimmeta();
	memset(&idesc, 0, sizeof(idesc));
	idesc.id_type = ADDR;
	idesc.id_func = pass1check;
	for (ino = ROOTINO; ino < maxino; ino++)
		checkinode(ino, &idesc);
}
