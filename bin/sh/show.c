/*
 * The parse tree as shell text again: what "type NAME" prints for a
 * function.  Words are printed as they were typed (the tree keeps them
 * raw, quotes and $ included), compound commands one part to a line,
 * indented by a tab for each level, and here-documents after the line
 * that asks for them, so that what is printed reads back as the same
 * function.
 */
#include <stdio.h>

#include "sh.h"

static const char *const redirops[] = {
	[R_IN] = "<", [R_OUT] = ">", [R_CLOBBER] = ">|", [R_APPEND] = ">>",
	[R_RDWR] = "<>", [R_DUPIN] = "<&", [R_DUPOUT] = ">&",
	[R_HEREDOC] = "<<", [R_HEREDOCTAB] = "<<-",
};

#define MAXPENDING	16
static struct redir *pending[MAXPENDING];	/* here-documents to print */
static int npending;

static void shownode(const struct node *, int);

static void
indent(int level)
{
	while (level-- > 0)
		putchar('\t');
}

/* The end of a line: then the bodies of the here-documents on it. */
static void
endline(void)
{
	int i;

	putchar('\n');
	for (i = 0; i < npending; i++)
		printf("%sEOF\n", pending[i]->target);
	npending = 0;
}

static void
showwords(const struct word *w, const char *sep)
{
	for (; w != NULL; w = w->next)
		printf("%s%s", w->text, w->next != NULL ? sep : "");
}

static void
showredirs(const struct redir *r)
{
	for (; r != NULL; r = r->next) {
		int deffd = r->type == R_IN || r->type == R_RDWR ||
		    r->type == R_DUPIN || r->type == R_HEREDOC ||
		    r->type == R_HEREDOCTAB ? 0 : 1;

		putchar(' ');
		if (r->fd != deffd)
			printf("%d", r->fd);
		printf("%s", redirops[r->type]);
		if (r->type == R_HEREDOC || r->type == R_HEREDOCTAB) {
			/* the body is kept, not the delimiter: call it EOF */
			printf("%s", r->quoted ? "'EOF'" : "EOF");
			if (npending < MAXPENDING)
				pending[npending++] = (struct redir *)r;
		} else
			printf("%s", r->target);
	}
}

/* A list of commands, each on a line of its own at level. */
static void
showlist(const struct node *n, int level)
{
	if (n != NULL && n->type == N_SEQ) {
		showlist(n->left, level);
		showlist(n->right, level);
		return;
	}
	indent(level);
	shownode(n, level);
	endline();
}

/* open, then body a level in, then close at level: do ... done and the like. */
static void
showblock(const char *open, const struct node *body, int level,
    const char *close)
{
	printf("%s", open);
	endline();
	showlist(body, level + 1);
	indent(level);
	printf("%s", close);
}

/* A command inside a line (the pieces of && || | ! &). */
static void
shownode(const struct node *n, int level)
{
	const struct caseitem *c;

	if (n == NULL)
		return;
	switch (n->type) {
	case N_CMD:
		showwords(n->assigns, " ");
		if (n->assigns != NULL && n->words != NULL)
			putchar(' ');
		showwords(n->words, " ");
		break;
	case N_PIPE:
	case N_AND:
	case N_OR:
		shownode(n->left, level);
		printf(" %s ", n->type == N_PIPE ? "|" :
		    n->type == N_AND ? "&&" : "||");
		shownode(n->right, level);
		break;
	case N_SEQ:			/* inside a line: ; between */
		shownode(n->left, level);
		printf("; ");
		shownode(n->right, level);
		break;
	case N_BG:
		shownode(n->left, level);
		printf(" &");
		break;
	case N_NOT:
		printf("! ");
		shownode(n->left, level);
		break;
	case N_SUBSHELL:
	case N_BRACE:
		showblock(n->type == N_SUBSHELL ? "(" : "{", n->left, level,
		    n->type == N_SUBSHELL ? ")" : "}");
		break;
	case N_IF:
		printf("if ");
		for (;;) {
			shownode(n->left, level);
			printf("; then");
			endline();
			showlist(n->right, level + 1);
			if (n->els == NULL || n->els->type != N_IF ||
			    n->els->redir != NULL)
				break;
			n = n->els;	/* else if: elif */
			indent(level);
			printf("elif ");
		}
		indent(level);
		if (n->els != NULL)
			showblock("else", n->els, level, "fi");
		else
			printf("fi");
		break;
	case N_WHILE:
	case N_UNTIL:
		printf("%s ", n->type == N_WHILE ? "while" : "until");
		shownode(n->left, level);
		showblock("; do", n->right, level, "done");
		break;
	case N_FOR:
		printf("for %s", n->var);
		if (!n->forall) {
			printf(" in ");
			showwords(n->words, " ");
		}
		showblock("; do", n->right, level, "done");
		break;
	case N_CASE:
		printf("case ");
		showwords(n->words, " ");
		printf(" in");
		endline();
		for (c = n->cases; c != NULL; c = c->next) {
			indent(level + 1);
			showwords(c->pats, " | ");
			printf(")");
			endline();
			if (c->body != NULL)
				showlist(c->body, level + 2);
			indent(level + 2);
			printf(";;");
			endline();
		}
		indent(level);
		printf("esac");
		break;
	case N_DEFUN:
		printf("%s() ", n->var);
		shownode(n->left, level);
		break;
	}
	showredirs(n->redir);
}

/* name() body, as a definition that reads back as the same function. */
void
showfunc(const char *name, const struct node *body)
{
	npending = 0;
	printf("%s() ", name);
	shownode(body, 0);
	endline();
}
