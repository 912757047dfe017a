/*
 * Memory for the shell.
 *
 * Parse trees and the results of expansion are short-lived and freed in
 * the reverse order of allocation, so they come from a stack: stalloc
 * bumps a pointer in the current block (a new block is malloc'ed when it
 * is full), setstackmark remembers the top, and popstackmark frees
 * everything allocated since.  The command loop pops after each command,
 * evalcommand after each simple command, so loops do not pile up memory.
 *
 * Long-lived data (variables, jobs) uses ckmalloc, which never returns
 * NULL: running out of memory ends the shell.  struct strbuf is a string
 * that grows as characters are added.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sh.h"

#define MINBLOCK	4096
#define ALIGN(n)	(((n) + 7) & ~(size_t)7)

struct stackblock {
	struct stackblock *prev;
	char	 space[];
};

static struct stackblock *stackp;	/* the newest block */
static char *stacknext;			/* next free byte in it */
static size_t stacknleft;		/* bytes left in it */

void *
ckmalloc(size_t n)
{
	void *p;

	if ((p = malloc(n)) == NULL) {
		write(2, "sh: out of memory\n", 18);
		_exit(2);
	}
	return p;
}

void *
ckrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n)) == NULL) {
		write(2, "sh: out of memory\n", 18);
		_exit(2);
	}
	return p;
}

char *
savestr(const char *s)
{
	return strcpy(ckmalloc(strlen(s) + 1), s);
}

void *
stalloc(size_t n)
{
	struct stackblock *sp;
	size_t blocksize;
	char *p;

	n = ALIGN(n);
	if (n > stacknleft) {
		blocksize = n > MINBLOCK ? n : MINBLOCK;
		sp = ckmalloc(sizeof(*sp) + blocksize);
		sp->prev = stackp;
		stackp = sp;
		stacknext = sp->space;
		stacknleft = blocksize;
	}
	p = stacknext;
	stacknext += n;
	stacknleft -= n;
	return p;
}

char *
ststrndup(const char *s, size_t n)
{
	char *p;

	p = stalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
ststrdup(const char *s)
{
	return ststrndup(s, strlen(s));
}

void
setstackmark(struct stackmark *m)
{
	m->block = stackp;
	m->next = stacknext;
	m->nleft = stacknleft;
}

void
popstackmark(struct stackmark *m)
{
	struct stackblock *sp;

	while (stackp != m->block) {
		sp = stackp;
		stackp = sp->prev;
		free(sp);
	}
	stacknext = m->next;
	stacknleft = m->nleft;
}

void
sbinit(struct strbuf *sb)
{
	sb->cap = 64;
	sb->s = ckmalloc(sb->cap);
	sb->len = 0;
	sb->s[0] = '\0';
}

void
sbadd(struct strbuf *sb, const char *s, size_t n)
{
	if (sb->len + n + 1 > sb->cap) {
		while (sb->len + n + 1 > sb->cap)
			sb->cap *= 2;
		sb->s = ckrealloc(sb->s, sb->cap);
	}
	memcpy(sb->s + sb->len, s, n);
	sb->len += n;
	sb->s[sb->len] = '\0';
}

void
sbaddc(struct strbuf *sb, int c)
{
	char ch = c;

	sbadd(sb, &ch, 1);
}

void
sbaddstr(struct strbuf *sb, const char *s)
{
	sbadd(sb, s, strlen(s));
}

void
sbfree(struct strbuf *sb)
{
	free(sb->s);
	sb->s = NULL;
}
