/*
 * perror(3): "string: error message" on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

void
perror(const char *s)
{
	const char *msg;

	msg = strerror(errno);
	if (s != NULL && *s != '\0')
		fprintf(stderr, "%s: %s\n", s, msg);
	else
		fprintf(stderr, "%s\n", msg);
}
