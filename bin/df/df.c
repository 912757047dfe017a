/*
 * df: free disk space of the mounted file systems, in 1K blocks.
 *	df [-k] [file ...]
 * With files, only the file systems holding them.
 */
#include <sys/mount.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void
show(struct statfs *fs)
{
	long long blocks, used, avail, total;
	int capacity;

	blocks = (long long)fs->f_blocks * fs->f_bsize / 1024;
	used = (long long)(fs->f_blocks - fs->f_bfree) * fs->f_bsize / 1024;
	avail = (long long)fs->f_bavail * fs->f_bsize / 1024;
	total = used + avail;
	capacity = total <= 0 ? 100 : (int)((used * 100 + total / 2) / total);
	printf("%-12.*s %9lld %8lld %8lld %7d%%  %.*s\n", MNAMELEN,
	    fs->f_mntfromname, blocks, used, avail, capacity, MNAMELEN,
	    fs->f_mntonname);
}

int
main(int argc, char *argv[])
{
	struct statfs *fs, one;
	int ch, n, i, rval;

	while ((ch = getopt(argc, argv, "k")) != -1) {
		switch (ch) {
		case 'k':		/* 1K blocks are the only kind */
			break;
		default:
			fprintf(stderr, "usage: df [-k] [file ...]\n");
			exit(1);
		}
	}
	argv += optind;
	printf("%-12s %9s %8s %8s %8s  %s\n", "Filesystem", "1K-blocks",
	    "Used", "Avail", "Capacity", "Mounted on");
	rval = 0;
	if (*argv != NULL) {
		for (; *argv != NULL; argv++) {
			if (statfs(*argv, &one) < 0) {
				warn("%s", *argv);
				rval = 1;
				continue;
			}
			show(&one);
		}
		return rval;
	}
	if ((n = getfsstat(NULL, 0, MNT_NOWAIT)) < 0)
		err(1, "getfsstat");
	if ((fs = calloc(n + 1, sizeof(*fs))) == NULL)
		err(1, NULL);
	if ((n = getfsstat(fs, (n + 1) * sizeof(*fs), MNT_NOWAIT)) < 0)
		err(1, "getfsstat");
	for (i = 0; i < n; i++)
		show(&fs[i]);
	return 0;
}
