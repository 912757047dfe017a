/*
 * Vnodes: the file system independent view of a file (4.4BSD).
 *
 * A vnode is referenced (v_usecount) by whoever holds a pointer to it:
 * open files, current directories, namei's caller.  vref() adds a
 * reference, vrele() drops one; at zero the file system's VOP_INACTIVE
 * runs (UFS frees an unlinked inode there) and the vnode stays cached on
 * the free list until getnewvnode() recycles it (VOP_RECLAIM).
 * Separately from references, a vnode has a sleep lock (vn_lock /
 * VOP_UNLOCK) that serializes changes to the file and its directory
 * entries across sleeps for disk I/O.
 *
 * The operations, and what the caller guarantees:
 *   lookup(dvp, &vp, cnp)   dvp locked; returns vp referenced, unlocked
 *                           (vp == dvp referenced again for ".");
 *                           ENOENT with cnp->cn_nameiop CREATE/RENAME at
 *                           the last component means "may be created",
 *                           and fills the directory slot hints.
 *   create/mknod/mkdir/symlink(dvp, &vp, cnp, vap[, target])
 *                           dvp locked, just looked up; vp returned
 *                           referenced and unlocked.
 *   remove/rmdir(dvp, vp, cnp)   both locked; caller releases them.
 *   link(dvp, vp, cnp)      dvp and vp locked (vp is no directory).
 *   rename(fdvp, fvp, fcnp, tdvp, tvp, tcnp)   references only, which it
 *                           releases; the file system takes the locks it
 *                           needs (ufs/ufs_rename.c says in which order).
 *   open/close/access/getattr/setattr/read/write/readdir/readlink/
 *   fsync/ioctl(vp, ...)    vp referenced; read/write/setattr/fsync take
 *                           the lock themselves.
 *   inactive(vp)            last reference gone.
 *   reclaim(vp)             the vnode is being reused: forget it.
 *   bmap(vp, lbn, &devvp, &bn, &run)   logical to physical block, and the
 *                           number of contiguous blocks that follow.
 *   strategy(bp)            start I/O on a buffer of this vnode.
 * An operation a file system does not support is an explicit entry that
 * returns EOPNOTSUPP (vop_eopnotsupp), never a NULL.
 */
#ifndef _KERN_VNODE_H_
#define _KERN_VNODE_H_

#include <sys/types.h>
#include <sys/time.h>
#include "kern/queue.h"
#include "kern/lock.h"

struct mount;
struct vnode;
struct buf;
struct uio;
struct ucred;
struct componentname;
struct proc;

enum vtype { VNON, VREG, VDIR, VBLK, VCHR, VLNK, VSOCK, VFIFO, VBAD };

struct vattr {
	enum vtype va_type;
	mode_t	va_mode;		/* permission bits only */
	nlink_t	va_nlink;
	uid_t	va_uid;
	gid_t	va_gid;
	long	va_fsid;
	ino_t	va_fileid;
	off_t	va_size;
	long	va_blocksize;
	struct timespec va_atime, va_mtime, va_ctime;
	u_int32_t va_gen;
	u_int32_t va_flags;
	dev_t	va_rdev;
	int64_t	va_bytes;		/* bytes of disk space held */
	int	va_vaflags;		/* VA_* below; vattr_null clears */
};
#define VA_UTIMES_NULL	0x01		/* utimes(path, NULL): "now" */
#define VNOVAL	(-1)

struct vnodeops {
	const char *vop_name;
	int (*vop_lookup)(struct vnode *, struct vnode **, struct componentname *);
	int (*vop_create)(struct vnode *, struct vnode **, struct componentname *, struct vattr *);
	int (*vop_mknod)(struct vnode *, struct vnode **, struct componentname *, struct vattr *);
	int (*vop_open)(struct vnode *, int, struct ucred *);
	int (*vop_close)(struct vnode *, int, struct ucred *);
	int (*vop_access)(struct vnode *, int, struct ucred *);
	int (*vop_getattr)(struct vnode *, struct vattr *);
	int (*vop_setattr)(struct vnode *, struct vattr *, struct ucred *);
	int (*vop_read)(struct vnode *, struct uio *, int, struct ucred *);
	int (*vop_write)(struct vnode *, struct uio *, int, struct ucred *);
	int (*vop_ioctl)(struct vnode *, u_long, caddr_t, int, struct ucred *);
	int (*vop_fsync)(struct vnode *, int);
	int (*vop_remove)(struct vnode *, struct vnode *, struct componentname *);
	int (*vop_link)(struct vnode *, struct vnode *, struct componentname *);
	int (*vop_rename)(struct vnode *, struct vnode *, struct componentname *,
	    struct vnode *, struct vnode *, struct componentname *);
	int (*vop_mkdir)(struct vnode *, struct vnode **, struct componentname *, struct vattr *);
	int (*vop_rmdir)(struct vnode *, struct vnode *, struct componentname *);
	int (*vop_symlink)(struct vnode *, struct vnode **, struct componentname *, struct vattr *, char *);
	int (*vop_readdir)(struct vnode *, struct uio *, struct ucred *);
	int (*vop_readlink)(struct vnode *, struct uio *, struct ucred *);
	int (*vop_inactive)(struct vnode *);
	int (*vop_reclaim)(struct vnode *);
	int (*vop_bmap)(struct vnode *, daddr_t, struct vnode **, daddr_t *, int *);
	int (*vop_strategy)(struct buf *);
};

struct vnode {
	int	v_usecount;		/* references */
	int	v_flag;			/* V* below */
	enum vtype v_type;
	struct mount *v_mount;		/* file system it lives in */
	const struct vnodeops *v_op;
	void	*v_data;		/* the file system's node (inode) */
	struct mount *v_mountedhere;	/* VDIR: a file system mounted here */
	dev_t	v_rdev;			/* VBLK, VCHR: the device */
	struct vnode *v_specnext;	/* VBLK: other vnodes for the device */
	LIST_HEAD(, buf) v_cleanblkhd;	/* clean buffers */
	LIST_HEAD(, buf) v_dirtyblkhd;	/* dirty buffers */
	int	v_numoutput;		/* writes in progress */
	struct lock v_lock;		/* vn_lock, VOP_UNLOCK */
	TAILQ_ENTRY(vnode) v_freelist;	/* free list, when unreferenced */
	LIST_ENTRY(vnode) v_mntvnodes;	/* the mount's vnodes */
	u_int32_t v_id;			/* changes when reused */
	/* clustering state (kern/vfs_cluster.c) */
	daddr_t	v_lastr;		/* last block read */
	daddr_t	v_rqend;		/* last block the read(2) wants */
	int	v_rqseq;		/* that read continues a sequential run */
	int	v_ralen;		/* read-ahead window, in blocks */
	daddr_t	v_maxra;		/* last block read or read ahead */
	daddr_t	v_cstart;		/* first block of the write cluster */
	daddr_t	v_lastw;		/* last block written into it */
	daddr_t	v_lasta;		/* that block's disk address */
	int	v_clen;			/* blocks it may grow to, less one */
};

#define VROOT		0x0001		/* root of its file system */
#define VTEXT		0x0002		/* a running program */
#define VONFREELIST	0x0004
#define VBWAIT		0x0008		/* someone waits for v_numoutput */
#define VSYSTEM		0x0010		/* used by the file system itself */
#define VDIROP		0x0020		/* LFS: in a dirop not yet written */
#define VHELD		0x0040		/* LFS: kept until its changes are
					 * written (lfs_inactive) */
#define VINACT		0x0080		/* in VOP_INACTIVE (vrele) */
#define VINACTAGAIN	0x0100		/* a reference came and went meanwhile */
#define VLOADING	0x0200		/* its inode is being read in */
#define VXLOCK		0x0400		/* being cleaned out (vgone) */
#define VXWANT		0x0800		/* someone waits for that to end */

/* ioflag for read/write */
#define IO_UNIT		0x01		/* all or nothing */
#define IO_APPEND	0x02		/* append */
#define IO_SYNC		0x04		/* write through */
#define IO_NDELAY	0x10

/* access modes for VOP_ACCESS */
#define VREAD		0400
#define VWRITE		0200
#define VEXEC		0100

/* fsync waitfor */
#define MNT_WAIT_	1

#define VOP_LOOKUP(dvp, vpp, cnp)	((dvp)->v_op->vop_lookup((dvp), (vpp), (cnp)))
#define VOP_CREATE(dvp, vpp, cnp, vap)	((dvp)->v_op->vop_create((dvp), (vpp), (cnp), (vap)))
#define VOP_MKNOD(dvp, vpp, cnp, vap)	((dvp)->v_op->vop_mknod((dvp), (vpp), (cnp), (vap)))
#define VOP_OPEN(vp, mode, cred)	((vp)->v_op->vop_open((vp), (mode), (cred)))
#define VOP_CLOSE(vp, fflag, cred)	((vp)->v_op->vop_close((vp), (fflag), (cred)))
#define VOP_ACCESS(vp, mode, cred)	((vp)->v_op->vop_access((vp), (mode), (cred)))
#define VOP_GETATTR(vp, vap)		((vp)->v_op->vop_getattr((vp), (vap)))
#define VOP_SETATTR(vp, vap, cred)	((vp)->v_op->vop_setattr((vp), (vap), (cred)))
#define VOP_READ(vp, uio, ioflag, cred)	((vp)->v_op->vop_read((vp), (uio), (ioflag), (cred)))
#define VOP_WRITE(vp, uio, ioflag, cred) ((vp)->v_op->vop_write((vp), (uio), (ioflag), (cred)))
#define VOP_IOCTL(vp, cmd, data, fflag, cred) ((vp)->v_op->vop_ioctl((vp), (cmd), (data), (fflag), (cred)))
#define VOP_FSYNC(vp, waitfor)		((vp)->v_op->vop_fsync((vp), (waitfor)))
#define VOP_REMOVE(dvp, vp, cnp)	((dvp)->v_op->vop_remove((dvp), (vp), (cnp)))
#define VOP_LINK(dvp, vp, cnp)		((dvp)->v_op->vop_link((dvp), (vp), (cnp)))
#define VOP_RENAME(fdvp, fvp, fcnp, tdvp, tvp, tcnp) \
	((fdvp)->v_op->vop_rename((fdvp), (fvp), (fcnp), (tdvp), (tvp), (tcnp)))
#define VOP_MKDIR(dvp, vpp, cnp, vap)	((dvp)->v_op->vop_mkdir((dvp), (vpp), (cnp), (vap)))
#define VOP_RMDIR(dvp, vp, cnp)		((dvp)->v_op->vop_rmdir((dvp), (vp), (cnp)))
#define VOP_SYMLINK(dvp, vpp, cnp, vap, t) ((dvp)->v_op->vop_symlink((dvp), (vpp), (cnp), (vap), (t)))
#define VOP_READDIR(vp, uio, cred)	((vp)->v_op->vop_readdir((vp), (uio), (cred)))
#define VOP_READLINK(vp, uio, cred)	((vp)->v_op->vop_readlink((vp), (uio), (cred)))
#define VOP_INACTIVE(vp)		((vp)->v_op->vop_inactive(vp))
#define VOP_RECLAIM(vp)			((vp)->v_op->vop_reclaim(vp))
#define VOP_BMAP(vp, lbn, vpp, bnp, runp) ((vp)->v_op->vop_bmap((vp), (lbn), (vpp), (bnp), (runp)))
#define VOP_STRATEGY(bp)		((bp)->b_vp->v_op->vop_strategy(bp))

/* Does the caller hold vp's lock?  For assertions of the contracts above. */
#define VOP_ISLOCKED(vp)	lockheld(&(vp)->v_lock)

extern const struct vnodeops spec_vnodeops, dead_vnodeops;
extern struct vnode *rootvnode;
extern int desiredvnodes;

void	vfsinit(void);
int	getnewvnode(struct mount *, const struct vnodeops *, struct vnode **);
void	vref(struct vnode *);
void	vrele(struct vnode *);
void	vput(struct vnode *);		/* unlock and release */
int	vget(struct vnode *);		/* reference a cached vnode */
void	vn_lock(struct vnode *);
int	vn_lock_live(struct vnode *);
void	VOP_UNLOCK(struct vnode *);
int	vinvalbuf(struct vnode *, int save);
void	vflushbuf(struct vnode *, int sync);
void	vwakeup(struct buf *);
int	bdevvp(dev_t, struct vnode **);
void	insmntque(struct vnode *, struct mount *);
void	vgone(struct vnode *);
int	vaccess(mode_t fmode, uid_t uid, gid_t gid, int mode, struct ucred *);
void	vattr_null(struct vattr *);
int	vop_eopnotsupp(void);
enum vtype iftovt(mode_t mode);
mode_t	vttoif(enum vtype);

/* clustering (kern/vfs_cluster.c) */
void	cluster_init(struct vnode *);
int	cluster_read(struct vnode *, off_t filesize, daddr_t lbn, int size,
	    int nblks, struct buf **);
int	cluster_pattern(struct vnode *, daddr_t lbn, int nblks);
#define CR_INREAD	0	/* a later block of the read in progress */
#define CR_SEQUENTIAL	1	/* a read beginning where the last ended */
#define CR_AGAIN	2	/* the last block read, again */
#define CR_ELSEWHERE	3	/* anything else */
void	cluster_write(struct buf *, off_t filesize);
void	cluster_push(struct vnode *, struct buf *);

/* vn_*: the file-level helpers of vfs_vnops.c */
struct nameidata;
struct stat;
int	vn_open(struct nameidata *, int fmode, int cmode);
int	vn_stat(struct vnode *, struct stat *);
struct file;
int	vn_rdwr_at(struct file *, struct uio *);
int	vn_rdwr(int rw, struct vnode *, void *base, int len,
	    off_t offset, int segflg, int ioflag, struct ucred *, int *aresid);

#endif
