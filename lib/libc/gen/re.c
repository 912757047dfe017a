/*
 * Small regular expressions, matched by backtracking in the manner of
 * Kernighan and Pike's matcher:
 *	c	the character c (\c: c, even if special)
 *	.	any character
 *	[...]	a class: ranges a-z, negated with ^; ] first is literal
 *	x*	zero or more of x (any of the above)
 *	^	at the start: the beginning of the line
 *	$	at the end: the end of the line
 * The pattern is compiled into an array of elements, each a set of the
 * 256 byte values it accepts and whether it repeats, so that matching
 * is a walk over the array.  With ignore-case, both cases are in each
 * set.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <re.h>

struct elem {
	unsigned char set[32];	/* bit c: the element accepts byte c */
	int	 star;		/* zero or more */
};

struct re {
	int	 bol;		/* anchored at the beginning */
	int	 eol;		/* anchored at the end */
	int	 n;
	struct elem e[];
};

static void
add(struct elem *e, int c, int icase)
{
	e->set[c >> 3] |= 1 << (c & 7);
	if (icase && isalpha(c)) {
		c = islower(c) ? toupper(c) : tolower(c);
		e->set[c >> 3] |= 1 << (c & 7);
	}
}

static int
accepts(const struct elem *e, int c)
{
	return (e->set[c >> 3] >> (c & 7)) & 1;
}

/* Compile the class after '['; returns the position after ']' or NULL. */
static const char *
class(const char *p, struct elem *e, int icase)
{
	int negate, c, i;

	negate = *p == '^';
	if (negate)
		p++;
	if (*p == ']') {
		add(e, ']', icase);
		p++;
	}
	for (; *p != ']'; p++) {
		if (*p == '\0')
			return NULL;
		if (p[1] == '-' && p[2] != ']' && p[2] != '\0') {
			for (c = (unsigned char)p[0]; c <= (unsigned char)p[2]; c++)
				add(e, c, icase);
			p += 2;
		} else
			add(e, (unsigned char)*p, icase);
	}
	if (negate)
		for (i = 0; i < 32; i++)
			e->set[i] = ~e->set[i];
	e->set[0] &= ~1;	/* never the NUL at the end */
	return p + 1;
}

struct re *
recompile(const char *pat, int icase)
{
	struct elem *e;
	struct re *re;
	int i;

	re = calloc(1, sizeof(*re) + (strlen(pat) + 1) * sizeof(struct elem));
	if (re == NULL)
		return NULL;
	if (*pat == '^') {
		re->bol = 1;
		pat++;
	}
	while (*pat != '\0') {
		if (pat[0] == '$' && pat[1] == '\0') {
			re->eol = 1;
			break;
		}
		e = &re->e[re->n++];
		if (*pat == '.') {
			for (i = 1; i < 256; i++)
				add(e, i, 0);
			pat++;
		} else if (*pat == '[') {
			if ((pat = class(pat + 1, e, icase)) == NULL) {
				free(re);
				return NULL;
			}
		} else {
			if (*pat == '\\' && pat[1] != '\0')
				pat++;
			add(e, (unsigned char)*pat++, icase);
		}
		if (*pat == '*') {
			e->star = 1;
			pat++;
		}
	}
	return re;
}

/* Match elements i.. at s; returns the end of the match, or NULL. */
static const char *
matchhere(const struct re *re, int i, const char *s)
{
	const char *t, *end;

	for (; i < re->n; i++, s++) {
		if (re->e[i].star) {
			/* Longest run first, then give back one at a time. */
			for (t = s; *t != '\0' && accepts(&re->e[i], (unsigned char)*t); t++)
				continue;
			for (; t >= s; t--)
				if ((end = matchhere(re, i + 1, t)) != NULL)
					return end;
			return NULL;
		}
		if (*s == '\0' || !accepts(&re->e[i], (unsigned char)*s))
			return NULL;
	}
	return !re->eol || *s == '\0' ? s : NULL;
}

int
reexec(struct re *re, const char *line, const char *from, const char **so,
    const char **eo)
{
	const char *s = from, *end;

	if (re->bol && from != line)
		return 0;
	do {
		if ((end = matchhere(re, 0, s)) != NULL) {
			*so = s;
			*eo = end;
			return 1;
		}
	} while (!re->bol && *s++ != '\0');
	return 0;
}

int
rematch(struct re *re, const char *s)
{
	const char *so, *eo;

	return reexec(re, s, s, &so, &eo);
}
