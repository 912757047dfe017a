/*
 * Directory operations (thesis 6.3.3, dirop segment batching).
 *
 * A create, remove, link, rename, mkdir, rmdir, mknod or symlink changes
 * several things at once: a directory block, one or two inodes, the
 * inode map in the ifile.  Roll-forward after a crash must find all of
 * them or none, so the segment writer writes them together: in partial
 * segments flagged SS_DIROP, all but the last also SS_CONT, the last
 * carrying the ifile.  Roll-forward takes such a run only if its last
 * partial segment arrived (lfs_rfw.c).
 *
 * The protocol between the operations and the writer (lfs_segwrite):
 *   1. lfs_dirop_begin: wait while the writer has the gate closed, make
 *      sure of the space the dirop may dirty, count the dirop in
 *      progress (lfs_dirops, the thesis' dirop_in_progress);
 *   2-3. mark each vnode it changes (VDIROP, lfs_mark), so the writer's
 *      first pass leaves it for the second;
 *   4. do the operation (the shared UFS code);
 *   5-6. lfs_dirop_end: count it done, wake the writer if it was the
 *      last.
 * The writer, for its second pass, closes the gate (lfs_writer_enter:
 * LFS_WRITER_DRAIN), waits until no dirop is in progress, writes the
 * marked vnodes and the ifile (LFS_WRITER_DIROP), and opens the gate
 * again (lfs_writer_leave).  lfsstat counts the sleeps of both sides
 * (writer_waits, dirop_waits); the kernel argument dirop_pause stops a
 * rename halfway (ufs_rename.c), for a test to run the writer in it.
 *
 * Nothing inside a dirop waits for the writer: its space was checked
 * at the gate, and changes to the ifile wait only while the writer is
 * in its dirop pass (lfs_ifile_wait), which cannot be while a dirop is
 * in progress.  Nor does it wait for a vnode lock: a dirop takes every
 * lock it needs before it passes the gate (namei's for create, remove
 * and rmdir, sys_link's, ufs_rename_lock's), since a process holding a
 * lock may itself be waiting for the writer (at the gate, or for the
 * segment lock in lfs_check), and the writer waits for the dirops.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/proc.h"
#include "ufs/ufs_extern.h"
#include "lfs/lfs_extern.h"

#define LFS_NRESERVE	(2 * NIADDR + 3)	/* blocks a dirop may dirty */

/*
 * The room a dirop needs: past the stop-access threshold, write first;
 * make sure of the blocks it may dirty, unless it frees (remove, rmdir:
 * how a full file system gets room, never refused).  May sleep.
 */
static int
lfs_dirop_room(struct vnode *dvp, int frees)
{
	struct lfs *fs = VFSTOLFS(dvp->v_mount);
	int error;

	if (frees)
		return 0;
	if (lfs_above(LFS_STOPACCESS) && !lockbusy(&fs->lfs_seglock)) {
		fs->lfs_stats.stop_access++;
		lfs_segwrite(dvp->v_mount, 0);
	}
	lfs_checkheld(dvp->v_mount);
	if ((error = lfs_reserve(fs, LFS_NRESERVE, LFS_NRESERVE, NULL, 1)) != 0)
		return error;
	lfs_unreserve(fs, LFS_NRESERVE);	/* checked, not taken */
	return 0;
}

/*
 * Step 1: pass the gate (wait while the writer has it closed), make
 * sure of the room (which may sleep: the gate is passed again after
 * it), and count the dirop in progress.  A dirop inside another (a
 * process's nested call) is counted at once: the writer waits for the
 * outer one anyway.
 */
int
lfs_dirop_begin(struct vnode *dvp, int frees)
{
	/* LAB(dirops) begin */
	struct lfs *fs = VFSTOLFS(dvp->v_mount);
	int error;

	if (dvp->v_mount->mnt_flag & MNT_RDONLY)
		return EROFS;
	if (LFS_PROC(curproc)->lp_dirop == 0) {
		while (fs->lfs_writer) {
			fs->lfs_stats.dirop_waits++;
			tsleep(&fs->lfs_writer, 0, "lfsdirop", 0);
		}
		if ((error = lfs_dirop_room(dvp, frees)) != 0)
			return error;
		while (fs->lfs_writer) {
			fs->lfs_stats.dirop_waits++;
			tsleep(&fs->lfs_writer, 0, "lfsdirop", 0);
		}
	}
	fs->lfs_dirops++;
	LFS_PROC(curproc)->lp_dirop++;
	return 0;
	/* LAB(dirops) end, stub:
	 *	int error;
	 *
	 *	if (dvp->v_mount->mnt_flag & MNT_RDONLY)
	 *		return EROFS;
	 *	if (LFS_PROC(curproc)->lp_dirop == 0 &&
	 *	    (error = lfs_dirop_room(dvp, frees)) != 0)
	 *		return error;
	 *	LFS_PROC(curproc)->lp_dirop++;
	 *	return 0;
	 */
}

/* Steps 5 and 6: the dirop happened; the writer may have its pass. */
void
lfs_dirop_end(struct vnode *dvp)
{
	/* LAB(dirops) begin */
	struct lfs *fs = VFSTOLFS(dvp->v_mount);

	fs->lfs_doneops = 1;
	LFS_PROC(curproc)->lp_dirop--;
	if (--fs->lfs_dirops == 0)
		wakeup(&fs->lfs_dirops);
	/* LAB(dirops) end, stub:
	 *	VFSTOLFS(dvp->v_mount)->lfs_doneops = 1;
	 *	LFS_PROC(curproc)->lp_dirop--;
	 */
}

/*
 * The writer's side: close the gate, and wait for the dirops in
 * progress to end (the writer holds the segment lock).
 */
void
lfs_writer_enter(struct lfs *fs)
{
	LFS_ASSERT_SEGLOCK(fs);
	/* LAB(dirops) begin */
	fs->lfs_writer = LFS_WRITER_DRAIN;
	while (fs->lfs_dirops > 0) {
		fs->lfs_stats.writer_waits++;
		tsleep(&fs->lfs_dirops, 0, "lfswriter", 0);
	}
	fs->lfs_writer = LFS_WRITER_DIROP;
	/* LAB(dirops) end, stub:
	 *	fs->lfs_writer = LFS_WRITER_DIROP;
	 */
}

/* The dirop pass is written: dirops may begin again. */
void
lfs_writer_leave(struct lfs *fs)
{
	LFS_ASSERT_SEGLOCK(fs);
	fs->lfs_writer = LFS_WRITER_IDLE;
	wakeup(&fs->lfs_writer);
}

/* Steps 2 and 3: a vnode takes part in a dirop. */
void
lfs_mark(struct vnode *vp)
{
	if (vp != NULL && vp->v_data != NULL)
		vp->v_flag |= VDIROP;
}

/*
 * A dirop left vp's inode with no links but allocated (open, or held):
 * the inode map says so (LFS_ORPHANED), in the same dirop, so that
 * roll-forward frees it if the power goes before lfs_inactive does.
 */
static void
lfs_orphan(struct vnode *vp)
{
	struct inode *ip;
	struct lfs_ifref r;
	IFILE *ifp;

	if (vp == NULL || (ip = VTOI(vp)) == NULL || ip->i_nlink > 0 ||
	    ip->i_mode == 0)
		return;
	if ((ifp = LFS_IENTRY(ITOLFS(ip), ip->i_number, &r)) == NULL)
		return;
	ifp->if_nextfree = LFS_ORPHANED;
	lfs_ifput(ITOLFS(ip), &r, 1);
}

/*
 * Changes to the ifile made outside the writer (lfs_vfree, truncation's
 * segment usage) wait while the writer is writing the ifile for a
 * checkpoint or dirop, so what it writes is one state.  Such a caller
 * may be inside a dirop; then the writer cannot be in that pass.
 */
void
lfs_ifile_wait(struct lfs *fs)
{
	while (fs->lfs_writer == LFS_WRITER_DIROP && !lockheld(&fs->lfs_seglock))
		tsleep(&fs->lfs_writer, 0, "lfsifile", 0);
}

/* A dirop making a new vnode: create, mknod, mkdir. */
static int
lfs_dirop_new(int (*op)(struct vnode *, struct vnode **,
    struct componentname *, struct vattr *), struct vnode *dvp,
    struct vnode **vpp, struct componentname *cnp, struct vattr *va)
{
	int error;

	if ((error = lfs_dirop_begin(dvp, 0)) != 0)
		return error;
	lfs_mark(dvp);
	if ((error = op(dvp, vpp, cnp, va)) == 0)
		lfs_mark(*vpp);
	lfs_dirop_end(dvp);
	return error;
}

/* A dirop on two existing vnodes: remove, rmdir (frees), link. */
static int
lfs_dirop_two(int (*op)(struct vnode *, struct vnode *,
    struct componentname *), struct vnode *dvp, struct vnode *vp,
    struct componentname *cnp)
{
	int error;

	if (ISIFILE(vp))
		return EPERM;
	if ((error = lfs_dirop_begin(dvp, op != ufs_link)) != 0)
		return error;
	lfs_mark(dvp);
	lfs_mark(vp);
	if ((error = op(dvp, vp, cnp)) == 0)
		lfs_orphan(vp);
	lfs_dirop_end(dvp);
	return error;
}

int
lfs_create(struct vnode *dvp, struct vnode **vpp, struct componentname *cnp,
    struct vattr *va)
{
	return lfs_dirop_new(ufs_create, dvp, vpp, cnp, va);
}

int
lfs_mknod(struct vnode *dvp, struct vnode **vpp, struct componentname *cnp,
    struct vattr *va)
{
	return lfs_dirop_new(ufs_mknod, dvp, vpp, cnp, va);
}

int
lfs_mkdir(struct vnode *dvp, struct vnode **vpp, struct componentname *cnp,
    struct vattr *va)
{
	return lfs_dirop_new(ufs_mkdir, dvp, vpp, cnp, va);
}

int
lfs_remove(struct vnode *dvp, struct vnode *vp, struct componentname *cnp)
{
	return lfs_dirop_two(ufs_remove, dvp, vp, cnp);
}

int
lfs_rmdir(struct vnode *dvp, struct vnode *vp, struct componentname *cnp)
{
	return lfs_dirop_two(ufs_rmdir, dvp, vp, cnp);
}

int
lfs_link(struct vnode *dvp, struct vnode *vp, struct componentname *cnp)
{
	return lfs_dirop_two(ufs_link, dvp, vp, cnp);
}

int
lfs_symlink(struct vnode *dvp, struct vnode **vpp, struct componentname *cnp,
    struct vattr *va, char *target)
{
	int error;

	if ((error = lfs_dirop_begin(dvp, 0)) != 0)
		return error;
	lfs_mark(dvp);
	if ((error = ufs_symlink(dvp, vpp, cnp, va, target)) == 0)
		lfs_mark(*vpp);
	lfs_dirop_end(dvp);
	return error;
}

int
lfs_rename(struct vnode *fdvp, struct vnode *fvp, struct componentname *fcnp,
    struct vnode *tdvp, struct vnode *tvp, struct componentname *tcnp)
{
	struct ufs_rename r;
	int error;

	/* The dirop begins with every lock taken (see the top). */
	error = ufs_rename_lock(&r, fdvp, fvp, fcnp, tdvp, tvp, tcnp);
	if (error == 0 && (ISIFILE(fvp) || ISIFILE(r.r_xvp)))
		error = EPERM;
	if (error == 0 && (error = lfs_dirop_begin(fdvp, 0)) == 0) {
		lfs_mark(fdvp);
		lfs_mark(fvp);
		lfs_mark(tdvp);
		lfs_mark(r.r_xvp);
		if ((error = ufs_rename_apply(&r)) == 0)
			lfs_orphan(r.r_xvp);	/* the file it replaced */
		lfs_dirop_end(fdvp);
	}
	ufs_rename_unlock(&r);
	return error;
}
