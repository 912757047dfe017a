/*
 * lseek(2): the trap takes a pad word before the 64-bit offset (4.4BSD
 * kept 64-bit arguments aligned this way) and returns the new offset in
 * %edx:%eax.
 */
#include <unistd.h>

off_t	__sys_lseek(int, int, off_t, int);

off_t
lseek(int fd, off_t offset, int whence)
{
	return __sys_lseek(fd, 0, offset, whence);
}
