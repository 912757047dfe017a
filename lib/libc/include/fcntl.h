/*
 * open(2), creat(2) and fcntl(2); the flag values are the kernel's.
 */
#ifndef _FCNTL_H_
#define _FCNTL_H_

#include <sys/types.h>
#include <sys/fcntl.h>

int	open(const char *, int, ...);
int	creat(const char *, mode_t);
int	fcntl(int, int, ...);

#endif
