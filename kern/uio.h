/*
 * struct uio describes a transfer between a file or device and memory,
 * in user or kernel space (4.4BSD).  uiomove() moves data and advances it.
 */
#ifndef _KERN_UIO_H_
#define _KERN_UIO_H_

#include <sys/types.h>

struct iovec {
	void	*iov_base;
	size_t	 iov_len;
};

enum uio_rw { UIO_READ, UIO_WRITE };
enum uio_seg { UIO_USERSPACE, UIO_SYSSPACE };

struct uio {
	struct iovec *uio_iov;
	int	uio_iovcnt;
	off_t	uio_offset;
	int	uio_resid;		/* bytes left to move */
	enum uio_seg uio_segflg;
	enum uio_rw uio_rw;
};

int	uiomove(void *kaddr, int n, struct uio *uio);
/* uio as one buffer, base[0..len), with iov its only iovec */
void	uio_setup1(struct uio *uio, struct iovec *iov, void *base, int len,
	    off_t offset, enum uio_seg seg, enum uio_rw rw);

/* user memory access; each returns 0 or EFAULT, never faults the kernel */
int	copyin(const void *uaddr, void *kaddr, size_t len);
int	copyout(const void *kaddr, void *uaddr, size_t len);
int	copyinstr(const void *uaddr, char *kaddr, size_t len, size_t *done);
int	copyoutstr(const char *kaddr, void *uaddr, size_t len, size_t *done);

#endif
