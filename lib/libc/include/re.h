/*
 * Small regular expressions (gen/re.c), for grep, ed and the like:
 * c, \c, ., [class], x*, ^ and $.  Not POSIX regcomp(3).
 */
#ifndef _RE_H_
#define _RE_H_

struct re;

/* Compile a pattern (icase: ignore case); NULL if it is malformed. */
struct re *recompile(const char *, int);
/* Does the string contain a match? */
int	rematch(struct re *, const char *);
/*
 * Find the leftmost (then longest) match in line at or after from; ^
 * matches only when from is line.  Sets *so and *eo to the match's start
 * and end; returns 0 if there is none.
 */
int	reexec(struct re *, const char *line, const char *from,
	    const char **so, const char **eo);

#endif
