/*
 * Small system queries that need no system call of their own.
 */
#include <fcntl.h>
#include <unistd.h>

int
getpagesize(void)
{
	return 4096;
}

int
getdtablesize(void)
{
	return 64;	/* NOFILE in <sys/param.h> */
}

int
creat(const char *path, mode_t mode)
{
	return open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
}
