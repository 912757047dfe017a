/*
 * The parser: recursive descent over the tokens, building the tree that
 * exec.c evaluates.  The grammar, as implemented:
 *
 *	cmdline:  list (NEWLINE | EOF)
 *	list:	  andor ((';' | '&' | NEWLINE) andor)*	  (NEWLINE only
 *		  inside compound commands; at top level it ends the line)
 *	andor:	  pipeline (('&&' | '||') newlines pipeline)*
 *	pipeline: ['!'] command ('|' newlines command)*
 *	command:  simple | compound redirection* | function
 *	function: NAME '(' ')' newlines compound redirection*
 *	compound: '(' list ')' | '{' list '}'
 *		| if list then list (elif list then list)* [else list] fi
 *		| while list do list done | until list do list done
 *		| for NAME [in word*] (';' | NEWLINE) do list done
 *		| case word in ([(] pat ('|' pat)* ')' list [';;'])* esac
 *	simple:	  (NAME=value | word | redirection)+
 *
 * Reserved words are recognized only where a command may start and only
 * unquoted.  Where a command name may come, the parser sets aliascheck
 * before the lexer reads the word, and the lexer replaces an alias
 * there.  A syntax error reports the unexpected token and abandons the
 * command line.
 */
#include <stdio.h>
#include <string.h>

#include "sh.h"

static struct node *list(int);
static struct node *andor(void);
static struct node *command(void);

static struct node *
mknode(enum ntype type)
{
	struct node *n;

	n = stalloc(sizeof(*n));
	memset(n, 0, sizeof(*n));
	n->type = type;
	return n;
}

static struct node *
mkbinary(enum ntype type, struct node *left, struct node *right)
{
	struct node *n;

	n = mknode(type);
	n->left = left;
	n->right = right;
	return n;
}

static void __attribute__((__noreturn__))
unexpected(enum token t)
{
	if (t == T_WORD)
		sherror("syntax error: unexpected `%s'", tokword);
	sherror("syntax error: unexpected %s", tokname(t));
}

/* Is the token the unquoted reserved word kw? */
static int
iskeyword(enum token t, const char *kw)
{
	return t == T_WORD && !tokquoted && strcmp(tokword, kw) == 0;
}

/* Words that end a list: they belong to an enclosing construct. */
static int
isterminator(enum token t)
{
	static const char *const kw[] = { "then", "else", "elif", "fi", "do",
	    "done", "esac", "}", NULL };
	int i;

	if (t == T_RPAREN || t == T_DSEMI || t == T_EOF)
		return 1;
	for (i = 0; kw[i] != NULL; i++)
		if (iskeyword(t, kw[i]))
			return 1;
	return 0;
}

static void
expectkw(const char *kw)
{
	enum token t;

	if (!iskeyword(t = gettoken(), kw)) {
		if (t == T_EOF)
			sherror("syntax error: unexpected end of file "
			    "(expecting `%s')", kw);
		unexpected(t);
	}
}

static void
skipnewlines(void)
{
	while (gettoken() == T_NL)
		continue;
	ungettoken();
}

int
isname(const char *s)
{
	if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return 0;
	for (s++; *s != '\0'; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') ||
		    (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
			return 0;
	return 1;
}

/* NAME=... with NAME unquoted. */
int
isassignment(const char *s)
{
	const char *p;

	for (p = s; *p == '_' || (*p >= 'a' && *p <= 'z') ||
	    (*p >= 'A' && *p <= 'Z') || (p > s && *p >= '0' && *p <= '9'); p++)
		continue;
	return p > s && *p == '=';
}

static struct word *
mkword(const char *text)
{
	struct word *w;

	w = stalloc(sizeof(*w));
	w->next = NULL;
	w->text = (char *)text;
	return w;
}

/* After a redirection operator: its target word. */
static struct redir *
redirection(void)
{
	struct redir *r;
	enum token t;
	int type, fd;

	type = tokredir;
	fd = tokfd;
	if ((t = gettoken()) != T_WORD)
		unexpected(t);
	r = stalloc(sizeof(*r));
	r->next = NULL;
	r->type = type;
	r->target = tokword;
	r->quoted = 0;
	if (fd < 0)
		fd = type == R_IN || type == R_DUPIN || type == R_RDWR ||
		    type == R_HEREDOC || type == R_HEREDOCTAB ? 0 : 1;
	r->fd = fd;
	if (type == R_HEREDOC || type == R_HEREDOCTAB)
		heredocwanted(r);
	return r;
}

/* Redirections after a compound command. */
static struct redir *
redirections(void)
{
	struct redir *head, **tail;

	head = NULL;
	tail = &head;
	while (gettoken() == T_REDIR) {
		*tail = redirection();
		tail = &(*tail)->next;
	}
	ungettoken();
	return head;
}

/* After "name(": the rest of a function definition. */
static struct node *
function(struct node *n)
{
	enum token t;

	if (!isname(n->words->text))
		sherror("syntax error: bad function name `%s'", n->words->text);
	if ((t = gettoken()) != T_RPAREN)
		unexpected(t);
	skipnewlines();
	n->type = N_DEFUN;
	n->var = n->words->text;
	n->words = NULL;
	n->left = command();
	if (n->left->type == N_CMD || n->left->type == N_DEFUN)
		sherror("syntax error: a function body must be a compound "
		    "command");
	return n;
}

static struct node *
simplecmd(void)
{
	struct word **wtail, **atail;
	struct redir **rtail;
	struct node *n;
	enum token t;

	n = mknode(N_CMD);
	wtail = &n->words;
	atail = &n->assigns;
	rtail = &n->redir;
	for (;;) {
		if (n->words == NULL)
			aliascheck = 1;		/* the command name may come */
		t = gettoken();
		if (t == T_WORD) {
			if (n->words == NULL && isassignment(tokword)) {
				*atail = mkword(tokword);
				atail = &(*atail)->next;
			} else {
				*wtail = mkword(tokword);
				wtail = &(*wtail)->next;
			}
		} else if (t == T_REDIR) {
			*rtail = redirection();
			rtail = &(*rtail)->next;
		} else if (t == T_LPAREN && n->words != NULL &&
		    n->words->next == NULL && n->assigns == NULL &&
		    n->redir == NULL)
			return function(n);
		else
			break;
	}
	ungettoken();
	return n;
}

/* A list that must not be empty (the body of a compound command). */
static struct node *
body(void)
{
	struct node *n;
	enum token t;

	if ((n = list(0)) == NULL) {
		t = gettoken();
		unexpected(t);
	}
	return n;
}

static struct node *
ifcmd(void)
{
	struct node *n;
	enum token t;

	n = mknode(N_IF);
	n->left = body();
	expectkw("then");
	n->right = body();
	t = gettoken();
	if (iskeyword(t, "elif"))
		n->els = ifcmd();	/* the nested if ends at our fi */
	else {
		if (iskeyword(t, "else")) {
			n->els = body();
			t = gettoken();
		}
		if (!iskeyword(t, "fi"))
			unexpected(t);
	}
	return n;
}

static struct node *
loopcmd(enum ntype type)
{
	struct node *n;

	n = mknode(type);
	n->left = body();
	expectkw("do");
	n->right = body();
	expectkw("done");
	return n;
}

static struct node *
forcmd(void)
{
	struct word **tail;
	struct node *n;
	enum token t;

	n = mknode(N_FOR);
	if ((t = gettoken()) != T_WORD || !isname(tokword))
		sherror("syntax error: bad for loop variable");
	n->var = tokword;
	tail = &n->words;
	skipnewlines();
	t = gettoken();
	if (iskeyword(t, "in")) {
		while ((t = gettoken()) == T_WORD) {
			*tail = mkword(tokword);
			tail = &(*tail)->next;
		}
		if (t != T_SEMI && t != T_NL)
			unexpected(t);
	} else {
		n->forall = 1;
		if (t != T_SEMI)
			ungettoken();
	}
	skipnewlines();
	expectkw("do");
	n->right = list(0);
	expectkw("done");
	return n;
}

static struct node *
casecmd(void)
{
	struct caseitem **tail, *ci;
	struct word **ptail;
	struct node *n;
	enum token t;

	n = mknode(N_CASE);
	if ((t = gettoken()) != T_WORD)
		unexpected(t);
	n->words = mkword(tokword);
	skipnewlines();
	expectkw("in");
	tail = &n->cases;
	for (;;) {
		skipnewlines();
		t = gettoken();
		if (iskeyword(t, "esac"))
			break;
		if (t == T_LPAREN)
			t = gettoken();
		ci = stalloc(sizeof(*ci));
		memset(ci, 0, sizeof(*ci));
		ptail = &ci->pats;
		for (;;) {
			if (t != T_WORD)
				unexpected(t);
			*ptail = mkword(tokword);
			ptail = &(*ptail)->next;
			if ((t = gettoken()) != T_PIPE)
				break;
			t = gettoken();
		}
		if (t != T_RPAREN)
			unexpected(t);
		ci->body = list(0);
		*tail = ci;
		tail = &ci->next;
		if ((t = gettoken()) != T_DSEMI) {
			if (!iskeyword(t, "esac"))
				unexpected(t);
			break;
		}
	}
	return n;
}

static struct node *
command(void)
{
	struct node *n;
	enum token t;

	t = gettoken();
	if (t == T_LPAREN) {
		n = mknode(N_SUBSHELL);
		n->left = body();
		if ((t = gettoken()) != T_RPAREN)
			unexpected(t);
	} else if (iskeyword(t, "{")) {
		n = mknode(N_BRACE);
		n->left = body();
		expectkw("}");
	} else if (iskeyword(t, "if"))
		n = ifcmd();
	else if (iskeyword(t, "while"))
		n = loopcmd(N_WHILE);
	else if (iskeyword(t, "until"))
		n = loopcmd(N_UNTIL);
	else if (iskeyword(t, "for"))
		n = forcmd();
	else if (iskeyword(t, "case"))
		n = casecmd();
	else if (t == T_WORD || t == T_REDIR) {
		ungettoken();
		return simplecmd();
	} else
		unexpected(t);
	n->redir = redirections();
	return n;
}

static struct node *
pipeline(void)
{
	struct node *n, *first, **tail;
	enum token t;
	int negate;

	negate = 0;
	if (iskeyword(t = gettoken(), "!"))
		negate = 1;
	else
		ungettoken();
	aliascheck = 1;
	first = command();
	tail = &first;
	while ((t = gettoken()) == T_PIPE) {
		aliascheck = 1;
		skipnewlines();
		*tail = mkbinary(N_PIPE, *tail, command());
		tail = &(*tail)->right;
	}
	ungettoken();
	n = first;
	if (negate) {
		n = mknode(N_NOT);
		n->left = first;
	}
	return n;
}

static struct node *
andor(void)
{
	struct node *n;
	enum token t;

	n = pipeline();
	for (;;) {
		t = gettoken();
		if (t != T_ANDIF && t != T_ORIF) {
			ungettoken();
			return n;
		}
		aliascheck = 1;
		skipnewlines();
		n = mkbinary(t == T_ANDIF ? N_AND : N_OR, n, pipeline());
	}
}

/*
 * A list of and-or lists.  At top level a newline ends it; inside a
 * compound command newlines separate like ';'.  Returns NULL for an
 * empty list.
 */
static struct node *
list(int top)
{
	struct node *n, *a;
	enum token t;

	n = NULL;
	for (;;) {
		aliascheck = 1;
		if (!top)
			skipnewlines();
		t = gettoken();
		ungettoken();
		if (isterminator(t) || t == T_NL || t == T_SEMI || t == T_AMP)
			break;
		a = andor();
		t = gettoken();
		if (t == T_AMP) {
			struct node *bg = mknode(N_BG);

			bg->left = a;
			a = bg;
		}
		n = n == NULL ? a : mkbinary(N_SEQ, n, a);
		if (t == T_SEMI || t == T_AMP)
			continue;
		if (t == T_NL && !top)
			continue;
		ungettoken();
		break;
	}
	return n;
}

/*
 * Read one command line.  Returns its tree, NULL for an empty line, or
 * NEOF at end of input.
 */
struct node *
parsecmd(void)
{
	struct node *n;
	enum token t;

	whichprompt = 1;
	lexreset();
	aliascheck = 1;
	t = gettoken();
	if (t == T_EOF)
		return NEOF;
	if (t == T_NL)
		return NULL;
	ungettoken();
	n = list(1);
	t = gettoken();
	if (t != T_NL && t != T_EOF)
		unexpected(t);
	if (t == T_EOF)
		ungettoken();	/* the next call sees the end */
	return n;
}
