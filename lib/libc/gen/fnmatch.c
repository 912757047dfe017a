/*
 * fnmatch(3): match a string against a shell pattern.
 *	*	any string (not a '/' with FNM_PATHNAME)
 *	?	any one character
 *	[...]	a class: ranges a-z, negation with ! or ^
 *	\c	c itself (unless FNM_NOESCAPE)
 * A star is matched by trying every split, recursively; patterns are short.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <string.h>

static int
foldc(int c, int flags)
{
	return (flags & FNM_CASEFOLD) ? tolower((unsigned char)c) : c;
}

/*
 * Match the class starting after '[' against c.  Return a pointer past the
 * closing ']' and set *ok, or NULL if the class is not closed (then '['
 * is an ordinary character).
 */
static const char *
matchclass(const char *p, int c, int flags, int *ok)
{
	int negate, lo, hi;

	negate = *p == '!' || *p == '^';
	if (negate)
		p++;
	*ok = 0;
	c = foldc(c, flags);
	do {
		if (*p == '\0')
			return NULL;
		lo = *p++;
		if (lo == '\\' && !(flags & FNM_NOESCAPE) && *p != '\0')
			lo = *p++;
		hi = lo;
		if (*p == '-' && p[1] != ']' && p[1] != '\0') {
			hi = p[1];
			p += 2;
			if (hi == '\\' && !(flags & FNM_NOESCAPE) && *p != '\0')
				hi = *p++;
		}
		if (foldc(lo, flags) <= c && c <= foldc(hi, flags))
			*ok = 1;
	} while (*p != ']');
	if (negate)
		*ok = !*ok;
	return p + 1;
}

static int
match(const char *p, const char *s, const char *start, int flags)
{
	const char *np;
	int ok;

	for (;; p++, s++) {
		if ((flags & FNM_PERIOD) && *s == '.' && *p != '.' &&
		    (s == start || ((flags & FNM_PATHNAME) && s[-1] == '/')))
			return FNM_NOMATCH;
		switch (*p) {
		case '\0':
			return *s == '\0' ? 0 : FNM_NOMATCH;
		case '?':
			if (*s == '\0' || (*s == '/' && (flags & FNM_PATHNAME)))
				return FNM_NOMATCH;
			break;
		case '*':
			while (p[1] == '*')
				p++;
			for (;; s++) {
				if (match(p + 1, s, start, flags & ~FNM_PERIOD) == 0)
					return 0;
				if (*s == '\0' ||
				    (*s == '/' && (flags & FNM_PATHNAME)))
					return FNM_NOMATCH;
			}
		case '[':
			if (*s == '\0' || (*s == '/' && (flags & FNM_PATHNAME)))
				return FNM_NOMATCH;
			np = matchclass(p + 1, (unsigned char)*s, flags, &ok);
			if (np == NULL) {
				if (*s != '[')
					return FNM_NOMATCH;
				break;
			}
			if (!ok)
				return FNM_NOMATCH;
			p = np - 1;
			break;
		case '\\':
			if (!(flags & FNM_NOESCAPE) && p[1] != '\0')
				p++;
			/* FALLTHROUGH */
		default:
			if (foldc(*p, flags) != foldc(*s, flags))
				return FNM_NOMATCH;
			break;
		}
	}
}

int
fnmatch(const char *pattern, const char *string, int flags)
{
	return match(pattern, string, string, flags);
}
