/*
 * truncate(2) and ftruncate(2): like lseek, the trap takes a pad word
 * before the 64-bit length.
 */
#include <unistd.h>

int	__sys_truncate(const char *, int, off_t);
int	__sys_ftruncate(int, int, off_t);

int
truncate(const char *path, off_t length)
{
	return __sys_truncate(path, 0, length);
}

int
ftruncate(int fd, off_t length)
{
	return __sys_ftruncate(fd, 0, length);
}
