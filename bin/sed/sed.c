/*
 * sed: the stream editor.
 *
 *	sed [-En] script [file ...]
 *	sed [-En] [-e script] ... [-f script_file] ... [file ...]
 *
 * The script is compiled first into an array of commands, each with up
 * to two addresses (a line number, $ or /re/) and its arguments; '{'
 * knows where its '}' is and b and t know their label's index.  Then
 * each input line is read into the pattern space and the commands run
 * over it in order; at the end of the script the pattern space is
 * written (unless -n) and the text queued by a, r and R is written
 * after it.  Input is read one line ahead, so that $ knows the last
 * line of the last file.
 *
 * Regular expressions are libc's (regcomp(3)): basic, or extended with
 * -E; \n in one stands for a newline, and an empty one for the last one
 * used.  They are matched with REG_STARTEND over the pattern space's
 * length, so a NUL byte in a line is a character like any other.
 */
#include <ctype.h>
#include <err.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct str {
	char	*s;
	size_t	 len, cap;
};

enum { A_NONE, A_LINE, A_LAST, A_RE };

struct addr {
	int	 type;
	long	 line;
	regex_t	*re;		/* NULL: the last regular expression used */
};

struct wfile {
	char	*name;
	FILE	*fp;
	struct wfile *next;
};

struct cmd {
	struct addr a1, a2;
	int	 negate;	/* ! */
	int	 inrange;	/* between a1 and a2 */
	char	 code;
	char	*text;		/* a i c: the text; b t :: label; r: file */
	int	 target;	/* { : after its }; b t: the label's command */
	/* s */
	regex_t	*re;
	char	*repl;
	int	 global, print, nth;
	struct wfile *wf;	/* s///w, w */
	/* y */
	unsigned char map[256];
};

static struct cmd *cmds;
static int ncmds, maxcmds;
static struct wfile *wfiles;
static int nflag, rflags;
static regex_t *lastre;

static struct str ps, hs;	/* pattern space, hold space */
static long lineno;
static int sflag;		/* a substitution since the last line or t */

static char **files;
static FILE *infp;
static const char *inname;
static struct str ahead;	/* the next input line */
static int haveahead, status;

/* text queued by a and r for the end of the cycle */
struct append {
	int	 isfile;
	char	*text;
};
static struct append *appends;
static int nappends, maxappends;

static void
usage(void)
{
	fprintf(stderr, "usage: sed [-En] script [file ...]\n"
	    "       sed [-En] [-e script] ... [-f script_file] ... [file ...]\n");
	exit(1);
}

static void *
xrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n)) == NULL)
		err(1, "out of memory");
	return p;
}

static char *
xstrndup(const char *s, size_t n)
{
	char *p = xrealloc(NULL, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static void
sadd(struct str *d, const char *s, size_t n)
{
	if (d->len + n + 1 > d->cap) {
		d->cap = (d->len + n + 1) * 2;
		d->s = xrealloc(d->s, d->cap);
	}
	memcpy(d->s + d->len, s, n);
	d->len += n;
	d->s[d->len] = '\0';
}

static void
sset(struct str *d, const char *s, size_t n)
{
	d->len = 0;
	sadd(d, s, n);
}

/* --- compiling the script --- */

static const char *script;	/* all -e and -f text, one per line */
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

static void
gety(struct cmd *c)
{
	char *from, *to;
	int delim, i;

	if ((delim = *sp++) == '\0' || delim == '\n' || delim == '\\')
		bad("bad delimiter in y command");
	from = delimited(delim, 0);
	to = delimited(delim, 0);
	for (i = 0; i < 256; i++)
		c->map[i] = i;
	/* delimited() kept \\ as two characters: make them one */
	for (i = 0; from[i] != '\0' || to[i] != '\0'; i++) {
		if (from[i] == '\\' && from[i + 1] == '\\')
			memmove(from + i, from + i + 1, strlen(from + i));
		if (to[i] == '\\' && to[i + 1] == '\\')
			memmove(to + i, to + i + 1, strlen(to + i));
		if (from[i] == '\0' || to[i] == '\0')
			bad("y strings are not the same length");
		c->map[(unsigned char)from[i]] = to[i];
	}
	free(from);
	free(to);
}

static void
compile(void)
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
		case 'H': case 'n': case 'N': case 'p': case 'P': case 'x':
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

/* --- input --- */

/* Read the next line of the files into ahead; 0 at the end of them. */
static int
readahead(void)
{
	static char *buf;
	static size_t cap;
	ssize_t n;

	for (;;) {
		if (infp == NULL) {
			if (*files == NULL)
				return 0;
			inname = *files++;
			if (strcmp(inname, "-") == 0)
				infp = stdin;
			else if ((infp = fopen(inname, "r")) == NULL) {
				warn("%s", inname);
				status = 1;
				continue;
			}
		}
		if ((n = getline(&buf, &cap, infp)) > 0) {
			if (buf[n - 1] == '\n')
				n--;
			sset(&ahead, buf, n);
			return 1;
		}
		if (ferror(infp)) {
			warn("%s", inname);
			status = 1;
		}
		if (infp != stdin)
			fclose(infp);
		infp = NULL;
	}
}

/* The next line into the pattern space (or after it); 0 if none. */
static int
nextline(int append)
{
	if (!haveahead)
		return 0;
	if (append)
		sadd(&ps, "\n", 1);
	else
		ps.len = 0;
	sadd(&ps, ahead.s, ahead.len);
	lineno++;
	haveahead = readahead();
	return 1;
}

/* --- running it --- */

static void
out(FILE *fp, const char *s, size_t n)
{
	fwrite(s, 1, n, fp);
	putc('\n', fp);
}

static void
queue(int isfile, char *text)
{
	if (nappends == maxappends) {
		maxappends = maxappends ? maxappends * 2 : 8;
		appends = xrealloc(appends, maxappends * sizeof(*appends));
	}
	appends[nappends].isfile = isfile;
	appends[nappends].text = text;
	nappends++;
}

static void
flushappends(void)
{
	char buf[4096];
	FILE *fp;
	size_t n;
	int i;

	for (i = 0; i < nappends; i++) {
		if (!appends[i].isfile) {
			fputs(appends[i].text, stdout);
			continue;
		}
		/* r of a file that cannot be read adds nothing (POSIX) */
		if ((fp = fopen(appends[i].text, "r")) == NULL)
			continue;
		while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
			fwrite(buf, 1, n, stdout);
		fclose(fp);
	}
	nappends = 0;
}

/*
 * Match re (NULL: the last one used) against the pattern space from
 * byte from to its end, NUL bytes included; m[0..nm) get offsets from
 * the start of the pattern space.
 */
static int
matchre(regex_t *re, size_t from, size_t nm, regmatch_t *m)
{
	regmatch_t whole[10];

	if (re == NULL) {
		if (lastre == NULL)
			errx(1, "no previous regular expression");
		re = lastre;
	}
	lastre = re;
	if (nm == 0) {
		m = whole;
		nm = 1;
	}
	m[0].rm_so = from;
	m[0].rm_eo = ps.len;
	return regexec(re, ps.s, nm, m,
	    REG_STARTEND | (from > 0 ? REG_NOTBOL : 0)) == 0;
}

static int
matchaddr(struct addr *a)
{
	switch (a->type) {
	case A_LINE:
		return lineno == a->line;
	case A_LAST:
		return !haveahead;
	case A_RE:
		return matchre(a->re, 0, 0, NULL);
	}
	return 1;
}

static int
selected(struct cmd *c)
{
	int r;

	if (c->a1.type == A_NONE)
		r = 1;
	else if (c->a2.type == A_NONE)
		r = matchaddr(&c->a1);
	else if (c->inrange) {
		r = 1;
		if (c->a2.type == A_LINE ? lineno >= c->a2.line :
		    matchaddr(&c->a2))
			c->inrange = 0;
	} else if ((r = matchaddr(&c->a1)) != 0) {
		/* a line-number end at or before this line: one line only */
		c->inrange = c->a2.type != A_LINE || c->a2.line > lineno;
		if (c->a2.type == A_LAST && !haveahead)
			c->inrange = 0;
	}
	return r != c->negate;
}

/* Append the replacement for one match to d (m: offsets in base). */
static void
replace(struct str *d, const char *repl, const char *base, regmatch_t *m,
    size_t nsub)
{
	const char *p;
	int n;

	for (p = repl; *p != '\0'; p++) {
		if (*p == '&') {
			sadd(d, base + m[0].rm_so, m[0].rm_eo - m[0].rm_so);
		} else if (*p == '\\' && p[1] >= '0' && p[1] <= '9') {
			n = *++p - '0';
			if ((size_t)n > nsub)
				errx(1, "\\%d not defined in the RE", n);
			if (m[n].rm_so >= 0)
				sadd(d, base + m[n].rm_so,
				    m[n].rm_eo - m[n].rm_so);
		} else if (*p == '\\' && p[1] != '\0') {
			sadd(d, ++p, 1);
		} else
			sadd(d, p, 1);
	}
}

static int
substitute(struct cmd *c)
{
	static struct str res;
	regmatch_t m[10];
	size_t pos = 0, so, eo, lastend = (size_t)-1;
	int count = 0, did = 0;

	res.len = 0;
	sadd(&res, "", 0);
	while (pos <= ps.len && matchre(c->re, pos, 10, m)) {
		so = m[0].rm_so;
		eo = m[0].rm_eo;
		/* an empty match right after the last match does not count */
		if (so == eo && so == lastend) {
			if (so >= ps.len)
				break;
			sadd(&res, ps.s + pos, so + 1 - pos);
			pos = so + 1;
			continue;
		}
		count++;
		sadd(&res, ps.s + pos, so - pos);
		if (count >= (c->nth ? c->nth : 1)) {
			replace(&res, c->repl, ps.s, m, lastre->re_nsub);
			did = 1;
		} else
			sadd(&res, ps.s + so, eo - so);
		lastend = pos = eo;
		if (did && !c->global)
			break;
		if (so == eo) {
			/* an empty match: the next character stays as it is */
			if (pos >= ps.len)
				break;
			sadd(&res, ps.s + pos, 1);
			pos++;
		}
	}
	if (!did)
		return 0;
	sadd(&res, ps.s + pos, ps.len - pos);
	sset(&ps, res.s, res.len);
	if (c->print)
		out(stdout, ps.s, ps.len);
	if (c->wf != NULL)
		out(c->wf->fp, ps.s, ps.len);
	return 1;
}

static void
quit(void)
{
	struct wfile *w;

	fflush(stdout);
	for (w = wfiles; w != NULL; w = w->next)
		if (w->fp != stdout)
			fclose(w->fp);
	exit(status);
}

/* The end of a cycle: write the pattern space and the queued text. */
static void
endcycle(int print)
{
	if (print && !nflag)
		out(stdout, ps.s, ps.len);
	flushappends();
}

static void
run(void)
{
	struct cmd *c;
	char *nl;
	int pc, i, again = 0;
	struct str t;

	for (;;) {
		if (!again && !nextline(0))
			break;
		again = 0;
		sflag = 0;
		for (pc = 0; pc < ncmds; pc++) {
			c = &cmds[pc];
			if (c->code == '}' || c->code == ':')
				continue;
			if (!selected(c)) {
				if (c->code == '{')
					pc = c->target - 1;
				continue;
			}
			switch (c->code) {
			case '{':
				break;
			case '=':
				printf("%ld\n", lineno);
				break;
			case 'a':
				queue(0, c->text);
				break;
			case 'r':
				queue(1, c->text);
				break;
			case 'i':
				fputs(c->text, stdout);
				break;
			case 'c':
				/* a range is changed into one copy, at its end */
				if (c->a2.type == A_NONE || !c->inrange ||
				    c->negate)
					fputs(c->text, stdout);
				goto delete;
			case 'b':
				pc = c->target - 1;
				break;
			case 't':
				if (sflag) {
					sflag = 0;
					pc = c->target - 1;
				}
				break;
			case 'd':
			delete:
				endcycle(0);
				goto next;
			case 'D':
				if ((nl = memchr(ps.s, '\n', ps.len)) == NULL)
					goto delete;
				i = nl + 1 - ps.s;
				memmove(ps.s, nl + 1, ps.len - i + 1);
				ps.len -= i;
				endcycle(0);
				again = 1;
				goto next;
			case 'g':
				sset(&ps, hs.s ? hs.s : "", hs.len);
				break;
			case 'G':
				sadd(&ps, "\n", 1);
				sadd(&ps, hs.s ? hs.s : "", hs.len);
				break;
			case 'h':
				sset(&hs, ps.s, ps.len);
				break;
			case 'H':
				sadd(&hs, "\n", 1);
				sadd(&hs, ps.s, ps.len);
				break;
			case 'x':
				t = ps;
				ps = hs;
				hs = t;
				if (ps.s == NULL)
					sset(&ps, "", 0);
				break;
			case 'n':
				if (!haveahead)
					goto end;
				endcycle(1);
				nextline(0);
				break;
			case 'N':
				if (!haveahead)
					goto end;
				flushappends();
				nextline(1);
				break;
			case 'p':
				out(stdout, ps.s, ps.len);
				break;
			case 'P':
				nl = memchr(ps.s, '\n', ps.len);
				out(stdout, ps.s, nl ? (size_t)(nl - ps.s) : ps.len);
				break;
			case 'q':
				endcycle(1);
				quit();
				break;
			case 's':
				if (substitute(c))
					sflag = 1;
				break;
			case 'w':
				out(c->wf->fp, ps.s, ps.len);
				break;
			case 'y':
				for (i = 0; (size_t)i < ps.len; i++)
					ps.s[i] = c->map[(unsigned char)ps.s[i]];
				break;
			}
		}
	end:
		endcycle(1);
		if (pc < ncmds && !haveahead)
			break;
	next:
		;
	}
}

static void
addscript(struct str *s, const char *text, size_t n)
{
	sadd(s, text, n);
	sadd(s, "\n", 1);
}

int
main(int argc, char *argv[])
{
	static char *stdinonly[] = { "-", NULL };
	struct str all = { NULL, 0, 0 };
	char buf[4096];
	FILE *fp;
	size_t n;
	int ch, have = 0;

	while ((ch = getopt(argc, argv, "Ee:f:nr")) != -1) {
		switch (ch) {
		case 'E':
		case 'r':
			rflags = REG_EXTENDED;
			break;
		case 'e':
			addscript(&all, optarg, strlen(optarg));
			have = 1;
			break;
		case 'f':
			if ((fp = fopen(optarg, "r")) == NULL)
				err(1, "%s", optarg);
			while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
				sadd(&all, buf, n);
			sadd(&all, "\n", 1);
			fclose(fp);
			have = 1;
			break;
		case 'n':
			nflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (!have) {
		if (argc == 0)
			usage();
		addscript(&all, argv[0], strlen(argv[0]));
		argc--;
		argv++;
	}
	script = all.s;
	compile();
	files = argc > 0 ? argv : stdinonly;
	haveahead = readahead();
	run();
	quit();
	return 0;
}
