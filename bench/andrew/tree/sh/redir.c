/*
 * Redirections.  For a command run in a child, they are simply applied
 * before exec.  For a built-in command or a compound command run in the
 * shell itself, redirect(..., REDIR_PUSH) first saves each descriptor it
 * replaces (a copy at 10 or above, close-on-exec, or a note that it was
 * closed) in a frame, and popredir puts them back when the command is
 * done.  "exec" with only redirections applies them for good.
 *
 * A here-document reaches the command through a pipe; a body longer than
 * the pipe is sure to hold is fed by a child, so the shell cannot block.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sh.h"

#define SAVEFD	10		/* saved copies go at or above this */
#define PIPESAFE 512		/* PIPE_BUF: a pipe holds at least this */
#define MAXSAVE	10

struct frame {
	struct frame *prev;
	int	 n;
	int	 fd[MAXSAVE];		/* descriptor replaced */
	int	 saved[MAXSAVE];	/* its copy, or -1: it was closed */
};

static struct frame *frames;
static int nframes;

/*
 * A copy of fd at min or above; plain dup if the kernel has no F_DUPFD.
 * Fails with EBADF if fd is not open.
 */
static int
copyfd(int fd, int min)
{
	int nfd;

	if ((nfd = fcntl(fd, F_DUPFD, min)) < 0 && errno != EBADF)
		nfd = dup(fd);
	return nfd;
}

/* Move fd up out of the way of user redirections; close-on-exec. */
int
privatefd(int fd)
{
	int nfd;

	if (fd < SAVEFD && (nfd = copyfd(fd, SAVEFD)) >= 0 && nfd != fd) {
		close(fd);
		fd = nfd;
	}
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
}

static void
save(struct frame *f, int fd)
{
	int i, s;

	for (i = 0; i < f->n; i++)
		if (f->fd[i] == fd)
			return;		/* already saved in this frame */
	if (f->n == MAXSAVE)
		return;
	s = copyfd(fd, SAVEFD);
	if (s >= 0)
		fcntl(s, F_SETFD, FD_CLOEXEC);
	f->fd[f->n] = fd;
	f->saved[f->n] = s;
	f->n++;
}

static int
heredocfd(const char *body)
{
	size_t len, off;
	int pip[2], n;

	if (pipe(pip) < 0) {
		shwarn("cannot create pipe: %s", strerror(errno));
		return -1;
	}
	len = strlen(body);
	if (len > PIPESAFE && forkshell(NULL, FORK_NOJOB) == 0) {
		close(pip[0]);
		for (off = 0; off < len; off += n)
			if ((n = write(pip[1], body + off, len - off)) <= 0)
				break;
		_exit(0);
	}
	if (len <= PIPESAFE)
		write(pip[1], body, len);
	close(pip[1]);
	return pip[0];
}

/* Open the source for one redirection; -2 means "close fd". */
static int
source(struct redir *r)
{
	char *name;
	int fd, flags;

	if (r->type == R_HEREDOC || r->type == R_HEREDOCTAB)
		return heredocfd(r->quoted ? r->target :
		    expandword(r->target, EXP_HEREDOC));
	name = expandword(r->target, EXP_TILDE);
	switch (r->type) {
	case R_DUPIN:
	case R_DUPOUT:
		if (strcmp(name, "-") == 0)
			return -2;
		if (*name == '\0' || strspn(name, "0123456789") != strlen(name)) {
			shwarn("%s: bad file descriptor", name);
			return -1;
		}
		fd = atoi(name);
		if (fd == r->fd)
			return fd;
		if ((fd = copyfd(fd, 0)) < 0) {
			shwarn("%s: %s", name, strerror(errno));
			return -1;
		}
		return fd;
	case R_IN:
		flags = O_RDONLY;
		break;
	case R_RDWR:
		flags = O_RDWR | O_CREAT;
		break;
	case R_APPEND:
		flags = O_WRONLY | O_CREAT | O_APPEND;
		break;
	default:
		flags = O_WRONLY | O_CREAT | O_TRUNC;
		break;
	}
	if ((fd = open(name, flags, 0666)) < 0) {
		shwarn("cannot %s %s: %s", r->type == R_IN ? "open" : "create",
		    name, strerror(errno));
		return -1;
	}
	return fd;
}

/*
 * Apply the redirections in order.  Returns 0, or -1 after reporting a
 * failure (the ones before it stay applied; with REDIR_PUSH popredir
 * undoes them).
 */
int
redirect(struct redir *list, int flags)
{
	struct frame *f;
	struct redir *r;
	int fd;

	f = NULL;
	if (flags & REDIR_PUSH) {
		f = ckmalloc(sizeof(*f));
		f->n = 0;
		f->prev = frames;
		frames = f;
		nframes++;
	}
	for (r = list; r != NULL; r = r->next) {
		if (f != NULL)
			save(f, r->fd);
		if ((fd = source(r)) == -1)
			return -1;
		if (fd == -2)
			close(r->fd);
		else if (fd != r->fd) {
			dup2(fd, r->fd);
			close(fd);
		}
	}
	return 0;
}

void
popredir(void)
{
	struct frame *f;
	int i;

	if ((f = frames) == NULL)
		return;
	for (i = f->n - 1; i >= 0; i--) {
		if (f->saved[i] >= 0) {
			dup2(f->saved[i], f->fd[i]);
			close(f->saved[i]);
		} else
			close(f->fd[i]);
	}
	frames = f->prev;
	nframes--;
	free(f);
}

int
redirdepth(void)
{
	return nframes;
}

/* After an error: undo the redirections of abandoned commands. */
void
unwindredir(int depth)
{
	while (nframes > depth)
		popredir();
}
