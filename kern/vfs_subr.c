/*
 * Vnode management (4.4BSD vfs_subr.c): a fixed pool of vnodes, the free
 * list of unreferenced ones (least recently used first), references,
 * sleep locks, and flushing a vnode's buffers.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/proc.h"
#include "kern/malloc.h"
#include "kern/i386/cpu.h"
#include <sys/stat.h>

int desiredvnodes = 1024;
struct vnode *rootvnode;
static struct vnode *vnodes;
static TAILQ_HEAD(, vnode) vnode_free_list;
static u_int32_t vnode_ids;

void
vfsinit(void)
{
	int i;

	desiredvnodes = getkarg_int("vnodes", desiredvnodes);
	vnodes = malloc(desiredvnodes * sizeof(*vnodes), M_ZERO);
	TAILQ_INIT(&vnode_free_list);
	TAILQ_INIT(&mountlist);
	for (i = 0; i < desiredvnodes; i++) {
		vnodes[i].v_type = VBAD;
		vnodes[i].v_flag = VONFREELIST;
		TAILQ_INSERT_TAIL(&vnode_free_list, &vnodes[i], v_freelist);
	}
	for (i = 0; vfsconf[i] != NULL; i++)
		if (vfsconf[i]->vfs_init != NULL)
			vfsconf[i]->vfs_init();
}

/*
 * A fresh vnode for mp with operations ops, referenced once.  The least
 * recently used free vnode is recycled: its file system forgets it first.
 */
int
getnewvnode(struct mount *mp, const struct vnodeops *ops, struct vnode **vpp)
{
	struct vnode *vp;

	for (;;) {
		vp = TAILQ_FIRST(&vnode_free_list);
		if (vp == NULL) {
			printf("vnode table full (%d): raise vnodes=\n",
			    desiredvnodes);
			*vpp = NULL;
			return ENFILE;
		}
		TAILQ_REMOVE(&vnode_free_list, vp, v_freelist);
		vp->v_flag &= ~VONFREELIST;
		if (vp->v_type == VBAD)
			break;
		vp->v_usecount++;	/* hold it while it is cleaned */
		vgone(vp);
		vp->v_usecount--;
		if (vp->v_usecount == 0 && vp->v_type == VBAD)
			break;
	}
	/*
	 * Off its old mount's list before the memset forgets the list: a
	 * vnode a failed vget left VBAD is still on it, and would stay
	 * linked there from the new one's.
	 */
	insmntque(vp, NULL);
	memset(vp, 0, sizeof(*vp));
	lockinit(&vp->v_lock, "vnlock");
	vp->v_op = ops;
	vp->v_type = VNON;
	vp->v_usecount = 1;
	cluster_init(vp);
	vp->v_id = ++vnode_ids;
	LIST_INIT(&vp->v_cleanblkhd);
	LIST_INIT(&vp->v_dirtyblkhd);
	insmntque(vp, mp);
	*vpp = vp;
	return 0;
}

/* Put a vnode on a mount's list (mp NULL: on none). */
void
insmntque(struct vnode *vp, struct mount *mp)
{
	if (vp->v_mount != NULL)
		LIST_REMOVE(vp, v_mntvnodes);
	vp->v_mount = mp;
	if (mp != NULL)
		LIST_INSERT_HEAD(&mp->mnt_vnodelist, vp, v_mntvnodes);
}

/*
 * Disassociate a vnode from its file system: write, drop, reclaim.
 * Writing its buffers may sleep, with the inode still in the file
 * system's hash: VXLOCK tells a lookup meanwhile (ufs_ihashget) to wait
 * and look again, not to take a vnode about to lose its inode.
 */
void
vgone(struct vnode *vp)
{
	if (vp->v_type == VBAD) {
		insmntque(vp, NULL);	/* a failed vget's: on no mount */
		return;
	}
	vp->v_flag |= VXLOCK;
	vinvalbuf(vp, 1);
	if (vp->v_op && vp->v_op->vop_reclaim)
		VOP_RECLAIM(vp);
	insmntque(vp, NULL);
	vp->v_type = VBAD;
	vp->v_data = NULL;
	vp->v_op = &dead_vnodeops;	/* holders now get EIO, not a fault */
	if (vp->v_flag & VXWANT)
		wakeup(vp);
	vp->v_flag &= ~(VXLOCK | VXWANT);
}

void
vref(struct vnode *vp)
{
	KASSERT(vp->v_usecount > 0);
	vp->v_usecount++;
}

/* Reference a cached vnode that may sit on the free list. */
int
vget(struct vnode *vp)
{
	if (vp->v_flag & VONFREELIST) {
		TAILQ_REMOVE(&vnode_free_list, vp, v_freelist);
		vp->v_flag &= ~VONFREELIST;
	}
	vp->v_usecount++;
	return 0;
}

void
vrele(struct vnode *vp)
{
	KASSERT(vp->v_usecount > 0);
	if (vp->v_usecount > 1) {
		vp->v_usecount--;
		/*
		 * The other holder is in VOP_INACTIVE, which may have looked
		 * at the inode before this reference changed it (a rmdir
		 * taking the link count to 0): it must look again.
		 */
		if (vp->v_usecount == 1 && (vp->v_flag & VINACT))
			vp->v_flag |= VINACTAGAIN;
		return;
	}
	/*
	 * Last reference: the file system may do work that sleeps, with
	 * the vnode still held, so getnewvnode cannot take it meanwhile.
	 */
	do {
		vp->v_flag = (vp->v_flag | VINACT) & ~VINACTAGAIN;
		if (vp->v_op && vp->v_op->vop_inactive)
			VOP_INACTIVE(vp);
	} while ((vp->v_flag & VINACTAGAIN) && vp->v_usecount == 1);
	vp->v_flag &= ~(VINACT | VINACTAGAIN);
	if (--vp->v_usecount > 0)
		return;
	vp->v_flag |= VONFREELIST;
	if (vp->v_type == VBAD)
		TAILQ_INSERT_HEAD(&vnode_free_list, vp, v_freelist);
	else
		TAILQ_INSERT_TAIL(&vnode_free_list, vp, v_freelist);
}

void
vput(struct vnode *vp)
{
	VOP_UNLOCK(vp);
	vrele(vp);
}

void
vn_lock(struct vnode *vp)
{
	lockacquire(&vp->v_lock);
}

/*
 * vn_lock for an operation that may have been waiting while a forced
 * unmount took the vnode away (vflush drains its lock, then vgone):
 * EIO, unlocked, if it is dead now; its inode is gone.
 */
int
vn_lock_live(struct vnode *vp)
{
	vn_lock(vp);
	if (vp->v_type == VBAD) {
		VOP_UNLOCK(vp);
		return EIO;
	}
	return 0;
}

void
VOP_UNLOCK(struct vnode *vp)
{
	lockrelease(&vp->v_lock);
}

/* A write of bp finished: the vnode has one fewer in progress. */
void
vwakeup(struct buf *bp)
{
	struct vnode *vp = bp->b_vp;

	bp->b_flags &= ~B_WRITEINPROG;
	if (vp == NULL)
		return;
	if (--vp->v_numoutput < 0)
		panic("vwakeup: negative numoutput");
	if ((vp->v_flag & VBWAIT) && vp->v_numoutput == 0) {
		vp->v_flag &= ~VBWAIT;
		wakeup(&vp->v_numoutput);
	}
}

/* Wait until no write of vp is in progress. */
static void
vwaitoutput(struct vnode *vp)
{
	int s = splbio();

	while (vp->v_numoutput > 0) {
		vp->v_flag |= VBWAIT;
		tsleep(&vp->v_numoutput, 0, "vnoutput", 0);
	}
	splx(s);
}

/* Write all dirty buffers of vp; with sync, wait for them. */
void
vflushbuf(struct vnode *vp, int sync)
{
	struct buf *bp;
	int s;

loop:
	s = splbio();
	LIST_FOREACH(bp, &vp->v_dirtyblkhd, b_vnbufs) {
		if ((bp->b_flags & B_BUSY) || !(bp->b_flags & B_DELWRI))
			continue;
		splx(s);
		bawrite_delayed(bp);	/* with its neighbours */
		goto loop;
	}
	splx(s);
	if (sync)
		vwaitoutput(vp);
}

/*
 * Throw away every buffer of vp; with save, write the dirty ones first.
 * Buffers are released as invalid so nobody finds them again.
 */
int
vinvalbuf(struct vnode *vp, int save)
{
	struct buf *bp;
	int s;

	if (save)
		vflushbuf(vp, 1);
	for (;;) {
		s = splbio();
		if ((bp = LIST_FIRST(&vp->v_dirtyblkhd)) == NULL &&
		    (bp = LIST_FIRST(&vp->v_cleanblkhd)) == NULL) {
			splx(s);
			break;
		}
		if (bp->b_flags & B_BUSY) {
			bp->b_flags |= B_WANTED;
			tsleep(bp, 0, "vinvalbuf", 0);
			splx(s);
			continue;
		}
		bremfree(bp);
		bp->b_flags |= B_BUSY;
		splx(s);
		if (save && (bp->b_flags & B_DELWRI)) {
			bwrite(bp);
			continue;
		}
		bp->b_flags |= B_INVAL;
		brelse(bp);
	}
	vwaitoutput(vp);
	return 0;
}

/* A vnode for a block device, used by file systems mounted on it. */
int
bdevvp(dev_t dev, struct vnode **vpp)
{
	struct vnode *vp;
	int error;

	if ((error = getnewvnode(NULL, &spec_vnodeops, &vp)) != 0)
		return error;
	vp->v_type = VBLK;
	vp->v_rdev = dev;
	*vpp = vp;
	return 0;
}

/*
 * Flush and forget every vnode of mp except skipvp; EBUSY if one is still
 * in use (unless forced).
 */
int
vflush(struct mount *mp, struct vnode *skipvp, int flags)
{
	struct vnode *vp, *next;
	int busy = 0, locked;

	for (vp = LIST_FIRST(&mp->mnt_vnodelist); vp; vp = next) {
		next = LIST_NEXT(vp, v_mntvnodes);
		if (vp == skipvp || (vp->v_flag & VSYSTEM))
			continue;
		if (vp->v_usecount > 0 && !(flags & MNT_FORCE)) {
			busy++;
			continue;
		}
		if (vp->v_flag & VONFREELIST) {
			TAILQ_REMOVE(&vnode_free_list, vp, v_freelist);
			vp->v_flag &= ~VONFREELIST;
		}
		vp->v_usecount++;
		/* Forced, in use: let an operation under way on it (a write
		 * asleep for the segment lock, say) finish first. */
		locked = vp->v_usecount > 1;
		if (locked)
			lockacquire(&vp->v_lock);
		vgone(vp);
		if (locked) {
			lockrelease(&vp->v_lock);
			/* It may have slept: the list may have changed. */
			next = LIST_FIRST(&mp->mnt_vnodelist);
		}
		vp->v_usecount--;
		if (vp->v_usecount == 0) {
			vp->v_flag |= VONFREELIST;
			TAILQ_INSERT_HEAD(&vnode_free_list, vp, v_freelist);
		}
	}
	return busy ? EBUSY : 0;
}

/* Unix permission check: owner, group, other; root may do anything
 * except execute a file nobody may execute. */
int
vaccess(mode_t fmode, uid_t uid, gid_t gid, int mode, struct ucred *cred)
{
	mode_t mask = 0;
	int i;

	if (cred->cr_uid == 0) {
		if ((mode & VEXEC) && !S_ISDIR(fmode) &&
		    !(fmode & (S_IXUSR | S_IXGRP | S_IXOTH)))
			return EACCES;
		return 0;
	}
	if (cred->cr_uid == uid) {
		if (mode & VEXEC) mask |= S_IXUSR;
		if (mode & VREAD) mask |= S_IRUSR;
		if (mode & VWRITE) mask |= S_IWUSR;
		return (fmode & mask) == mask ? 0 : EACCES;
	}
	for (i = -1; i < cred->cr_ngroups; i++) {
		if ((i < 0 ? cred->cr_gid : cred->cr_groups[i]) == gid) {
			if (mode & VEXEC) mask |= S_IXGRP;
			if (mode & VREAD) mask |= S_IRGRP;
			if (mode & VWRITE) mask |= S_IWGRP;
			return (fmode & mask) == mask ? 0 : EACCES;
		}
	}
	if (mode & VEXEC) mask |= S_IXOTH;
	if (mode & VREAD) mask |= S_IROTH;
	if (mode & VWRITE) mask |= S_IWOTH;
	return (fmode & mask) == mask ? 0 : EACCES;
}

void
vattr_null(struct vattr *va)
{
	memset(va, 0xff, sizeof(*va));
	va->va_type = VNON;
	va->va_vaflags = 0;
}

int
vop_eopnotsupp(void)
{
	return EOPNOTSUPP;
}

enum vtype
iftovt(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return VREG;
	case S_IFDIR: return VDIR;
	case S_IFBLK: return VBLK;
	case S_IFCHR: return VCHR;
	case S_IFLNK: return VLNK;
	case S_IFSOCK: return VSOCK;
	case S_IFIFO: return VFIFO;
	}
	return VNON;
}

mode_t
vttoif(enum vtype t)
{
	static const mode_t map[] = { 0, S_IFREG, S_IFDIR, S_IFBLK, S_IFCHR,
	    S_IFLNK, S_IFSOCK, S_IFIFO, 0 };

	return map[t];
}
