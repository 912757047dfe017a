/*
 * What a file-system tool does when it cannot go on (one source for the
 * guest and the host): fatal() names the tool, says why and exits, and
 * the allocators call it rather than hand back NULL, since a tool that
 * cannot get memory for its tables cannot check or build anything.
 */
#include <sys/types.h>
#include <err.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsutil/fsutil.h"

int fsutil_exitstatus = 1;

void
fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrx(fsutil_exitstatus, fmt, ap);
}

void *
emalloc(size_t n)
{
	void *p;

	/* malloc(0) may be NULL, which is no failure: ask for a byte. */
	if ((p = malloc(n ? n : 1)) == NULL)
		fatal("out of memory (%lu bytes)", (unsigned long)n);
	memset(p, 0, n);
	return (p);
}

char *
estrdup(const char *s)
{
	char *p;

	p = emalloc(strlen(s) + 1);
	strcpy(p, s);
	return (p);
}
