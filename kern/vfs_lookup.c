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

int
namei(struct nameidata *ndp)
{
	struct componentname *cnp = &ndp->ni_cnd;
	struct proc *p = curproc;
	struct vnode *dp, *vp, *root;
	char *cp, *next;
	int error, op = cnp->cn_nameiop, trailing;

	cnp->cn_cred = &p->p_cred;
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
	root = p->p_rdir ? p->p_rdir : rootvnode;
	dp = ndp->ni_pnbuf[0] == '/' ? root : p->p_cdir;
	vref(dp);
	cp = ndp->ni_pnbuf;

	for (;;) {
		while (*cp == '/')
			cp++;
		if (*cp == '\0') {
			/* "/" or a path of slashes: the directory itself. */
			if (op != LOOKUP) {
				vrele(dp);
				return op == DELETE ? EBUSY : EISDIR;
			}
			ndp->ni_vp = dp;
			if (cnp->cn_flags & LOCKLEAF)
				vn_lock(dp);
			return 0;
		}
		for (next = cp; *next && *next != '/'; next++)
			continue;
		if (next - cp > MAXNAMLEN) {
			vrele(dp);
			return ENAMETOOLONG;
		}
		cnp->cn_nameptr = cp;
		cnp->cn_namelen = next - cp;
		trailing = *next == '/';
		while (*next == '/')
			next++;
		cnp->cn_islast = *next == '\0';
		if (dp->v_type != VDIR) {
			vrele(dp);
			return ENOTDIR;
		}
		/* ".." above the root of a mounted file system. */
		if (cnp->cn_namelen == 2 && cp[0] == '.' && cp[1] == '.') {
			while (dp != root && (dp->v_flag & VROOT) &&
			    dp->v_mount->mnt_vnodecovered != NULL) {
				vp = dp->v_mount->mnt_vnodecovered;
				vref(vp);
				vrele(dp);
				dp = vp;
			}
			if (dp == root) {
				cp = next;
				if (cnp->cn_islast)
					goto last_dotdot_root;
				continue;
			}
		}
		vn_lock(dp);
		error = VOP_LOOKUP(dp, &vp, cnp);
		if (error) {
			if (error == EJUSTRETURN && cnp->cn_islast &&
			    (op == CREATE || op == RENAME)) {
				/* Not there: the caller may create it. */
				ndp->ni_dvp = dp;
				if (!(cnp->cn_flags & LOCKPARENT))
					VOP_UNLOCK(dp);
				return 0;
			}
			vput(dp);
			return error;
		}
		/* Cross into a file system mounted here. */
		while (vp->v_type == VDIR && vp->v_mountedhere != NULL) {
			struct vnode *tdp;

			if ((error = VFS_ROOT(vp->v_mountedhere, &tdp)) != 0) {
				vrele(vp);
				vput(dp);
				return error;
			}
			vrele(vp);
			vp = tdp;
		}
		if (vp->v_type == VLNK &&
		    (!cnp->cn_islast || (cnp->cn_flags & FOLLOW) || trailing)) {
			VOP_UNLOCK(dp);
			error = follow_link(ndp, vp, next);
			vrele(vp);
			if (error) {
				vrele(dp);
				return error;
			}
			cp = ndp->ni_pnbuf;
			if (*cp == '/') {
				vrele(dp);
				dp = root;
				vref(dp);
			}
			continue;
		}
		if (!cnp->cn_islast) {
			VOP_UNLOCK(dp);
			vrele(dp);
			dp = vp;
			cp = next;
			continue;
		}
		/* The last component. */
		if (trailing && vp->v_type != VDIR) {
			vrele(vp);
			vput(dp);
			return ENOTDIR;
		}
		if (vp == dp && op != LOOKUP) {
			/* "." cannot be removed or renamed. */
			vrele(vp);
			vput(dp);
			return EINVAL;
		}
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

last_dotdot_root:
	/* ".." of the root is the root itself. */
	if (op != LOOKUP) {
		vrele(dp);
		return EINVAL;
	}
	ndp->ni_vp = dp;
	if (cnp->cn_flags & WANTPARENT) {
		vref(dp);
		ndp->ni_dvp = dp;
	}
	if (cnp->cn_flags & LOCKLEAF)
		vn_lock(dp);
	return 0;
}
