/*
 * Limits of the C types on i386 (ILP32), and the POSIX names for the
 * kernel's limits.
 */
#ifndef _LIMITS_H_
#define _LIMITS_H_

#define CHAR_BIT	8
#define SCHAR_MIN	(-0x7f - 1)
#define SCHAR_MAX	0x7f
#define UCHAR_MAX	0xff
#define CHAR_MIN	SCHAR_MIN
#define CHAR_MAX	SCHAR_MAX
#define SHRT_MIN	(-0x7fff - 1)
#define SHRT_MAX	0x7fff
#define USHRT_MAX	0xffff
#define INT_MIN		(-0x7fffffff - 1)
#define INT_MAX		0x7fffffff
#define UINT_MAX	0xffffffffU
#define LONG_MIN	(-0x7fffffffL - 1)
#define LONG_MAX	0x7fffffffL
#define ULONG_MAX	0xffffffffUL
#define LLONG_MIN	(-0x7fffffffffffffffLL - 1)
#define LLONG_MAX	0x7fffffffffffffffLL
#define ULLONG_MAX	0xffffffffffffffffULL
#define SSIZE_MAX	INT_MAX

#define PATH_MAX	1024	/* MAXPATHLEN in <sys/param.h> */
#define NAME_MAX	255	/* MAXNAMLEN in <sys/dirent.h> */
#define ARG_MAX		(64 * 1024)
#define OPEN_MAX	64	/* NOFILE */
#define NGROUPS_MAX	16
#define PIPE_BUF	512

#endif
