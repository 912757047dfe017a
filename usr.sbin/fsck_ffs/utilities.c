/*
 * fsck_ffs utilities: talking to the user (messages, questions, the
 * preen rules), reading and writing the disk, and the in-memory block
 * map with its duplicate list and allocator.
 *
 * Messages go to the standard output, questions and answers too, so the
 * transcript reads in order.  A question answered no leaves a problem in
 * the file system: `resolved' is cleared and fsck_ffs exits with 8.  In
 * preen mode a question is never asked: the callers that may fix a
 * problem in preen mode say so before they ask, and pfatal stops the
 * check on anything else.
 */
#include <sys/types.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/dir.h"
#include "sys/ufs/fs.h"
#include "fsck.h"

char *cdevname;
int fsreadfd, fswritefd = -1;
int fsmodified;
int resolved = 1;
int sbdirty_flag;
u_int8_t *blockmap;
struct dup *duplist;
int ndups;
static int maxdups;

/* A problem that preen may not fix: report it and stop. */
void
pfatal(const char *fmt, ...)
{
	va_list ap;

	if (preen)
		printf("%s: ", cdevname);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (preen) {
		printf("\n%s: UNEXPECTED INCONSISTENCY; RUN fsck_ffs "
		    "MANUALLY.\n", cdevname);
		exit(EEXIT);
	}
}

/* A problem preen may fix; the caller says what it did. */
void
pwarn(const char *fmt, ...)
{
	va_list ap;

	if (preen)
		printf("%s: ", cdevname);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

void
errexit(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(EEXIT);
}

/* Ask; 1 means yes, fix it. */
int
reply(const char *question)
{
	int c, first;

	if (preen)
		pfatal("INTERNAL ERROR: GOT TO reply()");
	printf("\n");
	if (nflag || fswritefd < 0) {
		printf("%s? no\n\n", question);
		resolved = 0;
		return (0);
	}
	if (yflag) {
		printf("%s? yes\n\n", question);
		return (1);
	}
	for (;;) {
		printf("%s? [yn] ", question);
		fflush(stdout);
		first = c = getchar();
		while (c != '\n' && c != EOF)
			c = getchar();
		if (first == EOF) {
			printf("\n");
			resolved = 0;
			return (0);
		}
		if (first == 'y' || first == 'Y' || first == 'n' ||
		    first == 'N')
			break;
	}
	printf("\n");
	if (first == 'y' || first == 'Y')
		return (1);
	resolved = 0;
	return (0);
}

/*
 * One kind of problem found, maybe many times in a scan: ask once
 * ("SALVAGE") and remember the answer in id_fix.  Returns ALTERED if the
 * caller should fix it.
 */
int
dofix(struct inodesc *idesc, const char *msg)
{

	switch (idesc->id_fix) {
	case DONTKNOW:
		if (idesc->id_type == DATA)
			direrror(idesc->id_number, msg);
		else
			pwarn("%s", msg);
		if (preen) {
			printf(" (SALVAGED)\n");
			idesc->id_fix = FIX;
			return (ALTERED);
		}
		if (reply("SALVAGE") == 0) {
			idesc->id_fix = NOFIX;
			return (0);
		}
		idesc->id_fix = FIX;
		return (ALTERED);
	case FIX:
		return (ALTERED);
	default:
		return (0);
	}
}

/* Read size bytes at fragment blk; what cannot be read reads as 0. */
void
getblk(ufs_daddr_t blk, int size, void *buf)
{
	int n;

	memset(buf, 0, size);
	if (lseek(fsreadfd, (off_t)blk * sblock.fs_fsize, SEEK_SET) < 0 ||
	    (n = read(fsreadfd, buf, size)) < 0)
		printf("CANNOT READ: BLK %d\n", blk);
}

void
putbytes(int64_t off, int size, const void *buf)
{

	if (fswritefd < 0)
		return;
	if (lseek(fswritefd, (off_t)off, SEEK_SET) < 0 ||
	    write(fswritefd, buf, size) != size)
		errexit("CANNOT WRITE: OFFSET %lld", (long long)off);
	fsmodified = 1;
}

void
putblk(ufs_daddr_t blk, int size, const void *buf)
{

	putbytes((int64_t)blk * sblock.fs_fsize, size, buf);
}

void
sbdirty(void)
{

	sbdirty_flag = 1;
}

static struct dup *
finddup(ufs_daddr_t blk)
{
	int i;

	for (i = 0; i < ndups; i++)
		if (duplist[i].blkno == blk)
			return (&duplist[i]);
	return (NULL);
}

/* Claims beyond the first still outstanding for blk (0 if none). */
int
dupcount(ufs_daddr_t blk)
{
	struct dup *dp;

	dp = finddup(blk);
	return (dp != NULL ? dp->count : 0);
}

/* One more claim on an already claimed fragment. */
void
adddup(ufs_daddr_t blk)
{
	struct dup *dp;

	if ((dp = finddup(blk)) != NULL) {
		dp->count++;
		return;
	}
	if (ndups == maxdups) {
		maxdups = maxdups ? 2 * maxdups : 64;
		duplist = realloc(duplist, maxdups * sizeof(*duplist));
		if (duplist == NULL)
			errexit("out of memory");
	}
	duplist[ndups].blkno = blk;
	duplist[ndups].count = 1;
	ndups++;
}

/*
 * Give up one claim on nfrags fragments at blk: a duplicate keeps the
 * fragment for its other claimant.
 */
void
freeblk(ufs_daddr_t blk, int nfrags)
{
	struct dup *dp;
	int i;

	for (i = 0; i < nfrags; i++) {
		if (chkrange(blk + i, 1))
			continue;
		if ((dp = finddup(blk + i)) != NULL && dp->count > 0)
			dp->count--;
		else
			clrbmap(blk + i);
	}
}

/*
 * Allocate nfrags fragments inside one block from the block map, for the
 * directories fsck makes or extends.  Phase 5 then writes the maps.
 */
ufs_daddr_t
allocblk(int nfrags)
{
	int32_t b, j, k;

	if (nfrags <= 0 || nfrags > sblock.fs_frag)
		return (0);
	for (b = 0; b + nfrags <= maxfsblock; b += sblock.fs_frag) {
		for (j = 0; j + nfrags <= sblock.fs_frag &&
		    b + j + nfrags <= maxfsblock; j++) {
			for (k = 0; k < nfrags; k++)
				if (testbmap(b + j + k) ||
				    chkrange(b + j + k, 1))
					break;
			if (k < nfrags) {
				j += k;
				continue;
			}
			for (k = 0; k < nfrags; k++)
				setbmap(b + j + k);
			return (b + j);
		}
	}
	return (0);
}
