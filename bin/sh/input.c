/*
 * Where commands come from: the terminal, a script file, or a string
 * (sh -c, eval, command substitution).  Inputs form a stack so that "."
 * can read a file and return to the outer input.
 *
 * pgetc returns the next character; pungetc gives back the last one.
 * Reading the terminal prints the prompt first: PS1 before a new
 * command, PS2 inside one (whichprompt, set by the parser and lexer);
 * with set -E the line is edited and kept in the history (histedit.c).
 * A ^C while waiting at the prompt interrupts read(2) and abandons the
 * line.  When the shell reads its commands from a non-terminal standard
 * input, it reads a byte at a time, so that a command that reads the
 * same standard input finds it positioned just after its command line.
 *
 * An alias being replaced (lex.c) is an input too, pushed on top of the
 * one its name was read from.  When its text is used up pgetc goes on
 * with the input below, but the alias stays on the stack until the
 * lexer starts its next token (popaliases), so that the word that ended
 * the text can still see the alias as active and not expand it again
 * (markword, aliasactive).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sh.h"

#define INBUFSIZ	1024

struct input {
	struct input *prev;
	int	 fd;		/* -1 for a string */
	char	*p;		/* next character */
	int	 left;		/* characters left at p */
	int	 prompt;	/* print prompts: the terminal */
	int	 bytewise;	/* read a byte at a time */
	int	 eof;		/* the file has ended */
	int	 lasteof;	/* the last pgetc returned PEOF */
	int	 lineno;
	int	 ownfd;		/* close fd when popped */
	char	*alias;		/* an alias's text: the alias's name */
	char	*text;		/* the alias's text (malloc'ed) */
	char	 buf[INBUFSIZ];
};

static struct input *in;
static struct input *readfrom;	/* where the last pgetc read */
static struct input *wordfrom;	/* where the lexer's word began */
static int depth;
int whichprompt = 1;
int plinno;

/* The prompt for the next line: PS1 before a command, PS2 inside one. */
static const char *
prompt(void)
{
	const char *ps;

	if (whichprompt == 1) {
		showjobs(0);
		ps = lookupvar("PS1");
	} else
		ps = lookupvar("PS2");
	return ps != NULL ? ps : "";
}

static int
refill(struct input *ip)
{
	int n;

	if (ip->fd < 0 || ip->eof)
		return 0;
	for (;;) {
		if (ip->prompt && Eflag && isatty(ip->fd))
			n = editline(ip->fd, prompt(), ip->buf, INBUFSIZ);
		else {
			if (ip->prompt) {
				fputs(prompt(), stderr);
				fflush(stderr);
			}
			n = read(ip->fd, ip->buf, ip->bytewise ? 1 : INBUFSIZ);
		}
		if (n >= 0 || errno != EINTR)
			break;
		if (intpending) {
			intpending = 0;
			if (ip->prompt)
				fputc('\n', stderr);
			onint();
		}
	}
	if (n <= 0) {
		ip->eof = 1;
		return 0;
	}
	ip->p = ip->buf;
	ip->left = n;
	return n;
}

int
pgetc(void)
{
	struct input *ip;
	int c;

	/* Past the end of aliases: on with the input below. */
	for (ip = in; ip->alias != NULL && ip->left <= 0; ip = ip->prev)
		if (ip->text[0] != '\0' &&
		    strchr(" \t", ip->text[strlen(ip->text) - 1]) != NULL)
			aliascheck = 1;	/* POSIX: the next word is checked */
	readfrom = ip;
	if (ip->left <= 0 && refill(ip) <= 0) {
		ip->lasteof = 1;
		return PEOF;
	}
	ip->lasteof = 0;
	ip->left--;
	c = (unsigned char)*ip->p++;
	if (c == '\n')
		plinno = ++ip->lineno;
	return c;
}

void
pungetc(void)
{
	struct input *ip;

	if ((ip = readfrom) == NULL || ip->lasteof)
		return;
	ip->p--;
	ip->left++;
	if (*ip->p == '\n')
		plinno = --ip->lineno;
}

static struct input *
pushinput(void)
{
	struct input *ip;

	ip = ckmalloc(sizeof(*ip));
	memset(ip, 0, sizeof(*ip));
	ip->prev = in;
	ip->lineno = 1;
	in = ip;
	depth++;
	return ip;
}

/* Read commands from fd; prompt if interactive. */
void
setinputfd(int fd, int interactive)
{
	struct input *ip;

	ip = pushinput();
	ip->fd = fd;
	ip->prompt = interactive;
	ip->bytewise = fd == 0 && !interactive;
	plinno = 1;
}

int
setinputfile(const char *path)
{
	int fd;

	if ((fd = open(path, O_RDONLY)) < 0)
		return -1;
	fd = privatefd(fd);
	setinputfd(fd, 0);
	in->ownfd = 1;
	return 0;
}

void
setinputstring(const char *s)
{
	struct input *ip;

	ip = pushinput();
	ip->fd = -1;
	ip->p = (char *)s;
	ip->left = strlen(s);
	plinno = 1;
}

/* Read an alias's value in place of its name. */
void
pushalias(const char *name, const char *value)
{
	struct input *ip;

	ip = pushinput();
	ip->fd = -1;
	ip->alias = savestr(name);
	ip->text = savestr(value);
	ip->p = ip->text;
	ip->left = strlen(value);
	ip->lineno = in->prev->lineno;
}

/* The lexer is starting a word with the character just read. */
void
markword(void)
{
	wordfrom = readfrom;
}

/*
 * Is the word just read part of the text of alias name?  It is if its
 * first character came from that alias, or from an alias (or string)
 * read in its place: the inputs from wordfrom down.  An alias used up
 * before the word began does not count.
 */
int
aliasactive(const char *name)
{
	struct input *ip;

	for (ip = wordfrom; ip != NULL && ip->alias != NULL; ip = ip->prev)
		if (strcmp(ip->alias, name) == 0)
			return 1;
	return 0;
}

static void
pop1(void)
{
	struct input *ip;

	ip = in;
	if (ip->ownfd)
		close(ip->fd);
	in = ip->prev;
	depth--;
	if (readfrom == ip)
		readfrom = NULL;
	if (wordfrom == ip)
		wordfrom = NULL;
	free(ip->alias);
	free(ip->text);
	free(ip);
	if (in != NULL)
		plinno = in->lineno;
}

/* Drop the aliases whose text has been read. */
void
popaliases(void)
{
	while (in != NULL && in->alias != NULL && in->left <= 0)
		pop1();
}

/* Pop the input on top (with any aliases read from it). */
void
popinput(void)
{
	while (in->alias != NULL)
		pop1();
	pop1();
}

/* Pop back to the outermost input, and drop what is left of its line. */
void
popallinput(void)
{
	while (depth > 1)
		pop1();
	if (in != NULL && in->prompt)
		in->left = 0;
}

int
inputdepth(void)
{
	return depth;
}
