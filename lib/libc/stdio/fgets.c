/*
 * Line input: fgets and getline.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *
fgets(char *buf, int n, FILE *fp)
{
	char *s;
	int c;

	if (n <= 0)
		return NULL;
	s = buf;
	while (--n > 0) {
		if ((c = getc(fp)) == EOF) {
			if (s == buf)
				return NULL;
			break;
		}
		*s++ = c;
		if (c == '\n')
			break;
	}
	*s = '\0';
	return buf;
}

/* Read a whole line, newline included, into a buffer that grows. */
ssize_t
getline(char **linep, size_t *sizep, FILE *fp)
{
	size_t len;
	char *p;
	int c;

	if (*linep == NULL)
		*sizep = 0;
	len = 0;
	for (;;) {
		if (len + 2 > *sizep) {
			size_t nsize = *sizep < 64 ? 128 : *sizep * 2;

			if ((p = realloc(*linep, nsize)) == NULL)
				return -1;
			*linep = p;
			*sizep = nsize;
		}
		if ((c = getc(fp)) == EOF)
			break;
		(*linep)[len++] = c;
		if (c == '\n')
			break;
	}
	(*linep)[len] = '\0';
	return len > 0 ? (ssize_t)len : -1;
}
