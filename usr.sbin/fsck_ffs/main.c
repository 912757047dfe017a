/*
 * fsck_ffs: check and repair an FFS/EFS file system.
 *
 *	fsck_ffs [-n] [-y] [-f] [-p] [-b sector] special
 *
 *	-n	answer no to every question and write nothing
 *	-y	answer yes to every question
 *	-p	preen: fix the inconsistencies an unclean shutdown leaves
 *		(link counts, unreferenced files, counts and maps) without
 *		asking, and stop on anything else ("UNEXPECTED
 *		INCONSISTENCY; RUN fsck_ffs MANUALLY")
 *	-f	accepted for compatibility: a clean file system is checked
 *		fully all the same
 *	-b N	use the superblock copy at sector N (newfs prints them;
 *		the first is at sector 32 with the default sizes) and
 *		rewrite the primary superblock from it
 *
 * Without -n or -y, questions are read from the standard input.
 * Exit status, as 4.4BSD: 0 when the file system is (now) consistent, 8
 * when problems remain or it could not be checked.
 */
#include <sys/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/dir.h"
#include "sys/ufs/fs.h"
#include "fsck.h"

int nflag, yflag, preen, bflag;
int32_t now;

static void
usage(void)
{

	fprintf(stderr,
	    "usage: fsck_ffs [-n] [-y] [-f] [-p] [-b sector] special\n");
	exit(EEXIT);
}

static void
phase(const char *what)
{

	if (!preen)
		printf("** Phase %s\n", what);
}

int
main(int argc, char *argv[])
{
	int64_t nffree, nbfree, used;
	char *end;
	int ch;
	int32_t b;

	setvbuf(stdout, NULL, _IONBF, 0);
	fsutil_exitstatus = EEXIT;
	while ((ch = getopt(argc, argv, "nyfpb:")) != -1) {
		switch (ch) {
		case 'n':
			nflag = 1;
			yflag = 0;
			break;
		case 'y':
			yflag = 1;
			nflag = 0;
			break;
		case 'f':
			break;
		case 'p':
			preen = 1;
			break;
		case 'b':
			bflag = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || bflag <= 0)
				usage();
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1)
		usage();
	now = (int32_t)time(NULL);
	cdevname = argv[optind];
	if (!setup(cdevname))
		return (EEXIT);

	phase("1 - Check Blocks and Sizes");
	pass1();
	if (ndups > 0) {
		phase("1b - Rescan For More DUPS");
		pass1b();
	}
	phase("2 - Check Pathnames");
	pass2();
	phase("3 - Check Connectivity");
	pass3();
	phase("4 - Check Reference Counts");
	pass4();
	phase("5 - Check Cyl groups");
	pass5();

	/* Everything not in a free block or free fragment is in use. */
	nffree = sblock.fs_cstotal.cs_nffree;
	nbfree = sblock.fs_cstotal.cs_nbfree;
	used = 0;
	for (b = 0; b < maxfsblock; b++)
		if (testbmap(b))
			used++;
	pwarn("%d files, %lld used, %lld free ", n_files, (long long)used,
	    (long long)(nffree + sblock.fs_frag * nbfree));
	printf("(%lld frags, %lld blocks, %d.%d%% fragmentation)\n",
	    (long long)nffree, (long long)nbfree,
	    (int)(nffree * 100 / sblock.fs_dsize),
	    (int)(((nffree * 1000 + sblock.fs_dsize / 2) / sblock.fs_dsize) %
	    10));
	ckfini();
	if (fsmodified)
		printf("\n***** FILE SYSTEM WAS MODIFIED *****\n");
	return (resolved ? 0 : EEXIT);
}
