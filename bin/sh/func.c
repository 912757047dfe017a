/*
 * Shell functions: name() compound-command.
 *
 * Defining a function copies its body out of the parse stack (which is
 * popped after every command) into malloc'ed memory owned by the
 * function; every piece is recorded in the function's list of blocks so
 * that dropping the function frees them all.  A call runs the body in
 * the shell itself with the call's arguments as $1 ... $#, and puts the
 * caller's back afterwards, even when an error unwinds through the call.
 * "return [n]" unwinds the body through evalskip, like break.  Loops
 * outside the function are not the body's to break.
 *
 * A function may be redefined or unset while it runs (f() { unset -f f;
 * ...; }): the running body stays alive until its last call returns.
 * Calls nest at most MAXFUNCNEST deep: a runaway recursion is an error,
 * not a crash when the stack runs out.
 */
#include <stdlib.h>
#include <string.h>

#include "sh.h"

#define MAXFUNCNEST	1000	/* each call takes about 0.5 KB of stack, more
				   with nested compound commands; 8 MB holds */

struct funcdef {
	struct funcdef *next;
	char	*name;
	struct node *body;
	void	**blocks;	/* everything malloc'ed for the body */
	int	 nblocks;
	int	 refs;		/* calls running, plus 1 while defined */
};

static struct funcdef *funcs;
int funcnest;

static void *
falloc(struct funcdef *f, size_t n)
{
	void *p;

	p = ckmalloc(n);
	f->blocks = ckrealloc(f->blocks, (f->nblocks + 1) * sizeof(void *));
	f->blocks[f->nblocks++] = p;
	return p;
}

static char *
fstr(struct funcdef *f, const char *s)
{
	return s == NULL ? NULL : strcpy(falloc(f, strlen(s) + 1), s);
}

static struct word *
copywords(struct funcdef *f, struct word *w)
{
	struct word *head, **tail, *c;

	head = NULL;
	tail = &head;
	for (; w != NULL; w = w->next) {
		c = falloc(f, sizeof(*c));
		c->text = fstr(f, w->text);
		c->next = NULL;
		*tail = c;
		tail = &c->next;
	}
	return head;
}

static struct redir *
copyredirs(struct funcdef *f, struct redir *r)
{
	struct redir *head, **tail, *c;

	head = NULL;
	tail = &head;
	for (; r != NULL; r = r->next) {
		c = falloc(f, sizeof(*c));
		*c = *r;
		c->target = fstr(f, r->target);
		c->next = NULL;
		*tail = c;
		tail = &c->next;
	}
	return head;
}

static struct node *
copytree(struct funcdef *f, struct node *n)
{
	struct caseitem *ci, *cc, **ctail;
	struct node *c;

	if (n == NULL)
		return NULL;
	c = falloc(f, sizeof(*c));
	*c = *n;
	c->left = copytree(f, n->left);
	c->right = copytree(f, n->right);
	c->els = copytree(f, n->els);
	c->words = copywords(f, n->words);
	c->assigns = copywords(f, n->assigns);
	c->redir = copyredirs(f, n->redir);
	c->var = fstr(f, n->var);
	c->cases = NULL;
	ctail = &c->cases;
	for (ci = n->cases; ci != NULL; ci = ci->next) {
		cc = falloc(f, sizeof(*cc));
		cc->pats = copywords(f, ci->pats);
		cc->body = copytree(f, ci->body);
		cc->next = NULL;
		*ctail = cc;
		ctail = &cc->next;
	}
	return c;
}

static void
release(struct funcdef *f)
{
	int i;

	if (--f->refs > 0)
		return;
	for (i = 0; i < f->nblocks; i++)
		free(f->blocks[i]);
	free(f->blocks);
	free(f->name);
	free(f);
}

static struct funcdef **
lookup(const char *name)
{
	struct funcdef **fpp;

	for (fpp = &funcs; *fpp != NULL; fpp = &(*fpp)->next)
		if (strcmp((*fpp)->name, name) == 0)
			break;
	return fpp;
}

struct funcdef *
findfunc(const char *name)
{
	return *lookup(name);
}

/* Print function name's definition (type); 1 if there is none. */
int
printfunc(const char *name)
{
	struct funcdef *f = findfunc(name);

	if (f == NULL)
		return 1;
	showfunc(f->name, f->body);
	return 0;
}

void
defunc(const char *name, struct node *body)
{
	struct funcdef *f;

	unsetfunc(name);
	f = ckmalloc(sizeof(*f));
	memset(f, 0, sizeof(*f));
	f->name = savestr(name);
	f->refs = 1;
	f->body = copytree(f, body);
	f->next = funcs;
	funcs = f;
}

/* Returns 0 if there was such a function. */
int
unsetfunc(const char *name)
{
	struct funcdef **fpp, *f;

	fpp = lookup(name);
	if ((f = *fpp) == NULL)
		return 1;
	*fpp = f->next;
	release(f);
	return 0;
}

/*
 * Run f with argv[1..argc-1] as its positional parameters.  flags:
 * only EV_TESTED passes to the body (a call is never the shell's last
 * command: the caller exits after it if it must).
 */
int
callfunc(struct funcdef *f, int argc, char **argv, int flags)
{
	struct jmploc jmploc, *volatile saved;
	struct paramsave ps;
	volatile int oloopnest;
	int status;

	if (funcnest >= MAXFUNCNEST)
		sherror("%s: function calls nested too deeply", argv[0]);
	f->refs++;
	saveparams(&ps, argc - 1, argv + 1);
	oloopnest = loopnest;
	saved = handler;
	if (setjmp(jmploc.jb)) {
		/* an error inside: put the caller's state back, pass it on */
		handler = saved;
		funcnest--;
		loopnest = oloopnest;
		restoreparams(&ps);
		release(f);
		exraise(exception);
	}
	handler = &jmploc;
	funcnest++;
	loopnest = 0;
	status = evaltree(f->body, flags & EV_TESTED);
	if (evalskip == SKIPRETURN)
		evalskip = 0;
	funcnest--;
	loopnest = oloopnest;
	handler = saved;
	restoreparams(&ps);
	release(f);
	return status;
}
