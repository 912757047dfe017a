/*
 * remove(3): unlink a file, or remove an empty directory.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

int
remove(const char *path)
{
	if (unlink(path) == 0)
		return 0;
	if (errno == EPERM || errno == EISDIR)
		return rmdir(path);
	return -1;
}
