/*
 * Case-insensitive comparison (ASCII).
 */
#include <ctype.h>
#include <strings.h>

int
strcasecmp(const char *s1, const char *s2)
{
	return strncasecmp(s1, s2, (size_t)-1);
}

int
strncasecmp(const char *s1, const char *s2, size_t n)
{
	int c1, c2;

	for (; n > 0; n--) {
		c1 = tolower((unsigned char)*s1++);
		c2 = tolower((unsigned char)*s2++);
		if (c1 != c2)
			return c1 - c2;
		if (c1 == '\0')
			break;
	}
	return 0;
}
