/*
 * The basic string functions: length, copy, concatenate, compare,
 * search.
 */
#include <string.h>

size_t
strlen(const char *s)
{
	const char *p;

	for (p = s; *p != '\0'; p++)
		continue;
	return p - s;
}

size_t
strnlen(const char *s, size_t max)
{
	size_t n;

	for (n = 0; n < max && s[n] != '\0'; n++)
		continue;
	return n;
}

char *
strcpy(char *dst, const char *src)
{
	char *d = dst;

	while ((*d++ = *src++) != '\0')
		continue;
	return dst;
}

char *
strncpy(char *dst, const char *src, size_t n)
{
	size_t i;

	for (i = 0; i < n && src[i] != '\0'; i++)
		dst[i] = src[i];
	for (; i < n; i++)
		dst[i] = '\0';
	return dst;
}

char *
strcat(char *dst, const char *src)
{
	strcpy(dst + strlen(dst), src);
	return dst;
}

char *
strncat(char *dst, const char *src, size_t n)
{
	char *d;

	d = dst + strlen(dst);
	while (n-- > 0 && *src != '\0')
		*d++ = *src++;
	*d = '\0';
	return dst;
}

int
strcmp(const char *s1, const char *s2)
{
	while (*s1 == *s2 && *s1 != '\0') {
		s1++;
		s2++;
	}
	return *(const unsigned char *)s1 - *(const unsigned char *)s2;
}

int
strncmp(const char *s1, const char *s2, size_t n)
{
	for (; n > 0; n--, s1++, s2++) {
		if (*s1 != *s2)
			return *(const unsigned char *)s1 -
			    *(const unsigned char *)s2;
		if (*s1 == '\0')
			break;
	}
	return 0;
}

int
strcoll(const char *s1, const char *s2)
{
	return strcmp(s1, s2);
}

char *
strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (*s == '\0')
			return NULL;
	}
}

char *
strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (*s == '\0')
			return (char *)last;
	}
}

char *
index(const char *s, int c)
{
	return strchr(s, c);
}

char *
rindex(const char *s, int c)
{
	return strrchr(s, c);
}

size_t
strspn(const char *s, const char *accept)
{
	const char *p;

	for (p = s; *p != '\0' && strchr(accept, *p) != NULL; p++)
		continue;
	return p - s;
}

size_t
strcspn(const char *s, const char *reject)
{
	const char *p;

	for (p = s; *p != '\0' && strchr(reject, *p) == NULL; p++)
		continue;
	return p - s;
}

char *
strpbrk(const char *s, const char *accept)
{
	s += strcspn(s, accept);
	return *s != '\0' ? (char *)s : NULL;
}

char *
strstr(const char *s, const char *find)
{
	size_t len;

	len = strlen(find);
	for (; *s != '\0'; s++)
		if (strncmp(s, find, len) == 0)
			return (char *)s;
	return len == 0 ? (char *)s : NULL;
}
