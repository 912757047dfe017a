/*
 * namei: path name to vnode (4.4BSD vfs_lookup.c, restructured).
 *
 * The walk holds one directory, dp, referenced.  For each component it
 * locks dp, asks VOP_LOOKUP for the name, unlocks dp, and moves on; so
 * at most one vnode is locked while a lookup sleeps on the disk, except
 * at the end, where the caller may ask to keep the parent locked
 * (LOCKPARENT) for a create, remove or rename.  ".." at the root of a
 * mounted file system continues in the directory it covers; a directory
 * with a file system mounted on it continues at that file system's root;
 * a symbolic link's text replaces the component and the walk restarts.
 *
 * namei itself is the loop over components; namei_start sets the walk
 * up, namei_component takes one name, namei_climb and namei_cross move
 * between file systems, namei_last and namei_self end it.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/namei.h"
#include "kern/proc.h"
#include "kern/uio.h"
#include <sys/dirent.h>

/* Replace the path walked so far by the link's text + the rest. */
static int
follow_link(struct nameidata *ndp, struct vnode *vp, const char *rest)
{
	char *link = ndp->ni_pnbuf;
	char tail[MAXPATHLEN];
	struct iovec iov;
	struct uio uio;
	int error, len;

	if (++ndp->ni_loopcnt > MAXSYMLINKS)
		return ELOOP;
	strlcpy(tail, rest, sizeof(tail));
	uio_setup1(&uio, &iov, link, MAXPATHLEN, 0, UIO_SYSSPACE, UIO_READ);
	if ((error = VOP_READLINK(vp, &uio, ndp->ni_cnd.cn_cred)) != 0)
		return error;
	len = MAXPATHLEN - uio.uio_resid;
	if (len == 0)
		return ENOENT;
	if (len + 1 + strlen(tail) + 1 > MAXPATHLEN)
		return ENAMETOOLONG;
	link[len] = '\0';
	if (tail[0] != '\0') {
		link[len++] = '/';
		strlcpy(link + len, tail, MAXPATHLEN - len);
	}
	return 0;
}

/*
 * The start of a walk: the path copied in, and the directory it starts
 * from (the root for "/...", else the current directory), referenced.
 */
static int
namei_start(struct nameidata *ndp, struct vnode *root, struct vnode **dpp)
{
	struct proc *p = curproc;
	int error;

	ndp->ni_cnd.cn_cred = &p->p_cred;
	ndp->ni_vp = ndp->ni_dvp = NULL;
	ndp->ni_loopcnt = 0;
	if (ndp->ni_segflg == UIO_USERSPACE)
		error = copyinstr(ndp->ni_dirp, ndp->ni_pnbuf, MAXPATHLEN, NULL);
	else
		error = strlcpy(ndp->ni_pnbuf, ndp->ni_dirp, MAXPATHLEN) >=
		    MAXPATHLEN ? ENAMETOOLONG : 0;
	if (error)
		return error;
	if (ndp->ni_pnbuf[0] == '\0')
		return ENOENT;
	*dpp = ndp->ni_pnbuf[0] == '/' ? root : p->p_cdir;
	vref(*dpp);
	return 0;
}

/*
 * The component at cp into the componentname: its length, whether it is
 * the last, and whether a slash follows it; *nextp is what follows.
 */
static int
namei_component(struct componentname *cnp, char *cp, char **nextp,
    int *trailing)
{
	char *next;

	for (next = cp; *next && *next != '/'; next++)
		continue;
	if (next - cp > MAXNAMLEN)
		return ENAMETOOLONG;
	cnp->cn_nameptr = cp;
	cnp->cn_namelen = next - cp;
	*trailing = *next == '/';
	while (*next == '/')
		next++;
	cnp->cn_islast = *next == '\0';
	*nextp = next;
	return 0;
}

/* ".." at the root of a mounted file system: the directory it covers. */
static struct vnode *
namei_climb(struct vnode *dp, struct vnode *root)
{
	struct vnode *vp;

	while (dp != root && (dp->v_flag & VROOT) &&
	    dp->v_mount->mnt_vnodecovered != NULL) {
		vp = dp->v_mount->mnt_vnodecovered;
		vref(vp);
		vrele(dp);
		dp = vp;
	}
	return dp;
}

/* A directory with a file system mounted on it: that file system's root. */
static int
namei_cross(struct vnode **vpp)
{
	struct vnode *vp = *vpp, *tdp;
	int error;

	while (vp->v_type == VDIR && vp->v_mountedhere != NULL) {
		if ((error = VFS_ROOT(vp->v_mountedhere, &tdp)) != 0)
			return error;
		vrele(vp);
		*vpp = vp = tdp;
	}
	return 0;
}

/*
 * The path ends at the directory dp itself ("/", or ".." at the root):
 * only a lookup may, and the parent is dp too.
 */
static int
namei_self(struct nameidata *ndp, struct vnode *dp, int noent)
{
	struct componentname *cnp = &ndp->ni_cnd;

	if (cnp->cn_nameiop != LOOKUP)
		return noent;
	ndp->ni_vp = dp;
	if (cnp->cn_flags & WANTPARENT) {
		vref(dp);
		ndp->ni_dvp = dp;
	}
	if (cnp->cn_flags & LOCKLEAF)
		vn_lock(dp);
	return 0;
}

/*
 * The last component, vp, found in dp (locked): what the caller asked
 * to keep of the two.  EINVAL for "." to remove or rename.
 */
static int
namei_last(struct nameidata *ndp, struct vnode *dp, struct vnode *vp,
    int trailing)
{
	struct componentname *cnp = &ndp->ni_cnd;

	if (trailing && vp->v_type != VDIR)
		return ENOTDIR;
	if (vp == dp && cnp->cn_nameiop != LOOKUP)
		return EINVAL;
	ndp->ni_vp = vp;
	if (cnp->cn_flags & (LOCKPARENT | WANTPARENT)) {
		ndp->ni_dvp = dp;
		if (!(cnp->cn_flags & LOCKPARENT))
			VOP_UNLOCK(dp);
	} else
		vput(dp);
	if ((cnp->cn_flags & LOCKLEAF) && !(vp == dp &&
	    (cnp->cn_flags & LOCKPARENT)))
		vn_lock(vp);
	return 0;
}

/*
 * The walk: dp, the directory, is referenced throughout, and locked only
 * while VOP_LOOKUP looks in it (dplocked); vp, what a component names,
 * is referenced.  Every failure leaves by the one release at the end.
 */
int
namei(struct nameidata *ndp)
{
	struct componentname *cnp = &ndp->ni_cnd;
	struct proc *p = curproc;
	struct vnode *dp, *vp = NULL, *root;
	char *cp, *next;
	int error, op = cnp->cn_nameiop, trailing, dplocked = 0;

	root = p->p_rdir ? p->p_rdir : rootvnode;
	if ((error = namei_start(ndp, root, &dp)) != 0)
		return error;
	for (cp = ndp->ni_pnbuf;; cp = next) {
		while (*cp == '/')
			cp++;
		if (*cp == '\0') {		/* "/" or slashes: dp itself */
			error = namei_self(ndp, dp, op == DELETE ? EBUSY :
			    EISDIR);
			if (error)
				break;
			return 0;
		}
		if ((error = namei_component(cnp, cp, &next, &trailing)) != 0)
			break;
		if (dp->v_type != VDIR) {
			error = ENOTDIR;
			break;
		}
		if (cnp->cn_namelen == 2 && cp[0] == '.' && cp[1] == '.' &&
		    (dp = namei_climb(dp, root)) == root) {
			if (!cnp->cn_islast)
				continue;	/* ".." of the root: the root */
			if ((error = namei_self(ndp, dp, EINVAL)) != 0)
				break;
			return 0;
		}
		vn_lock(dp);
		dplocked = 1;
		if ((error = VOP_LOOKUP(dp, &vp, cnp)) != 0) {
			vp = NULL;
			if (error == EJUSTRETURN && cnp->cn_islast &&
			    (op == CREATE || op == RENAME)) {
				/* Not there: the caller may create it. */
				ndp->ni_dvp = dp;
				if (!(cnp->cn_flags & LOCKPARENT))
					VOP_UNLOCK(dp);
				return 0;
			}
			break;
		}
		if ((error = namei_cross(&vp)) != 0)
			break;
		if (vp->v_type == VLNK &&
		    (!cnp->cn_islast || (cnp->cn_flags & FOLLOW) || trailing)) {
			VOP_UNLOCK(dp);
			dplocked = 0;
			error = follow_link(ndp, vp, next);
			vrele(vp);
			vp = NULL;
			if (error)
				break;
			next = ndp->ni_pnbuf;	/* the link's text, then the rest */
			if (*next == '/') {
				vrele(dp);
				dp = root;
				vref(dp);
			}
			continue;
		}
		if (cnp->cn_islast) {
			if ((error = namei_last(ndp, dp, vp, trailing)) != 0)
				break;
			return 0;
		}
		VOP_UNLOCK(dp);
		dplocked = 0;
		vrele(dp);
		dp = vp;
		vp = NULL;
	}
	if (vp != NULL)
		vrele(vp);
	if (dplocked)
		vput(dp);
	else
		vrele(dp);
	return error;
}
