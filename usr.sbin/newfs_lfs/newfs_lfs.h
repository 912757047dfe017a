/*
 * newfs_lfs: shared declarations.
 *
 * newfs_lfs builds a BSD-LFS (sys/ufs/lfs.h) in two steps, one file each,
 * as 4.4BSD's newfs_lfs did:
 *	newfs.c		options, the partition's size, the disk I/O
 *	lfs.c		the superblock, the first partial segment (ifile,
 *			root, lost+found, their inodes) and the order in
 *			which they reach the disk
 */
#ifndef _NEWFS_LFS_H_
#define _NEWFS_LFS_H_

#include "lib/fsutil/fsutil.h"

/* Parameters chosen by newfs.c for lfs.c. */
struct lfsparams {
	int64_t	 sectors;	/* partition size, 512-byte sectors */
	u_int32_t bsize;	/* block size, bytes */
	u_int32_t segbytes;	/* segment size, bytes */
	u_int32_t minfree;	/* percent */
	u_int32_t minfreeseg;	/* segments kept for the cleaner */
};

extern int Nflag;		/* print the layout, write nothing */

/* newfs.c */
void	 wtfs(int64_t, size_t, const void *);

/* lfs.c */
void	 make_lfs(struct lfsparams *, const char *);

#endif /* !_NEWFS_LFS_H_ */
