/*
 * Copies into new memory, and the bounded BSD copies: strdup, strndup,
 * strlcpy, strlcat.
 */
#include <stdlib.h>
#include <string.h>

char *
strdup(const char *s)
{
	return strndup(s, strlen(s));
}

char *
strndup(const char *s, size_t n)
{
	char *p;

	n = strnlen(s, n);
	if ((p = malloc(n + 1)) == NULL)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* Copy src into dst of the given size, always terminated; strlen(src). */
size_t
strlcpy(char *dst, const char *src, size_t size)
{
	size_t len;

	len = strlen(src);
	if (size > 0) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

/* Append src to dst of the given size; the length it tried to make. */
size_t
strlcat(char *dst, const char *src, size_t size)
{
	size_t dlen;

	dlen = strnlen(dst, size);
	if (dlen == size)
		return size + strlen(src);
	return dlen + strlcpy(dst + dlen, src, size - dlen);
}
