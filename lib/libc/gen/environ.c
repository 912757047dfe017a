/*
 * The process's environment and name, which crt0 sets before main.
 * getprogname returns the last component of argv[0], for messages.
 */
#include <stdlib.h>
#include <string.h>

char	**environ;
const char *__progname = "";

const char *
getprogname(void)
{
	const char *p;

	p = strrchr(__progname, '/');
	return p != NULL ? p + 1 : __progname;
}
