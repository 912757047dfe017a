/*
 * The in-core inode, shared by every UFS layout (FFS, EFS, LFS), and the
 * per-mount ufsmount.
 *
 * The UFS code above a layout (directories, lookup, read and write,
 * attributes) calls the layout only through the operations of thesis
 * table 6-8, collected in struct ufs_ops:
 *   blkatoff   read the directory block holding an offset
 *   valloc     allocate an inode          vfree     free one
 *   truncate   shorten (or lengthen) a file
 *   update     write an inode's on-disk copy
 *   bwrite     write a buffer the layout's way (LFS: to the LOCKED queue)
 *   bdwrite    write it later, the layout's way (FFS: bdwrite)
 *   vget       the vnode of an inode number
 * plus balloc, the block allocator for writes (ffs_balloc, lfs_balloc).
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
	int	(*uo_blkatoff)(struct inode *, off_t, char **, struct buf **);
	int	(*uo_valloc)(struct inode *pip, int mode, struct ucred *,
		    struct vnode **);
	int	(*uo_vfree)(struct inode *pip, ino_t ino, int mode);
	int	(*uo_truncate)(struct inode *, off_t length, int flags,
		    struct ucred *);
	int	(*uo_update)(struct inode *, int waitfor);
	int	(*uo_bwrite)(struct buf *);
	int	(*uo_bdwrite)(struct buf *);
	int	(*uo_vget)(struct mount *, ino_t, struct vnode **);
	int	(*uo_balloc)(struct inode *, daddr_t lbn, int size,
		    struct ucred *, int flags, struct buf **);
};

struct ufsmount {
	struct mount *um_mountp;
	dev_t	um_dev;
	struct vnode *um_devvp;		/* the block device */
	struct fs *um_fs;		/* FFS superblock (NULL for LFS) */
	struct csum *um_csp;		/* FFS per-group summaries */
	void	*um_lfs;		/* LFS superblock */
	const struct ufs_ops *um_ops;	/* the layout */
	int	um_nindir;		/* pointers per indirect block */
	int	um_bptrtodb;		/* block pointer to sector shift */
	int	um_seqinc;		/* pointer increment of the next block */
	int	um_bsize;		/* block size */
	int	um_bshift;
	const struct vnodeops *um_specops; /* for device inodes */
	int	um_maxsymlinklen;	/* longest link kept in the inode */
	off_t	um_maxfilesize;		/* largest file the layout addresses */
	int	um_asyncfull;		/* write a filled block at once (FFS) */
	int	(*um_blksize)(struct inode *, daddr_t lbn);	/* frags? */
	char	um_fspec[90];		/* device name, for statfs */
	daddr_t	um_nbptr;		/* block pointers are below this */
};

struct inode {
	LIST_ENTRY(inode) i_hash;	/* inode hash chain */
	struct vnode *i_vnode;
	struct ufsmount *i_ump;
	dev_t	i_dev;
	ino_t	i_number;
	int	i_flag;			/* IN_* */
	struct fs *i_fs;		/* FFS superblock */
	/* directory slot hints from ufs_lookup for ufs_direnter/remove */
	off_t	i_diroff;		/* where the last lookup ended */
	struct dinode i_din;		/* the on-disk inode */
};

#define IN_ACCESS	0x0001		/* access time to update */
#define IN_CHANGE	0x0002		/* change time to update */
#define IN_UPDATE	0x0004		/* modification time to update */
#define IN_MODIFIED	0x0008		/* inode changed */
#define IN_RENAME	0x0010		/* being renamed */
#define IN_DAMAGED	0x0020		/* damage on disk reported (once) */

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

#define UFS_BLKATOFF(ip, off, res, bpp) UFS_OPS(ip)->uo_blkatoff((ip), (off), (res), (bpp))
#define UFS_VALLOC(pip, mode, cred, vpp) UFS_OPS(pip)->uo_valloc((pip), (mode), (cred), (vpp))
#define UFS_VFREE(pip, ino, mode)	UFS_OPS(pip)->uo_vfree((pip), (ino), (mode))
#define UFS_TRUNCATE(ip, len, fl, cred)	UFS_OPS(ip)->uo_truncate((ip), (len), (fl), (cred))
#define UFS_UPDATE(ip, waitfor)		UFS_OPS(ip)->uo_update((ip), (waitfor))
#define UFS_BWRITE(ip, bp)		UFS_OPS(ip)->uo_bwrite(bp)
#define UFS_BDWRITE(ip, bp)		UFS_OPS(ip)->uo_bdwrite(bp)
#define UFS_VGET(ip, ino, vpp)		UFS_OPS(ip)->uo_vget((ip)->i_ump->um_mountp, (ino), (vpp))
#define UFS_BALLOC(ip, lbn, sz, cred, fl, bpp) UFS_OPS(ip)->uo_balloc((ip), (lbn), (sz), (cred), (fl), (bpp))

#define B_CLRBUF	0x01		/* balloc: zero the new buffer */
#define B_SYNCIO	0x02		/* balloc: write metadata through */

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
void	ufs_vinit(struct vnode *, const struct vnodeops *specops);
int	ufs_blkatoff(struct inode *, off_t, char **, struct buf **);
void	ufs_truncbuf(struct vnode *, daddr_t lastblock, int indirects,
	    void (*drop)(struct buf *));

/* ufs_vfsops.c */
int	ufs_opendev(struct mount *, void *data, char *fspec, struct vnode **);
void	ufs_closedev(struct vnode *devvp, int ronly, int save);
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
int	ufs_dirempty(struct inode *, ino_t parentino, struct ucred *);
int	ufs_checkpath(struct inode *source, struct inode *target, struct ucred *);
int	ufs_dircheck(struct inode *);

#define lblktosize_(ump, lbn)	((off_t)(lbn) << (ump)->um_bshift)
/* ufs_readwrite.c */
struct uio;
int	ufs_read(struct vnode *, struct uio *, int, struct ucred *);
int	ufs_write(struct vnode *, struct uio *, int, struct ucred *);

/* ufs_vnops.c: the shared vnode operations */
extern const struct vnodeops ufs_vnodeops_template;

#endif
