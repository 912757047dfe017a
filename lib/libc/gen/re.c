/*
 * The small regular-expression interface of grep, ed and expr (<re.h>),
 * over regcomp(3) and regexec(3) (gen/regex.c): one matcher in libc.
 * Patterns are POSIX basic regular expressions.
 */
#include <regex.h>
#include <stdlib.h>

#include <re.h>

struct re {
	regex_t	 rx;
};

struct re *
recompile(const char *pat, int icase)
{
	struct re *re;

	if ((re = malloc(sizeof(*re))) == NULL)
		return NULL;
	if (regcomp(&re->rx, pat, icase ? REG_ICASE : 0) != 0) {
		free(re);
		return NULL;
	}
	return re;
}

int
reexec(struct re *re, const char *line, const char *from, const char **so,
    const char **eo)
{
	regmatch_t m;

	if (regexec(&re->rx, from, 1, &m, from != line ? REG_NOTBOL : 0) != 0)
		return 0;
	*so = from + m.rm_so;
	*eo = from + m.rm_eo;
	return 1;
}

int
rematch(struct re *re, const char *s)
{
	return regexec(&re->rx, s, 0, NULL, 0) == 0;
}
