/*
 * pread(2): the trap takes a pad word before the 64-bit offset, as
 * lseek's does (lseek.c).
 */
#include <unistd.h>

ssize_t	__sys_pread(int, void *, size_t, int, off_t);

ssize_t
pread(int fd, void *buf, size_t nbyte, off_t offset)
{
	return __sys_pread(fd, buf, nbyte, 0, offset);
}
