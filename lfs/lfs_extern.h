/*
 * The kernel's BSD-LFS: the in-core superblock and what the lfs/ files
 * offer each other.  The on-disk format is sys/ufs/lfs.h.
 *
 * Where things stand: a file system made by newfs_lfs mounts read-only;
 * reads go through the shared UFS code (bmap over block addresses,
 * cluster_read); inodes are found through the ifile's inode map.  The
 * segment writer (lfs_segwrite), block accounting and the cleaner's
 * system calls come next (issue 6); until then a read-write mount is
 * refused with a message rather than accepted and lost.
 */
#ifndef _LFS_LFS_EXTERN_H_
#define _LFS_LFS_EXTERN_H_

#include <sys/types.h>
#include "sys/ufs/dinode.h"
#include "sys/ufs/lfs.h"
#include "ufs/inode.h"

struct lfs {
	struct dlfs lfs_dlfs;		/* the checkpoint mounted */
	u_int32_t lfs_sbaddr;		/* which copy it came from */
	struct vnode *lfs_ivnode;	/* the ifile */
	u_int32_t lfs_maxino;		/* inode numbers the ifile maps */
};

#define VFSTOLFS(mp)	((struct lfs *)VFSTOUFS(mp)->um_lfs)

extern const struct vnodeops lfs_vnodeops;
extern const struct ufs_ops lfs_ufsops;
extern const struct vfsops lfs_vfsops;

int	lfs_vget(struct mount *, ino_t, struct vnode **);
int	lfs_ifind(struct lfs *, ino_t, IFILE *);

#endif
