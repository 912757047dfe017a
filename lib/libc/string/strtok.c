/*
 * Splitting strings: strsep (empty fields kept), strtok and strtok_r
 * (runs of separators skipped).
 */
#include <string.h>

char *
strsep(char **stringp, const char *delim)
{
	char *s, *end;

	if ((s = *stringp) == NULL)
		return NULL;
	end = s + strcspn(s, delim);
	if (*end == '\0')
		*stringp = NULL;
	else {
		*end = '\0';
		*stringp = end + 1;
	}
	return s;
}

char *
strtok_r(char *s, const char *delim, char **last)
{
	char *tok;

	if (s == NULL && (s = *last) == NULL)
		return NULL;
	s += strspn(s, delim);
	if (*s == '\0') {
		*last = NULL;
		return NULL;
	}
	tok = s;
	s += strcspn(s, delim);
	if (*s != '\0')
		*s++ = '\0';
	*last = s;
	return tok;
}

char *
strtok(char *s, const char *delim)
{
	static char *last;

	return strtok_r(s, delim, &last);
}
