/*
 * regcomp(3): compile a POSIX regular expression, basic (BRE) or
 * extended (ERE), and regfree(3), regerror(3).
 *
 * The pattern is parsed into a tree of nodes.  A node is one step of a
 * sequence and points to the step after it (next); groups, repetitions
 * and alternations hold their bodies as sequences of their own (child,
 * alt).  The tree is then translated into a program for regexec's
 * machine (regprog.h) and freed.
 *
 *	BRE		ERE		node
 *	c \c		c \c		N_CHAR
 *	. [...]		. [...]		N_SET
 *	^ $ (at ends)	^ $		N_BOL, N_EOL
 *	\( \)		( )		N_GROUP
 *	\1..\9		\1..\9		N_BACKREF
 *	\w \W \s \S	(the same)	N_SET		(GNU's, as in glibc)
 *	\< \> \b \B	(the same)	N_WORD		(GNU's word edges)
 *	* \{m,n\}	* + ? {m,n}	N_REPEAT (also \+ \? in a BRE)
 *	\|		|		N_ALT
 */
#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "regprog.h"

enum { N_CHAR, N_SET, N_BOL, N_EOL, N_WORD, N_GROUP, N_BACKREF, N_REPEAT,
	N_ALT };

struct node {
	int	 type;
	int	 c;		/* N_CHAR: byte; N_GROUP, N_BACKREF: number;
				   N_WORD: < > b or B */
	int	 min, max;	/* N_REPEAT: bounds, max -1 for none */
	unsigned char set[32];	/* N_SET: bit c set if byte c is in it */
	struct node *child;	/* N_GROUP, N_REPEAT: body; N_ALT: left */
	struct node *alt;	/* N_ALT: right */
	struct node *next;	/* the next step of the sequence */
	struct node *all;	/* every node made, to free them */
};

/* --- the parser --- */

struct parse {
	const char *p;
	int	 cflags;
	int	 err;
	int	 depth;		/* open groups */
	size_t	 nsub;
	struct node *all;
};

#define ERE(ps)	((ps)->cflags & REG_EXTENDED)

static struct node *parsealt(struct parse *);

static struct node *
newnode(struct parse *ps, int type)
{
	struct node *n;

	if ((n = calloc(1, sizeof(*n))) == NULL) {
		ps->err = REG_ESPACE;
		return NULL;
	}
	n->type = type;
	n->all = ps->all;
	ps->all = n;
	return n;
}

static void
setadd(struct node *n, int c, int icase)
{
	n->set[c >> 3] |= 1 << (c & 7);
	if (icase && isalpha(c)) {
		c = islower(c) ? toupper(c) : tolower(c);
		n->set[c >> 3] |= 1 << (c & 7);
	}
}

static const struct {
	const char *name;
	int	(*is)(int);
} classes[] = {
	{ "alnum", isalnum }, { "alpha", isalpha }, { "blank", isblank },
	{ "cntrl", iscntrl }, { "digit", isdigit }, { "graph", isgraph },
	{ "lower", islower }, { "print", isprint }, { "punct", ispunct },
	{ "space", isspace }, { "upper", isupper }, { "xdigit", isxdigit },
};

/*
 * One element of a bracket expression starting at ps->p: a character,
 * [.c.] or [=c=] (single characters only: our locale is C).  Returns
 * the byte, or -1 with ps->err set.
 */
static int
bracketchar(struct parse *ps)
{
	const char *p = ps->p;
	int c;

	if (p[0] == '[' && (p[1] == '.' || p[1] == '=')) {
		if (p[2] == '\0' || p[3] != p[1] || p[4] != ']') {
			ps->err = p[2] == '\0' ? REG_EBRACK : REG_ECOLLATE;
			return -1;
		}
		ps->p += 5;
		return (unsigned char)p[2];
	}
	c = (unsigned char)*p;
	ps->p++;
	return c;
}

/* A bracket expression; ps->p is just past the '['. */
static struct node *
parsebracket(struct parse *ps)
{
	struct node *n;
	int negate, lo, hi, c, icase = ps->cflags & REG_ICASE;
	unsigned i;
	size_t len;

	if ((n = newnode(ps, N_SET)) == NULL)
		return NULL;
	negate = *ps->p == '^';
	if (negate)
		ps->p++;
	if (*ps->p == ']') {
		setadd(n, ']', icase);
		ps->p++;
	}
	while (*ps->p != ']') {
		if (*ps->p == '\0') {
			ps->err = REG_EBRACK;
			return NULL;
		}
		if (ps->p[0] == '[' && ps->p[1] == ':') {
			const char *name = ps->p + 2, *e = strstr(name, ":]");

			if (e == NULL) {
				ps->err = REG_EBRACK;
				return NULL;
			}
			len = e - name;
			for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
				if (strlen(classes[i].name) == len &&
				    strncmp(classes[i].name, name, len) == 0)
					break;
			if (i == sizeof(classes) / sizeof(classes[0])) {
				ps->err = REG_ECTYPE;
				return NULL;
			}
			for (c = 1; c < 256; c++)
				if (classes[i].is(c))
					setadd(n, c, icase);
			ps->p = e + 2;
			continue;
		}
		if ((lo = bracketchar(ps)) < 0)
			return NULL;
		hi = lo;
		if (ps->p[0] == '-' && ps->p[1] != ']' && ps->p[1] != '\0') {
			ps->p++;
			if ((hi = bracketchar(ps)) < 0)
				return NULL;
			if (hi < lo) {
				ps->err = REG_ERANGE;
				return NULL;
			}
		}
		for (c = lo; c <= hi; c++)
			setadd(n, c, icase);
	}
	ps->p++;
	if (negate) {
		for (i = 0; i < sizeof(n->set); i++)
			n->set[i] = ~n->set[i];
		if (ps->cflags & REG_NEWLINE)
			n->set['\n' >> 3] &= ~(1 << ('\n' & 7));
	}
	return n;
}

static int
number(struct parse *ps)
{
	int v = 0;

	if (!isdigit((unsigned char)*ps->p))
		return -1;
	while (isdigit((unsigned char)*ps->p)) {
		v = v * 10 + (*ps->p++ - '0');
		if (v > RE_DUP_MAX)
			v = RE_DUP_MAX + 1;
	}
	return v;
}

/* An interval's bounds after "{" or "\{": m, m, or m,n, then the close. */
static int
parsebounds(struct parse *ps, int *min, int *max)
{
	if ((*min = number(ps)) < 0) {
		ps->err = *ps->p == '\0' ? REG_EBRACE : REG_BADBR;
		return -1;
	}
	*max = *min;
	if (*ps->p == ',') {
		ps->p++;
		*max = isdigit((unsigned char)*ps->p) ? number(ps) : -1;
	}
	if (ERE(ps) ? *ps->p != '}' : (ps->p[0] != '\\' || ps->p[1] != '}')) {
		ps->err = strchr(ps->p, '}') == NULL ? REG_EBRACE : REG_BADBR;
		return -1;
	}
	ps->p += ERE(ps) ? 1 : 2;
	if (*min > RE_DUP_MAX || *max > RE_DUP_MAX ||
	    (*max >= 0 && *max < *min)) {
		ps->err = REG_BADBR;
		return -1;
	}
	return 0;
}

/* Is ps->p at the end of a branch: end of pattern, | or close? */
static int
atbranchend(struct parse *ps, const char *p)
{
	if (*p == '\0')
		return 1;
	if (ERE(ps))
		return *p == '|' || (*p == ')' && ps->depth > 0);
	return p[0] == '\\' && (p[1] == '|' || (p[1] == ')' && ps->depth > 0));
}

/*
 * A repetition operator at ps->p, if any: sets *min, *max and returns 1;
 * 0 if there is none, -1 on error.
 */
static int
repetition(struct parse *ps, int *min, int *max)
{
	const char *p = ps->p;

	if (*p == '*') {
		ps->p++;
		*min = 0, *max = -1;
		return 1;
	}
	if (ERE(ps)) {
		if (*p == '+' || *p == '?') {
			ps->p++;
			*min = *p == '+', *max = *p == '+' ? -1 : 1;
			return 1;
		}
		if (*p == '{' && isdigit((unsigned char)p[1])) {
			ps->p++;
			return parsebounds(ps, min, max) < 0 ? -1 : 1;
		}
		return 0;
	}
	if (p[0] == '\\' && (p[1] == '+' || p[1] == '?')) {
		ps->p += 2;
		*min = p[1] == '+', *max = p[1] == '+' ? -1 : 1;
		return 1;
	}
	if (p[0] == '\\' && p[1] == '{') {
		ps->p += 2;
		return parsebounds(ps, min, max) < 0 ? -1 : 1;
	}
	return 0;
}

static struct node *
parsegroup(struct parse *ps)
{
	struct node *n;

	if ((n = newnode(ps, N_GROUP)) == NULL)
		return NULL;
	n->c = ++ps->nsub;
	ps->depth++;
	n->child = parsealt(ps);
	if (ps->err)
		return NULL;
	if (ERE(ps) ? *ps->p != ')' : (ps->p[0] != '\\' || ps->p[1] != ')')) {
		ps->err = REG_EPAREN;
		return NULL;
	}
	ps->p += ERE(ps) ? 1 : 2;
	ps->depth--;
	return n;
}

/* \w (word characters: alphanumerics and _), \s (white space), \W, \S */
static struct node *
wordset(struct parse *ps, int kind)
{
	struct node *n;
	unsigned i;
	int c;

	if ((n = newnode(ps, N_SET)) == NULL)
		return NULL;
	for (c = 1; c < 256; c++)
		if (tolower(kind) == 'w' ? isalnum(c) || c == '_' : isspace(c))
			n->set[c >> 3] |= 1 << (c & 7);
	if (isupper(kind))
		for (i = 0; i < sizeof(n->set); i++)
			n->set[i] = ~n->set[i];
	return n;
}

/*
 * One atom.  first: it starts its branch (where a BRE's * is literal
 * and ^ is an anchor).
 */
static struct node *
parseatom(struct parse *ps, int first)
{
	struct node *n;
	int c = (unsigned char)*ps->p;

	if (c == '^' && (ERE(ps) || first)) {
		ps->p++;
		return newnode(ps, N_BOL);
	}
	if (c == '$' && (ERE(ps) || atbranchend(ps, ps->p + 1))) {
		ps->p++;
		return newnode(ps, N_EOL);
	}
	if (ERE(ps) && (c == '*' || c == '+' || c == '?' ||
	    (c == '{' && isdigit((unsigned char)ps->p[1])))) {
		ps->err = REG_BADRPT;
		return NULL;
	}
	if (c == '.') {
		ps->p++;
		if ((n = newnode(ps, N_SET)) != NULL) {
			memset(n->set, 0xff, sizeof(n->set));
			if (ps->cflags & REG_NEWLINE)
				n->set['\n' >> 3] &= ~(1 << ('\n' & 7));
		}
		return n;
	}
	if (c == '[') {
		ps->p++;
		return parsebracket(ps);
	}
	if (c == '(' && ERE(ps)) {
		ps->p++;
		return parsegroup(ps);
	}
	if (c == '\\') {
		c = (unsigned char)ps->p[1];
		if (c == '\0') {
			ps->err = REG_EESCAPE;
			return NULL;
		}
		ps->p += 2;
		if (c == '(' && !ERE(ps))
			return parsegroup(ps);
		if (c >= '1' && c <= '9') {
			if ((size_t)(c - '0') > ps->nsub) {
				ps->err = REG_ESUBREG;
				return NULL;
			}
			if ((n = newnode(ps, N_BACKREF)) != NULL)
				n->c = c - '0';
			return n;
		}
		if (c == '<' || c == '>' || c == 'b' || c == 'B') {
			if ((n = newnode(ps, N_WORD)) != NULL)
				n->c = c;
			return n;
		}
		if (c == 'w' || c == 'W' || c == 's' || c == 'S')
			return wordset(ps, c);
		if (!ERE(ps) && (c == ')' || c == '{' || c == '}' || c == '|')) {
			ps->err = c == ')' ? REG_EPAREN : c == '|' ? REG_BADPAT :
			    REG_BADBR;
			return NULL;
		}
	} else
		ps->p++;
	if ((n = newnode(ps, N_CHAR)) != NULL)
		n->c = (ps->cflags & REG_ICASE) ? tolower(c) : c;
	return n;
}

/* A branch: atoms each with their repetitions, up to | or ) or the end. */
static struct node *
parsebranch(struct parse *ps)
{
	struct node *head = NULL, **tail = &head, *atom, *r;
	int min, max, got, first = 1;

	while (!atbranchend(ps, ps->p)) {
		/* a BRE's leading * (also after a leading ^) is literal */
		if (first && !ERE(ps) && *ps->p == '*') {
			ps->p++;
			if ((atom = newnode(ps, N_CHAR)) == NULL)
				return NULL;
			atom->c = '*';
		} else if ((atom = parseatom(ps, first)) == NULL)
			return NULL;
		first = first && atom->type == N_BOL;
		/* a BRE's * after a leading ^ is literal (the loop above) */
		while (!(first && !ERE(ps)) &&
		    (got = repetition(ps, &min, &max)) != 0) {
			if (got < 0)
				return NULL;
			if (atom->type == N_BOL || atom->type == N_EOL) {
				if (ERE(ps)) {
					ps->err = REG_BADRPT;
					return NULL;
				}
			}
			if ((r = newnode(ps, N_REPEAT)) == NULL)
				return NULL;
			r->child = atom;
			r->min = min;
			r->max = max;
			atom = r;
		}
		*tail = atom;
		tail = &atom->next;
	}
	return head;
}

static struct node *
parsealt(struct parse *ps)
{
	struct node *left, *n;

	left = parsebranch(ps);
	while (!ps->err && (ERE(ps) ? *ps->p == '|' :
	    ps->p[0] == '\\' && ps->p[1] == '|')) {
		ps->p += ERE(ps) ? 1 : 2;
		if ((n = newnode(ps, N_ALT)) == NULL)
			break;
		n->child = left;
		n->alt = parsebranch(ps);
		left = n;
	}
	return left;
}

static void
freenodes(struct node *n)
{
	struct node *next;

	for (; n != NULL; n = next) {
		next = n->all;
		free(n);
	}
}

/* --- the code generator --- */

struct gen {
	struct prog *prog;
	int	 cap;
	int	 err;
};

/* Append an instruction; its index, or -1 (err set) if there is no room. */
static int
emit(struct gen *g, int op, int arg)
{
	struct prog *p = g->prog;
	struct inst *in;

	if (g->err)
		return -1;
	if (p->ninst == g->cap) {
		if (g->cap >= REG_MAXINST) {
			g->err = REG_ESPACE;
			return -1;
		}
		g->cap = g->cap ? g->cap * 2 : 32;
		if ((in = realloc(p->inst, g->cap * sizeof(*in))) == NULL) {
			g->err = REG_ESPACE;
			return -1;
		}
		p->inst = in;
	}
	in = &p->inst[p->ninst];
	memset(in, 0, sizeof(*in));
	in->op = op;
	in->arg = arg;
	return p->ninst++;
}

static void gennode(struct gen *, struct node *);

static void
genseq(struct gen *g, struct node *n)
{
	for (; n != NULL && !g->err; n = n->next)
		gennode(g, n);
}

static void
genrepeat(struct gen *g, struct node *n)
{
	struct inst *in;
	int i, loop, k, chain = -1, next;

	for (i = 0; i < n->min; i++)
		genseq(g, n->child);
	if (n->max < 0) {
		loop = emit(g, I_SPLIT, 0);
		k = g->prog->nloop++;
		emit(g, I_MARK, k);
		genseq(g, n->child);
		emit(g, I_CHECK, k);
		i = emit(g, I_JMP, 0);
		if (g->err)
			return;
		g->prog->inst[i].x = loop;
		g->prog->inst[loop].x = loop + 1;
		g->prog->inst[loop].y = g->prog->ninst;
		return;
	}
	/* the optional copies, each one's SPLIT chained through y to the end */
	for (; i < n->max; i++) {
		if ((loop = emit(g, I_SPLIT, 0)) < 0)
			return;
		g->prog->inst[loop].x = loop + 1;
		g->prog->inst[loop].y = chain;
		chain = loop;
		genseq(g, n->child);
	}
	for (; chain >= 0 && !g->err; chain = next) {
		in = &g->prog->inst[chain];
		next = in->y;
		in->y = g->prog->ninst;
	}
}

static void
gennode(struct gen *g, struct node *n)
{
	int i, j;

	switch (n->type) {
	case N_CHAR:
		emit(g, I_CHAR, n->c);
		break;
	case N_SET:
		if ((i = emit(g, I_SET, 0)) >= 0)
			memcpy(g->prog->inst[i].set, n->set, sizeof(n->set));
		break;
	case N_BOL:
		emit(g, I_BOL, 0);
		break;
	case N_EOL:
		emit(g, I_EOL, 0);
		break;
	case N_WORD:
		emit(g, I_WORD, n->c);
		break;
	case N_BACKREF:
		emit(g, I_BACKREF, n->c);
		g->prog->backrefs = 1;
		break;
	case N_GROUP:
		emit(g, I_SAVE, 2 * n->c);
		genseq(g, n->child);
		emit(g, I_SAVE, 2 * n->c + 1);
		break;
	case N_REPEAT:
		genrepeat(g, n);
		break;
	case N_ALT:
		if ((i = emit(g, I_SPLIT, 0)) < 0)
			return;
		genseq(g, n->child);
		if ((j = emit(g, I_JMP, 0)) < 0)
			return;
		g->prog->inst[i].x = i + 1;
		g->prog->inst[i].y = j + 1;
		genseq(g, n->alt);
		g->prog->inst[j].x = g->prog->ninst;
		break;
	}
}

static void
freeprog(struct prog *p)
{
	free(p->inst);
	free(p);
}

int
regcomp(regex_t *re, const char *pattern, int cflags)
{
	struct parse ps;
	struct gen g;
	struct node *start;

	memset(&ps, 0, sizeof(ps));
	ps.p = pattern;
	ps.cflags = cflags;
	start = parsealt(&ps);
	if (!ps.err && *ps.p != '\0')
		ps.err = REG_EPAREN;
	memset(&g, 0, sizeof(g));
	if (!ps.err && (g.prog = calloc(1, sizeof(*g.prog))) == NULL)
		ps.err = REG_ESPACE;
	if (!ps.err) {
		genseq(&g, start);
		emit(&g, I_MATCH, 0);
		if (g.err) {
			freeprog(g.prog);
			ps.err = g.err;
		}
	}
	freenodes(ps.all);
	if (ps.err)
		return ps.err;
	re->re_nsub = ps.nsub;
	re->re_cflags = cflags;
	re->re_prog = g.prog;
	return 0;
}

void
regfree(regex_t *re)
{
	if (re->re_prog != NULL) {
		freeprog(re->re_prog);
		re->re_prog = NULL;
	}
}

static const char *const messages[] = {
	"success",
	"regexec() failed to match",
	"invalid regular expression",
	"invalid collating element",
	"invalid character class",
	"trailing backslash (\\)",
	"invalid backreference number",
	"brackets ([ ]) not balanced",
	"parentheses not balanced",
	"braces not balanced",
	"invalid repetition count(s)",
	"invalid character range",
	"out of memory",
	"repetition-operator operand invalid",
};

size_t
regerror(int err, const regex_t *re, char *buf, size_t size)
{
	const char *msg;
	size_t len;

	(void)re;
	if (err >= 0 && (size_t)err < sizeof(messages) / sizeof(messages[0]))
		msg = messages[err];
	else
		msg = "unknown regex error";
	len = strlen(msg) + 1;
	if (size > 0) {
		if (len <= size)
			memcpy(buf, msg, len);
		else {
			memcpy(buf, msg, size - 1);
			buf[size - 1] = '\0';
		}
	}
	return len;
}
