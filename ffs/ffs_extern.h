/*
 * FFS entry points shared among the files of ffs/.
 */
#ifndef _FFS_EXTERN_H_
#define _FFS_EXTERN_H_

#include <sys/types.h>
#include "sys/ufs/dinode.h"
#include "sys/ufs/fs.h"
#include "ufs/inode.h"

struct ucred;
struct buf;

/*
 * The superblock of an inode's or a mount's file system.  In core, the
 * per-group summaries (read from fs_csaddr at mount) follow it in the
 * same allocation.
 */
#define ITOFS(ip)	((ip)->i_ump->um_fs)
#define VFSTOFS(mp)	(VFSTOUFS(mp)->um_fs)
#define fs_csp(fs)	((struct csum *)((fs) + 1))
#define fs_cs(fs, c)	(fs_csp(fs)[c])

/* Free fragments beyond the minfree reserve. */
#define freespace(fs, percent) \
	(blkstofrags((fs), (fs)->fs_cstotal.cs_nbfree) + \
	 (fs)->fs_cstotal.cs_nffree - (int64_t)(fs)->fs_dsize * (percent) / 100)

/* ffs_alloc.c */
int	ffs_alloc(struct inode *, daddr_t lbn, daddr_t bpref, int size,
	    struct ucred *, daddr_t *bnp);
int	ffs_realloccg(struct inode *, daddr_t lbprev, daddr_t bpref,
	    int osize, int nsize, struct ucred *, struct buf **, daddr_t *bnp);
daddr_t	ffs_blkpref(struct inode *, daddr_t lbn, int indx, ufs_daddr_t *bap);
void	ffs_blkfree(struct inode *, daddr_t bno, long size);
int	ffs_badblk(struct inode *, daddr_t bno, long size);
int	ffs_valloc(struct inode *pip, int mode, struct ucred *, struct vnode **);
int	ffs_vfree(struct inode *pip, ino_t ino, int mode);

/* ffs_balloc.c */
int	ffs_balloc(struct inode *, daddr_t lbn, int size, struct ucred *,
	    int flags, struct buf **);

/* ffs_inode.c */
void	ffs_dropbuf(struct buf *);
int	ffs_update(struct inode *, int waitfor);
int	ffs_truncate(struct inode *, off_t length, struct ucred *);

/* ffs_vfsops.c */
int	ffs_vget(struct mount *, ino_t, struct vnode **);
int	ffs_sbupdate(struct ufsmount *, int waitfor);

/* ffs_vnops.c */
extern const struct vnodeops ffs_vnodeops;
extern const struct ufs_ops ffs_ufsops;

#endif
