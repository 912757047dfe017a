/*
 * The terminal line discipline (one terminal: the serial console).
 * Input characters arrive from the UART interrupt; in canonical mode the
 * discipline edits a line (erase, word erase, kill), echoes, and hands
 * complete lines (or ^D, end of file) to readers; with ISIG, ^C ^\ and ^Z
 * are SIGINT, SIGQUIT and SIGTSTP for the foreground process group.  A
 * program may turn editing and echo off (tcsetattr: a shell's line
 * editor).  A process of a background group that reads the terminal is
 * sent SIGTTIN; one that changes its attributes or foreground group,
 * SIGTTOU (so a job cannot take the terminal from the shell).
 */
#ifndef _KERN_TTY_H_
#define _KERN_TTY_H_

#include <sys/types.h>
#include <sys/termios.h>
#include <sys/ioctl.h>

#define TTYHOG	1024			/* input buffered at most */

struct tty {
	char	t_rawq[TTYHOG];		/* the line being edited */
	int	t_rawlen;
	char	t_canq[TTYHOG];		/* complete lines for readers */
	int	t_canhead, t_canlen;	/* ring */
	int	t_eofs;			/* ^D seen, not yet read */
	pid_t	t_pgrp;			/* foreground process group */
	pid_t	t_session;		/* session it controls */
	struct termios t_termios;	/* ICANON, ECHO, ISIG, the cc chars */
	struct winsize t_winsize;	/* as last set (0 x 0: unknown) */
};

extern struct tty constty;

void	ttyinput(struct tty *, int c);

/* the console character device, /dev/console (cdevsw, kern/conf.c) */
struct uio;
int	cnopen(dev_t, int flags, int fmt);
int	cnclose(dev_t, int flags, int fmt);
int	cnread(dev_t, struct uio *, int ioflag);
int	cnwrite(dev_t, struct uio *, int ioflag);
int	cnioctl(dev_t, u_long cmd, caddr_t data, int flags);
int	cnpoll(dev_t, int events);

#endif
