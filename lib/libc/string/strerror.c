/*
 * strerror(3): the 4.4BSD messages for the errno values in <sys/errno.h>.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const errlist[ELAST + 1] = {
	[0] = "Undefined error: 0",
	[EPERM] = "Operation not permitted",
	[ENOENT] = "No such file or directory",
	[ESRCH] = "No such process",
	[EINTR] = "Interrupted system call",
	[EIO] = "Input/output error",
	[ENXIO] = "Device not configured",
	[E2BIG] = "Argument list too long",
	[ENOEXEC] = "Exec format error",
	[EBADF] = "Bad file descriptor",
	[ECHILD] = "No child processes",
	[EDEADLK] = "Resource deadlock avoided",
	[ENOMEM] = "Cannot allocate memory",
	[EACCES] = "Permission denied",
	[EFAULT] = "Bad address",
	[ENOTBLK] = "Block device required",
	[EBUSY] = "Device busy",
	[EEXIST] = "File exists",
	[EXDEV] = "Cross-device link",
	[ENODEV] = "Operation not supported by device",
	[ENOTDIR] = "Not a directory",
	[EISDIR] = "Is a directory",
	[EINVAL] = "Invalid argument",
	[ENFILE] = "Too many open files in system",
	[EMFILE] = "Too many open files",
	[ENOTTY] = "Inappropriate ioctl for device",
	[ETXTBSY] = "Text file busy",
	[EFBIG] = "File too large",
	[ENOSPC] = "No space left on device",
	[ESPIPE] = "Illegal seek",
	[EROFS] = "Read-only file system",
	[EMLINK] = "Too many links",
	[EPIPE] = "Broken pipe",
	[EDOM] = "Numerical argument out of domain",
	[ERANGE] = "Result too large",
	[EAGAIN] = "Resource temporarily unavailable",
	[EINPROGRESS] = "Operation now in progress",
	[EALREADY] = "Operation already in progress",
	[ENOTSOCK] = "Socket operation on non-socket",
	[EOPNOTSUPP] = "Operation not supported",
	[ETIMEDOUT] = "Operation timed out",
	[ELOOP] = "Too many levels of symbolic links",
	[ENAMETOOLONG] = "File name too long",
	[ENOTEMPTY] = "Directory not empty",
	[EPROCLIM] = "Too many processes",
	[EUSERS] = "Too many users",
	[EDQUOT] = "Disc quota exceeded",
	[ESTALE] = "Stale NFS file handle",
	[ENOLCK] = "No locks available",
	[ENOSYS] = "Function not implemented",
	[ENOBUFS] = "No buffer space available",
	[EFTYPE] = "Inappropriate file type or format",
	[ETXNABORT] = "Transaction aborted",
};

char *
strerror(int num)
{
	static char buf[32];

	if (num >= 0 && num <= ELAST && errlist[num] != NULL)
		return (char *)errlist[num];
	snprintf(buf, sizeof(buf), "Unknown error: %d", num);
	return buf;
}
