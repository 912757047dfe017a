/*
 * What a file-system tool does when it cannot go on, shared by newfs,
 * newfs_lfs, fsck_ffs, fsck_lfs and dumplfs (lib/fsutil/fsutil.c).
 */
#ifndef _FSUTIL_FSUTIL_H_
#define _FSUTIL_FSUTIL_H_

#include <sys/types.h>

/* fatal()'s exit status: 1 unless the tool has its own (fsck's). */
extern int fsutil_exitstatus;

/* "tool: message" on stderr, then exit(fsutil_exitstatus). */
void	fatal(const char *fmt, ...)
	    __attribute__((__noreturn__, __format__(__printf__, 1, 2)));

/* Zeroed memory, or fatal(): a tool has nothing to do without it. */
void	*emalloc(size_t n);
char	*estrdup(const char *s);

#endif
