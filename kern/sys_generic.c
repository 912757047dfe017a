/*
 * read, write and ioctl: the calls that work on any kind of descriptor;
 * and pread and pwrite, read and write at an offset of a file or device.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/file.h"
#include "kern/proc.h"
#include "kern/uio.h"
#include "kern/malloc.h"
#include "kern/syscallargs.h"
#include <sys/ioctl.h>

/*
 * A read or write of nbyte bytes at buf: at the descriptor's offset,
 * which moves on (at NULL), or at *at, which leaves it alone (pread,
 * pwrite: one call where lseek and read took two; not on a pipe).
 */
static int
rw(struct proc *p, int fd, void *buf, u_int nbyte, const off_t *at,
    enum uio_rw dir, int *retval)
{
	struct file *fp;
	struct iovec iov;
	struct uio uio;
	int error;

	if ((error = getfile(p, fd, &fp)) != 0)
		return error;
	if (!(fp->f_flag & (dir == UIO_READ ? FREAD : FWRITE)))
		return EBADF;
	if (at != NULL && (fp->f_type != DTYPE_VNODE ||
	    ((struct vnode *)fp->f_data)->v_type == VFIFO))
		return ESPIPE;
	if ((int)nbyte < 0 || (at != NULL && *at < 0))
		return EINVAL;
	uio_setup1(&uio, &iov, buf, nbyte, at != NULL ? *at : 0,
	    UIO_USERSPACE, dir);
	fp->f_count++;		/* hold it across a sleep */
	if (at != NULL)
		error = vn_rdwr_at(fp, &uio);
	else
		error = dir == UIO_READ ? fp->f_ops->fo_read(fp, &uio) :
		    fp->f_ops->fo_write(fp, &uio);
	/* A transfer cut short by a signal still reports what moved. */
	if (error && uio.uio_resid != (int)nbyte &&
	    (error == ERESTART || error == EINTR || error == EWOULDBLOCK))
		error = 0;
	if (error == EPIPE)
		psignal(p, SIGPIPE);
	*retval = nbyte - uio.uio_resid;
	closef(fp);
	return error;
}

int
sys_read(struct proc *p, struct read_args *uap, int *retval)
{
	return rw(p, uap->fd, uap->buf, uap->nbyte, NULL, UIO_READ, retval);
}

int
sys_write(struct proc *p, struct write_args *uap, int *retval)
{
	return rw(p, uap->fd, (void *)uap->buf, uap->nbyte, NULL, UIO_WRITE,
	    retval);
}

int
sys_pread(struct proc *p, struct pread_args *uap, int *retval)
{
	return rw(p, uap->fd, uap->buf, uap->nbyte, &uap->offset, UIO_READ,
	    retval);
}

int
sys_pwrite(struct proc *p, struct pwrite_args *uap, int *retval)
{
	return rw(p, uap->fd, (void *)uap->buf, uap->nbyte, &uap->offset,
	    UIO_WRITE, retval);
}

/*
 * ioctl: the command encodes the argument's size and direction (4.4BSD
 * _IOR/_IOW), so the data is copied in and out here, once.
 */
#define IOCPARM_LEN(x)	(((x) >> 16) & IOCPARM_MASK)

int
sys_ioctl(struct proc *p, struct ioctl_args *uap, int *retval)
{
	struct file *fp;
	u_int size = IOCPARM_LEN(uap->com);
	char stackbuf[64], *data = stackbuf;
	int error;

	if ((error = getfile(p, uap->fd, &fp)) != 0)
		return error;
	if (!(fp->f_flag & (FREAD | FWRITE)))
		return EBADF;
	if (size > 4096)
		return ENOTTY;
	if (size > sizeof(stackbuf))
		data = malloc(size, M_WAITOK | M_ZERO);
	else
		memset(stackbuf, 0, sizeof(stackbuf));
	if ((uap->com & IOC_IN) && size)
		error = copyin(uap->data, data, size);
	if (error == 0)
		error = fp->f_ops->fo_ioctl(fp, uap->com, data);
	if (error == 0 && (uap->com & IOC_OUT) && size)
		error = copyout(data, uap->data, size);
	if (data != stackbuf)
		free(data);
	return error;
}
