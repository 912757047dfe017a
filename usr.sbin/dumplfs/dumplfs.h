/*
 * dumplfs: shared declarations.
 *
 *	dumplfs.c	options, disk I/O, the superblock copies and the
 *			checkpoint (found by lib/fsutil/lfs_read.c), -i
 *	ifile.c		the ifile of that checkpoint: reading it through its
 *			inode, printing it, and checking it
 *	log.c		the partial segments of each segment
 *
 * Nothing read from the disk is trusted: every address is checked
 * against dlfs_size before it is read, and every walk is bounded.
 */
#ifndef _DUMPLFS_H_
#define _DUMPLFS_H_

#include "lib/fsutil/fsutil.h"

extern struct dlfs fs;		/* the checkpoint in use */
extern int bad;			/* a check failed: exit 1 */

/* dumplfs.c */
int	 rdbytes(int64_t, void *, size_t);
int	 bread(u_int32_t, void *);

/* ifile.c */
int	 ifile_read(void);
void	 ifile_print(void);
void	 ifile_check(void);
SEGUSE	*seguse(u_int32_t);
IFILE	*ifentry(u_int32_t);
void	 ifproblem(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));

/* log.c */
void	 log_walk(int);

#endif /* !_DUMPLFS_H_ */
