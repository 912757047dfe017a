/*
 * String to integer: strtol, strtoul, strtoll, strtoull.  One scanner
 * reads the sign, the base prefix ("0x" for base 0 or 16, "0" for octal
 * with base 0) and the digits into an unsigned long long, noting
 * overflow; each function then clamps to its own type and sets ERANGE.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

static int
digitval(int c)
{
	if (isdigit(c))
		return c - '0';
	if (isalpha(c))
		return tolower(c) - 'a' + 10;
	return 99;
}

static unsigned long long
scan(const char *nptr, char **endptr, int base, int *negp, int *ovfp)
{
	const char *s;
	unsigned long long acc, cutoff;
	int c, cutlim, any;

	s = nptr;
	while (isspace((unsigned char)*s))
		s++;
	*negp = 0;
	if (*s == '-') {
		*negp = 1;
		s++;
	} else if (*s == '+')
		s++;
	if ((base == 0 || base == 16) && s[0] == '0' &&
	    (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2])) {
		s += 2;
		base = 16;
	}
	if (base == 0)
		base = s[0] == '0' ? 8 : 10;
	*ovfp = 0;
	if (base < 2 || base > 36) {
		errno = EINVAL;
		if (endptr != NULL)
			*endptr = (char *)nptr;
		return 0;
	}
	cutoff = ULLONG_MAX / base;
	cutlim = ULLONG_MAX % base;
	acc = 0;
	any = 0;
	for (; (c = digitval((unsigned char)*s)) < base; s++) {
		any = 1;
		if (acc > cutoff || (acc == cutoff && c > cutlim))
			*ovfp = 1;
		else
			acc = acc * base + c;
	}
	if (endptr != NULL)
		*endptr = (char *)(any ? s : nptr);
	return acc;
}

unsigned long long
strtoull(const char *nptr, char **endptr, int base)
{
	unsigned long long v;
	int neg, ovf;

	v = scan(nptr, endptr, base, &neg, &ovf);
	if (ovf) {
		errno = ERANGE;
		return ULLONG_MAX;
	}
	return neg ? -v : v;
}

long long
strtoll(const char *nptr, char **endptr, int base)
{
	unsigned long long v;
	int neg, ovf;

	v = scan(nptr, endptr, base, &neg, &ovf);
	if (neg) {
		if (ovf || v > (unsigned long long)LLONG_MAX + 1) {
			errno = ERANGE;
			return LLONG_MIN;
		}
		return -v;
	}
	if (ovf || v > LLONG_MAX) {
		errno = ERANGE;
		return LLONG_MAX;
	}
	return v;
}

unsigned long
strtoul(const char *nptr, char **endptr, int base)
{
	unsigned long long v;
	int neg, ovf;

	v = scan(nptr, endptr, base, &neg, &ovf);
	if (ovf || v > ULONG_MAX) {
		errno = ERANGE;
		return ULONG_MAX;
	}
	return neg ? -(unsigned long)v : (unsigned long)v;
}

long
strtol(const char *nptr, char **endptr, int base)
{
	unsigned long long v;
	int neg, ovf;

	v = scan(nptr, endptr, base, &neg, &ovf);
	if (neg) {
		if (ovf || v > (unsigned long long)LONG_MAX + 1) {
			errno = ERANGE;
			return LONG_MIN;
		}
		return -(long long)v;
	}
	if (ovf || v > LONG_MAX) {
		errno = ERANGE;
		return LONG_MAX;
	}
	return v;
}
