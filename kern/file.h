/*
 * Open files: what a file descriptor points to.  Several descriptors
 * (after dup or fork) share one struct file and so one offset.
 */
#ifndef _KERN_FILE_H_
#define _KERN_FILE_H_

#include <sys/types.h>

struct uio;
struct stat;
struct proc;
struct file;

struct fileops {
	int	(*fo_read)(struct file *, struct uio *);
	int	(*fo_write)(struct file *, struct uio *);
	int	(*fo_ioctl)(struct file *, u_long, caddr_t);
	int	(*fo_stat)(struct file *, struct stat *);
	int	(*fo_close)(struct file *);
	/* Which of events (sys/poll.h) would not block now. */
	int	(*fo_poll)(struct file *, int events);
};

struct file {
	int	f_count;		/* descriptors pointing here */
	int	f_flag;			/* FREAD, FWRITE, O_APPEND, O_NONBLOCK */
	int	f_type;			/* DTYPE_* */
	off_t	f_offset;
	void	*f_data;		/* vnode or pipe */
	const struct fileops *f_ops;
};
#define DTYPE_VNODE	1
#define DTYPE_PIPE	2

#define FREAD		0x0001
#define FWRITE		0x0002
#define FMASK		(FREAD | FWRITE | 0x0008 | 0x0004 | 0x0080)	/* kept from open flags */

#define FFLAGS(oflags)	((oflags) + 1)	/* O_RDONLY 0 -> FREAD 1, as 4.4BSD */
#define OFLAGS(fflags)	((fflags) - 1)

extern const struct fileops vnops;

struct file *falloc(void);
int	fdalloc(struct proc *, int want, int *result);
int	getfile(struct proc *, int fd, struct file **);
int	closef(struct file *);
void	fdcloseexec(struct proc *);
void	fdcopy(struct proc *dst, struct proc *src);
void	fdfree(struct proc *);
void	pollwakeup(void);	/* kern/sys_poll.c: a file may be ready */

#endif
