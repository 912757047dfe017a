/*
 * expr: evaluate an expression, each operand and operator an argument.
 *	expr expression
 * From the loosest: |  &  = != < <= > >=  + -  * / %  :  and ( ).
 * Operands that are integers compare and compute as integers, others as
 * strings.  a | b is a unless a is null or 0, then b; a & b is a unless
 * either is null or 0, then 0.  s : re matches the basic regular
 * expression re (regcomp(3)) at the start of s and gives the length
 * matched, or with a \( \) in re the text the first one matched (null
 * if none).
 * Exit status: 0 if the result is neither null nor 0, 1 if it is, 2 for
 * a bad expression, with a message.
 */
#include <ctype.h>
#include <err.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char **av;		/* the arguments not taken yet */

static char *
num(long v)
{
	char *s;

	if ((s = malloc(24)) == NULL)
		err(2, "out of memory");
	snprintf(s, 24, "%ld", v);
	return s;
}

static int
isnum(const char *s, long *v)
{
	char *end;

	if (*s == '\0')
		return 0;
	*v = strtol(s, &end, 10);
	return *end == '\0' && (isdigit((unsigned char)s[0]) ||
	    ((s[0] == '-' || s[0] == '+') && isdigit((unsigned char)s[1])));
}

static int
null(const char *s)
{
	long v;

	return *s == '\0' || (isnum(s, &v) && v == 0);
}

static int
take(const char *op)
{
	if (*av == NULL || strcmp(*av, op) != 0)
		return 0;
	av++;
	return 1;
}

static char *expr_or(void);

static char *
primary(void)
{
	char *s;

	if (*av == NULL)
		errx(2, "syntax error: an operand is missing");
	if (take("(")) {
		s = expr_or();
		if (!take(")"))
			errx(2, "syntax error: no ')'");
		return s;
	}
	return *av++;
}

static char *
match(void)
{
	char *s = primary(), *pat, *anch;
	regmatch_t m[2];
	regex_t re;
	int r;

	while (take(":")) {
		pat = primary();
		if ((anch = malloc(strlen(pat) + 2)) == NULL)
			err(2, "out of memory");
		anch[0] = '^';
		strcpy(anch + 1, pat);
		if (regcomp(&re, anch, 0) != 0)
			errx(2, "bad regular expression: %s", pat);
		r = regexec(&re, s, 2, m, 0);
		if (re.re_nsub == 0)
			s = num(r == 0 ? m[0].rm_eo : 0);
		else if (r == 0 && m[1].rm_so >= 0)
			s = strndup(s + m[1].rm_so, m[1].rm_eo - m[1].rm_so);
		else
			s = "";
		regfree(&re);
		free(anch);
	}
	return s;
}

static char *
arith(int level)
{
	static const char *ops[2][3] = { { "+", "-", NULL },
	    { "*", "/", "%" } };
	char *a = level ? match() : arith(1), *b;
	long x, y;
	int i;

	for (;;) {
		for (i = 0; i < 3 && ops[level][i] && !take(ops[level][i]); i++)
			continue;
		if (i == 3 || ops[level][i] == NULL)
			return a;
		b = level ? match() : arith(1);
		if (!isnum(a, &x) || !isnum(b, &y))
			errx(2, "non-numeric argument");
		if (level && i > 0 && y == 0)
			errx(2, "division by zero");
		a = num(level == 0 ? (i == 0 ? x + y : x - y) :
		    i == 0 ? x * y : i == 1 ? x / y : x % y);
	}
}

static char *
compare(void)
{
	static const char *ops[] = { "=", "!=", "<", "<=", ">", ">=" };
	char *a = arith(0), *b;
	long x, y, c;
	int i;

	for (;;) {
		for (i = 0; i < 6 && !take(ops[i]); i++)
			continue;
		if (i == 6)
			return a;
		b = arith(0);
		c = isnum(a, &x) && isnum(b, &y) ? (x > y) - (x < y) :
		    strcmp(a, b);
		a = num(i == 0 ? c == 0 : i == 1 ? c != 0 : i == 2 ? c < 0 :
		    i == 3 ? c <= 0 : i == 4 ? c > 0 : c >= 0);
	}
}

static char *
expr_and(void)
{
	char *a = compare(), *b;

	while (take("&")) {
		b = compare();
		if (null(a) || null(b))
			a = "0";
	}
	return a;
}

static char *
expr_or(void)
{
	char *a = expr_and(), *b;

	while (take("|")) {
		b = expr_and();
		if (null(a))
			a = b;
	}
	return a;
}

int
main(int argc, char *argv[])
{
	char *r;

	if (argc < 2) {
		fprintf(stderr, "usage: expr expression\n");
		return 2;
	}
	av = argv + 1;
	r = expr_or();
	if (*av != NULL)
		errx(2, "syntax error at '%s'", *av);
	printf("%s\n", r);
	return null(r);
}
