/*
 * Memory functions: memcpy, memmove, memset, memcmp, memchr, and the BSD
 * bcopy, bzero, bcmp.  Copies move a word at a time when both pointers
 * are word aligned.
 */
#include <string.h>

typedef unsigned int __attribute__((__may_alias__)) word_t;

void *
memmove(void *dst, const void *src, size_t len)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d == s || len == 0)
		return dst;
	if (d < s || d >= s + len) {
		if ((((unsigned long)d | (unsigned long)s) & 3) == 0) {
			for (; len >= 4; len -= 4, d += 4, s += 4)
				*(word_t *)d = *(const word_t *)s;
		}
		while (len-- > 0)
			*d++ = *s++;
	} else {
		d += len;
		s += len;
		while (len-- > 0)
			*--d = *--s;
	}
	return dst;
}

void *
memcpy(void *dst, const void *src, size_t len)
{
	return memmove(dst, src, len);
}

void
bcopy(const void *src, void *dst, size_t len)
{
	memmove(dst, src, len);
}

void *
memset(void *b, int c, size_t len)
{
	unsigned char *p = b;

	while (len-- > 0)
		*p++ = (unsigned char)c;
	return b;
}

void
bzero(void *b, size_t len)
{
	memset(b, 0, len);
}

int
memcmp(const void *b1, const void *b2, size_t len)
{
	const unsigned char *p1 = b1, *p2 = b2;

	for (; len > 0; len--, p1++, p2++)
		if (*p1 != *p2)
			return *p1 - *p2;
	return 0;
}

int
bcmp(const void *b1, const void *b2, size_t len)
{
	return memcmp(b1, b2, len) != 0;
}

void *
memchr(const void *b, int c, size_t len)
{
	const unsigned char *p = b;

	for (; len > 0; len--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return NULL;
}
