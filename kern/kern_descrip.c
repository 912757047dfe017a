/*
 * File descriptors (4.4BSD kern_descrip.c): the per-process table of
 * open files, and dup, dup2, fcntl, close, fstat.
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/uio.h"
#include "kern/file.h"
#include "kern/malloc.h"
#include "kern/syscallargs.h"
#include <sys/fcntl.h>
#include <sys/stat.h>

#define NFILE	512			/* open files in the system */
static int nfiles;

struct file *
falloc(void)
{
	struct file *fp;

	if (nfiles >= NFILE)
		return NULL;
	fp = malloc(sizeof(*fp), M_NOWAIT | M_ZERO);
	if (fp == NULL)
		return NULL;
	nfiles++;
	fp->f_count = 1;
	return fp;
}

/* The lowest free descriptor >= want. */
int
fdalloc(struct proc *p, int want, int *result)
{
	int i;

	for (i = want; i < NOFILE; i++) {
		if (p->p_fd[i] == NULL) {
			p->p_fdflags[i] = 0;
			*result = i;
			return 0;
		}
	}
	return EMFILE;
}

int
getfile(struct proc *p, int fd, struct file **fpp)
{
	if (fd < 0 || fd >= NOFILE || p->p_fd[fd] == NULL)
		return EBADF;
	*fpp = p->p_fd[fd];
	return 0;
}

int
closef(struct file *fp)
{
	int error = 0;

	if (fp == NULL || --fp->f_count > 0)
		return 0;
	if (fp->f_ops)
		error = fp->f_ops->fo_close(fp);
	free(fp);
	nfiles--;
	return error;
}

void
fdcopy(struct proc *dst, struct proc *src)
{
	int i;

	for (i = 0; i < NOFILE; i++) {
		dst->p_fd[i] = src->p_fd[i];
		dst->p_fdflags[i] = src->p_fdflags[i];
		if (dst->p_fd[i])
			dst->p_fd[i]->f_count++;
	}
}

void
fdfree(struct proc *p)
{
	int i;

	for (i = 0; i < NOFILE; i++) {
		if (p->p_fd[i]) {
			struct file *fp = p->p_fd[i];

			p->p_fd[i] = NULL;
			closef(fp);
		}
	}
}

void
fdcloseexec(struct proc *p)
{
	int i;

	for (i = 0; i < NOFILE; i++) {
		if (p->p_fd[i] && (p->p_fdflags[i] & FD_CLOEXEC)) {
			struct file *fp = p->p_fd[i];

			p->p_fd[i] = NULL;
			closef(fp);
		}
	}
}

int
sys_close(struct proc *p, struct close_args *uap, int *retval)
{
	struct file *fp;
	int error;

	if ((error = getfile(p, uap->fd, &fp)) != 0)
		return error;
	p->p_fd[uap->fd] = NULL;
	return closef(fp);
}

static int
dupit(struct proc *p, int old, int new, int *retval)
{
	struct file *fp = p->p_fd[old];

	fp->f_count++;
	p->p_fd[new] = fp;
	p->p_fdflags[new] = 0;
	*retval = new;
	return 0;
}

int
sys_dup(struct proc *p, struct dup_args *uap, int *retval)
{
	struct file *fp;
	int error, new;

	if ((error = getfile(p, uap->fd, &fp)) != 0)
		return error;
	if ((error = fdalloc(p, 0, &new)) != 0)
		return error;
	return dupit(p, uap->fd, new, retval);
}

int
sys_dup2(struct proc *p, struct dup2_args *uap, int *retval)
{
	struct file *fp;
	int error;

	if ((error = getfile(p, uap->from, &fp)) != 0)
		return error;
	if (uap->to < 0 || uap->to >= NOFILE)
		return EBADF;
	if (uap->from == uap->to) {
		*retval = uap->to;
		return 0;
	}
	if (p->p_fd[uap->to]) {
		struct file *old = p->p_fd[uap->to];

		p->p_fd[uap->to] = NULL;
		closef(old);
	}
	return dupit(p, uap->from, uap->to, retval);
}

int
sys_fcntl(struct proc *p, struct fcntl_args *uap, int *retval)
{
	struct file *fp;
	int error, new;

	if ((error = getfile(p, uap->fd, &fp)) != 0)
		return error;
	switch (uap->cmd) {
	case F_DUPFD:
		if (uap->arg < 0 || uap->arg >= NOFILE)
			return EINVAL;
		if ((error = fdalloc(p, uap->arg, &new)) != 0)
			return error;
		return dupit(p, uap->fd, new, retval);
	case F_GETFD:
		*retval = p->p_fdflags[uap->fd] & FD_CLOEXEC;
		return 0;
	case F_SETFD:
		p->p_fdflags[uap->fd] = uap->arg & FD_CLOEXEC;
		return 0;
	case F_GETFL:
		*retval = OFLAGS(fp->f_flag);
		return 0;
	case F_SETFL:
		fp->f_flag = (fp->f_flag & ~(O_APPEND | O_NONBLOCK)) |
		    (FFLAGS(uap->arg) & (O_APPEND | O_NONBLOCK));
		return 0;
	}
	return EINVAL;
}

int
sys_fstat(struct proc *p, struct fstat_args *uap, int *retval)
{
	struct file *fp;
	struct stat sb;
	int error;

	if ((error = getfile(p, uap->fd, &fp)) != 0)
		return error;
	memset(&sb, 0, sizeof(sb));
	if ((error = fp->f_ops->fo_stat(fp, &sb)) != 0)
		return error;
	return copyout(&sb, uap->sb, sizeof(sb));
}
