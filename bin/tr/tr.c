/*
 * tr: translate, squeeze or delete characters.
 *	tr [-cs] string1 string2
 *	tr [-c] -d string1
 *	tr [-c] -s string1
 * Each character of the input found in string1 becomes the character at
 * the same place in string2 (string2's last character repeats if it is
 * shorter).  -d deletes the characters of string1; -s squeezes a run of
 * one repeated character of the last string into one; -c takes the
 * complement of string1 (every byte not in it, in order).  Strings may
 * hold ranges (a-z), escapes (\n \t \\ \NNN octal) and the classes
 * [:lower:] [:upper:] [:digit:] [:alpha:] [:alnum:] [:space:].
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct cset {
	unsigned char c[256 * 2];	/* the characters, in order */
	int	n;
};

static void
usage(void)
{
	fprintf(stderr, "usage: tr [-cs] string1 string2\n"
	    "       tr [-c] -d string1\n       tr [-c] -s string1\n");
	exit(1);
}

static int
escape(const char **sp)
{
	const char *s = *sp;
	int c, i;

	if (*s != '\\' || s[1] == '\0') {
		*sp = s + 1;
		return (unsigned char)*s;
	}
	s++;
	switch (*s) {
	case 'n': c = '\n'; s++; break;
	case 't': c = '\t'; s++; break;
	case 'r': c = '\r'; s++; break;
	default:
		if (*s >= '0' && *s <= '7') {
			for (c = 0, i = 0; i < 3 && *s >= '0' && *s <= '7'; i++)
				c = c * 8 + *s++ - '0';
		} else
			c = (unsigned char)*s++;
	}
	*sp = s;
	return c & 0xff;
}

static void
add(struct cset *cs, int c)
{
	if (cs->n < (int)sizeof(cs->c))
		cs->c[cs->n++] = c;
}

static void
expand(const char *s, struct cset *cs)
{
	static const struct { const char *name; int (*fn)(int); } classes[] = {
		{ "[:lower:]", islower }, { "[:upper:]", isupper },
		{ "[:digit:]", isdigit }, { "[:alpha:]", isalpha },
		{ "[:alnum:]", isalnum }, { "[:space:]", isspace },
	};
	int c, hi, i, k;

	cs->n = 0;
	while (*s != '\0') {
		for (k = 0; k < 6; k++) {
			size_t l = strlen(classes[k].name);

			if (strncmp(s, classes[k].name, l) == 0) {
				for (i = 0; i < 256; i++)
					if (classes[k].fn(i))
						add(cs, i);
				s += l;
				break;
			}
		}
		if (k < 6)
			continue;
		c = escape(&s);
		if (*s == '-' && s[1] != '\0') {
			s++;
			hi = escape(&s);
			for (; c <= hi; c++)
				add(cs, c);
		} else
			add(cs, c);
	}
}

int
main(int argc, char *argv[])
{
	struct cset s1, s2;
	int ch, cflag = 0, dflag = 0, sflag = 0, i, c, last = -1;
	int map[256], del[256] = { 0 }, squeeze[256] = { 0 };
	char in[256];

	while ((ch = getopt(argc, argv, "cds")) != -1) {
		switch (ch) {
		case 'c': cflag = 1; break;
		case 'd': dflag = 1; break;
		case 's': sflag = 1; break;
		default: usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 || argc > 2 || (dflag && argc != 1) ||
	    (!dflag && !sflag && argc != 2))
		usage();
	expand(argv[0], &s1);
	if (cflag) {
		memset(in, 0, sizeof(in));
		for (i = 0; i < s1.n; i++)
			in[s1.c[i]] = 1;
		s1.n = 0;
		for (i = 0; i < 256; i++)
			if (!in[i])
				add(&s1, i);
	}
	for (i = 0; i < 256; i++)
		map[i] = i;
	if (dflag) {
		for (i = 0; i < s1.n; i++)
			del[s1.c[i]] = 1;
	} else if (argc == 2) {
		expand(argv[1], &s2);
		if (s2.n == 0)
			usage();
		for (i = 0; i < s1.n; i++)
			map[s1.c[i]] = s2.c[i < s2.n ? i : s2.n - 1];
	}
	if (sflag) {
		const struct cset *sq = argc == 2 ? &s2 : &s1;

		for (i = 0; i < sq->n; i++)
			squeeze[sq->c[i]] = 1;
	}
	while ((c = getchar()) != EOF) {
		if (del[c])
			continue;
		c = map[c];
		if (squeeze[c] && c == last)
			continue;
		last = c;
		putchar(c);
	}
	return ferror(stdout) ? 1 : 0;
}
