/*
 * Setting up a check: open the device, read and verify the superblock
 * (ffs_sbcheck, the same test the kernel makes at mount), allocate the
 * per-inode and per-fragment tables.  If the primary superblock is bad,
 * look for the first backup copy and tell the user how to use it (-b);
 * with -b, the copy is used and written back as the primary at the end.
 *
 * ckfini finishes: writes the superblock if it changed and marks a file
 * system whose problems were all fixed clean.
 */
#include <sys/types.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/dir.h"
#include "sys/ufs/fs.h"
#include "fsck.h"

static union {
	struct	fs fs;
	u_int8_t buf[SBSIZE];
} sbu;
struct fs sblock;
u_int32_t maxino;
int32_t maxfsblock;
u_int8_t *statemap;
u_int8_t *typemap;
int32_t *lncntp;

/* Read the superblock at sector into sbu; its problem, or 0. */
static const char *
readsb(int64_t sector)
{

	memset(sbu.buf, 0, sizeof(sbu.buf));
	if (lseek(fsreadfd, (off_t)sector * 512, SEEK_SET) < 0 ||
	    read(fsreadfd, sbu.buf, SBSIZE) != SBSIZE)
		return ("cannot read it");
	return (ffs_sbcheck(&sbu.fs));
}

/*
 * The sector of the first good superblock copy: where newfs puts it for
 * each possible fragment and block size (cg 0's copy at fs_sblkno).
 */
static int64_t
findalt(void)
{
	int64_t sector, best;
	int fsize, frag;

	best = 0;
	for (fsize = 512; fsize <= FS_MAXBSIZE; fsize <<= 1) {
		for (frag = 1; frag <= MAXFRAG; frag <<= 1) {
			if (fsize * frag < MINBSIZE ||
			    fsize * frag > FS_MAXBSIZE)
				continue;
			sector = (int64_t)roundup(howmany(BBSIZE + SBSIZE,
			    fsize), frag) * (fsize / 512);
			if (readsb(sector) == 0 &&
			    (int64_t)sbu.fs.fs_sblkno * (fsize / 512) ==
			    sector && (best == 0 || sector < best))
				best = sector;
		}
	}
	return (best);
}

int
setup(const char *dev)
{
	const char *why;
	int64_t alt;

	if ((fsreadfd = open(dev, O_RDONLY)) < 0) {
		printf("Can't open %s\n", dev);
		return (0);
	}
	fswritefd = -1;
	if (!nflag && (fswritefd = open(dev, O_WRONLY)) < 0) {
		printf("%s: NO WRITE ACCESS\n", dev);
		nflag = 1;
	}
	if (!preen)
		printf("** %s%s\n", dev, fswritefd < 0 ? " (NO WRITE)" : "");

	why = readsb(bflag ? bflag : SBLOCK);
	if (why != NULL) {
		if (bflag) {
			printf("BAD SUPER BLOCK AT SECTOR %d: %s\n", bflag,
			    why);
			return (0);
		}
		printf("BAD SUPER BLOCK: %s\n", why);
		alt = findalt();
		if (alt > 0)
			printf("USE THE ALTERNATE SUPER-BLOCK AT SECTOR %lld:"
			    " fsck_ffs -b %lld %s\n", (long long)alt,
			    (long long)alt, dev);
		else
			printf("SEARCH FOR ALTERNATE SUPER-BLOCK FAILED. "
			    "GIVE ONE WITH -b (newfs -N PRINTS THEM).\n");
		return (0);
	}
	sblock = sbu.fs;
	if (bflag) {
		printf("Alternate super block location: %d\n", bflag);
		sbdirty();
	}
	if (!preen && sblock.fs_fsmnt[0] != '\0')
		printf("** Last Mounted on %s\n", sblock.fs_fsmnt);

	maxfsblock = sblock.fs_size;
	maxino = (u_int32_t)sblock.fs_ncg * sblock.fs_ipg;
	blockmap = emalloc(howmany(maxfsblock, NBBY));
	statemap = emalloc(maxino);
	typemap = emalloc(maxino);
	lncntp = emalloc(maxino * sizeof(int32_t));
	return (1);
}

/* Write the superblock to the primary location. */
static void
writesb(int counts)
{
	int saved = fsmodified;

	sblock.fs_fmod = 0;
	sblock.fs_ronly = 0;
	memset(sbu.buf, 0, sizeof(sbu.buf));
	sbu.fs = sblock;
	putbytes(SBOFF, sblock.fs_sbsize, sbu.buf);
	if (!counts)
		fsmodified = saved;
}

void
ckfini(void)
{

	if (fswritefd >= 0 && bflag && sbdirty_flag && !preen &&
	    reply("UPDATE STANDARD SUPERBLOCK") == 0)
		sbdirty_flag = 0;
	if (fswritefd >= 0 && resolved && !sblock.fs_clean) {
		sblock.fs_clean = 1;
		if (!sbdirty_flag) {
			/* Only the clean flag: not a repair. */
			writesb(0);
			printf("\n***** FILE SYSTEM MARKED CLEAN *****\n");
		}
	}
	if (fswritefd >= 0 && sbdirty_flag)
		writesb(1);
	close(fsreadfd);
	if (fswritefd >= 0)
		close(fswritefd);
}
