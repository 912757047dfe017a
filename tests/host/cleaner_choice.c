/*
 * lfs_cleanerd's choice (libexec/lfs_cleanerd/choose.c) on the host, for
 * tests/host/test_cleaner_choice.py: a made-up segment usage table on the
 * standard input, the choice and the counts on the standard output.
 *
 *	nseg ssize bsize costbenefit now
 *	nbytes lastmod flags		(one line a segment)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libexec/lfs_cleanerd/choose.h"

int
main(void)
{
	struct dlfs sb;
	struct segscan scan;
	SEGUSE *tab;
	unsigned nseg, ssize, bsize, sn, nbytes, lastmod, flags;
	long long now;
	int cb;

	memset(&sb, 0, sizeof(sb));
	if (scanf("%u %u %u %d %lld", &nseg, &ssize, &bsize, &cb, &now) != 5)
		return 2;
	sb.dlfs_nseg = nseg;
	sb.dlfs_ssize = ssize;
	sb.dlfs_bsize = bsize;
	if ((tab = calloc(nseg, sizeof(*tab))) == NULL)
		return 2;
	for (sn = 0; sn < nseg; sn++) {
		if (scanf("%u %u %x", &nbytes, &lastmod, &flags) != 3)
			return 2;
		tab[sn].su_nbytes = nbytes;
		tab[sn].su_lastmod = lastmod;
		tab[sn].su_flags = flags;
	}
	/* A scan finds its counts whatever was there before. */
	memset(&scan, 0x55, sizeof(scan));
	printf("pick\t%ld\n", choose_segment(&sb, tab, cb, (time_t)now, &scan));
	printf("nclean\t%u\nfreesegs\t%.4f\nactivegain\t%d\n", scan.nclean,
	    scan.freesegs, scan.activegain);
	return 0;
}
