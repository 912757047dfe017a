/*
 * lfsstat: the LFS counters of thesis 7.2, and the cleaner's.
 *
 *	usage: lfsstat [-z] [mountpoint ...]
 *
 * For each LFS named (or, with none, every LFS mounted), one line per
 * counter, "name<TAB>value": the kernel's (SYS_lfsstats: segments used,
 * checkpoints, writes, partial segments and how many were synchronous
 * or the cleaner's, blocks written, threshold hits, the writer and the
 * directory operations waiting for each other) with the thresholds
 * and block counts as they are now, then lfs_cleanerd's from
 * /var/run/lfs_cleanerd.DEV if one has run.  -z: zero the kernel's
 * counters after printing them (root only).
 */
#include <sys/types.h>
#include <sys/mount.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/ufs/lfs.h"

static int
show(const struct statfs *sfs, int zero)
{
	struct lfs_stats st;
	const char *dev = sfs->f_mntfromname;
	char path[64], line[128];
	FILE *f;

	if (lfsstats(&sfs->f_fsid, &st, zero) < 0) {
		warn("%s", sfs->f_mntonname);
		return 1;
	}
	printf("fs\t%s on %s\n", dev, sfs->f_mntonname);
#define P(name)	printf("%s\t%llu\n", #name, (unsigned long long)st.name)
	P(segwrites); P(segs_used); P(ckps); P(writes); P(psegs);
	P(psegs_sync); P(psegs_clean); P(psegs_dirop); P(blocks);
	P(blocks_clean); P(start_write); P(stop_access); P(cleaner_waits);
	P(segs_cleaned); P(blocks_data); P(blocks_indir); P(blocks_inode);
	P(blocks_ifile); P(files_dataonly); P(rfw_dataonly);
	P(blocks_moved); P(blocks_moved_hot); P(blocks_cold);
	P(writer_waits); P(dirop_waits);
	P(deltas); P(delta_bytes); P(rfw_deltas); P(blocks_delta);
#undef P
	printf("sync_share\t%llu%%\n", st.psegs ? (unsigned long long)
	    (100 * st.psegs_sync / st.psegs) : 0ULL);
	printf("start_write_at\t%lld KB or %d buffers\n",
	    (long long)st.start_bytes / 1024, (int)st.start_bufs);
	printf("stop_access_at\t%lld KB or %d buffers\n",
	    (long long)st.stop_bytes / 1024, (int)st.stop_bufs);
	printf("locked_now\t%lld KB in %d buffers\n",
	    (long long)st.locked_bytes / 1024, (int)st.locked_bufs);
	printf("clean_segs\t%d\nbfree\t%d\navail\t%d\n", (int)st.clean_segs,
	    (int)st.bfree, (int)st.avail);
	printf("promised\t%d\ncleanblocks\t%d\n", (int)st.promised,
	    (int)st.cleanblocks);
	if (st.rfw.unclean)
		printf("recovery\t%d partial segments rolled forward, %d "
		    "discarded, %d ms\n", (int)st.rfw.psegs,
		    (int)st.rfw.discarded, (int)st.rfw.ms);
	else
		printf("recovery\tnone (unmounted cleanly)\n");
	if (strncmp(dev, "/dev/", 5) == 0)
		dev += 5;
	snprintf(path, sizeof(path), "/var/run/lfs_cleanerd.%s", dev);
	if ((f = fopen(path, "r")) != NULL) {
		while (fgets(line, sizeof(line), f) != NULL)
			printf("cleaner_%s", line);
		fclose(f);
	}
	return 0;
}

int
main(int argc, char *argv[])
{
	struct statfs sfs, *all;
	int ch, zero = 0, rv = 0, i, n;

	while ((ch = getopt(argc, argv, "z")) != -1) {
		if (ch != 'z') {
			fprintf(stderr, "usage: lfsstat [-z] [mountpoint ...]\n");
			return 1;
		}
		zero = 1;
	}
	argc -= optind;
	argv += optind;
	for (i = 0; i < argc; i++) {
		if (statfs(argv[i], &sfs) < 0) {
			warn("%s", argv[i]);
			rv = 1;
		} else if (strcmp(sfs.f_fstypename, "lfs") != 0) {
			warnx("%s: not an LFS", argv[i]);
			rv = 1;
		} else
			rv |= show(&sfs, zero);
	}
	if (argc > 0)
		return rv;
	if ((n = getfsstat(NULL, 0, 0)) < 0 ||
	    (all = calloc(n + 1, sizeof(*all))) == NULL ||
	    (n = getfsstat(all, (n + 1) * sizeof(*all), 0)) < 0)
		err(1, "getfsstat");
	for (i = 0; i < n; i++)
		if (strcmp(all[i].f_fstypename, "lfs") == 0)
			rv |= show(&all[i], zero);
	return rv;
}
