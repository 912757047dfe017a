/*
 * File-system system calls on path names and descriptors (4.4BSD
 * vfs_syscalls.c): each turns its arguments into a namei() and vnode
 * operations; the errno values are 4.4BSD's.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/namei.h"
#include "kern/file.h"
#include "kern/proc.h"
#include "kern/uio.h"
#include "kern/malloc.h"
#include "kern/syscallargs.h"
#include <sys/fcntl.h>
#include <sys/stat.h>
#include <sys/param.h>

/* namei() buffers are large: take them from the heap, not the stack. */
static struct nameidata *
ndalloc(void)
{
	return malloc(sizeof(struct nameidata), M_WAITOK);
}

static int
rofs(struct vnode *vp)
{
	return vp->v_mount && (vp->v_mount->mnt_flag & MNT_RDONLY) ? EROFS : 0;
}

/* The vnode an open descriptor names, referenced. */
static int
getvnode(struct proc *p, int fd, struct vnode **vpp)
{
	struct file *fp;
	int error;

	if ((error = getfile(p, fd, &fp)) != 0)
		return error;
	if (fp->f_type != DTYPE_VNODE)
		return EINVAL;
	*vpp = fp->f_data;
	vref(*vpp);
	return 0;
}

int
sys_open(struct proc *p, struct open_args *uap, int *retval)
{
	struct nameidata *nd;
	struct file *fp;
	int fd, error, flags = FFLAGS(uap->flags);

	if ((error = fdalloc(p, 0, &fd)) != 0)
		return error;
	if ((fp = falloc()) == NULL)
		return ENFILE;
	nd = ndalloc();
	nd->ni_segflg = UIO_USERSPACE;
	nd->ni_dirp = uap->path;
	error = vn_open(nd, flags, uap->mode);
	if (error == 0) {
		fp->f_flag = flags & FMASK;
		fp->f_type = DTYPE_VNODE;
		fp->f_ops = &vnops;
		fp->f_data = nd->ni_vp;
		/* another thread of this process cannot have taken fd */
		p->p_fd[fd] = fp;
		p->p_fdflags[fd] = 0;
		*retval = fd;
	} else {
		fp->f_ops = NULL;
		closef(fp);
	}
	free(nd);
	return error;
}

int
sys_mknod(struct proc *p, struct mknod_args *uap, int *retval)
{
	struct nameidata *nd;
	struct vattr va;
	int error;

	if ((error = suser(p)) != 0)
		return error;
	nd = ndalloc();
	NDINIT(nd, CREATE, LOCKPARENT, UIO_USERSPACE, uap->path);
	if ((error = namei(nd)) != 0)
		goto out;
	if (nd->ni_vp != NULL) {
		vrele(nd->ni_vp);
		vput(nd->ni_dvp);
		error = EEXIST;
		goto out;
	}
	vattr_null(&va);
	va.va_mode = uap->mode & ~p->p_umask & 07777;
	va.va_rdev = uap->dev;
	va.va_type = iftovt(uap->mode);
	if (va.va_type != VCHR && va.va_type != VBLK && va.va_type != VFIFO) {
		vput(nd->ni_dvp);
		error = EINVAL;
		goto out;
	}
	error = VOP_MKNOD(nd->ni_dvp, &nd->ni_vp, &nd->ni_cnd, &va);
	vput(nd->ni_dvp);
	if (error == 0)
		vrele(nd->ni_vp);
out:
	free(nd);
	return error;
}

int
sys_link(struct proc *p, struct link_args *uap, int *retval)
{
	struct nameidata *nd = ndalloc();
	struct vnode *vp;
	int error;

	NDINIT(nd, LOOKUP, FOLLOW, UIO_USERSPACE, uap->path);
	if ((error = namei(nd)) != 0)
		goto out;
	vp = nd->ni_vp;
	if (vp->v_type == VDIR) {
		vrele(vp);
		error = EPERM;		/* no links to directories */
		goto out;
	}
	NDINIT(nd, CREATE, LOCKPARENT, UIO_USERSPACE, uap->link);
	if ((error = namei(nd)) != 0) {
		vrele(vp);
		goto out;
	}
	if (nd->ni_vp != NULL) {
		vrele(nd->ni_vp);
		error = EEXIST;
	} else if (nd->ni_dvp->v_mount != vp->v_mount)
		error = EXDEV;
	else {
		vn_lock(vp);		/* after its directory, as namei does */
		error = VOP_LINK(nd->ni_dvp, vp, &nd->ni_cnd);
		VOP_UNLOCK(vp);
	}
	vput(nd->ni_dvp);
	vrele(vp);
out:
	free(nd);
	return error;
}

int
sys_symlink(struct proc *p, struct symlink_args *uap, int *retval)
{
	struct nameidata *nd = ndalloc();
	char *target = malloc(MAXPATHLEN, M_WAITOK);
	struct vattr va;
	int error;

	if ((error = copyinstr(uap->path, target, MAXPATHLEN, NULL)) != 0)
		goto out;
	NDINIT(nd, CREATE, LOCKPARENT, UIO_USERSPACE, uap->link);
	if ((error = namei(nd)) != 0)
		goto out;
	if (nd->ni_vp != NULL) {
		vrele(nd->ni_vp);
		vput(nd->ni_dvp);
		error = EEXIST;
		goto out;
	}
	vattr_null(&va);
	va.va_type = VLNK;
	va.va_mode = 0777 & ~p->p_umask;
	error = VOP_SYMLINK(nd->ni_dvp, &nd->ni_vp, &nd->ni_cnd, &va, target);
	vput(nd->ni_dvp);
	if (error == 0)
		vrele(nd->ni_vp);
out:
	free(target);
	free(nd);
	return error;
}

/* unlink and rmdir: remove a name, with the checks each needs. */
static int
remove_name(const char *path, int isdir)
{
	struct nameidata *nd = ndalloc();
	struct vnode *vp, *dvp;
	int error;

	NDINIT(nd, DELETE, LOCKPARENT | LOCKLEAF, UIO_USERSPACE, path);
	if ((error = namei(nd)) != 0)
		goto out;
	vp = nd->ni_vp;
	dvp = nd->ni_dvp;
	if (isdir && vp->v_type != VDIR)
		error = ENOTDIR;
	else if (!isdir && vp->v_type == VDIR)
		error = EPERM;		/* 4.4BSD: unlink of a directory */
	else if (vp->v_flag & VROOT)
		error = EBUSY;		/* a mount point's root */
	else if ((error = rofs(vp)) == 0)
		error = isdir ? VOP_RMDIR(dvp, vp, &nd->ni_cnd) :
		    VOP_REMOVE(dvp, vp, &nd->ni_cnd);
	vput(vp);
	vput(dvp);
out:
	free(nd);
	return error;
}

int
sys_unlink(struct proc *p, struct unlink_args *uap, int *retval)
{
	return remove_name(uap->path, 0);
}

int
sys_rmdir(struct proc *p, struct rmdir_args *uap, int *retval)
{
	return remove_name(uap->path, 1);
}

int
sys_mkdir(struct proc *p, struct mkdir_args *uap, int *retval)
{
	struct nameidata *nd = ndalloc();
	struct vattr va;
	int error;

	NDINIT(nd, CREATE, LOCKPARENT, UIO_USERSPACE, uap->path);
	if ((error = namei(nd)) != 0)
		goto out;
	if (nd->ni_vp != NULL) {
		vrele(nd->ni_vp);
		vput(nd->ni_dvp);
		error = EEXIST;
		goto out;
	}
	vattr_null(&va);
	va.va_type = VDIR;
	va.va_mode = uap->mode & 07777 & ~p->p_umask;
	error = VOP_MKDIR(nd->ni_dvp, &nd->ni_vp, &nd->ni_cnd, &va);
	vput(nd->ni_dvp);
	if (error == 0)
		vrele(nd->ni_vp);
out:
	free(nd);
	return error;
}

int
sys_rename(struct proc *p, struct rename_args *uap, int *retval)
{
	struct nameidata *fnd = ndalloc(), *tnd = ndalloc();
	struct vnode *fvp, *fdvp, *tvp, *tdvp;
	int error;

	NDINIT(fnd, DELETE, WANTPARENT, UIO_USERSPACE, uap->from);
	if ((error = namei(fnd)) != 0)
		goto out;
	fvp = fnd->ni_vp;
	fdvp = fnd->ni_dvp;
	NDINIT(tnd, RENAME, WANTPARENT, UIO_USERSPACE, uap->to);
	if ((error = namei(tnd)) != 0) {
		vrele(fvp);
		vrele(fdvp);
		goto out;
	}
	tvp = tnd->ni_vp;
	tdvp = tnd->ni_dvp;
	if (tvp != NULL && fvp->v_type == VDIR && tvp->v_type != VDIR)
		error = ENOTDIR;
	else if (tvp != NULL && fvp->v_type != VDIR && tvp->v_type == VDIR)
		error = EISDIR;
	else if (fvp->v_mount != tdvp->v_mount)
		error = EXDEV;
	else if (fvp == tdvp || (fvp->v_flag & VROOT))
		error = EINVAL;
	else if ((error = rofs(fvp)) == 0 && fvp != tvp) {
		/* The file system checks the rest and drops all four. */
		error = VOP_RENAME(fdvp, fvp, &fnd->ni_cnd, tdvp, tvp,
		    &tnd->ni_cnd);
		goto out;
	}
	vrele(fdvp);
	vrele(fvp);
	vrele(tdvp);
	if (tvp)
		vrele(tvp);
out:
	free(fnd);
	free(tnd);
	return error;
}

/* The vnode a path names, referenced (FOLLOW or not). */
static int
lookup_vp(const char *path, int follow, struct vnode **vpp)
{
	struct nameidata *nd = ndalloc();
	int error;

	NDINIT(nd, LOOKUP, follow, UIO_USERSPACE, path);
	error = namei(nd);
	*vpp = error ? NULL : nd->ni_vp;
	free(nd);
	return error;
}

static int
change_dir(struct proc *p, struct vnode *vp)
{
	int error;

	if (vp->v_type != VDIR)
		error = ENOTDIR;
	else
		error = VOP_ACCESS(vp, VEXEC, &p->p_cred);
	if (error) {
		vrele(vp);
		return error;
	}
	vrele(p->p_cdir);
	p->p_cdir = vp;
	return 0;
}

int
sys_chdir(struct proc *p, struct chdir_args *uap, int *retval)
{
	struct vnode *vp;
	int error;

	if ((error = lookup_vp(uap->path, FOLLOW, &vp)) != 0)
		return error;
	return change_dir(p, vp);
}

int
sys_fchdir(struct proc *p, struct fchdir_args *uap, int *retval)
{
	struct vnode *vp;
	int error;

	if ((error = getvnode(p, uap->fd, &vp)) != 0)
		return error == EINVAL ? ENOTDIR : error;
	return change_dir(p, vp);
}

int
sys_access(struct proc *p, struct access_args *uap, int *retval)
{
	struct ucred cred = p->p_cred;
	struct vnode *vp;
	int error, mode = 0;

	/* access() checks with the real ids. */
	cred.cr_uid = p->p_cred.cr_ruid;
	cred.cr_gid = p->p_cred.cr_rgid;
	if (uap->flags & ~7)
		return EINVAL;
	if ((error = lookup_vp(uap->path, FOLLOW, &vp)) != 0)
		return error;
	if (uap->flags & 4)
		mode |= VREAD;
	if (uap->flags & 2) {
		mode |= VWRITE;
		if ((error = rofs(vp)) == 0 && vp->v_type == VDIR)
			error = 0;
	}
	if (uap->flags & 1)
		mode |= VEXEC;
	if (error == 0 && mode)
		error = VOP_ACCESS(vp, mode, &cred);
	vrele(vp);
	return error;
}

static int
stat_path(const char *path, int follow, struct stat *ub)
{
	struct vnode *vp;
	struct stat sb;
	int error;

	if ((error = lookup_vp(path, follow, &vp)) != 0)
		return error;
	error = vn_stat(vp, &sb);
	vrele(vp);
	return error ? error : copyout(&sb, ub, sizeof(sb));
}

int
sys_stat(struct proc *p, struct stat_args *uap, int *retval)
{
	return stat_path(uap->path, FOLLOW, uap->ub);
}

int
sys_lstat(struct proc *p, struct lstat_args *uap, int *retval)
{
	return stat_path(uap->path, NOFOLLOW, uap->ub);
}

int
sys_readlink(struct proc *p, struct readlink_args *uap, int *retval)
{
	struct vnode *vp;
	struct iovec iov;
	struct uio uio;
	int error;

	if (uap->count < 0)
		return EINVAL;
	if ((error = lookup_vp(uap->path, NOFOLLOW, &vp)) != 0)
		return error;
	if (vp->v_type != VLNK) {
		vrele(vp);
		return EINVAL;
	}
	uio_setup1(&uio, &iov, uap->buf, uap->count, 0, UIO_USERSPACE,
	    UIO_READ);
	error = VOP_READLINK(vp, &uio, &p->p_cred);
	vrele(vp);
	*retval = uap->count - uio.uio_resid;
	return error;
}

/* Change attributes: only the owner (or root) may. */
static int
setattr_vp(struct proc *p, struct vnode *vp, struct vattr *va)
{
	int error;

	if ((error = rofs(vp)) == 0)
		error = VOP_SETATTR(vp, va, &p->p_cred);
	vrele(vp);
	return error;
}

/* chmod and fchmod: set the permission bits. */
static int
chmod_vp(struct proc *p, struct vnode *vp, int mode)
{
	struct vattr va;

	vattr_null(&va);
	va.va_mode = mode & 07777;
	return setattr_vp(p, vp, &va);
}

/* chown and fchown: set the owner and group (-1 keeps one). */
static int
chown_vp(struct proc *p, struct vnode *vp, uid_t uid, gid_t gid)
{
	struct vattr va;

	vattr_null(&va);
	va.va_uid = uid;
	va.va_gid = gid;
	return setattr_vp(p, vp, &va);
}

int
sys_chmod(struct proc *p, struct chmod_args *uap, int *retval)
{
	struct vnode *vp;
	int error;

	if ((error = lookup_vp(uap->path, FOLLOW, &vp)) != 0)
		return error;
	return chmod_vp(p, vp, uap->mode);
}

int
sys_fchmod(struct proc *p, struct fchmod_args *uap, int *retval)
{
	struct vnode *vp;
	int error;

	if ((error = getvnode(p, uap->fd, &vp)) != 0)
		return error;
	return chmod_vp(p, vp, uap->mode);
}

/* chflags and fchflags: set the file's flags (sys/stat.h: UF_TXN). */
static int
chflags_vp(struct proc *p, struct vnode *vp, u_int32_t flags)
{
	struct vattr va;

	if (flags == (u_int32_t)VNOVAL) {
		vrele(vp);
		return EINVAL;
	}
	vattr_null(&va);
	va.va_flags = flags;
	return setattr_vp(p, vp, &va);
}

int
sys_chflags(struct proc *p, struct chflags_args *uap, int *retval)
{
	struct vnode *vp;
	int error;

	if ((error = lookup_vp(uap->path, FOLLOW, &vp)) != 0)
		return error;
	return chflags_vp(p, vp, uap->flags);
}

int
sys_fchflags(struct proc *p, struct fchflags_args *uap, int *retval)
{
	struct vnode *vp;
	int error;

	if ((error = getvnode(p, uap->fd, &vp)) != 0)
		return error;
	return chflags_vp(p, vp, uap->flags);
}

int
sys_chown(struct proc *p, struct chown_args *uap, int *retval)
{
	struct vnode *vp;
	int error;

	if ((error = lookup_vp(uap->path, FOLLOW, &vp)) != 0)
		return error;
	return chown_vp(p, vp, uap->uid, uap->gid);
}

int
sys_fchown(struct proc *p, struct fchown_args *uap, int *retval)
{
	struct vnode *vp;
	int error;

	if ((error = getvnode(p, uap->fd, &vp)) != 0)
		return error;
	return chown_vp(p, vp, uap->uid, uap->gid);
}

int
sys_utimes(struct proc *p, struct utimes_args *uap, int *retval)
{
	struct timeval tv[2];
	struct vnode *vp;
	struct vattr va;
	int error;

	if (uap->tptr == NULL) {
		microtime(&tv[0]);
		tv[1] = tv[0];
	} else if ((error = copyin(uap->tptr, tv, sizeof(tv))) != 0)
		return error;
	if ((error = lookup_vp(uap->path, FOLLOW, &vp)) != 0)
		return error;
	vattr_null(&va);
	va.va_atime.tv_sec = tv[0].tv_sec;
	va.va_atime.tv_nsec = tv[0].tv_usec * 1000;
	va.va_mtime.tv_sec = tv[1].tv_sec;
	va.va_mtime.tv_nsec = tv[1].tv_usec * 1000;
	if (uap->tptr == NULL)
		va.va_vaflags |= VA_UTIMES_NULL;
	return setattr_vp(p, vp, &va);
}

static int
truncate_vp(struct proc *p, struct vnode *vp, off_t length)
{
	struct vattr va;
	int error;

	if (length < 0)
		error = EINVAL;
	else if (vp->v_type == VDIR)
		error = EISDIR;
	else if (vp->v_type != VREG)
		error = EINVAL;
	else if ((error = VOP_ACCESS(vp, VWRITE, &p->p_cred)) == 0) {
		vattr_null(&va);
		va.va_size = length;
		return setattr_vp(p, vp, &va);
	}
	vrele(vp);
	return error;
}

int
sys_truncate(struct proc *p, struct truncate_args *uap, int *retval)
{
	struct vnode *vp;
	int error;

	if ((error = lookup_vp(uap->path, FOLLOW, &vp)) != 0)
		return error;
	return truncate_vp(p, vp, uap->length);
}

int
sys_ftruncate(struct proc *p, struct ftruncate_args *uap, int *retval)
{
	struct file *fp;
	int error;

	if ((error = getfile(p, uap->fd, &fp)) != 0)
		return error;
	if (fp->f_type != DTYPE_VNODE || !(fp->f_flag & FWRITE))
		return EINVAL;
	vref(fp->f_data);
	return truncate_vp(p, fp->f_data, uap->length);
}

/* sync(): start writing every file system's dirty data; do not wait. */
int
sys_sync(struct proc *p, void *uap, int *retval)
{
	vfs_sync_all();
	return 0;
}

int
sys_fsync(struct proc *p, struct fsync_args *uap, int *retval)
{
	struct vnode *vp;
	int error;

	if ((error = getvnode(p, uap->fd, &vp)) != 0)
		return error;
	error = VOP_FSYNC(vp, 1);
	vrele(vp);
	return error;
}

int
sys_lseek(struct proc *p, struct lseek_args *uap, int *retval)
{
	struct file *fp;
	struct vattr va;
	off_t off;
	int error;

	if ((error = getfile(p, uap->fd, &fp)) != 0)
		return error;
	if (fp->f_type != DTYPE_VNODE)
		return ESPIPE;
	switch (uap->whence) {
	case 0:
		off = uap->offset;
		break;
	case 1:
		off = fp->f_offset + uap->offset;
		break;
	case 2:
		if ((error = VOP_GETATTR((struct vnode *)fp->f_data, &va)) != 0)
			return error;
		off = va.va_size + uap->offset;
		break;
	default:
		return EINVAL;
	}
	if (off < 0)
		return EINVAL;
	fp->f_offset = off;
	retval[0] = (u_int32_t)off;
	retval[1] = (u_int32_t)(off >> 32);
	return 0;
}

int
sys_getdirentries(struct proc *p, struct getdirentries_args *uap, int *retval)
{
	struct file *fp;
	struct vnode *vp;
	struct iovec iov;
	struct uio uio;
	long base;
	int error;

	if ((error = getfile(p, uap->fd, &fp)) != 0)
		return error;
	if (fp->f_type != DTYPE_VNODE || !(fp->f_flag & FREAD))
		return EBADF;
	vp = fp->f_data;
	if (vp->v_type != VDIR)
		return EINVAL;
	uio_setup1(&uio, &iov, uap->buf, uap->count, fp->f_offset,
	    UIO_USERSPACE, UIO_READ);
	base = fp->f_offset;
	error = VOP_READDIR(vp, &uio, &p->p_cred);
	fp->f_offset = uio.uio_offset;
	if (error)
		return error;
	if (uap->basep && (error = copyout(&base, uap->basep, sizeof(base))))
		return error;
	*retval = uap->count - uio.uio_resid;
	return 0;
}

int
sys_umask(struct proc *p, struct umask_args *uap, int *retval)
{
	*retval = p->p_umask;
	p->p_umask = uap->newmask & 0777;
	return 0;
}
