/*
 * The LFS counters of thesis 7.2 (segments used, checkpoints, partial
 * segments, their synchronous and cleaner shares, blocks written, how
 * often each buffer threshold was reached), kept in lfs_stats as the
 * writer and the cleaner's calls run, with the thresholds and the block
 * accounting as they stand now.  lfsstat prints them; the benchmarks
 * read them before and after a run.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/proc.h"
#include "kern/syscallargs.h"
#include "kern/uio.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"

static int
lfs_copystats(struct proc *p, struct lfs *fs, struct lfsstats_args *uap)
{
	long sb, pb;
	int error, sn, pn;

	lfs_thresholds(&sb, &pb, &sn, &pn);
	fs->lfs_stats.start_bytes = sb;
	fs->lfs_stats.stop_bytes = pb;
	fs->lfs_stats.start_bufs = sn;
	fs->lfs_stats.stop_bufs = pn;
	fs->lfs_stats.locked_bufs = locked_queue_count;
	fs->lfs_stats.locked_bytes = locked_queue_bytes;
	fs->lfs_stats.clean_segs = fs->lfs_nclean;
	fs->lfs_stats.bfree = fs->lfs_dlfs.dlfs_bfree;
	fs->lfs_stats.avail = fs->lfs_dlfs.dlfs_avail;
	fs->lfs_stats.promised = fs->lfs_nlocked;
	fs->lfs_stats.cleanblocks = lfs_cleanblocks(fs);
	fs->lfs_stats.rfw = fs->lfs_rfw;
	if ((error = copyout(&fs->lfs_stats, uap->buf,
	    sizeof(fs->lfs_stats))) != 0)
		return error;
	if (uap->reset) {
		if ((error = suser(p)) != 0)
			return error;
		memset(&fs->lfs_stats, 0, sizeof(fs->lfs_stats));
	}
	return 0;
}

int
sys_lfsstats(struct proc *p, struct lfsstats_args *uap, int *retval)
{
	struct mount *mp;
	int error;

	/* Reading counters is no cleaner's call, and works read-only. */
	if ((error = lfs_fsidmount(uap->fsidp, &mp, 0)) != 0)
		return error;
	error = lfs_copystats(p, VFSTOLFS(mp), uap);
	lfs_fsidrele(mp);
	return error;
}
