/*
 * lfs_cleanerd: shared declarations (see cleanerd.c).
 */
#ifndef _LFS_CLEANERD_H_
#define _LFS_CLEANERD_H_

#include <sys/types.h>
#include <sys/mount.h>
#include "sys/ufs/dinode.h"
#include "sys/ufs/lfs.h"
#include "choose.h"

struct cleaner {
	const char *mnt;		/* mount point */
	char	devname[16];		/* "sd1a" */
	fsid_t	fsid;
	int	ifd;			/* the ifile, through the file system */
	int	rfd;			/* the raw device */
	struct dlfs sb;			/* parameters (from the disk) */
	u_int8_t *segtab;		/* the SEGUSE table, as last read */
	u_int8_t *seg;			/* the batch's live blocks, then one
					   segment as read from the disk */
	BLOCK_INFO *bi;			/* the batch's, then the segment's */
	BLOCK_INFO *now;		/* where lfs_bmapv says they are */
	int	nlive, nlivebl;		/* the batch: blocks, of them data */
	int	nbi, maxbi;		/* the segment: blocks, at most */
	double	freesegs;		/* all space not live, in segments */
	int	activegain;		/* a checkpoint would free some */
	int	costbenefit;		/* -b: cost-benefit, not greedy */
	int	nospace;		/* the last batch found no room */
	int	verbose;
	/* counters (issue 6, item 7) */
	unsigned long blocks_read;	/* read from the disk */
	unsigned long blocks_moved;	/* handed to lfs_markv */
	unsigned long markv_calls;	/* ... in this many calls */
	unsigned long segs_empty;	/* reclaimed without reading */
	unsigned long segs_cleaned;	/* read, moved and reclaimed */
	unsigned long util[10];		/* ... by live fraction, in tenths */
	unsigned long files_reorg;	/* rewritten in block order */
};

/* cleanerd.c */
int	readsegtab(struct cleaner *);

/* reorg.c */
int	reorganize(struct cleaner *, char **files, int nfiles, int force);
void	reorganize_idle(struct cleaner *);

/* segment.c */
int	gather_segment(struct cleaner *, u_int32_t sn);
int	batch_has_room(struct cleaner *);
int	move_batch(struct cleaner *);
int	reclaim_segment(struct cleaner *, u_int32_t sn);
SEGUSE	*seguse(struct cleaner *, u_int32_t sn);

#endif
