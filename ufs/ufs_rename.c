/*
 * rename (4.4BSD ufs_rename, simplified).  The caller holds references
 * to the four vnodes and no locks.  The steps keep the file reachable
 * at every moment a crash could stop them:
 *   1. the file gains a link (its count is written first);
 *   2. the target name is entered (or rewritten to point at the file),
 *      with the target directory locked;
 *   3. the source name is removed, with the source directory locked, and
 *      the link count drops again; a moved directory's ".." is rewritten.
 * Each directory is looked up again under its lock, because the hints
 * namei left may be stale once the lock was dropped.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/namei.h"
#include "kern/buf.h"
#include "kern/proc.h"
#include "ufs/inode.h"
#include "ufs/ufs_extern.h"

/* Point directory ip's ".." at inode parent. */
static int
set_dotdot(struct inode *ip, ino_t parent)
{
	struct direct *ep;
	struct buf *bp;
	char *res;
	int error;

	if ((error = UFS_BLKATOFF(ip, 0, &res, &bp)) != 0)
		return error;
	ep = (struct direct *)(res + ((struct direct *)res)->d_reclen);
	if (ep->d_namlen != 2 || ep->d_name[0] != '.' || ep->d_name[1] != '.') {
		brelse(bp);
		return ENOTDIR;
	}
	ep->d_ino = parent;
	return UFS_BWRITE(ip, bp, UFS_WSYNC);
}

/* Step 2: enter the target name for fip in tdvp (locked). */
static int
rename_enter(struct vnode *tdvp, struct componentname *tcnp,
    struct inode *fip, int isdir, int newparent)
{
	struct inode *tdp = VTOI(tdvp), *xip;
	struct vnode *xvp;
	int error;

	error = VOP_LOOKUP(tdvp, &xvp, tcnp);
	if (error == ENOENT) {
		if (isdir && newparent) {
			if (tdp->i_nlink >= 32767)
				return EMLINK;
			tdp->i_nlink++;		/* the moved directory's ".." */
			tdp->i_flag |= IN_CHANGE;
			if ((error = UFS_UPDATE(tdp, 1)) != 0)
				return error;
		}
		error = ufs_direnter(fip, tdvp, tcnp);
		if (error && isdir && newparent) {
			tdp->i_nlink--;
			tdp->i_flag |= IN_CHANGE;
		}
		return error;
	}
	if (error)
		return error;
	xip = VTOI(xvp);
	if (xvp == ITOV(fip)) {
		vrele(xvp);
		return 0;
	}
	if ((xip->i_mode & IFMT) == IFDIR) {
		if (!isdir)
			error = EISDIR;
		else if (xip->i_nlink > 2 ||
		    !ufs_dirempty(xip, tdp->i_number, tcnp->cn_cred))
			error = ENOTEMPTY;
	} else if (isdir)
		error = ENOTDIR;
	if (error == 0)
		error = ufs_dirrewrite(tdp, fip, tcnp);
	if (error == 0) {
		vn_lock(xvp);
		xip->i_nlink--;
		if (isdir) {
			/*
			 * The replaced directory loses "." and its "..";
			 * a directory moved in from elsewhere brings a new
			 * ".." for tdp, so its count then stays.
			 */
			xip->i_nlink--;
			if (!newparent) {
				tdp->i_nlink--;
				tdp->i_flag |= IN_CHANGE;
			}
			UFS_TRUNCATE(xip, 0, 0, tcnp->cn_cred);
		}
		xip->i_flag |= IN_CHANGE;
		VOP_UNLOCK(xvp);
	}
	vrele(xvp);
	return error;
}

int
ufs_rename(struct vnode *fdvp, struct vnode *fvp, struct componentname *fcnp,
    struct vnode *tdvp, struct vnode *tvp, struct componentname *tcnp)
{
	struct inode *fip = VTOI(fvp), *fdp = VTOI(fdvp), *tdp = VTOI(tdvp);
	int isdir = (fip->i_mode & IFMT) == IFDIR;
	int newparent = fdvp != tdvp;
	struct vnode *xvp;
	int error = 0;

	if (tvp)
		vrele(tvp);			/* looked up again below */
	if (isdir) {
		if ((fcnp->cn_namelen == 1 && fcnp->cn_nameptr[0] == '.') ||
		    (fcnp->cn_namelen == 2 && fcnp->cn_nameptr[0] == '.' &&
		    fcnp->cn_nameptr[1] == '.')) {
			error = EINVAL;
			goto out;
		}
		if (newparent &&
		    ((error = VOP_ACCESS(fvp, VWRITE, fcnp->cn_cred)) != 0 ||
		    (error = ufs_checkpath(fip, tdp, tcnp->cn_cred)) != 0))
			goto out;
	}
	/* 1. One more link while both names may exist. */
	vn_lock(fvp);
	fip->i_nlink++;
	fip->i_flag |= IN_CHANGE;
	error = UFS_UPDATE(fip, 1);
	VOP_UNLOCK(fvp);
	if (error)
		goto undo;
	/* 2. The new name. */
	vn_lock(tdvp);
	error = rename_enter(tdvp, tcnp, fip, isdir, newparent);
	VOP_UNLOCK(tdvp);
	if (error)
		goto undo;
	/* 3. The old name goes, if it still names the file. */
	vn_lock(fdvp);
	fcnp->cn_nameiop = DELETE;
	if (VOP_LOOKUP(fdvp, &xvp, fcnp) == 0) {
		if (xvp == fvp) {
			error = ufs_dirremove(fdvp, fcnp);
			if (error == 0 && isdir && newparent) {
				fdp->i_nlink--;
				fdp->i_flag |= IN_CHANGE;
				vn_lock(fvp);
				error = set_dotdot(fip, tdp->i_number);
				VOP_UNLOCK(fvp);
			}
		}
		vrele(xvp);
	}
	VOP_UNLOCK(fdvp);
undo:
	vn_lock(fvp);
	fip->i_nlink--;
	fip->i_flag |= IN_CHANGE;
	VOP_UNLOCK(fvp);
out:
	vrele(fdvp);
	vrele(fvp);
	vrele(tdvp);
	return error;
}
