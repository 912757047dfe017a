/*
 * Regular expressions the short way (gen/re.c), for grep, ed and the
 * like: POSIX basic regular expressions, matched by regcomp(3) and
 * regexec(3) (<regex.h>), which give subexpressions too.
 */
#ifndef _RE_H_
#define _RE_H_

struct re;

/* Compile a pattern (icase: ignore case); NULL if it is malformed. */
struct re *recompile(const char *, int);
/* Does the string contain a match? */
int	rematch(struct re *, const char *);
/*
 * Find the leftmost-longest match in line at or after from; ^
 * matches only when from is line.  Sets *so and *eo to the match's start
 * and end; returns 0 if there is none.
 */
int	reexec(struct re *, const char *line, const char *from,
	    const char **so, const char **eo);

#endif
