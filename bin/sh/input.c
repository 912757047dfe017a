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
	char	 buf[INBUFSIZ];
};

static struct input *in;
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
refill(void)
{
	int n;

	if (in->fd < 0 || in->eof)
		return 0;
	for (;;) {
		if (in->prompt && Eflag && isatty(in->fd))
			n = editline(in->fd, prompt(), in->buf, INBUFSIZ);
		else {
			if (in->prompt) {
				fputs(prompt(), stderr);
				fflush(stderr);
			}
			n = read(in->fd, in->buf, in->bytewise ? 1 : INBUFSIZ);
		}
		if (n >= 0 || errno != EINTR)
			break;
		if (intpending) {
			intpending = 0;
			if (in->prompt)
				fputc('\n', stderr);
			onint();
		}
	}
	if (n <= 0) {
		in->eof = 1;
		return 0;
	}
	in->p = in->buf;
	in->left = n;
	return n;
}

int
pgetc(void)
{
	int c;

	if (in->left <= 0 && refill() <= 0) {
		in->lasteof = 1;
		return PEOF;
	}
	in->lasteof = 0;
	in->left--;
	c = (unsigned char)*in->p++;
	if (c == '\n')
		plinno = ++in->lineno;
	return c;
}

void
pungetc(void)
{
	if (in->lasteof)
		return;
	in->p--;
	in->left++;
	if (*in->p == '\n')
		plinno = --in->lineno;
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

void
popinput(void)
{
	struct input *ip;

	ip = in;
	if (ip->ownfd)
		close(ip->fd);
	in = ip->prev;
	depth--;
	free(ip);
	if (in != NULL)
		plinno = in->lineno;
}

/* Pop back to the outermost input, and drop what is left of its line. */
void
popallinput(void)
{
	while (depth > 1)
		popinput();
	if (in != NULL && in->prompt)
		in->left = 0;
}

int
inputdepth(void)
{
	return depth;
}
