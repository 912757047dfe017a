/*
 * POSIX regular expressions (gen/regex.c): basic (BRE) and extended (ERE)
 * syntax, subexpressions and back-references, leftmost-longest matches.
 */
#ifndef _REGEX_H_
#define _REGEX_H_

#include <sys/types.h>

typedef int regoff_t;

typedef struct {
	size_t	 re_nsub;	/* number of parenthesized subexpressions */
	int	 re_cflags;	/* the flags it was compiled with */
	void	*re_prog;	/* the compiled program (private) */
} regex_t;

typedef struct {
	regoff_t rm_so;		/* start of the match, -1 if none */
	regoff_t rm_eo;		/* end of the match (one past) */
} regmatch_t;

/* regcomp flags */
#define REG_BASIC	0000
#define REG_EXTENDED	0001	/* ERE syntax */
#define REG_ICASE	0002	/* ignore case */
#define REG_NOSUB	0004	/* report only success or failure */
#define REG_NEWLINE	0010	/* . and [^x] stop at \n; ^ and $ match at it */

/* regexec flags */
#define REG_NOTBOL	0001	/* the string does not start a line */
#define REG_NOTEOL	0002	/* the string does not end a line */
#define REG_STARTEND	0004	/* match string[pmatch[0].rm_so..rm_eo) */

/* errors */
#define REG_NOMATCH	 1
#define REG_BADPAT	 2
#define REG_ECOLLATE	 3
#define REG_ECTYPE	 4
#define REG_EESCAPE	 5
#define REG_ESUBREG	 6
#define REG_EBRACK	 7
#define REG_EPAREN	 8
#define REG_EBRACE	 9
#define REG_BADBR	10
#define REG_ERANGE	11
#define REG_ESPACE	12
#define REG_BADRPT	13

#define RE_DUP_MAX	255

int	regcomp(regex_t *, const char *, int);
int	regexec(const regex_t *, const char *, size_t, regmatch_t *, int);
size_t	regerror(int, const regex_t *, char *, size_t);
void	regfree(regex_t *);

#endif
