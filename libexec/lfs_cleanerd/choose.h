/*
 * lfs_cleanerd's policy (choose.c): which segment to clean next, from the
 * segment usage table alone.  Its own header, with nothing of the
 * cleaner's system calls, so that the host can compile choose.c and test
 * it on tables made up for the purpose (tests/host/test_cleaner_choice.py).
 */
#ifndef _LFS_CLEANERD_CHOOSE_H_
#define _LFS_CLEANERD_CHOOSE_H_

#include <sys/types.h>
#include <time.h>
#include "sys/ufs/dinode.h"
#include "sys/ufs/lfs.h"

#define MINGAIN		12	/* blocks a cleaned segment must free */
#define MAXLIVE		0.9	/* a segment fuller than this is left */

/* What one look at the table found, besides the choice. */
struct segscan {
	u_int32_t nclean;	/* clean segments */
	double	freesegs;	/* all space not live, in segments */
	int	activegain;	/* an ACTIVE one worth cleaning: a checkpoint
				   would free some */
};

long	choose_segment(const struct dlfs *sb, const SEGUSE *tab,
	    int costbenefit, time_t now, struct segscan *scan);

#endif
