/*
 * errno: the error numbers come from the kernel's <sys/errno.h>; libc's
 * system call stubs store the kernel's error in errno and return -1.
 */
#ifndef _ERRNO_H_
#define _ERRNO_H_

#include <sys/errno.h>

extern int errno;

#endif
