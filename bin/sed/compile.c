/*
 * sed: the script, compiled into an array of commands.
 *
 * Each command has up to two addresses, a '!', its letter and its
 * arguments; '{' knows the index after its '}', b and t their label's
 * index (or the end).  Regular expressions are compiled here; an empty
 * one is NULL, the last one used when the script runs.  Errors name the
 * script's line.
 */
#include <ctype.h>
#include <err.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extern.h"

struct cmd *cmds;
int ncmds;
struct wfile *wfiles;

static int maxcmds;
static const char *sp;		/* where the compiler is */
static int sline;

static void
bad(const char *msg)
{
	errx(1, "%d: %s", sline, msg);
}

static void
skipblanks(void)
{
	while (*sp == ' ' || *sp == '\t')
		sp++;
}

static struct wfile *
openw(const char *name)
{
	struct wfile *w;

	for (w = wfiles; w != NULL; w = w->next)
		if (strcmp(w->name, name) == 0)
			return w;
	w = xrealloc(NULL, sizeof(*w));
	w->name = xstrndup(name, strlen(name));
	if (strcmp(name, "/dev/stdout") == 0)
		w->fp = stdout;
	else if ((w->fp = fopen(name, "w")) == NULL)
		err(1, "%s", name);
	w->next = wfiles;
	wfiles = w;
	return w;
}

/*
 * The text delimited by delim starting at sp, with \delim made delim and
 * \n made a newline; in a regular expression (isre) the delimiter does
 * not end it inside a bracket expression and other escapes are kept.
 */
static char *
delimited(int delim, int isre)
{
	struct str t = { NULL, 0, 0 };
	char c;

	sadd(&t, "", 0);
	for (;;) {
		c = *sp;
		if (c == '\0' || (c == '\n' && isre))
			bad("unterminated regular expression or replacement");
		if (c == delim) {
			sp++;
			return t.s;
		}
		if (c == '\\' && sp[1] != '\0') {
			sp += 2;
			if (sp[-1] == delim)
				sadd(&t, &sp[-1], 1);
			else if (sp[-1] == 'n')
				sadd(&t, "\n", 1);
			else if (sp[-1] == '\n' && !isre)
				sadd(&t, "\n", 1);
			else
				sadd(&t, sp - 2, 2);
			continue;
		}
		if (c == '[' && isre) {
			/* a bracket expression, ] first and [:class:] included */
			const char *p = sp + 1;

			if (*p == '^')
				p++;
			if (*p == ']')
				p++;
			while (*p != '\0' && *p != ']' && *p != '\n') {
				if (p[0] == '[' && (p[1] == ':' || p[1] == '.' ||
				    p[1] == '=')) {
					const char *e = strchr(p + 2, p[1]);

					if (e != NULL && e[1] == ']')
						p = e + 1;
				}
				p++;
			}
			if (*p == ']') {
				sadd(&t, sp, p + 1 - sp);
				sp = p + 1;
				continue;
			}
		}
		sadd(&t, &c, 1);
		sp++;
	}
}

static regex_t *
compilere(const char *pat, int icase)
{
	regex_t *re;
	char msg[100];
	int e;

	if (*pat == '\0')
		return NULL;
	re = xrealloc(NULL, sizeof(*re));
	if ((e = regcomp(re, pat, rflags | (icase ? REG_ICASE : 0))) != 0) {
		regerror(e, re, msg, sizeof(msg));
		errx(1, "%d: \"%s\": %s", sline, pat, msg);
	}
	return re;
}

static int
getaddr(struct addr *a)
{
	int delim;

	if (isdigit((unsigned char)*sp)) {
		a->type = A_LINE;
		a->line = strtol(sp, (char **)&sp, 10);
		return 1;
	}
	if (*sp == '$') {
		sp++;
		a->type = A_LAST;
		return 1;
	}
	if (*sp == '/' || *sp == '\\') {
		if (*sp == '\\')
			sp++;
		if ((delim = *sp++) == '\0' || delim == '\n' || delim == '\\')
			bad("bad regular expression delimiter");
		a->type = A_RE;
		a->re = compilere(delimited(delim, 1), 0);
		return 1;
	}
	return 0;
}

/* The rest of the line (a label or a file name), trailing blanks cut. */
static char *
restofline(int stopsemi)
{
	const char *s;
	size_t n;

	skipblanks();
	s = sp;
	while (*sp != '\0' && *sp != '\n' && !(stopsemi && *sp == ';'))
		sp++;
	n = sp - s;
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return xstrndup(s, n);
}

/*
 * The text of a, i and c: after a\ and a newline, lines ending in a
 * backslash continue it; the one-line form "a text" is also taken.
 * Backslashes are removed, keeping the character after each.
 */
static char *
gettext(void)
{
	struct str t = { NULL, 0, 0 };

	sadd(&t, "", 0);
	skipblanks();
	if (sp[0] == '\\' && sp[1] == '\n')
		sp += 2;
	else if (*sp == '\\')
		sp++;
	else
		skipblanks();
	/* as in 4.4BSD, each line loses its leading blanks (\ keeps them) */
	for (skipblanks(); *sp != '\0' && *sp != '\n'; sp++) {
		if (*sp == '\\' && sp[1] != '\0') {
			sp++;
			if (*sp == '\n') {
				sadd(&t, sp++, 1);
				skipblanks();
				sp--;
				continue;
			}
		}
		sadd(&t, sp, 1);
	}
	sadd(&t, "\n", 1);
	return t.s;
}

static void
getsubst(struct cmd *c)
{
	int delim, icase = 0;
	char *pat, *p;

	if ((delim = *sp++) == '\0' || delim == '\n' || delim == '\\')
		bad("bad delimiter in substitute command");
	pat = delimited(delim, 1);
	c->repl = delimited(delim, 0);
	for (;;) {
		if (*sp == 'g')
			c->global = 1;
		else if (*sp == 'p')
			c->print = 1;
		else if (*sp == 'I' || *sp == 'i')
			icase = 1;
		else if (isdigit((unsigned char)*sp)) {
			c->nth = strtol(sp, (char **)&sp, 10);
			if (c->nth == 0)
				bad("the occurrence number must be positive");
			continue;
		} else if (*sp == 'w') {
			sp++;
			c->wf = openw(restofline(0));
			break;
		} else
			break;
		sp++;
	}
	c->re = compilere(pat, icase);
	free(pat);
	for (p = c->repl; c->re != NULL && *p != '\0'; p++)
		if (*p == '\\' && p[1] != '\0' && *++p >= '1' && *p <= '9' &&
		    (size_t)(*p - '0') > c->re->re_nsub)
			errx(1, "%d: \\%c not defined in the RE", sline, *p);
}

/* delimited() keeps \\ as two characters; in y it is one backslash */
static size_t
unescape(char *s)
{
	char *d = s, *start = s;

	for (; *s != '\0'; s++) {
		if (s[0] == '\\' && s[1] == '\\')
			s++;
		*d++ = *s;
	}
	*d = '\0';
	return d - start;
}

static void
gety(struct cmd *c)
{
	char *from, *to;
	size_t i, n;
	int delim;

	if ((delim = *sp++) == '\0' || delim == '\n' || delim == '\\')
		bad("bad delimiter in y command");
	from = delimited(delim, 0);
	to = delimited(delim, 0);
	if ((n = unescape(from)) != unescape(to))
		bad("y strings are not the same length");
	for (i = 0; i < 256; i++)
		c->map[i] = i;
	for (i = 0; i < n; i++)
		c->map[(unsigned char)from[i]] = to[i];
	free(from);
	free(to);
}

void
compile(const char *script)
{
	int stack[64], depth = 0, i, j;
	struct cmd *c;

	sp = script;
	sline = 1;
	if (sp[0] == '#' && sp[1] == 'n' && sp[2] == '\n')
		nflag = 1;
	for (;;) {
		while (*sp == ' ' || *sp == '\t' || *sp == ';' || *sp == '\n') {
			if (*sp == '\n')
				sline++;
			sp++;
		}
		if (*sp == '\0')
			break;
		if (*sp == '#') {
			while (*sp != '\0' && *sp != '\n')
				sp++;
			continue;
		}
		if (ncmds == maxcmds) {
			maxcmds = maxcmds ? maxcmds * 2 : 32;
			cmds = xrealloc(cmds, maxcmds * sizeof(*cmds));
		}
		c = &cmds[ncmds];
		memset(c, 0, sizeof(*c));
		if (getaddr(&c->a1)) {
			skipblanks();
			if (*sp == ',') {
				sp++;
				skipblanks();
				if (!getaddr(&c->a2))
					bad("expected a second address");
			}
		}
		skipblanks();
		while (*sp == '!') {
			c->negate = 1;
			sp++;
			skipblanks();
		}
		c->code = *sp;
		if (*sp != '\0')
			sp++;
		switch (c->code) {
		case '{':
			if (depth == 64)
				bad("blocks nested too deeply");
			stack[depth++] = ncmds;
			break;
		case '}':
			if (c->a1.type != A_NONE)
				bad("} takes no address");
			if (depth == 0)
				bad("unexpected }");
			cmds[stack[--depth]].target = ncmds + 1;
			break;
		case ':':
			if (c->a1.type != A_NONE)
				bad(": takes no address");
			c->text = restofline(1);
			if (c->text[0] == '\0')
				bad("a label needs a name");
			break;
		case '=': case 'd': case 'D': case 'g': case 'G': case 'h':
		case 'H': case 'l': case 'n': case 'N': case 'p': case 'P':
		case 'x':
			break;
		case 'q':
			if (c->a2.type != A_NONE)
				bad("q takes one address");
			break;
		case 'a': case 'i':
			if (c->a2.type != A_NONE && c->code == 'i')
				bad("i takes one address");
			c->text = gettext();
			break;
		case 'c':
			c->text = gettext();
			break;
		case 'b': case 't':
			c->text = restofline(1);
			break;
		case 'r':
			c->text = restofline(0);
			break;
		case 'w':
			c->wf = openw(restofline(0));
			break;
		case 's':
			getsubst(c);
			break;
		case 'y':
			gety(c);
			break;
		case '\0':
			bad("missing command");
			break;
		default:
			errx(1, "%d: unknown command '%c'", sline, c->code);
		}
		ncmds++;
		skipblanks();
		if (c->code != '{' && *sp != '\0' && *sp != '\n' && *sp != ';' && *sp != '}' &&
		    *sp != '#')
			errx(1, "%d: extra characters after command", sline);
	}
	if (depth > 0)
		bad("unmatched {");
	for (i = 0; i < ncmds; i++) {
		c = &cmds[i];
		if ((c->code != 'b' && c->code != 't'))
			continue;
		c->target = ncmds;
		if (c->text[0] == '\0')
			continue;
		for (j = 0; j < ncmds; j++)
			if (cmds[j].code == ':' &&
			    strcmp(cmds[j].text, c->text) == 0)
				break;
		if (j == ncmds)
			errx(1, "undefined label: %s", c->text);
		c->target = j;
	}
}
