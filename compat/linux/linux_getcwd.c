/*
 * getcwd(2): Linux asks the kernel for the current directory's name, and
 * our kernel keeps no names for directories (4.4BSD's libc climbs the
 * tree itself: lib/libc/gen/getcwd.c).  So climb here the same way:
 * from "." through "..", "../..", ..., find each directory in its
 * parent and prepend the entry's name, until ".." is the directory
 * itself (the root, or the process's root directory).  An entry is the
 * child when its vnode is: within one file system the inode number says
 * so at once; across a mount point (the child is a file system's root,
 * its entry the covered directory) each directory entry is looked up.
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/vnode.h"
#include "kern/namei.h"
#include "kern/malloc.h"
#include "kern/uio.h"
#include "compat/linux/linux.h"
#include "compat/linux/linux_syscall.h"
#include <sys/param.h>
#include <sys/stat.h>
#include <sys/dirent.h>

int	vn_stat(struct vnode *, struct stat *);

#define DIRCHUNK	512		/* directory bytes read at a time */

/* A referenced vnode for a path from the current directory (kernel space). */
static int
lookup(const char *path, struct vnode **vpp)
{
	struct nameidata *nd = malloc(sizeof(*nd), M_WAITOK);
	int error;

	NDINIT(nd, LOOKUP, NOFOLLOW, UIO_SYSSPACE, path);
	if ((error = namei(nd)) == 0)
		*vpp = nd->ni_vp;
	free(nd);
	return error;
}

/*
 * Is the entry named name of directory up (a path with room after it)
 * the vnode cvp?  Same file system: compare inode numbers; else look up.
 */
static int
is_child(char *up, const struct dirent *dp, struct vnode *cvp, ino_t ino,
    int samefs)
{
	struct vnode *vp;
	size_t len = strlen(up);
	int match = 0;

	if (samefs)
		return dp->d_fileno == ino;
	if (len + 1 + dp->d_namlen + 1 > MAXPATHLEN)
		return 0;
	up[len] = '/';
	memcpy(up + len + 1, dp->d_name, dp->d_namlen);
	up[len + 1 + dp->d_namlen] = '\0';
	if (lookup(up, &vp) == 0) {
		match = vp == cvp;
		vrele(vp);
	}
	up[len] = '\0';
	return match;
}

/* Find cvp's name in directory pvp (path up); copy it into name. */
static int
find_name(struct vnode *pvp, char *up, struct vnode *cvp, char *name)
{
	char *buf = malloc(DIRCHUNK, M_WAITOK);
	struct stat sb;
	struct iovec iov;
	struct uio uio;
	off_t off = 0;
	int error, n, i;

	if ((error = vn_stat(cvp, &sb)) != 0)
		goto out;
	for (;;) {
		uio_setup1(&uio, &iov, buf, DIRCHUNK, off, UIO_SYSSPACE,
		    UIO_READ);
		if ((error = VOP_READDIR(pvp, &uio, &curproc->p_cred)) != 0)
			goto out;
		if ((n = DIRCHUNK - uio.uio_resid) == 0)
			break;
		off = uio.uio_offset;
		for (i = 0; i < n; ) {
			struct dirent *dp = (struct dirent *)(buf + i);

			if (dp->d_reclen == 0 || i + dp->d_reclen > n)
				break;
			i += dp->d_reclen;
			if (dp->d_fileno == 0 || (dp->d_name[0] == '.' &&
			    (dp->d_namlen == 1 || (dp->d_namlen == 2 &&
			    dp->d_name[1] == '.'))))
				continue;
			if (is_child(up, dp, cvp, sb.st_ino,
			    pvp->v_mount == cvp->v_mount)) {
				memcpy(name, dp->d_name, dp->d_namlen);
				name[dp->d_namlen] = '\0';
				goto out;
			}
		}
	}
	error = ENOENT;			/* removed while we looked */
out:
	free(buf);
	return error;
}

/* getcwd(buf, size): the path and its NUL, whose length is the answer. */
int
linux_sys_getcwd(struct proc *p, const u_int32_t *args, int *rval)
{
	char *up = malloc(MAXPATHLEN, M_WAITOK);
	char *path = malloc(MAXPATHLEN, M_WAITOK);
	char *name = malloc(MAXNAMLEN + 1, M_WAITOK);
	struct vnode *cvp, *pvp;
	size_t start = MAXPATHLEN - 1, uplen, nlen;
	int error;

	path[start] = '\0';
	if ((error = lookup(".", &cvp)) != 0)
		goto out;
	strlcpy(up, "..", MAXPATHLEN);
	for (;;) {
		if ((error = lookup(up, &pvp)) != 0)
			break;
		if (pvp == cvp || cvp == p->p_rdir) {	/* the root */
			vrele(pvp);
			break;
		}
		if ((error = find_name(pvp, up, cvp, name)) != 0) {
			vrele(pvp);
			break;
		}
		nlen = strlen(name);
		uplen = strlen(up);
		if (nlen + 1 > start || uplen + 3 + 1 > MAXPATHLEN) {
			vrele(pvp);
			error = ENAMETOOLONG;
			break;
		}
		start -= nlen;
		memcpy(path + start, name, nlen);
		path[--start] = '/';
		strlcpy(up + uplen, "/..", MAXPATHLEN - uplen);
		vrele(cvp);
		cvp = pvp;
	}
	vrele(cvp);
	if (error == 0) {
		if (path[start] == '\0')
			path[--start] = '/';
		nlen = MAXPATHLEN - start;	/* with the NUL */
		if (nlen > args[1])
			error = ERANGE;
		else if ((error = copyout(path + start, (void *)args[0],
		    nlen)) == 0)
			rval[0] = nlen;
	}
out:
	free(name);
	free(path);
	free(up);
	return error;
}
