/*
 * The terminal line discipline (one terminal: the serial console).
 * Input characters arrive from the UART interrupt; in canonical mode the
 * discipline edits a line (erase, kill), echoes, turns ^C and ^\ into
 * signals for the foreground process group, and hands complete lines
 * (or ^D, end of file) to readers.
 */
#ifndef _KERN_TTY_H_
#define _KERN_TTY_H_

#include <sys/types.h>

#define TTYHOG	1024			/* input buffered at most */

struct tty {
	char	t_rawq[TTYHOG];		/* the line being edited */
	int	t_rawlen;
	char	t_canq[TTYHOG];		/* complete lines for readers */
	int	t_canhead, t_canlen;	/* ring */
	int	t_eofs;			/* ^D seen, not yet read */
	pid_t	t_pgrp;			/* foreground process group */
	pid_t	t_session;		/* session it controls */
	int	t_lflag;		/* ECHO, ICANON */
};
#define TTY_ECHO	0x01
#define TTY_ICANON	0x02

extern struct tty constty;

void	ttyinput(struct tty *, int c);

/* the console character device, /dev/console (cdevsw, kern/conf.c) */
struct uio;
int	cnopen(dev_t, int flags, int fmt);
int	cnclose(dev_t, int flags, int fmt);
int	cnread(dev_t, struct uio *, int ioflag);
int	cnwrite(dev_t, struct uio *, int ioflag);
int	cnioctl(dev_t, u_long cmd, caddr_t data, int flags);

#endif
