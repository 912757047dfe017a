/*
 * Which segment the cleaner cleans next (thesis 6.2.5; Rosenblum and
 * Ousterhout's Sprite LFS), chosen from the segment usage table (thesis
 * 6.1.1: SEGUSE, in the ifile) and nothing else: each segment's live
 * bytes, when it was last written, and its flags.
 *
 * Cleaning segment s reads it whole and writes its live part u (live
 * bytes / segment bytes) elsewhere, to free 1 - u of a segment.  A
 * segment is a candidate when it is DIRTY (holds log), not ACTIVE
 * (written since the last checkpoint, which may still need it: the
 * kernel refuses it), at most MAXLIVE live, and would free at least
 * MINGAIN blocks (less does not pay for the summary, inode blocks and
 * checkpoint that moving it costs).  Among the candidates the best:
 *
 *	greedy          1 - u
 *	cost-benefit    (1 - u) * age / (1 + u)
 *
 * where age is the seconds since the segment was last written, plus
 * one.  Cost-benefit (the thesis' and Sprite's) counts the cost of
 * cleaning as 1 + u (reading all, writing u) and prefers old segments:
 * their live data has stayed put and will likely stay, so freeing them
 * now is worth more than freeing a young segment whose data is still
 * dying by itself.  A dirty segment with no live bytes is best under
 * either: it is reclaimed without being read.  Ties go to the lower
 * segment number.
 *
 * On the way the scan counts, for the cleaner's loop (cleanerd.c), the
 * clean segments, all the space not live (in segments: a clean one
 * counts 1, a dirty one 1 - u) and whether an ACTIVE segment would be
 * worth cleaning, so that a checkpoint (sync) would give it one to take.
 */
#include "choose.h"

/* The best segment of tab to clean, or -1 if none is worth it. */
long
choose_segment(const struct dlfs *sb, const SEGUSE *tab, int costbenefit,
    time_t now, struct segscan *scan)
{
	/* LAB(seguse) begin */
	double best = 0, segbytes = (double)lfs_segbytes(sb);
	long pick = -1;
	u_int32_t sn;

	scan->nclean = 0;
	scan->freesegs = 0;
	scan->activegain = 0;
	for (sn = 0; sn < sb->dlfs_nseg; sn++) {
		const SEGUSE *sup = &tab[sn];
		double u, score, age;

		if (!(sup->su_flags & SEGUSE_DIRTY)) {
			scan->nclean++;
			scan->freesegs += 1;
			continue;
		}
		u = sup->su_nbytes / segbytes;
		scan->freesegs += 1 - u;
		if (segbytes - sup->su_nbytes < MINGAIN * sb->dlfs_bsize ||
		    u > MAXLIVE)
			continue;	/* too little to gain */
		if (sup->su_flags & SEGUSE_ACTIVE) {
			/* Written since the checkpoint: not yet. */
			if (!(sup->su_flags & SEGUSE_CLEANING))
				scan->activegain = 1;
			continue;
		}
		age = (double)(now - (time_t)sup->su_lastmod) + 1;
		if (age < 1)
			age = 1;	/* a clock set back */
		score = costbenefit ? (1 - u) * age / (1 + u) : 1 - u;
		if (sup->su_nbytes == 0)
			score = 1e30;	/* free for the taking */
		if (score > best) {
			best = score;
			pick = sn;
		}
	}
	return pick;
	/* LAB(seguse) end, stub:
	 *	double segbytes = (double)lfs_segbytes(sb);
	 *	long first = -1;
	 *	u_int32_t sn;
	 *
	 *	scan->nclean = 0;
	 *	scan->freesegs = 0;
	 *	scan->activegain = 0;
	 *	for (sn = 0; sn < sb->dlfs_nseg; sn++) {
	 *		const SEGUSE *sup = &tab[sn];
	 *
	 *		if (!(sup->su_flags & SEGUSE_DIRTY)) {
	 *			scan->nclean++;
	 *			scan->freesegs += 1;
	 *			continue;
	 *		}
	 *		scan->freesegs += 1 - sup->su_nbytes / segbytes;
	 *		if (segbytes - sup->su_nbytes < MINGAIN * sb->dlfs_bsize)
	 *			continue;
	 *		if (sup->su_flags & SEGUSE_ACTIVE)
	 *			scan->activegain = 1;
	 *		else if (first < 0)
	 *			first = sn;
	 *	}
	 *	return first;
	 */
}
