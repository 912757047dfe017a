/*
 * Word expansion, done just before a command runs:
 *	tilde		~ and ~user at the start of a word
 *	parameters	$name ${name} $1 ${10} $# $? $$ $! $- $0 $@ $*
 *			${#name} ${name-w} ${name:-w} ${name=w} ${name:=w}
 *			${name+w} ${name:+w} ${name?w} ${name:?w}
 *			${name#pat} ${name##pat} ${name%pat} ${name%%pat}
 *	commands	$(...) and `...`
 *	arithmetic	$((...))
 *	then field splitting on $IFS, pathname expansion (glob.c) and
 *	quote removal.
 *
 * The raw word is walked once, character by character, into an
 * expansion buffer where every character carries an attribute saying
 * how it may still change: A_LIT (unquoted text: may glob), A_QUOTED
 * (taken literally), A_SPLIT (the unquoted result of an expansion: may
 * be split and may glob).  Two attributes mark positions without a
 * character: A_MARK (a quote was here, so the field exists even if
 * empty: "") and A_BREAK (a field boundary from "$@").  The buffer is
 * then cut into fields and each field is globbed if it has unquoted
 * pattern characters.
 */
#include <errno.h>
#include <fnmatch.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sh.h"

#define A_LIT		'L'
#define A_QUOTED	'Q'
#define A_SPLIT		'S'
#define A_MARK		'M'
#define A_BREAK		'B'

struct ebuf {
	struct strbuf chars;
	struct strbuf attrs;
	int	 flags;		/* EXP_* */
};

static void walk(struct ebuf *, const char *, int);

static void
eput(struct ebuf *e, int c, int attr)
{
	sbaddc(&e->chars, c);
	sbaddc(&e->attrs, attr);
}

/* Insert the value of an expansion: quoted inside "...", else split. */
static void
insert(struct ebuf *e, const char *s, int dq)
{
	int attr;

	if (dq || (e->flags & EXP_HEREDOC))
		attr = A_QUOTED;
	else if (e->flags & EXP_PATTERN)
		attr = A_LIT;
	else if (e->flags & EXP_FULL)
		attr = A_SPLIT;
	else
		attr = A_QUOTED;
	for (; *s != '\0'; s++)
		eput(e, *s, attr);
}

void
arglistadd(struct arglist *al, char *s)
{
	char **nv;

	if (al->n == al->cap) {
		al->cap = al->cap == 0 ? 16 : al->cap * 2;
		nv = stalloc(al->cap * sizeof(char *));
		if (al->n > 0)
			memcpy(nv, al->v, al->n * sizeof(char *));
		al->v = nv;
	}
	al->v[al->n++] = s;
}

/*
 * The end of a nested construct starting at p (which points at the
 * opening character): the matching close, skipping quotes and nested
 * substitutions.  The lexer has checked that it is there.
 */
static const char *
matching(const char *p, int open, int close)
{
	int depth;

	for (depth = 0; *p != '\0'; p++) {
		if (*p == open)
			depth++;
		else if (*p == close) {
			if (--depth == 0)
				return p;
		} else if (*p == '\\' && p[1] != '\0')
			p++;
		else if (*p == '\'') {
			while (p[1] != '\0' && *++p != '\'')
				continue;
		} else if (*p == '"') {
			for (p++; *p != '\0' && *p != '"'; p++) {
				if (*p == '\\' && p[1] != '\0')
					p++;
				else if (*p == '$' && (p[1] == '(' || p[1] == '{'))
					p = matching(p + 1, p[1],
					    p[1] == '(' ? ')' : '}');
			}
		} else if (*p == '`') {
			while (p[1] != '\0' && *++p != '`')
				if (*p == '\\' && p[1] != '\0')
					p++;
		}
		if (*p == '\0')
			break;
	}
	return p;
}

/* Run cmd in a subshell and return its output, minus trailing newlines. */
char *
cmdsubst(const char *cmd)
{
	struct strbuf out;
	struct job *jp;
	char buf[512], *s;
	int pip[2], n;

	if (pipe(pip) < 0)
		sherror("cannot create pipe: %s", strerror(errno));
	jp = makejob(1);
	if (forkshell(jp, FORK_NOJOB) == 0) {
		close(pip[0]);
		if (pip[1] != 1) {
			dup2(pip[1], 1);
			close(pip[1]);
		}
		evalstring(cmd, EV_EXIT);
	}
	close(pip[1]);
	sbinit(&out);
	for (;;) {
		n = read(pip[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		sbadd(&out, buf, n);
	}
	close(pip[0]);
	exitstatus = substatus = waitforjob(jp);
	while (out.len > 0 && out.s[out.len - 1] == '\n')
		out.s[--out.len] = '\0';
	s = ststrdup(out.s);
	sbfree(&out);
	return s;
}

/* The value of a parameter other than $@ and $*, or NULL if unset. */
static char *
paramval(const char *name)
{
	static char num[24];
	int n;

	if (name[1] == '\0') {
		switch (name[0]) {
		case '?':
			snprintf(num, sizeof(num), "%d", exitstatus);
			return num;
		case '$':
			snprintf(num, sizeof(num), "%d", (int)rootpid);
			return num;
		case '!':
			if (backgndpid < 0)
				return NULL;
			snprintf(num, sizeof(num), "%d", (int)backgndpid);
			return num;
		case '#':
			snprintf(num, sizeof(num), "%d", nparam);
			return num;
		case '-':
			return optflags();
		case '0':
			return arg0;
		}
	}
	if (name[0] >= '0' && name[0] <= '9') {
		n = atoi(name);
		return n >= 1 && n <= nparam ? params[n - 1] : NULL;
	}
	return lookupvar(name);
}

/* $@ and $*: the positional parameters as separate fields or joined. */
static void
insertall(struct ebuf *e, int c, int dq)
{
	const char *ifs;
	char sep[2];
	int i;

	ifs = lookupvar("IFS");
	sep[0] = ifs == NULL ? ' ' : ifs[0];
	sep[1] = '\0';
	for (i = 0; i < nparam; i++) {
		if (i > 0) {
			if ((c == '@' || !dq) && (e->flags & EXP_FULL))
				eput(e, '\0', A_BREAK);
			else if (sep[0] != '\0')
				insert(e, sep, 1);
		}
		if (dq)
			eput(e, '\0', A_MARK);
		insert(e, params[i], dq);
	}
}

/* Remove the shortest or longest prefix or suffix matching pat. */
static char *
trim(const char *val, const char *pat, int op, int longest)
{
	size_t len, i, k;
	char *s;
	int c;

	s = ststrdup(val);
	len = strlen(s);
	for (k = 0; k <= len; k++) {
		i = longest ? len - k : k;	/* length of the piece tried */
		if (op == '#') {
			c = s[i];
			s[i] = '\0';
			if (fnmatch(pat, s, 0) == 0) {
				s[i] = c;
				return s + i;
			}
			s[i] = c;
		} else if (fnmatch(pat, s + len - i, 0) == 0) {
			s[len - i] = '\0';
			return s;
		}
	}
	return s;
}

/*
 * ${...}: p points at the '{'.  Returns the position after the '}'.
 */
static const char *
braced(struct ebuf *e, const char *p, int dq)
{
	const char *end, *q, *word;
	char name[64], *val, *w;
	int op, colon, length, set;
	size_t n;

	end = matching(p, '{', '}');
	q = p + 1;
	length = 0;
	if (*q == '#' && q[1] != '}') {
		length = 1;
		q++;
	}
	n = 0;
	if (*q == '_' || (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z')) {
		while (n < sizeof(name) - 1 && (*q == '_' ||
		    (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
		    (*q >= '0' && *q <= '9')))
			name[n++] = *q++;
	} else if (*q >= '0' && *q <= '9') {
		while (n < sizeof(name) - 1 && *q >= '0' && *q <= '9')
			name[n++] = *q++;
	} else if (*q != '\0' && strchr("?$!#-@*", *q) != NULL)
		name[n++] = *q++;
	name[n] = '\0';
	if (n == 0)
		sherror("bad substitution");
	colon = *q == ':';
	if (colon)
		q++;
	op = q < end ? *q : '}';
	if (op != '}' && strchr("-=+?#%", op) == NULL)
		sherror("bad substitution");
	if (length && (op != '}' || colon))
		sherror("bad substitution");
	if ((op == '#' || op == '%') && colon)
		sherror("bad substitution");

	if (strcmp(name, "@") == 0 || strcmp(name, "*") == 0) {
		if (length) {
			char num[24];

			snprintf(num, sizeof(num), "%d", nparam);
			insert(e, num, dq);
			return end + 1;
		}
		if (op == '}' || ((op == '-' || op == '=') && nparam > 0) ||
		    (op == '+' && nparam == 0)) {
			insertall(e, name[0], dq);
			return end + 1;
		}
		val = NULL;
		set = nparam > 0;
	} else {
		val = paramval(name);
		set = val != NULL && (!colon || *val != '\0');
	}
	if (length) {
		char num[24];

		snprintf(num, sizeof(num), "%d", val != NULL ? (int)strlen(val) : 0);
		insert(e, num, dq);
		return end + 1;
	}
	if (op == '}') {
		if (val != NULL)
			insert(e, val, dq);
		return end + 1;
	}
	word = ststrndup(q + 1 + (op == q[1] && (op == '#' || op == '%')),
	    end - q - 1 - (op == q[1] && (op == '#' || op == '%')));
	switch (op) {
	case '-':
		if (set)
			insert(e, val, dq);
		else
			walk(e, word, dq);
		break;
	case '+':
		if (set)
			walk(e, word, dq);
		break;
	case '=':
		if (!set) {
			if (!isname(name))
				sherror("%s: cannot assign in this way", name);
			w = expandword(word, EXP_TILDE);
			setvar(name, w, 0);
			val = w;
		}
		insert(e, val, dq);
		break;
	case '?':
		if (!set) {
			w = *word != '\0' ? expandword(word, EXP_TILDE) :
			    "parameter null or not set";
			sherror("%s: %s", name, w);
		}
		insert(e, val, dq);
		break;
	case '#':
	case '%':
		if (val != NULL)
			insert(e, trim(val, expandword(word, EXP_PATTERN), op,
			    q[1] == op), dq);
		break;
	}
	return end + 1;
}

/* A $ at p: returns the position after the expansion. */
static const char *
dollar(struct ebuf *e, const char *p, int dq)
{
	const char *q, *end;
	char name[64], num[24];
	size_t n;
	char *val;

	q = p + 1;
	if (*q == '(') {
		end = matching(q, '(', ')');
		if (q[1] == '(' && end > q + 1 && end[-1] == ')') {
			val = expandword(ststrndup(q + 2, end - q - 3), 0);
			snprintf(num, sizeof(num), "%ld", arith(val));
			insert(e, num, dq);
		} else
			insert(e, cmdsubst(ststrndup(q + 1, end - q - 1)), dq);
		return *end == '\0' ? end : end + 1;
	}
	if (*q == '{')
		return braced(e, q, dq);
	if (*q == '@' || *q == '*') {
		insertall(e, *q, dq);
		return q + 1;
	}
	if (*q != '\0' && strchr("?$!#-0123456789", *q) != NULL) {
		name[0] = *q;
		name[1] = '\0';
		if ((val = paramval(name)) != NULL)
			insert(e, val, dq);
		return q + 1;
	}
	n = 0;
	while (n < sizeof(name) - 1 && (*q == '_' || (*q >= 'a' && *q <= 'z') ||
	    (*q >= 'A' && *q <= 'Z') || (n > 0 && *q >= '0' && *q <= '9')))
		name[n++] = *q++;
	name[n] = '\0';
	if (n == 0) {
		eput(e, '$', dq ? A_QUOTED : A_LIT);	/* a lone $ */
		return p + 1;
	}
	if ((val = lookupvar(name)) != NULL)
		insert(e, val, dq);
	return q;
}

/* `...`: p points at the opening backquote. */
static const char *
backquote(struct ebuf *e, const char *p, int dq)
{
	struct strbuf cmd;
	const char *q;
	char *out;

	sbinit(&cmd);
	for (q = p + 1; *q != '\0' && *q != '`'; q++) {
		if (*q == '\\' && (q[1] == '`' || q[1] == '\\' || q[1] == '$'))
			q++;
		sbaddc(&cmd, *q);
	}
	out = cmdsubst(cmd.s);
	sbfree(&cmd);
	insert(e, out, dq);
	return *q == '\0' ? q : q + 1;
}

/* ~ or ~user at the start of a word: p points at the ~. */
static const char *
tilde(struct ebuf *e, const char *p)
{
	struct passwd *pw;
	const char *q, *home;
	char *user;

	for (q = p + 1; *q != '\0' && *q != '/'; q++)
		if (strchr("\"'\\$`", *q) != NULL) {
			eput(e, '~', A_LIT);	/* quoted: not a tilde prefix */
			return p + 1;
		}
	if (q == p + 1)
		home = lookupvar("HOME");
	else {
		user = ststrndup(p + 1, q - p - 1);
		pw = getpwnam(user);
		home = pw != NULL ? pw->pw_dir : NULL;
	}
	if (home == NULL) {
		eput(e, '~', A_LIT);
		return p + 1;
	}
	for (; *home != '\0'; home++)
		eput(e, *home, A_QUOTED);
	return q;
}

/* Walk the raw text s into the buffer; dq: inside double quotes. */
static void
walk(struct ebuf *e, const char *s, int dq)
{
	const char *p;
	int heredoc;

	heredoc = e->flags & EXP_HEREDOC;
	for (p = s; *p != '\0';) {
		switch (*p) {
		case '\'':
			if (dq || heredoc)
				break;
			eput(e, '\0', A_MARK);
			for (p++; *p != '\0' && *p != '\''; p++)
				eput(e, *p, A_QUOTED);
			if (*p != '\0')
				p++;
			continue;
		case '"':
			if (heredoc)
				break;
			/* "$@" with no parameters is no field at all */
			if (!dq && strncmp(p, "\"$@\"", 4) == 0 && nparam == 0) {
				p += 4;
				continue;
			}
			dq = !dq;
			eput(e, '\0', A_MARK);
			p++;
			continue;
		case '\\':
			if (p[1] == '\0')
				break;
			if ((dq || heredoc) && strchr("$`\"\\\n", p[1]) == NULL) {
				eput(e, '\\', A_QUOTED);
				p++;
				continue;
			}
			if (heredoc && p[1] == '"') {
				eput(e, '\\', A_QUOTED);
				p++;
				continue;
			}
			eput(e, p[1], A_QUOTED);
			p += 2;
			continue;
		case '$':
			p = dollar(e, p, dq);
			continue;
		case '`':
			p = backquote(e, p, dq);
			continue;
		case '~':
			if (p == s && !dq && !heredoc && (e->flags & EXP_TILDE)) {
				p = tilde(e, p);
				continue;
			}
			break;
		}
		eput(e, *p, dq || heredoc ? A_QUOTED : A_LIT);
		p++;
	}
}

/* A field in the making: its text, its pattern, whether it globs. */
struct field {
	struct strbuf text;
	struct strbuf pat;
	int	 exists;	/* has characters or a quote mark */
	int	 meta;		/* has unquoted * ? [ */
};

static void
fieldinit(struct field *f)
{
	f->text.len = 0;
	f->text.s[0] = '\0';
	f->pat.len = 0;
	f->pat.s[0] = '\0';
	f->exists = 0;
	f->meta = 0;
}

static void
fieldadd(struct field *f, int c, int attr)
{
	f->exists = 1;
	if (attr == A_MARK)
		return;
	sbaddc(&f->text, c);
	if (attr == A_QUOTED || c == '\\') {
		if (strchr("*?[]\\", c) != NULL)
			sbaddc(&f->pat, '\\');
	} else if (c == '*' || c == '?' || c == '[')
		f->meta = 1;
	sbaddc(&f->pat, c);
}

static void
fieldend(struct field *f, struct arglist *out, int flags)
{
	if (!f->exists)
		return;
	if ((flags & EXP_FULL) && f->meta && glob1(f->pat.s, out) > 0) {
		fieldinit(f);
		return;
	}
	arglistadd(out, ststrdup((flags & EXP_PATTERN) ? f->pat.s : f->text.s));
	fieldinit(f);
}

/* Cut the buffer into fields at $IFS characters of A_SPLIT text. */
static void
split(struct ebuf *e, struct arglist *out, int flags)
{
	struct field f;
	const char *ifs;
	size_t i;
	int c, a;

	sbinit(&f.text);
	sbinit(&f.pat);
	fieldinit(&f);
	if ((ifs = lookupvar("IFS")) == NULL)
		ifs = " \t\n";
	for (i = 0; i < e->chars.len; i++) {
		c = (unsigned char)e->chars.s[i];
		a = e->attrs.s[i];
		if (a == A_BREAK) {
			fieldend(&f, out, flags);
			continue;
		}
		if (a == A_SPLIT && (flags & EXP_FULL) && c != '\0' &&
		    strchr(ifs, c) != NULL) {
			if (c == ' ' || c == '\t' || c == '\n') {
				fieldend(&f, out, flags);
				continue;
			}
			f.exists = 1;	/* a non-blank separator ends a field */
			fieldend(&f, out, flags);
			continue;
		}
		fieldadd(&f, c, a);
	}
	if (!(flags & EXP_FULL))
		f.exists = 1;	/* one string, even if empty */
	fieldend(&f, out, flags);
	sbfree(&f.text);
	sbfree(&f.pat);
}

/* Expand raw into fields appended to out. */
void
expandarg(const char *raw, struct arglist *out, int flags)
{
	struct ebuf e;

	sbinit(&e.chars);
	sbinit(&e.attrs);
	e.flags = flags;
	walk(&e, raw, 0);
	split(&e, out, flags);
	sbfree(&e.chars);
	sbfree(&e.attrs);
}

/* Expand raw into one string: no field splitting, no globbing. */
char *
expandword(const char *raw, int flags)
{
	struct arglist al;

	al.v = NULL;
	al.n = al.cap = 0;
	expandarg(raw, &al, flags & ~EXP_FULL);
	return al.n > 0 ? al.v[0] : ststrdup("");
}
