/*
 * The string and memory routines the kernel uses (its own small libkern).
 */
#include "kern/systm.h"

void *
memset(void *dst, int c, size_t n)
{
	u_char *d = dst;

	if (((u_int32_t)d & 3) == 0 && (n & 3) == 0) {
		u_int32_t w = (u_char)c * 0x01010101u, cnt = n / 4;
		__asm volatile("cld; rep stosl" : "+D"(d), "+c"(cnt)
		    : "a"(w) : "memory");
		return dst;
	}
	while (n--)
		*d++ = c;
	return dst;
}

void *
memcpy(void *dst, const void *src, size_t n)
{
	return memmove(dst, src, n);
}

void *
memmove(void *dst, const void *src, size_t n)
{
	u_char *d = dst;
	const u_char *s = src;

	if (d == s || n == 0)
		return dst;
	if (d < s || d >= s + n) {
		if ((((u_int32_t)d | (u_int32_t)s | n) & 3) == 0) {
			size_t w = n / 4;
			__asm volatile("cld; rep movsl" : "+D"(d), "+S"(s),
			    "+c"(w) : : "memory");
		} else {
			__asm volatile("cld; rep movsb" : "+D"(d), "+S"(s),
			    "+c"(n) : : "memory");
		}
	} else {
		while (n--)
			d[n] = s[n];
	}
	return dst;
}

int
memcmp(const void *a, const void *b, size_t n)
{
	const u_char *p = a, *q = b;

	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p - *q;
	return 0;
}

size_t
strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int
strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (u_char)*a - (u_char)*b;
}

int
strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (u_char)*a - (u_char)*b;
		if (*a == '\0')
			break;
	}
	return 0;
}

char *
strncpy(char *d, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && s[i]; i++)
		d[i] = s[i];
	for (; i < n; i++)
		d[i] = '\0';
	return d;
}

size_t
strlcpy(char *d, const char *s, size_t n)
{
	size_t len = strlen(s);

	if (n > 0) {
		size_t c = len < n - 1 ? len : n - 1;
		memcpy(d, s, c);
		d[c] = '\0';
	}
	return len;
}

char *
strchr(const char *s, int c)
{
	for (; *s; s++)
		if (*s == c)
			return (char *)s;
	return c == 0 ? (char *)s : NULL;
}

long
strtol(const char *s, char **end, int base)
{
	long v = 0;
	int neg = 0;

	if (*s == '-')
		neg = 1, s++;
	if (base == 0) {
		base = 10;
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
			base = 16, s += 2;
	}
	for (;; s++) {
		int d;
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		if (d >= base)
			break;
		v = v * base + d;
	}
	if (end)
		*end = (char *)s;
	return neg ? -v : v;
}
