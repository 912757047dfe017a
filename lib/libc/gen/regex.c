/*
 * POSIX regular expressions: regcomp(3), regexec(3), regerror(3),
 * regfree(3).
 *
 * regcomp parses the pattern (BRE or ERE) into a tree of nodes.  A node
 * is one step of a sequence and points to the step after it (next);
 * groups, repetitions and alternations hold their bodies as sequences
 * of their own (child, alt).
 *
 *	BRE		ERE		node
 *	c \c		c \c		N_CHAR
 *	.		.		N_ANY
 *	[...]		[...]		N_SET
 *	^ $ (at ends)	^ $		N_BOL, N_EOL
 *	\( \)		( )		N_GROUP
 *	\1..\9		\1..\9		N_BACKREF
 *	* \{m,n\}	* + ? {m,n}	N_REPEAT (also \+ \? in a BRE)
 *	\|		|		N_ALT
 *
 * regexec matches by backtracking, trying each start position in turn.
 * Repetitions are greedy, so the first match found at a start is
 * usually the longest; to get POSIX's leftmost-longest match in the
 * other cases (a|ab) the search goes on after the first match and keeps
 * the longest, within a budget of steps so that a pattern with nested
 * repetitions cannot take exponential time once it has matched.  (A
 * teaching shortcut: before the first match there is no such bound, and
 * a pattern like \(a*\)*c against a long run of a's with no c takes
 * time exponential in the run, as in other backtracking matchers.)
 *
 * The matcher is written in continuation-passing style: step() matches
 * one node and continues with the rest of its sequence; at the end of a
 * sequence it resumes the enclosing construct through a chain of
 * "konts" kept on the C stack.  A function returns 1 to stop the whole
 * search (a match was taken), 0 to backtrack.
 */
#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

enum { N_CHAR, N_ANY, N_SET, N_BOL, N_EOL, N_GROUP, N_BACKREF, N_REPEAT,
	N_ALT };

struct node {
	int	 type;
	int	 c;		/* N_CHAR: byte; N_GROUP, N_BACKREF: number */
	int	 min, max;	/* N_REPEAT: bounds, max -1 for none */
	unsigned char set[32];	/* N_SET: bit c set if byte c is in it */
	struct node *child;	/* N_GROUP, N_REPEAT: body; N_ALT: left */
	struct node *alt;	/* N_ALT: right */
	struct node *next;	/* the next step of the sequence */
	struct node *all;	/* every node of the program, for regfree */
};

struct prog {
	struct node *start;
	struct node *all;
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

static int
inset(const struct node *n, int c)
{
	return (n->set[c >> 3] >> (c & 7)) & 1;
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
	n->set[0] &= ~1;		/* never the terminating NUL */
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
			n->set[0] &= ~1;
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

int
regcomp(regex_t *re, const char *pattern, int cflags)
{
	struct parse ps;
	struct prog *prog;
	struct node *start;

	memset(&ps, 0, sizeof(ps));
	ps.p = pattern;
	ps.cflags = cflags;
	start = parsealt(&ps);
	if (!ps.err && *ps.p != '\0')
		ps.err = REG_EPAREN;
	if (!ps.err && (prog = malloc(sizeof(*prog))) == NULL)
		ps.err = REG_ESPACE;
	if (ps.err) {
		freenodes(ps.all);
		return ps.err;
	}
	prog->start = start;
	prog->all = ps.all;
	re->re_nsub = ps.nsub;
	re->re_cflags = cflags;
	re->re_prog = prog;
	return 0;
}

void
regfree(regex_t *re)
{
	struct prog *prog = re->re_prog;

	if (prog != NULL) {
		freenodes(prog->all);
		free(prog);
		re->re_prog = NULL;
	}
}

/* --- the matcher --- */

/* Steps allowed after the first match, while looking for a longer one. */
#define LONGER_BUDGET	100000

struct match {
	const char *str, *end;	/* the subject */
	int	 cflags, eflags;
	size_t	 nsub;
	regmatch_t *pm;		/* the groups as the search stands */
	regmatch_t *best;	/* those of the longest match so far */
	const char *bestend;	/* NULL: none yet */
	long	 budget;
};

enum { K_SEQ, K_GROUP, K_REPEAT };

struct kont {
	int	 type;
	struct node *n;		/* the construct to resume */
	int	 count;		/* K_REPEAT: iterations done before this one */
	const char *from;	/* K_REPEAT: where this iteration started */
	struct kont *up;
};

static int step(struct match *, struct node *, const char *, struct kont *);

static int
accept(struct match *m, const char *s)
{
	if (m->bestend == NULL || s > m->bestend) {
		m->bestend = s;
		if (m->best != NULL)
			memcpy(m->best, m->pm, (m->nsub + 1) * sizeof(regmatch_t));
	}
	return s == m->end || m->budget <= 0;
}

static int
onechar(struct match *m, struct node *n, const char *s)
{
	int c;

	if (s >= m->end)
		return 0;
	c = (unsigned char)*s;
	if (n->type == N_SET)
		return inset(n, c);
	if (m->cflags & REG_ICASE)
		c = tolower(c);
	return c == n->c;
}

static int
samebytes(struct match *m, const char *a, const char *b, size_t len)
{
	size_t i;

	if (!(m->cflags & REG_ICASE))
		return memcmp(a, b, len) == 0;
	for (i = 0; i < len; i++)
		if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
			return 0;
	return 1;
}

/* The count-th iteration of repetition n (0 first) may start at s. */
static int
repeat(struct match *m, struct node *n, int count, const char *s,
    struct kont *up)
{
	struct node *body = n->child;
	struct kont k;
	int i, most;

	if ((body->type == N_CHAR || body->type == N_SET) && count == 0) {
		/* one character repeated: take as many as allowed, give back */
		for (most = 0; (n->max < 0 || most < n->max) &&
		    onechar(m, body, s + most); most++)
			;
		for (i = most; i >= n->min; i--)
			if (step(m, n->next, s + i, up))
				return 1;
		return 0;
	}
	if (n->max < 0 || count < n->max) {
		k.type = K_REPEAT;
		k.n = n;
		k.count = count;
		k.from = s;
		k.up = up;
		if (step(m, body, s, &k))
			return 1;
	}
	if (count >= n->min)
		return step(m, n->next, s, up);
	return 0;
}

/* The end of a sequence: go on with what encloses it. */
static int
resume(struct match *m, const char *s, struct kont *k)
{
	regmatch_t save;
	struct node *n;

	if (k == NULL)
		return accept(m, s);
	n = k->n;
	switch (k->type) {
	case K_SEQ:
		return step(m, n->next, s, k->up);
	case K_GROUP:
		save = m->pm[n->c];
		m->pm[n->c].rm_so = k->from - m->str;
		m->pm[n->c].rm_eo = s - m->str;
		if (step(m, n->next, s, k->up))
			return 1;
		m->pm[n->c] = save;
		return 0;
	default:
		/*
		 * An empty iteration could repeat for ever.  Beyond the
		 * minimum it adds nothing, so refuse it (the groups keep the
		 * last non-empty one); up to the minimum, let it stand for
		 * all the iterations still required.
		 */
		if (s == k->from)
			return k->count + 1 <= n->min ?
			    step(m, n->next, s, k->up) : 0;
		return repeat(m, n, k->count + 1, s, k->up);
	}
}

static int
step(struct match *m, struct node *n, const char *s, struct kont *up)
{
	struct kont k;
	regmatch_t *g;
	size_t len;

	/* past the budget, the longest match so far is the answer */
	if (m->bestend != NULL && --m->budget <= 0)
		return 1;
	if (n == NULL)
		return resume(m, s, up);
	switch (n->type) {
	case N_CHAR:
	case N_SET:
		return onechar(m, n, s) && step(m, n->next, s + 1, up);
	case N_BOL:
		if ((s == m->str && !(m->eflags & REG_NOTBOL)) ||
		    (s > m->str && s[-1] == '\n' && (m->cflags & REG_NEWLINE)))
			return step(m, n->next, s, up);
		return 0;
	case N_EOL:
		if ((s == m->end && !(m->eflags & REG_NOTEOL)) ||
		    (s < m->end && *s == '\n' && (m->cflags & REG_NEWLINE)))
			return step(m, n->next, s, up);
		return 0;
	case N_BACKREF:
		g = &m->pm[n->c];
		if (g->rm_so < 0)
			return 0;
		len = g->rm_eo - g->rm_so;
		if ((size_t)(m->end - s) < len ||
		    !samebytes(m, m->str + g->rm_so, s, len))
			return 0;
		return step(m, n->next, s + len, up);
	case N_GROUP:
		k.type = K_GROUP;
		k.n = n;
		k.from = s;
		k.up = up;
		return step(m, n->child, s, &k);
	case N_REPEAT:
		return repeat(m, n, 0, s, up);
	case N_ALT:
		k.type = K_SEQ;
		k.n = n;
		k.up = up;
		return step(m, n->child, s, &k) || step(m, n->alt, s, &k);
	}
	return 0;
}

int
regexec(const regex_t *re, const char *string, size_t nmatch,
    regmatch_t pmatch[], int eflags)
{
	struct prog *prog = re->re_prog;
	struct node *first;
	struct match m;
	regmatch_t *pm, local[2 * 10];
	const char *s;
	size_t i, n;

	if (prog == NULL)
		return REG_BADPAT;
	memset(&m, 0, sizeof(m));
	m.str = string;
	m.end = string + strlen(string);
	m.cflags = re->re_cflags;
	m.eflags = eflags;
	m.nsub = re->re_nsub;
	if ((re->re_cflags & REG_NOSUB) || pmatch == NULL)
		nmatch = 0;
	n = m.nsub + 1;
	if (n <= 10)
		pm = local;
	else if ((pm = malloc(2 * n * sizeof(*pm))) == NULL)
		return REG_ESPACE;
	m.pm = pm;
	m.best = nmatch > 0 ? pm + n : NULL;
	/* a pattern that starts with a character: only where it occurs */
	first = prog->start;
	if (first != NULL && (first->type != N_CHAR || (m.cflags & REG_ICASE)))
		first = NULL;
	for (s = string; s <= m.end; s++) {
		if (first != NULL &&
		    (s = memchr(s, first->c, m.end - s)) == NULL)
			break;
		for (i = 0; i < n; i++)
			pm[i].rm_so = pm[i].rm_eo = -1;
		m.budget = LONGER_BUDGET;
		step(&m, prog->start, s, NULL);
		if (m.bestend != NULL)
			break;
		/* anchored at the beginning: only the first position can do */
		if (prog->start != NULL && prog->start->type == N_BOL &&
		    !(m.cflags & REG_NEWLINE))
			break;
	}
	if (m.bestend == NULL) {
		if (pm != local)
			free(pm);
		return REG_NOMATCH;
	}
	for (i = 0; i < nmatch; i++) {
		if (i < n)
			pmatch[i] = m.best[i];
		else
			pmatch[i].rm_so = pmatch[i].rm_eo = -1;
	}
	if (nmatch > 0) {
		pmatch[0].rm_so = s - string;
		pmatch[0].rm_eo = m.bestend - string;
	}
	if (pm != local)
		free(pm);
	return 0;
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
