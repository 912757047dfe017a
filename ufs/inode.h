/*
 * The in-core inode, shared by every UFS layout (FFS, EFS, LFS), and the
 * per-mount ufsmount.
 *
 * The seam.  The UFS code above a layout (directories, lookup, read and
 * write, attributes, rename) reaches the layout only through struct
 * ufs_ops, which is thesis table 6-8 plus one operation:
 *   blkatoff   read the block holding a byte offset of a file (FFS knows
 *              fragments and EFS clusters; LFS has neither)
 *   valloc     allocate an inode     (FFS: bitmaps; LFS: the ifile's
 *   vfree      free one               free list)
 *   truncate   shorten or lengthen a file (FFS: bitmaps; LFS: segment
 *              usage)
 *   update     write an inode's on-disk copy (FFS: in place, now; LFS:
 *              with the next partial segment)
 *   bwrite     a block of a file was written: what that means is the
 *              layout's (FFS: write it now or delay it; EFS: gather it
 *              into a cluster; LFS: lock it in the cache for the segment
 *              writer), told by the caller how urgent it is (UFS_W*)
 *   vget       the vnode of an inode number (FFS computes where the
 *              inode lives; LFS looks it up in the ifile)
 *   balloc     the buffer for a block about to be written, with its
 *              space allocated (FFS) or reserved (LFS): 4.4BSD-Lite2's
 *              VOP_BALLOC, added after the thesis
 * and the mount's parameters below (um_bsize, um_nindir, ...), which a
 * layout sets once at mount.  Nothing in ufs/ asks which layout it is
 * under.
 *
 * Flags in i_flag say what must reach the disk: IN_ACCESS, IN_CHANGE and
 * IN_UPDATE mark times to set, IN_MODIFIED the rest of the inode.
 */
#ifndef _UFS_INODE_H_
#define _UFS_INODE_H_

#include <sys/types.h>
#include "sys/ufs/dinode.h"
#include "sys/ufs/dir.h"
#include "kern/queue.h"

struct vnode;
struct buf;
struct ucred;
struct mount;
struct fs;
struct csum;
struct inode;
struct vnodeops;

struct ufs_ops {
	int	(*uo_blkatoff)(struct inode *, off_t, int nblks, char **,
		    struct buf **);
	int	(*uo_valloc)(struct inode *pip, int mode, struct ucred *,
		    struct vnode **);
	int	(*uo_vfree)(struct inode *pip, ino_t ino, int mode);
	int	(*uo_truncate)(struct inode *, off_t length, struct ucred *);
	int	(*uo_update)(struct inode *, int waitfor);
	int	(*uo_bwrite)(struct inode *, struct buf *, int how);
	int	(*uo_vget)(struct mount *, ino_t, struct vnode **);
	int	(*uo_balloc)(struct inode *, daddr_t lbn, int size,
		    struct ucred *, int flags, struct buf **);
};

/* uo_bwrite's how: what the caller knows of the block it hands over. */
#define UFS_WDELAY	0		/* file data, more may come: delay */
#define UFS_WFULL	1		/* file data that filled its block */
#define UFS_WSYNC	2		/* to disk before the caller goes on:
					 * directories (FFS's ordering), and
					 * O_SYNC writes */

struct ufsmount {
	struct mount *um_mountp;
	dev_t	um_dev;
	struct vnode *um_devvp;		/* the block device */
	const struct ufs_ops *um_ops;	/* the layout */
	union {				/* the layout's superblock, in core */
		struct fs *fs;		/* FFS, EFS (group summaries after it) */
		struct lfs *lfs;	/* BSD-LFS */
	} um_u;
	int	um_nindir;		/* pointers per indirect block */
	int	um_bptrtodb;		/* block pointer to sector shift */
	int	um_seqinc;		/* pointer increment of the next block */
	int	um_bsize;		/* block size */
	int	um_bshift;
	int	um_maxsymlinklen;	/* longest link kept in the inode */
	off_t	um_maxfilesize;		/* largest file the layout addresses */
	char	um_fspec[90];		/* device name, for statfs */
	daddr_t	um_nbptr;		/* block pointers are below this */
	daddr_t	um_unassigned;		/* a pointer to a block only in the
					 * cache so far (LFS: -1); 0: none */
};
#define um_fs	um_u.fs
#define um_lfs	um_u.lfs

struct inode {
	LIST_ENTRY(inode) i_hash;	/* inode hash chain */
	struct vnode *i_vnode;
	struct ufsmount *i_ump;
	dev_t	i_dev;
	ino_t	i_number;
	int	i_flag;			/* IN_* */
	off_t	i_dsize;		/* the size its newest copy on the disk
					 * has; -1: none, or a truncation since
					 * (LFS's data-only writes need it) */
	struct dinode i_din;		/* the on-disk inode */
};

#define IN_ACCESS	0x0001		/* access time to update */
#define IN_CHANGE	0x0002		/* change time to update */
#define IN_UPDATE	0x0004		/* modification time to update */
#define IN_MODIFIED	0x0008		/* inode changed */
#define IN_DAMAGED	0x0010		/* damage on disk reported (once) */
#define IN_DATAONLY	0x0020		/* LFS: blocks of it are on the disk
					 * ahead of its inode (lfs_gather.c) */

#define i_mode		i_din.di_mode
#define i_nlink		i_din.di_nlink
#define i_size		i_din.di_size
#define i_db		i_din.di_db
#define i_ib		i_din.di_ib
#define i_flags		i_din.di_flags
#define i_blocks	i_din.di_blocks
#define i_gen		i_din.di_gen
#define i_uid		i_din.di_uid
#define i_gid		i_din.di_gid
#define i_rdev		i_din.di_rdev
#define i_shortlink	i_din.di_shortlink

#define VTOI(vp)	((struct inode *)(vp)->v_data)
#define ITOV(ip)	((ip)->i_vnode)
#define VFSTOUFS(mp)	((struct ufsmount *)(mp)->mnt_data)
#define UFS_OPS(ip)	((ip)->i_ump->um_ops)

#define UFS_BLKATOFF(ip, off, nblks, res, bpp) \
	UFS_OPS(ip)->uo_blkatoff((ip), (off), (nblks), (res), (bpp))
#define UFS_VALLOC(pip, mode, cred, vpp) UFS_OPS(pip)->uo_valloc((pip), (mode), (cred), (vpp))
#define UFS_VFREE(pip, ino, mode)	UFS_OPS(pip)->uo_vfree((pip), (ino), (mode))
#define UFS_TRUNCATE(ip, len, cred)	UFS_OPS(ip)->uo_truncate((ip), (len), (cred))
#define UFS_UPDATE(ip, waitfor)		UFS_OPS(ip)->uo_update((ip), (waitfor))
#define UFS_BWRITE(ip, bp, how)		UFS_OPS(ip)->uo_bwrite((ip), (bp), (how))
#define UFS_VGET(ip, ino, vpp)		UFS_OPS(ip)->uo_vget((ip)->i_ump->um_mountp, (ino), (vpp))
#define UFS_BALLOC(ip, lbn, sz, cred, fl, bpp) UFS_OPS(ip)->uo_balloc((ip), (lbn), (sz), (cred), (fl), (bpp))

#define B_CLRBUF	0x01		/* balloc: zero the new buffer */

/* One step of an indirect-block path (ufs_getlbns). */
struct indir {
	daddr_t	in_lbn;			/* logical block of the indirect block */
	int	in_off;			/* pointer index within it */
};

/* ufs_inode.c */
struct vnode *ufs_ihashget(dev_t, ino_t);
void	ufs_ihashins(struct inode *);
void	ufs_ihashrem(struct inode *);
void	ufs_itimes(struct inode *);
int	ufs_inactive(struct vnode *);
int	ufs_reclaim(struct vnode *);
void	ufs_vinit(struct vnode *);
int	ufs_blkatoff_end(struct inode *, off_t, int error, char **,
	    struct buf **);
void	ufs_truncbuf(struct vnode *, daddr_t lastblock, int indirects,
	    void (*drop)(struct buf *));

/* ufs_vfsops.c */
int	ufs_opendev(struct mount *, void *data, char *fspec, struct vnode **);
void	ufs_closedev(struct vnode *devvp, int ronly, int save);
void	ufs_mountattach(struct mount *, struct ufsmount *, struct vnode *devvp,
	    const char *fspec, int fsidtype);
int	ufs_vget_common(struct mount *, ino_t, const struct vnodeops *,
	    int (*readdin)(struct ufsmount *, ino_t, struct dinode *),
	    struct vnode **);

/* ufs_bmap.c */
int	ufs_getlbns(struct ufsmount *, daddr_t bn, struct indir *, int *nump);
int	ufs_getindir(struct vnode *, daddr_t lbn, daddr_t blkno, struct buf **);
int	ufs_bmaparray(struct vnode *, daddr_t bn, daddr_t *bnp, int *runp);
int	ufs_bmap(struct vnode *, daddr_t, struct vnode **, daddr_t *, int *);
int	ufs_badbptr(struct inode *, daddr_t);

/* ufs_lookup.c */
struct componentname;
int	ufs_lookup(struct vnode *, struct vnode **, struct componentname *);
int	ufs_direnter(struct inode *ip, struct vnode *dvp, struct componentname *);
int	ufs_dirremove(struct vnode *dvp, struct componentname *);
int	ufs_dirrewrite(struct inode *dp, struct inode *ip, struct componentname *);
int	ufs_dirempty(struct inode *);
int	ufs_dircheck(struct inode *);

/* ufs_readwrite.c */
struct uio;
int	ufs_read(struct vnode *, struct uio *, int, struct ucred *);
int	ufs_write(struct vnode *, struct uio *, int, struct ucred *);

#endif
