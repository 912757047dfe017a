/*
 * pwrite(2): the trap takes a pad word before the 64-bit offset, as
 * lseek's does (lseek.c).
 */
#include <unistd.h>

ssize_t	__sys_pwrite(int, const void *, size_t, int, off_t);

ssize_t
pwrite(int fd, const void *buf, size_t nbyte, off_t offset)
{
	return __sys_pwrite(fd, buf, nbyte, 0, offset);
}
