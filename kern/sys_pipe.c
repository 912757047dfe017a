/*
 * Pipes: a 4 KB ring buffer between a write end and a read end.  A
 * reader sleeps while the ring is empty and a writer exists; a writer
 * sleeps while it is full; writing with no reader left is EPIPE (and
 * SIGPIPE).  Writes of up to PIPE_BUF bytes are atomic.
 */
#include "kern/systm.h"
#include "kern/file.h"
#include "kern/proc.h"
#include "kern/uio.h"
#include "kern/malloc.h"
#include "kern/syscallargs.h"
#include <sys/stat.h>
#include <sys/fcntl.h>
#include <sys/poll.h>

#define PIPESIZE	4096
#define PIPE_BUF	512

struct pipe {
	char	buf[PIPESIZE];
	u_int	head;			/* next byte to read */
	u_int	count;			/* bytes in the ring */
	int	readers, writers;	/* open ends */
};

static int
pipe_read(struct file *fp, struct uio *uio)
{
	struct pipe *pp = fp->f_data;
	int error = 0, n;

	while (pp->count == 0) {
		if (pp->writers == 0)
			return 0;		/* end of file */
		if (fp->f_flag & O_NONBLOCK)
			return EAGAIN;
		if ((error = tsleep(&pp->count, PCATCH, "piperd", 0)) != 0)
			return error;
	}
	while (uio->uio_resid > 0 && pp->count > 0) {
		n = MIN(pp->count, PIPESIZE - pp->head);
		n = MIN(n, uio->uio_resid);
		if ((error = uiomove(pp->buf + pp->head, n, uio)) != 0)
			break;
		pp->head = (pp->head + n) % PIPESIZE;
		pp->count -= n;
	}
	wakeup(&pp->head);		/* writers waiting for room */
	pollwakeup();
	return error;
}

static int
pipe_write(struct file *fp, struct uio *uio)
{
	struct pipe *pp = fp->f_data;
	int error = 0, n, tail;

	while (uio->uio_resid > 0) {
		if (pp->readers == 0)
			return EPIPE;
		/* small writes wait for room for all of it (atomicity) */
		n = PIPESIZE - pp->count;
		if (n == 0 || (uio->uio_resid <= PIPE_BUF && n < uio->uio_resid)) {
			if (fp->f_flag & O_NONBLOCK)
				return EAGAIN;
			if ((error = tsleep(&pp->head, PCATCH, "pipewr", 0)))
				return error;
			continue;
		}
		tail = (pp->head + pp->count) % PIPESIZE;
		n = MIN(n, PIPESIZE - tail);
		n = MIN(n, uio->uio_resid);
		if ((error = uiomove(pp->buf + tail, n, uio)) != 0)
			return error;
		pp->count += n;
		wakeup(&pp->count);
		pollwakeup();
	}
	return 0;
}

static int
pipe_ioctl(struct file *fp, u_long cmd, caddr_t data)
{
	return ENOTTY;
}

static int
pipe_stat(struct file *fp, struct stat *sb)
{
	struct pipe *pp = fp->f_data;

	memset(sb, 0, sizeof(*sb));
	sb->st_mode = S_IFIFO | 0600;
	sb->st_size = pp->count;
	sb->st_blksize = PIPESIZE;
	return 0;
}

static int
pipe_close(struct file *fp)
{
	struct pipe *pp = fp->f_data;

	if (fp->f_flag & FREAD)
		pp->readers--;
	if (fp->f_flag & FWRITE)
		pp->writers--;
	wakeup(&pp->count);
	wakeup(&pp->head);
	pollwakeup();
	if (pp->readers == 0 && pp->writers == 0)
		free(pp);
	return 0;
}

/* Bytes to read; room for an atomic write; an end gone (HUP, ERR). */
static int
pipe_poll(struct file *fp, int events)
{
	struct pipe *pp = fp->f_data;
	int revents = 0;

	if (pp->count > 0)
		revents |= events & (POLLIN | POLLRDNORM);
	if (PIPESIZE - pp->count >= PIPE_BUF)
		revents |= events & (POLLOUT | POLLWRNORM);
	if (pp->writers == 0)
		revents |= POLLHUP;
	if (pp->readers == 0)
		revents |= POLLERR;
	return revents;
}

static const struct fileops pipeops = {
	pipe_read, pipe_write, pipe_ioctl, pipe_stat, pipe_close, pipe_poll
};

int
sys_pipe(struct proc *p, void *uap, int *retval)
{
	struct file *rf, *wf;
	struct pipe *pp;
	int fd0, fd1, error;

	if ((error = fdalloc(p, 0, &fd0)) != 0)
		return error;
	if ((rf = falloc()) == NULL)
		return ENFILE;
	p->p_fd[fd0] = rf;		/* reserve it for the second fdalloc */
	if ((error = fdalloc(p, 0, &fd1)) != 0 || (wf = falloc()) == NULL) {
		p->p_fd[fd0] = NULL;
		rf->f_ops = NULL;
		closef(rf);
		return error ? error : ENFILE;
	}
	pp = malloc(sizeof(*pp), M_WAITOK | M_ZERO);
	pp->readers = pp->writers = 1;
	rf->f_flag = FREAD;
	wf->f_flag = FWRITE;
	rf->f_type = wf->f_type = DTYPE_PIPE;
	rf->f_ops = wf->f_ops = &pipeops;
	rf->f_data = wf->f_data = pp;
	p->p_fd[fd1] = wf;
	retval[0] = fd0;
	retval[1] = fd1;
	return 0;
}
