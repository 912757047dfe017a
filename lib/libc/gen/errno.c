/*
 * errno: set by the system call stubs (sys/cerror.S) and by libc.
 */
#include <errno.h>

int errno;
