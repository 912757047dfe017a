/*
 * Arithmetic expansion, $((...)): integer expressions in C's syntax and
 * precedence, evaluated by recursive descent over the (already
 * parameter-expanded) text.  Operands are decimal, octal (0...) or hex
 * (0x...) numbers and variable names (an unset or empty variable is 0).
 * Operators: ( ) unary + - ! ~, * / %, + -, << >>, < <= > >=, == !=,
 * &, ^, |, &&, ||, ?:.  Assignment operators are not supported.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "sh.h"

static const char *ap;		/* the cursor */

static long ternary(void);

static void
skipblanks(void)
{
	while (isspace((unsigned char)*ap))
		ap++;
}

/* Consume op if it comes next (and is not the start of a longer one). */
static int
accept(const char *op)
{
	size_t n;

	skipblanks();
	n = strlen(op);
	if (strncmp(ap, op, n) != 0)
		return 0;
	if (n == 1 && (op[0] == '<' || op[0] == '>' || op[0] == '&' ||
	    op[0] == '|' || op[0] == '=' || op[0] == '!') &&
	    (ap[1] == op[0] || ap[1] == '='))
		return 0;	/* "<" must not take the start of "<<" */
	ap += n;
	return 1;
}

static long
number(const char *s, const char **end)
{
	char *e;
	long v;

	v = strtol(s, &e, 0);
	*end = e;
	return v;
}

static long
primary(void)
{
	const char *start, *end;
	char *name, *val;
	long v;

	skipblanks();
	if (accept("(")) {
		v = ternary();
		if (!accept(")"))
			sherror("arithmetic: missing )");
		return v;
	}
	if (accept("-"))
		return -primary();
	if (accept("+"))
		return primary();
	if (accept("!"))
		return !primary();
	if (accept("~"))
		return ~primary();
	if (isdigit((unsigned char)*ap)) {
		v = number(ap, &end);
		if (isalnum((unsigned char)*end))
			sherror("arithmetic: bad number");
		ap = end;
		return v;
	}
	if (isalpha((unsigned char)*ap) || *ap == '_') {
		start = ap;
		while (isalnum((unsigned char)*ap) || *ap == '_')
			ap++;
		name = ststrndup(start, ap - start);
		if ((val = lookupvar(name)) == NULL || *val == '\0')
			return 0;
		v = number(val, &end);
		if (*end != '\0')
			sherror("arithmetic: %s: not a number", name);
		return v;
	}
	if (*ap == '\0')
		sherror("arithmetic: missing operand");
	sherror("arithmetic: syntax error at `%s'", ap);
}

static long
product(void)
{
	long v, r;

	v = primary();
	for (;;) {
		if (accept("*"))
			v *= primary();
		else if (accept("/") || accept("%")) {
			int mod = ap[-1] == '%';

			if ((r = primary()) == 0)
				sherror("arithmetic: division by zero");
			v = mod ? v % r : v / r;
		} else
			return v;
	}
}

static long
sum(void)
{
	long v;

	v = product();
	for (;;) {
		if (accept("+"))
			v += product();
		else if (accept("-"))
			v -= product();
		else
			return v;
	}
}

static long
shift(void)
{
	long v;

	v = sum();
	for (;;) {
		if (accept("<<"))
			v <<= sum();
		else if (accept(">>"))
			v >>= sum();
		else
			return v;
	}
}

static long
relation(void)
{
	long v;

	v = shift();
	for (;;) {
		if (accept("<="))
			v = v <= shift();
		else if (accept(">="))
			v = v >= shift();
		else if (accept("<"))
			v = v < shift();
		else if (accept(">"))
			v = v > shift();
		else
			return v;
	}
}

static long
equality(void)
{
	long v;

	v = relation();
	for (;;) {
		if (accept("=="))
			v = v == relation();
		else if (accept("!="))
			v = v != relation();
		else
			return v;
	}
}

static long
bitand(void)
{
	long v;

	v = equality();
	while (accept("&"))
		v &= equality();
	return v;
}

static long
bitxor(void)
{
	long v;

	v = bitand();
	while (accept("^"))
		v ^= bitand();
	return v;
}

static long
bitor(void)
{
	long v;

	v = bitxor();
	while (accept("|"))
		v |= bitxor();
	return v;
}

static long
logand(void)
{
	long v, r;

	v = bitor();
	while (accept("&&")) {
		r = bitor();
		v = v && r;
	}
	return v;
}

static long
logor(void)
{
	long v, r;

	v = logand();
	while (accept("||")) {
		r = logand();
		v = v || r;
	}
	return v;
}

static long
ternary(void)
{
	long c, a, b;

	c = logor();
	if (!accept("?"))
		return c;
	a = ternary();
	if (!accept(":"))
		sherror("arithmetic: missing :");
	b = ternary();
	return c ? a : b;
}

long
arith(const char *s)
{
	long v;

	ap = s;
	v = ternary();
	skipblanks();
	if (*ap != '\0')
		sherror("arithmetic: syntax error at `%s'", ap);
	return v;
}
