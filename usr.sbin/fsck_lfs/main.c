/*
 * fsck_lfs: check a BSD-LFS (sys/ufs/lfs.h) and, offline, repair it.
 *
 *	fsck_lfs [-n | -y] [-q] [-f] special
 *
 *	-n	(the default) read only: report, change nothing.  Works on a
 *		mounted file system: it checks the newest checkpoint on
 *		disk, and if a new checkpoint is taken while it runs, it
 *		says so and checks again (at most MAXTRIES times)
 *	-y	repair, offline: the changes go to the log as new partial
 *		segments and a new checkpoint (write.c); refused on a
 *		mounted file system (dlfs_clean 0) unless -f.  When the
 *		clean segments cannot take every segment with a broken
 *		summary at once, those left wait for another round,
 *		checked again from the new checkpoint
 *	-q	print only the summary line
 *	-f	force: repair even if mounted (for tests)
 *
 * The passes, named after the thesis (6.2.4) and fsck_ffs's phases:
 *	1 superblock copies and the checkpoint	super.c
 *	2 summaries and data checksums		log.c
 *	3 inodes and their block pointers	inode.c
 *	4 directories, reachability, link counts dir.c
 *	5 segment usage table			segs.c
 *	6 ifile free list and nfiles		segs.c
 *	7 bfree and avail			segs.c
 *
 * Output: one `fsck_lfs: PROBLEM' line each, then
 *	fsck_lfs: SPECIAL: N files, M blocks, K free; P problems[, R repaired]
 * Exit 0 when consistent (with -y: all repaired), 1 when problems were
 * found (or left), 2 on a usage error or a file system it cannot read.
 */
#include <sys/types.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/lfs.h"
#include "lib/fsutil/lfs_read.h"
#include "fsck_lfs.h"

#define MAXTRIES	4		/* checks of a moving checkpoint */
#define LINELEN		160		/* longest problem line */

struct dlfs fs;
const char *special;
int yflag, qflag, fflag;
int64_t now;

static int fd = -1;
static char (*lines)[LINELEN];		/* problems and notes, in order */
static int nlines, maxlines;
static int nproblems, nfixable;

static void
usage(void)
{

	fprintf(stderr, "usage: fsck_lfs [-n | -y] [-q] [-f] special\n");
	exit(FSCK_FAIL);
}

/* Read block daddr; 0 if it is outside the file system or unreadable. */
int
bread(u_int32_t daddr, void *buf)
{

	return (lfs_bread(rdbytes, &fs, daddr, buf));
}

/* Write len bytes at block daddr; 0 on error. */
int
bwrite(u_int32_t daddr, const void *buf, size_t len)
{
	off_t off = (off_t)daddr * fs.dlfs_bsize;

	return (lseek(fd, off, SEEK_SET) == off &&
	    write(fd, buf, len) == (ssize_t)len);
}

/* Read len bytes at byte offset off (multiples of 512); 0 on error. */
int
rdbytes(int64_t off, void *buf, size_t len)
{

	return (lseek(fd, (off_t)off, SEEK_SET) == (off_t)off &&
	    read(fd, buf, len) == (ssize_t)len);
}

static void
addline(const char *prefix, const char *fmt, va_list ap)
{
	int n;

	if (nlines == maxlines) {
		maxlines = maxlines ? 2 * maxlines : 64;
		lines = realloc(lines, maxlines * sizeof(*lines));
		if (lines == NULL) {
			fprintf(stderr, "fsck_lfs: out of memory\n");
			exit(FSCK_FAIL);
		}
	}
	n = snprintf(lines[nlines], LINELEN, "%s", prefix);
	vsnprintf(lines[nlines] + n, LINELEN - n, fmt, ap);
	nlines++;
}

/*
 * A problem, kept for the report.  fix says whether -y repairs it; the
 * answer is whether the caller should change the model now.
 */
int
problem(int fix, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	addline("", fmt, ap);
	va_end(ap);
	nproblems++;
	if (fix)
		nfixable++;
	else if (yflag)		/* say which ones -y leaves */
		strncat(lines[nlines - 1], ": NOT REPAIRED",
		    LINELEN - strlen(lines[nlines - 1]) - 1);
	return (yflag && fix);
}

/* Information, not a problem (a mounted fs, an unrolled log tail). */
void
note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	addline("note: ", fmt, ap);
	va_end(ap);
}

/* Forget everything a check learned, to check again. */
static void
reset(void)
{
	struct dirtyblk *db;

	free(inos);
	free(ifbuf);
	free(owner);
	free(live);
	inos = NULL;
	ifbuf = NULL;
	owner = NULL;
	live = NULL;
	while ((db = dirtyblks) != NULL) {
		dirtyblks = db->db_next;
		free(db->db_data);
		free(db);
	}
	nlines = nproblems = nfixable = 0;
	nlive = nalloc = 0;
}

static void
check(void)
{

	pass2();
	pass3();
	pass4();
	pass5();
	pass6();
	pass7();
}

/*
 * Check the newest checkpoint; 0 if it cannot be (said why).  A mounted
 * fs may take a checkpoint meanwhile: then look again.
 */
static int
checkfs(void)
{
	u_int64_t newest;
	int try;

	for (try = 0;; try++) {
		reset();
		if (!pass1(try))
			return (0);
		if (yflag && fs.dlfs_clean == 0 && !fflag) {
			fprintf(stderr, "fsck_lfs: %s: mounted (not unmounted "
			    "cleanly): unmount it, or check with -n\n",
			    special);
			return (0);
		}
		if (!ifile_read()) {
			fprintf(stderr, "fsck_lfs: %s: the ifile cannot be "
			    "read\n", special);
			return (0);
		}
		check();
		if (yflag || (newest = sb_newest()) == fs.dlfs_serial)
			return (1);
		if (try + 1 == MAXTRIES) {
			note("the checkpoint keeps moving (serial %llu, now "
			    "%llu): results are for serial %llu",
			    (unsigned long long)fs.dlfs_serial,
			    (unsigned long long)newest,
			    (unsigned long long)fs.dlfs_serial);
			return (1);
		}
		if (!qflag)
			printf("fsck_lfs: %s: new checkpoint (serial %llu "
			    "after %llu) while checking: checking again\n",
			    special, (unsigned long long)newest,
			    (unsigned long long)fs.dlfs_serial);
	}
}

int
main(int argc, char *argv[])
{
	int ch, round, i, nrepaired;

	fsutil_exitstatus = FSCK_FAIL;
	while ((ch = getopt(argc, argv, "nyqf")) != -1) {
		switch (ch) {
		case 'n':
			yflag = 0;
			break;
		case 'y':
			yflag = 1;
			break;
		case 'q':
			qflag = 1;
			break;
		case 'f':
			fflag = 1;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1)
		usage();
	special = argv[optind];
	now = time(NULL);
	if ((fd = open(special, yflag ? O_RDWR : O_RDONLY)) < 0) {
		fprintf(stderr, "fsck_lfs: %s: cannot open\n", special);
		return (FSCK_FAIL);
	}
	/*
	 * -y rounds: one repair each, and another only when broken
	 * segments were left for want of room while others were emptied,
	 * which now take them (write.c).
	 */
	for (round = 0;; round++) {
		if (!checkfs())
			return (FSCK_FAIL);
		nrepaired = 0;
		nmoved = ndeferred = 0;
		if (yflag && nfixable > 0) {
			if (writelog(nfixable))
				nrepaired = nfixable - ndeferred;
			else {
				note("could not write the repairs: nothing "
				    "repaired");
				ndeferred = 0;
			}
		}
		if (!qflag)
			for (i = 0; i < nlines; i++)
				printf("fsck_lfs: %s\n", lines[i]);
		if (ndeferred == 0)
			break;
		if (nmoved == 0 || round + 1 == (int)fs.dlfs_nseg) {
			printf("fsck_lfs: %s: %u segments with broken summaries "
			    "not emptied: no room in the log for their live "
			    "blocks\n", special, ndeferred);
			break;
		}
		if (!qflag)
			printf("fsck_lfs: %s: %u segments emptied, %u left for "
			    "want of room: checking again\n", special, nmoved,
			    ndeferred);
	}
	printf("fsck_lfs: %s: %u files, %lld blocks, %lld free; %d problems",
	    special, nalloc, (long long)nlive,
	    (long long)fs.dlfs_dsize - nlive, nproblems);
	if (yflag)
		printf(", %d repaired", nrepaired);
	printf("\n");
	close(fd);
	return (nrepaired == nproblems ? FSCK_OK : FSCK_PROBLEMS);
}
