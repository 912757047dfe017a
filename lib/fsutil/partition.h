/*
 * Shared by the file-system makers (lib/fsutil/partition.c).
 */
#ifndef _FSUTIL_PARTITION_H_
#define _FSUTIL_PARTITION_H_

struct disklabel;

/*
 * The size in sectors of the partition special (open as fd), 0 if it
 * cannot be told; *lp is its disk's label when *haslabelp says there is
 * one.
 */
int64_t	fs_partition(int fd, const char *special, struct disklabel *lp,
	    int *haslabelp);

#endif
