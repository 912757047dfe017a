/*
 * The console terminal: line discipline (see tty.h) and the console
 * character device (/dev/console, and /dev/tty for "my terminal").
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/tty.h"
#include "kern/uio.h"
#include "kern/conf.h"
#include "kern/i386/cpu.h"
#include <sys/ioctl.h>
#include <sys/signal.h>

struct tty constty = { .t_lflag = TTY_ECHO | TTY_ICANON };

#define CTRL(c)	((c) & 0x1f)

static void
ttyecho(struct tty *tp, int c)
{
	if (!(tp->t_lflag & TTY_ECHO))
		return;
	if (c < ' ' && c != '\n' && c != '\t') {
		cnputc('^');
		cnputc(c + '@');
	} else
		cnputc(c);
}

/* Take the last character back off the line being edited. */
static void
ttyrub(struct tty *tp)
{
	if (tp->t_rawlen == 0)
		return;
	tp->t_rawlen--;
	if (tp->t_lflag & TTY_ECHO) {
		cnputc('\b');
		cnputc(' ');
		cnputc('\b');
	}
}

/* Move the edited line to the readers' queue. */
static void
ttyline(struct tty *tp)
{
	int i;

	for (i = 0; i < tp->t_rawlen && tp->t_canlen < TTYHOG; i++) {
		tp->t_canq[(tp->t_canhead + tp->t_canlen) % TTYHOG] =
		    tp->t_rawq[i];
		tp->t_canlen++;
	}
	tp->t_rawlen = 0;
	wakeup(tp);
}

/* One input character, from the interrupt handler. */
void
ttyinput(struct tty *tp, int c)
{
	c &= 0x7f;
	if (c == '\r')
		c = '\n';
	if (c == CTRL('C') || c == CTRL('\\')) {
		ttyecho(tp, c);
		cnputc('\n');
		tp->t_rawlen = 0;
		if (tp->t_pgrp)
			gsignal(tp->t_pgrp, c == CTRL('C') ? SIGINT : SIGQUIT);
		return;
	}
	if (!(tp->t_lflag & TTY_ICANON)) {
		tp->t_rawq[tp->t_rawlen++] = c;
		ttyecho(tp, c);
		ttyline(tp);
		return;
	}
	if (c == '\b' || c == 0x7f) {		/* erase */
		ttyrub(tp);
		return;
	}
	if (c == CTRL('U')) {			/* kill the line */
		while (tp->t_rawlen > 0)
			ttyrub(tp);
		return;
	}
	if (c == CTRL('D')) {			/* end of file */
		if (tp->t_rawlen == 0)
			tp->t_eofs++;
		ttyline(tp);
		return;
	}
	if (tp->t_rawlen >= TTYHOG - 1) {	/* full: only newline fits */
		if (c != '\n')
			return;
	}
	tp->t_rawq[tp->t_rawlen++] = c;
	ttyecho(tp, c);
	if (c == '\n')
		ttyline(tp);
}

static int
ttread(struct tty *tp, struct uio *uio)
{
	int s, error = 0;
	char c;

	s = spltty();
	while (tp->t_canlen == 0 && tp->t_eofs == 0) {
		error = tsleep(tp, PCATCH, "ttyin", 0);
		if (error) {
			splx(s);
			return error;
		}
	}
	if (tp->t_canlen == 0) {		/* ^D on an empty line */
		tp->t_eofs--;
		splx(s);
		return 0;
	}
	while (tp->t_canlen > 0 && uio->uio_resid > 0) {
		c = tp->t_canq[tp->t_canhead];
		tp->t_canhead = (tp->t_canhead + 1) % TTYHOG;
		tp->t_canlen--;
		splx(s);
		error = uiomove(&c, 1, uio);
		s = spltty();
		if (error || c == '\n')
			break;
	}
	splx(s);
	return error;
}

static int
ttwrite(struct tty *tp, struct uio *uio)
{
	char buf[128];
	int n, i, error = 0;

	while (uio->uio_resid > 0) {
		n = MIN(uio->uio_resid, (int)sizeof(buf));
		if ((error = uiomove(buf, n, uio)) != 0)
			break;
		for (i = 0; i < n; i++)
			cnputc(buf[i]);
	}
	return error;
}

int
cnopen(dev_t dev, int flags, int fmt)
{
	struct proc *p = curproc;

	/* A session leader opening the console makes it its terminal. */
	if (p && p->p_pid == p->p_sid && constty.t_session != p->p_sid) {
		constty.t_session = p->p_sid;
		constty.t_pgrp = p->p_pgid;
	}
	if (p)
		p->p_flag |= P_CONTROLT;
	return 0;
}

int
cnclose(dev_t dev, int flags, int fmt)
{
	return 0;
}

int
cnread(dev_t dev, struct uio *uio, int ioflag)
{
	return ttread(&constty, uio);
}

int
cnwrite(dev_t dev, struct uio *uio, int ioflag)
{
	return ttwrite(&constty, uio);
}

int
cnioctl(dev_t dev, u_long cmd, caddr_t data, int flags)
{
	switch (cmd) {
	case TIOCGPGRP:
		*(int *)data = constty.t_pgrp;
		return 0;
	case TIOCSPGRP:
		constty.t_pgrp = *(int *)data;
		return 0;
	}
	return ENOTTY;
}
