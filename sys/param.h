/*
 * System-wide limits, shared by kernel and userland.
 */
#ifndef _SYS_PARAM_H_
#define _SYS_PARAM_H_

#include <sys/types.h>

#define MAXPATHLEN	1024	/* longest path, with its NUL */
#define MAXSYMLINKS	8	/* symlinks followed in one lookup */
#define ARG_MAX		(64 * 1024)	/* execve argument and environment bytes */
#define NOFILE		64	/* open files per process */
#define NGROUPS		16
#define MAXLOGNAME	12
#define MAXCOMLEN	16	/* process name length */
#define DEV_BSIZE	512	/* sector size */
#define DEV_BSHIFT	9
#define btodb(bytes)	((daddr_t)(bytes) >> DEV_BSHIFT)	/* bytes to sectors */
#define dbtob(db)	((off_t)(db) << DEV_BSHIFT)

#define MIN(a, b)	((a) < (b) ? (a) : (b))
#define MAX(a, b)	((a) > (b) ? (a) : (b))
#define howmany(x, y)	(((x) + ((y) - 1)) / (y))
#define roundup(x, y)	((((x) + ((y) - 1)) / (y)) * (y))
#define powerof2(x)	((((x) - 1) & (x)) == 0)

#endif
