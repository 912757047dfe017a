/*
 * tpcb's view of the BSD-LFS under the database: the counters a run
 * prints after warm-up and after each run (the kernel's lfsstats and
 * lfs_cleanerd's status file), and the cleaner's progress that -u waits
 * for.  Nothing here on FFS or EFS.
 */
#include <sys/types.h>
#include <sys/mount.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sys/ufs/lfs.h"
#include "bin/tpcb/tpcb.h"

/* DIR's file system and its LFS counters (0: it is not an LFS). */
static int
lfsof(const char *dir, struct statfs *sfs, struct lfs_stats *st)
{
	return statfs(dir, sfs) == 0 &&
	    strcmp(sfs->f_fstypename, "lfs") == 0 &&
	    lfsstats(&sfs->f_fsid, st, 0) == 0;
}

/* The LFS counters that matter to TPC-B, if DIR is on an LFS. */
void
lfscounters(const char *dir)
{
	struct statfs sfs;
	struct lfs_stats st;
	char path[96], line[128];
	const char *dev;
	FILE *f;

	if (!lfsof(dir, &sfs, &st))
		return;
	printf("tpcb lfs blocks %llu blocks_clean %llu segs_cleaned %llu "
	    "psegs %llu psegs_sync %llu clean_segs %d blocks_data %llu "
	    "blocks_indir %llu blocks_inode %llu blocks_ifile %llu "
	    "files_dataonly %llu blocks_moved %llu blocks_moved_hot %llu "
	    "deltas %llu delta_bytes %llu",
	    (unsigned long long)st.blocks,
	    (unsigned long long)st.blocks_clean,
	    (unsigned long long)st.segs_cleaned, (unsigned long long)st.psegs,
	    (unsigned long long)st.psegs_sync, (int)st.clean_segs,
	    (unsigned long long)st.blocks_data,
	    (unsigned long long)st.blocks_indir,
	    (unsigned long long)st.blocks_inode,
	    (unsigned long long)st.blocks_ifile,
	    (unsigned long long)st.files_dataonly,
	    (unsigned long long)st.blocks_moved,
	    (unsigned long long)st.blocks_moved_hot,
	    (unsigned long long)st.deltas,
	    (unsigned long long)st.delta_bytes);
	dev = sfs.f_mntfromname;
	if (strncmp(dev, "/dev/", 5) == 0)
		dev += 5;
	snprintf(path, sizeof(path), "/var/run/lfs_cleanerd.%s", dev);
	if ((f = fopen(path, "r")) != NULL) {
		while (fgets(line, sizeof(line), f) != NULL) {
			char *tab = strchr(line, '\t');

			if (tab == NULL || strncmp(line, "pid", 3) == 0)
				continue;
			*tab = '\0';
			tab[strcspn(tab + 1, "\n") + 1] = '\0';
			printf(" cleaner_%s %s", line, tab + 1);
		}
		fclose(f);
	}
	printf("\n");
}

/* The LFS counters of DIR's file system (0: it is not an LFS). */
int
lfsnow(const char *dir, struct lfs_stats *st)
{
	struct statfs sfs;

	return lfsof(dir, &sfs, st);
}
