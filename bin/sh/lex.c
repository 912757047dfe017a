/*
 * The lexer: turns input characters into tokens.
 *
 * Operators are recognized here (; & | && || ( ) ;; and the
 * redirections < > >> >| <> <& >& << <<-, with an optional descriptor
 * number written just before them, as in 2>&1).  Everything else is a
 * word, kept raw: quotes, backslashes, $VAR, ${...}, $(...), $((...))
 * and `...` stay in the text and are interpreted by expand.c when the
 * command runs.  The lexer only has to find where a word ends, so it
 * tracks quoting and nesting but does not act on them.  Reserved words
 * (if, while, ...) are ordinary words here; the parser recognizes them
 * in command position.
 *
 * Here-documents: the parser registers each "<<" with heredocwanted;
 * when the lexer next reads a newline, it reads the bodies that follow.
 *
 * Aliases (POSIX 2.3.1): when the parser has set aliascheck (a command
 * name may come next) and the word read is an unquoted alias name, the
 * alias's value is pushed as input (input.c: pushalias) and read in the
 * word's place; its first word is checked again, but an alias being
 * expanded is never expanded inside itself.  An alias whose value ends
 * in a blank makes the word after it checked too: input.c sets
 * aliascheck when it reads past the end of such a value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sh.h"

char *tokword;
int tokquoted;
int tokredir;
int tokfd;
int aliascheck;

static enum token lasttok;
static int pushedback;
static struct strbuf wb;	/* the word being read */
static struct redir *heredocs[16];
static int nheredoc;

void
ungettoken(void)
{
	pushedback = 1;
}

void
heredocwanted(struct redir *r)
{
	if (nheredoc == (int)(sizeof(heredocs) / sizeof(heredocs[0])))
		sherror("too many here-documents");
	heredocs[nheredoc++] = r;
}

/* Forget any half-read state, after an error. */
void
lexreset(void)
{
	pushedback = 0;
	nheredoc = 0;
}

static int
nextc(const char *what)
{
	int c;

	if ((c = pgetc()) == PEOF)
		sherror("syntax error: unterminated %s", what);
	if (c == '\n')
		whichprompt = 2;
	return c;
}

static void readdq(void);
static void readdollar(void);

/* After an opening ': copy through the closing one. */
static void
readsq(void)
{
	int c;

	do {
		c = nextc("quoted string");
		sbaddc(&wb, c);
	} while (c != '\'');
}

/* After an opening `: copy through the closing one. */
static void
readbq(void)
{
	int c;

	for (;;) {
		c = nextc("` command substitution");
		sbaddc(&wb, c);
		if (c == '`')
			return;
		if (c == '\\')
			sbaddc(&wb, nextc("` command substitution"));
	}
}

/*
 * After "$(" or "${": copy through the matching close, with quotes and
 * nested substitutions inside.
 */
static void
readnested(int open, int close)
{
	int c, depth;

	for (depth = 1; depth > 0;) {
		c = nextc(open == '(' ? "$(" : "${");
		sbaddc(&wb, c);
		if (c == open)
			depth++;
		else if (c == close)
			depth--;
		else if (c == '\'')
			readsq();
		else if (c == '"')
			readdq();
		else if (c == '`')
			readbq();
		else if (c == '\\')
			sbaddc(&wb, nextc("substitution"));
		else if (c == '$')
			readdollar();
	}
}

/* After a $: if a ( or { follows, copy the whole substitution. */
static void
readdollar(void)
{
	int c;

	c = pgetc();
	if (c == '(' || c == '{') {
		sbaddc(&wb, c);
		readnested(c, c == '(' ? ')' : '}');
	} else
		pungetc();
}

/* After an opening ": copy through the closing one. */
static void
readdq(void)
{
	int c;

	for (;;) {
		c = nextc("quoted string");
		if (c == '\\') {
			c = nextc("quoted string");
			if (c == '\n')		/* line continuation */
				continue;
			sbaddc(&wb, '\\');
			sbaddc(&wb, c);
			continue;
		}
		sbaddc(&wb, c);
		if (c == '"')
			return;
		if (c == '$')
			readdollar();
		else if (c == '`')
			readbq();
	}
}

/* The redirection operator starting with c (< or >). */
static enum token
readredir(int c)
{
	int c2;

	c2 = pgetc();
	if (c == '<') {
		tokredir = R_IN;
		if (c2 == '<') {
			tokredir = R_HEREDOC;
			if (pgetc() == '-')
				tokredir = R_HEREDOCTAB;
			else
				pungetc();
		} else if (c2 == '&')
			tokredir = R_DUPIN;
		else if (c2 == '>')
			tokredir = R_RDWR;
		else
			pungetc();
	} else {
		tokredir = R_OUT;
		if (c2 == '>')
			tokredir = R_APPEND;
		else if (c2 == '&')
			tokredir = R_DUPOUT;
		else if (c2 == '|')
			tokredir = R_CLOBBER;
		else
			pungetc();
	}
	return lasttok = T_REDIR;
}

/* The delimiter of a here-document, with quotes removed. */
static char *
unquote(const char *raw, int *quoted)
{
	struct strbuf sb;
	char *s;

	*quoted = 0;
	sbinit(&sb);
	for (; *raw != '\0'; raw++) {
		if (*raw == '\'' || *raw == '"') {
			*quoted = 1;
			continue;
		}
		if (*raw == '\\' && raw[1] != '\0') {
			*quoted = 1;
			raw++;
		}
		sbaddc(&sb, *raw);
	}
	s = ststrdup(sb.s);
	sbfree(&sb);
	return s;
}

static void
readheredocs(void)
{
	struct strbuf body, line;
	struct redir *r;
	char *delim;
	int i, c;

	for (i = 0; i < nheredoc; i++) {
		r = heredocs[i];
		delim = unquote(r->target, &r->quoted);
		sbinit(&body);
		sbinit(&line);
		for (;;) {
			line.len = 0;
			while ((c = pgetc()) != PEOF && c != '\n')
				if (c != '\t' || line.len > 0 ||
				    r->type != R_HEREDOCTAB)
					sbaddc(&line, c);
			line.s[line.len] = '\0';
			if (strcmp(line.s, delim) == 0 ||
			    (c == PEOF && line.len == 0))
				break;
			sbadd(&body, line.s, line.len);
			sbaddc(&body, '\n');
			if (c == PEOF)
				break;
		}
		r->target = ststrdup(body.s);
		sbfree(&body);
		sbfree(&line);
	}
	nheredoc = 0;
}

static enum token
readword(int c)
{
	char *p;

	if (wb.s == NULL)
		sbinit(&wb);
	wb.len = 0;
	tokquoted = 0;
	for (;; c = pgetc()) {
		switch (c) {
		case PEOF:
			goto done;
		case ' ': case '\t': case '\n': case ';': case '&': case '|':
		case '(': case ')': case '<': case '>':
			pungetc();
			goto done;
		case '\'':
			tokquoted = 1;
			sbaddc(&wb, c);
			readsq();
			break;
		case '"':
			tokquoted = 1;
			sbaddc(&wb, c);
			readdq();
			break;
		case '\\':
			if ((c = pgetc()) == '\n')
				continue;	/* line continuation */
			tokquoted = 1;
			sbaddc(&wb, '\\');
			if (c == PEOF)
				goto done;
			sbaddc(&wb, c);
			break;
		case '$':
			sbaddc(&wb, c);
			readdollar();
			break;
		case '`':
			sbaddc(&wb, c);
			readbq();
			break;
		default:
			sbaddc(&wb, c);
			break;
		}
	}
done:
	/* A number just before < or > is the descriptor to redirect. */
	if (c == '<' || c == '>') {
		for (p = wb.s; *p >= '0' && *p <= '9'; p++)
			continue;
		if (*p == '\0' && wb.len > 0 && wb.len < 4) {
			tokfd = atoi(wb.s);
			pgetc();
			return readredir(c);
		}
	}
	tokword = ststrndup(wb.s, wb.len);
	return lasttok = T_WORD;
}

static enum token readtoken(void);

/*
 * Is the word just read an alias to replace?  If so its value is now
 * the input.
 */
static int
expandalias(void)
{
	const char *value;

	if (!aliascheck || tokquoted ||
	    (value = lookupalias(tokword)) == NULL || aliasactive(tokword))
		return 0;
	pushalias(tokword, value);
	return 1;
}

enum token
gettoken(void)
{
	enum token t;

	if (!pushedback) {
		popaliases();
		while ((t = readtoken()) == T_WORD && expandalias())
			continue;
	}
	pushedback = 0;
	if (lasttok != T_NL)
		aliascheck = 0;
	return lasttok;
}

static enum token
readtoken(void)
{
	int c;

	for (;;) {
		c = pgetc();
		if (c == ' ' || c == '\t')
			continue;
		if (c == '\\') {
			if (pgetc() == '\n')
				continue;	/* line continuation */
			pungetc();
		}
		break;
	}
	if (c == '#') {
		while ((c = pgetc()) != '\n' && c != PEOF)
			continue;
	}
	tokfd = -1;
	switch (c) {
	case PEOF:
		return lasttok = T_EOF;
	case '\n':
		whichprompt = 2;
		if (nheredoc > 0)
			readheredocs();
		return lasttok = T_NL;
	case '&':
		if (pgetc() == '&')
			return lasttok = T_ANDIF;
		pungetc();
		return lasttok = T_AMP;
	case '|':
		if (pgetc() == '|')
			return lasttok = T_ORIF;
		pungetc();
		return lasttok = T_PIPE;
	case ';':
		if (pgetc() == ';')
			return lasttok = T_DSEMI;
		pungetc();
		return lasttok = T_SEMI;
	case '(':
		return lasttok = T_LPAREN;
	case ')':
		return lasttok = T_RPAREN;
	case '<':
	case '>':
		return readredir(c);
	default:
		markword();
		return readword(c);
	}
}

const char *
tokname(enum token t)
{
	static const char *const names[] = {
		"end of file", "newline", ";", "&", "|", "&&", "||", "(",
		")", ";;", "word", "redirection",
	};

	if (t == T_WORD)
		return tokword;
	return names[t];
}
