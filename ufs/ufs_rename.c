/*
 * rename (4.4BSD ufs_rename, with its locking made whole).
 *
 * sys_rename hands over references to the source directory and file and
 * to the target directory, and holds no locks; the file the target name
 * named when namei looked is only a hint, looked up again here.
 *
 * Locking.  Everywhere else a process holds two directories only as a
 * directory and one in it (namei's LOCKPARENT, remove, rmdir); a file
 * is locked after its directory and nothing is locked after a file.  A
 * rename may lock two directories that are neither (two parents, or a
 * directory and the sibling it replaces), so every rename that can do
 * that holds the file system's rename lock, and only one at a time
 * does.  In this order:
 *   1. A rename between two directories, or of a directory, takes the
 *      rename lock.  Between two directories it also walks ".." up from
 *      each (ufs_ancestor, one directory locked at a time), which the
 *      lock keeps still: a directory must not move below itself, and
 *      the ancestor of the two is locked first.
 *   2. The two directories (one lock if they are the same).
 *   3. The names again, under those locks, since anything may have
 *      changed after namei let go: the source name must still name the
 *      file, the target directory must still be linked, and the target
 *      name gives the file it replaces, if any.  A directory may only
 *      replace a directory, a file a file: said here, before step 4,
 *      so a file is never held while a directory is waited for.
 *   4. The file and the one it replaces: two directories under the
 *      rename lock, two files by inode number, since a file may have
 *      names in two directories whose renames lock it with the other.
 * ufs_rename_lock does all that, ufs_rename_apply the change and
 * ufs_rename_unlock lets everything go; LFS begins its dirop between the
 * first two, with every lock held (lfs_dirop.c), so nothing inside it
 * waits for a lock.
 *
 * The change keeps the file reachable at every moment a crash could
 * stop it:
 *   1. the file gains a link (its count is written first);
 *   2. the target name is entered (or rewritten to point at the file);
 *   3. the source name is removed and the link count drops again; a
 *      moved directory's ".." is rewritten.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/namei.h"
#include "kern/buf.h"
#include "kern/proc.h"
#include "kern/lock.h"
#include "ufs/inode.h"
#include "ufs/ufs_extern.h"

#define LINK_MAX	32767
#define MAXDEPTH	1000		/* a longer ".." chain is a damaged disk */

/* What ufs_rename_lock holds, for ufs_rename_unlock. */
#define RL_RENAME	0x01		/* the rename lock */
#define RL_FDVP		0x02
#define RL_TDVP		0x04
#define RL_FVP		0x08
#define RL_XVP		0x10

/* The ".." entry of directory ip (locked), in its buffer *bpp. */
static int
dotdot_entry(struct inode *ip, struct buf **bpp, struct direct **epp)
{
	struct direct *dot;
	char *res;
	int error;

	if (ip->i_nlink <= 0 || ip->i_size < DIRBLKSIZ)
		return ENOENT;		/* removed meanwhile (rmdir) */
	if ((error = UFS_BLKATOFF(ip, 0, 1, &res, bpp)) != 0)
		return error;
	dot = (struct direct *)res;
	*epp = (struct direct *)(res + dot->d_reclen);
	if (dot->d_reclen > DIRBLKSIZ - DIRECTSIZ(2) ||
	    (*epp)->d_namlen != 2 || (*epp)->d_name[0] != '.' ||
	    (*epp)->d_name[1] != '.') {
		brelse(*bpp);
		return ENOTDIR;
	}
	return 0;
}

/* The inode number the ".." of directory ip (locked) names. */
static int
dotdot(struct inode *ip, ino_t *inop)
{
	struct direct *ep;
	struct buf *bp;
	int error;

	if ((error = dotdot_entry(ip, &bp, &ep)) != 0)
		return error;
	*inop = ep->d_ino;
	brelse(bp);
	return 0;
}

/*
 * Is inode anc directory dp or above it?  Walks ".." up to the root,
 * under the rename lock, each directory locked only while its ".." is
 * read.  If so, *below is the directory just under anc on the way (dp
 * itself if anc is dp's parent, 0 if anc is dp).
 */
static int
ufs_ancestor(struct inode *dp, ino_t anc, int *found, ino_t *below)
{
	struct vnode *vp = ITOV(dp);
	ino_t ino = dp->i_number, parent;
	int error = 0, depth;

	*found = 0;
	*below = 0;
	if (ino == anc) {
		*found = 1;
		return 0;
	}
	vref(vp);
	for (depth = 0; ino != ROOTINO; depth++) {
		if (depth > MAXDEPTH) {
			error = ELOOP;
			break;
		}
		vn_lock(vp);
		error = dotdot(VTOI(vp), &parent);
		VOP_UNLOCK(vp);
		if (error)
			break;
		if (parent == anc) {
			*found = 1;
			*below = ino;
			break;
		}
		if (parent == ino)
			break;		/* a root that is not ROOTINO: damage */
		vrele(vp);
		if ((error = UFS_VGET(dp, parent, &vp)) != 0)
			return error;
		ino = parent;
	}
	vrele(vp);
	return error;
}

/* Is the name "." or ".."? */
static int
isdotordotdot(struct componentname *cnp)
{
	return cnp->cn_nameptr[0] == '.' && (cnp->cn_namelen == 1 ||
	    (cnp->cn_namelen == 2 && cnp->cn_nameptr[1] == '.'));
}

static void
rl_lock(struct ufs_rename *r, struct vnode *vp, int which)
{
	vn_lock(vp);
	r->r_held |= which;
}

/*
 * Steps 1-4 of the locking above.  On success everything is locked and
 * r->r_xvp is what the target name names (NULL: nothing); on an error
 * ufs_rename_unlock still undoes what was done.
 */
int
ufs_rename_lock(struct ufs_rename *r, struct vnode *fdvp, struct vnode *fvp,
    struct componentname *fcnp, struct vnode *tdvp, struct vnode *tvp,
    struct componentname *tcnp)
{
	struct inode *fip = VTOI(fvp), *fdp = VTOI(fdvp), *tdp = VTOI(tdvp);
	struct mount *mp = fdvp->v_mount;
	int tdfirst = 0, found, xisdir, error;
	ino_t below = 0, dummy;
	struct vnode *vp;

	memset(r, 0, sizeof(*r));
	r->r_fdvp = fdvp;
	r->r_fvp = fvp;
	r->r_tdvp = tdvp;
	r->r_fcnp = fcnp;
	r->r_tcnp = tcnp;
	r->r_isdir = (fip->i_mode & IFMT) == IFDIR;
	if (tvp)
		vrele(tvp);			/* looked up again below */
	if (isdotordotdot(fcnp) || isdotordotdot(tcnp))
		return EINVAL;
	/* 1. The rename lock, and where the directories hang under it. */
	if (fdvp != tdvp || r->r_isdir) {
		lockacquire(&mp->mnt_renamelock);
		r->r_held |= RL_RENAME;
	}
	if (fdvp != tdvp) {
		if (r->r_isdir) {
			if ((error = VOP_ACCESS(fvp, VWRITE, fcnp->cn_cred)))
				return error;
			if ((error = ufs_ancestor(tdp, fip->i_number, &found,
			    &dummy)) != 0)
				return error;
			if (found)
				return EINVAL;	/* into itself */
		}
		if ((error = ufs_ancestor(fdp, tdp->i_number, &tdfirst,
		    &below)) != 0)
			return error;
	}
	/* 2. The directories, the ancestor first. */
	if (tdfirst)
		rl_lock(r, tdvp, RL_TDVP);
	rl_lock(r, fdvp, RL_FDVP);
	if (fdvp != tdvp && !tdfirst)
		rl_lock(r, tdvp, RL_TDVP);
	/* 3. The names again. */
	fcnp->cn_nameiop = DELETE;
	if ((error = VOP_LOOKUP(fdvp, &vp, fcnp)) != 0)
		return error;
	vrele(vp);
	if (vp != fvp)
		return ENOENT;		/* renamed or removed meanwhile */
	if (tdp->i_nlink <= 0)
		return ENOENT;		/* the target directory was removed */
	tcnp->cn_nameiop = RENAME;
	error = VOP_LOOKUP(tdvp, &r->r_xvp, tcnp);
	if (error == EJUSTRETURN && r->r_xvp == NULL)
		error = 0;		/* a new name: tcnp has the slot */
	if (error)
		return error;
	/* The target names the source's directory, or one above it. */
	if (r->r_xvp == fdvp || (r->r_xvp != NULL && below != 0 &&
	    VTOI(r->r_xvp)->i_number == below))
		return r->r_isdir ? ENOTEMPTY : EISDIR;
	if (r->r_xvp == NULL || r->r_xvp == fvp) {
		rl_lock(r, fvp, RL_FVP);
		return 0;
	}
	xisdir = (VTOI(r->r_xvp)->i_mode & IFMT) == IFDIR;
	if (xisdir != r->r_isdir)
		return xisdir ? EISDIR : ENOTDIR;
	/* 4. The file and the one it replaces, in the one order. */
	if (!r->r_isdir && VTOI(r->r_xvp)->i_number < fip->i_number) {
		rl_lock(r, r->r_xvp, RL_XVP);
		rl_lock(r, fvp, RL_FVP);
	} else {
		rl_lock(r, fvp, RL_FVP);
		rl_lock(r, r->r_xvp, RL_XVP);
	}
	return 0;
}

/* Unlock and release what ufs_rename_lock took, and the caller's four. */
void
ufs_rename_unlock(struct ufs_rename *r)
{
	if (r->r_held & RL_XVP)
		VOP_UNLOCK(r->r_xvp);
	if (r->r_xvp)
		vrele(r->r_xvp);
	if (r->r_held & RL_FVP)
		VOP_UNLOCK(r->r_fvp);
	if (r->r_held & RL_TDVP)
		VOP_UNLOCK(r->r_tdvp);
	if (r->r_held & RL_FDVP)
		VOP_UNLOCK(r->r_fdvp);
	if (r->r_held & RL_RENAME)
		lockrelease(&r->r_fdvp->v_mount->mnt_renamelock);
	vrele(r->r_fdvp);
	vrele(r->r_fvp);
	vrele(r->r_tdvp);
	r->r_held = 0;
}

/* Point directory ip's (locked) ".." at inode parent. */
static int
set_dotdot(struct inode *ip, ino_t parent)
{
	struct direct *ep;
	struct buf *bp;
	int error;

	if ((error = dotdot_entry(ip, &bp, &ep)) != 0)
		return error;
	ep->d_ino = parent;
	return UFS_BWRITE(ip, bp, UFS_WSYNC);
}

/* Step 2: enter the target name for the file, replacing r_xvp's. */
static int
rename_enter(struct ufs_rename *r)
{
	struct inode *fip = VTOI(r->r_fvp), *tdp = VTOI(r->r_tdvp), *xip;
	int newparent = r->r_fdvp != r->r_tdvp, error = 0;

	if (r->r_xvp == NULL) {
		if (r->r_isdir && newparent) {
			if (tdp->i_nlink >= LINK_MAX)
				return EMLINK;
			tdp->i_nlink++;		/* the moved directory's ".." */
			tdp->i_flag |= IN_CHANGE;
			if ((error = UFS_UPDATE(tdp, 1)) != 0)
				return error;
		}
		error = ufs_direnter(fip, r->r_tdvp, r->r_tcnp);
		if (error && r->r_isdir && newparent) {
			tdp->i_nlink--;
			tdp->i_flag |= IN_CHANGE;
		}
		return error;
	}
	xip = VTOI(r->r_xvp);		/* of the file's kind (ufs_rename_lock) */
	if (r->r_isdir && (xip->i_nlink > 2 || !ufs_dirempty(xip)))
		error = ENOTEMPTY;
	if (error == 0)
		error = ufs_dirrewrite(tdp, fip, r->r_tcnp);
	if (error)
		return error;
	xip->i_nlink--;
	if (r->r_isdir) {
		/*
		 * The replaced directory loses "." and its ".."; a directory
		 * moved in from elsewhere brings a new ".." for tdp, so its
		 * count then stays.
		 */
		xip->i_nlink--;
		if (!newparent) {
			tdp->i_nlink--;
			tdp->i_flag |= IN_CHANGE;
		}
		UFS_TRUNCATE(xip, 0, r->r_tcnp->cn_cred);
	}
	xip->i_flag |= IN_CHANGE;
	return 0;
}

/*
 * Test hook, off unless the kernel argument dirop_pause=NAME is given: a
 * rename to NAME stops between its steps 2 and 3, both names entered,
 * until a signal (at most a minute), so a test can run the segment
 * writer in the middle of a directory operation (tests/test_lfs_dirops.py).
 */
static void
rename_testpause(struct componentname *cnp)
{
	const char *name = getkarg("dirop_pause");

	if (name != NULL && strlen(name) == (size_t)cnp->cn_namelen &&
	    memcmp(name, cnp->cn_nameptr, cnp->cn_namelen) == 0)
		tsleep(&rename_testpause, PCATCH, "dirpause", 60 * hz);
}

/* Steps 1-3 of the change, everything locked (ufs_rename_lock). */
int
ufs_rename_apply(struct ufs_rename *r)
{
	struct inode *fip = VTOI(r->r_fvp), *fdp = VTOI(r->r_fdvp);
	struct vnode *vp;
	int error;

	if (r->r_xvp == r->r_fvp)
		return 0;		/* two names of one file: nothing to do */
	/* 1. One more link while both names may exist. */
	fip->i_nlink++;
	fip->i_flag |= IN_CHANGE;
	if ((error = UFS_UPDATE(fip, 1)) != 0)
		goto undo;
	/* 2. The new name. */
	if ((error = rename_enter(r)) != 0)
		goto undo;
	rename_testpause(r->r_tcnp);
	/* 3. The old name goes; found again, since step 2 may have moved it. */
	if ((error = VOP_LOOKUP(r->r_fdvp, &vp, r->r_fcnp)) != 0)
		goto undo;
	vrele(vp);
	if (vp == r->r_fvp &&
	    (error = ufs_dirremove(r->r_fdvp, r->r_fcnp)) == 0 &&
	    r->r_isdir && r->r_fdvp != r->r_tdvp) {
		fdp->i_nlink--;
		fdp->i_flag |= IN_CHANGE;
		error = set_dotdot(fip, VTOI(r->r_tdvp)->i_number);
	}
undo:
	fip->i_nlink--;
	fip->i_flag |= IN_CHANGE;
	return error;
}

int
ufs_rename(struct vnode *fdvp, struct vnode *fvp, struct componentname *fcnp,
    struct vnode *tdvp, struct vnode *tvp, struct componentname *tcnp)
{
	struct ufs_rename r;
	int error;

	error = ufs_rename_lock(&r, fdvp, fvp, fcnp, tdvp, tvp, tcnp);
	if (error == 0)
		error = ufs_rename_apply(&r);
	ufs_rename_unlock(&r);
	return error;
}
