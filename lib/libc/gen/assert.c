/*
 * The failure half of assert(3): say which assertion failed, and abort.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

void
__assert(const char *func, const char *file, int line, const char *expr)
{
	fprintf(stderr, "assertion \"%s\" failed: file \"%s\", line %d, "
	    "function \"%s\"\n", expr, file, line, func);
	abort();
}
