/*
 * uiomove: the one place data crosses between a buffer and the memory a
 * struct uio describes, user or kernel; and uio_setup1, which describes
 * the commonest such memory, a single buffer.
 */
#include "kern/systm.h"
#include "kern/emul.h"
#include "kern/uio.h"

int
uiomove(void *kaddr, int n, struct uio *uio)
{
	char *cp = kaddr;
	int error;

	while (n > 0 && uio->uio_resid > 0) {
		struct iovec *iov = uio->uio_iov;
		int cnt = iov->iov_len;

		if (cnt == 0) {
			uio->uio_iov++;
			uio->uio_iovcnt--;
			continue;
		}
		if (cnt > n)
			cnt = n;
		if (uio->uio_segflg == UIO_USERSPACE) {
			error = uio->uio_rw == UIO_READ ?
			    copyout(cp, iov->iov_base, cnt) :
			    copyin(iov->iov_base, cp, cnt);
			if (error)
				return error;
		} else if (uio->uio_rw == UIO_READ)
			memcpy(iov->iov_base, cp, cnt);
		else
			memcpy(cp, iov->iov_base, cnt);
		iov->iov_base = (char *)iov->iov_base + cnt;
		iov->iov_len -= cnt;
		uio->uio_resid -= cnt;
		uio->uio_offset += cnt;
		cp += cnt;
		n -= cnt;
	}
	return 0;
}

/*
 * Most transfers move one piece of memory (read(2), readlink, a kernel
 * read of a file): base[0..len) in user or kernel space, at file offset
 * offset.  The caller owns both structures; iov must live as long as uio.
 */
void
uio_setup1(struct uio *uio, struct iovec *iov, void *base, int len,
    off_t offset, enum uio_seg seg, enum uio_rw rw)
{
	iov->iov_base = base;
	iov->iov_len = len;
	uio->uio_iov = iov;
	uio->uio_iovcnt = 1;
	uio->uio_offset = offset;
	uio->uio_resid = len;
	uio->uio_segflg = seg;
	uio->uio_rw = rw;
}

int
copyoutstr(const char *kaddr, void *uaddr, size_t len, size_t *done)
{
	size_t n = strlen(kaddr) + 1;
	int error;

	if (n > len)
		return ENAMETOOLONG;
	error = copyout(kaddr, uaddr, n);
	if (done)
		*done = n;
	return error;
}

/*
 * Random bytes (an emulation's exec and getrandom): xorshift64* stirred with the
 * microsecond clock on each call.  Unpredictable enough for glibc's
 * stack guard and malloc's tcache keys; not for cryptography.
 */
void
read_random(void *buf, u_int32_t len)
{
	static u_int64_t s = 0x9e3779b97f4a7c15ULL;
	u_int8_t *b = buf;
	u_int64_t x;

	s ^= uptime_us();
	while (len > 0) {
		s ^= s >> 12;
		s ^= s << 25;
		s ^= s >> 27;
		x = s * 0x2545f4914f6cdd1dULL;
		for (int i = 0; i < 8 && len > 0; i++, len--)
			*b++ = x >> (8 * i);
	}
}
