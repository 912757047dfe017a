/*
 * Files that are vnodes: open, the file operations behind a descriptor,
 * and vn_rdwr for kernel reads and writes (exec, symlinks).
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/namei.h"
#include "kern/file.h"
#include "kern/proc.h"
#include "kern/uio.h"
#include "kern/conf.h"
#include <sys/fcntl.h>
#include <sys/poll.h>
#include <sys/stat.h>

/*
 * Open (and with O_CREAT create) the file ndp names; fmode is FREAD,
 * FWRITE and the O_ flags.  Returns the vnode referenced and unlocked.
 */
int
vn_open(struct nameidata *ndp, int fmode, int cmode)
{
	struct proc *p = curproc;
	struct ucred *cred = &p->p_cred;
	struct vnode *vp;
	struct vattr va;
	int error, mode;

	if (fmode & O_CREAT) {
		NDINIT(ndp, CREATE, LOCKPARENT | FOLLOW, ndp->ni_segflg,
		    ndp->ni_dirp);
		if ((error = namei(ndp)) != 0)
			return error;
		if (ndp->ni_vp == NULL) {
			vattr_null(&va);
			va.va_type = VREG;
			va.va_mode = cmode & ~p->p_umask & 07777;
			error = VOP_CREATE(ndp->ni_dvp, &ndp->ni_vp,
			    &ndp->ni_cnd, &va);
			vput(ndp->ni_dvp);
			if (error)
				return error;
			fmode &= ~O_TRUNC;
			vp = ndp->ni_vp;
			goto opened;
		}
		vput(ndp->ni_dvp);
		if (fmode & O_EXCL) {
			vrele(ndp->ni_vp);
			return EEXIST;
		}
		vp = ndp->ni_vp;
	} else {
		NDINIT(ndp, LOOKUP, FOLLOW, ndp->ni_segflg, ndp->ni_dirp);
		if ((error = namei(ndp)) != 0)
			return error;
		vp = ndp->ni_vp;
	}
	if (vp->v_type == VSOCK) {
		error = EOPNOTSUPP;
		goto bad;
	}
	mode = 0;
	if (fmode & FREAD)
		mode |= VREAD;
	if (fmode & (FWRITE | O_TRUNC)) {
		mode |= VWRITE;
		if (vp->v_type == VDIR) {
			error = EISDIR;
			goto bad;
		}
		if (vp->v_mount && (vp->v_mount->mnt_flag & MNT_RDONLY) &&
		    vp->v_type != VCHR && vp->v_type != VBLK) {
			error = EROFS;
			goto bad;
		}
	}
	if (mode && (error = VOP_ACCESS(vp, mode, cred)) != 0)
		goto bad;
	if (fmode & O_TRUNC) {
		vattr_null(&va);
		va.va_size = 0;
		if ((error = VOP_SETATTR(vp, &va, cred)) != 0)
			goto bad;
	}
opened:
	if ((error = VOP_OPEN(vp, fmode, cred)) != 0)
		goto bad;
	ndp->ni_vp = vp;
	return 0;
bad:
	vrele(vp);
	return error;
}

static int
vn_read(struct file *fp, struct uio *uio)
{
	struct vnode *vp = fp->f_data;
	int error, count = uio->uio_resid;

	uio->uio_offset = fp->f_offset;
	error = VOP_READ(vp, uio, (fp->f_flag & O_NONBLOCK) ? IO_NDELAY : 0,
	    &curproc->p_cred);
	fp->f_offset += count - uio->uio_resid;
	return error;
}

static int
vn_write(struct file *fp, struct uio *uio)
{
	struct vnode *vp = fp->f_data;
	int error, ioflag = IO_UNIT, count = uio->uio_resid;

	if ((fp->f_flag & O_APPEND) && vp->v_type == VREG)
		ioflag |= IO_APPEND;
	if (fp->f_flag & O_FSYNC)
		ioflag |= IO_SYNC;
	uio->uio_offset = fp->f_offset;
	error = VOP_WRITE(vp, uio, ioflag, &curproc->p_cred);
	if (ioflag & IO_APPEND)
		fp->f_offset = uio->uio_offset;
	else
		fp->f_offset += count - uio->uio_resid;
	return error;
}

/* pread, pwrite: at uio's offset; the descriptor's stays where it is. */
int
vn_rdwr_at(struct file *fp, struct uio *uio)
{
	struct vnode *vp = fp->f_data;
	int ioflag = IO_UNIT;

	if (uio->uio_rw == UIO_READ)
		return VOP_READ(vp, uio, (fp->f_flag & O_NONBLOCK) ?
		    IO_NDELAY : 0, &curproc->p_cred);
	if ((fp->f_flag & O_APPEND) && vp->v_type == VREG)
		ioflag |= IO_APPEND;	/* as write(2) would (POSIX) */
	if (fp->f_flag & O_FSYNC)
		ioflag |= IO_SYNC;
	return VOP_WRITE(vp, uio, ioflag, &curproc->p_cred);
}

int
vn_stat(struct vnode *vp, struct stat *sb)
{
	struct vattr va;
	int error;

	if ((error = VOP_GETATTR(vp, &va)) != 0)
		return error;
	memset(sb, 0, sizeof(*sb));
	sb->st_dev = va.va_fsid;
	sb->st_ino = va.va_fileid;
	sb->st_mode = va.va_mode | vttoif(vp->v_type);
	sb->st_nlink = va.va_nlink;
	sb->st_uid = va.va_uid;
	sb->st_gid = va.va_gid;
	sb->st_rdev = va.va_rdev;
	sb->st_size = va.va_size;
	sb->st_atimespec = va.va_atime;
	sb->st_mtimespec = va.va_mtime;
	sb->st_ctimespec = va.va_ctime;
	sb->st_blksize = va.va_blocksize;
	sb->st_flags = va.va_flags;
	sb->st_gen = va.va_gen;
	sb->st_blocks = va.va_bytes / DEV_BSIZE;
	return 0;
}

static int
vn_statfile(struct file *fp, struct stat *sb)
{
	return vn_stat(fp->f_data, sb);
}

static int
vn_ioctl(struct file *fp, u_long com, caddr_t data)
{
	struct vnode *vp = fp->f_data;

	if (vp->v_type == VCHR || vp->v_type == VBLK)
		return VOP_IOCTL(vp, com, data, fp->f_flag, &curproc->p_cred);
	return ENOTTY;
}

static int
vn_closefile(struct file *fp)
{
	struct vnode *vp = fp->f_data;
	int error;

	error = VOP_CLOSE(vp, fp->f_flag, &curproc->p_cred);
	vrele(vp);
	return error;
}

/* A device answers for itself; a file or a disk is always ready. */
static int
vn_poll(struct file *fp, int events)
{
	struct vnode *vp = fp->f_data;

	if (vp->v_type == VCHR && major(vp->v_rdev) < ncdev &&
	    cdevsw[major(vp->v_rdev)].d_poll != NULL)
		return cdevsw[major(vp->v_rdev)].d_poll(vp->v_rdev, events);
	return events & (POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM);
}

const struct fileops vnops = {
	vn_read, vn_write, vn_ioctl, vn_statfile, vn_closefile, vn_poll
};

/* Read or write len bytes of a vnode at offset, from kernel or user memory. */
int
vn_rdwr(int rw, struct vnode *vp, void *base, int len, off_t offset,
    int segflg, int ioflag, struct ucred *cred, int *aresid)
{
	struct iovec iov;
	struct uio uio;
	int error;

	uio_setup1(&uio, &iov, base, len, offset, segflg, rw);
	if (rw == UIO_READ)
		error = VOP_READ(vp, &uio, ioflag, cred);
	else
		error = VOP_WRITE(vp, &uio, ioflag, cred);
	if (aresid)
		*aresid = uio.uio_resid;
	else if (uio.uio_resid && error == 0)
		error = EIO;
	return error;
}
