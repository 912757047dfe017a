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
#include "kern/file.h"
#include <sys/ioctl.h>
#include <sys/poll.h>
#include <sys/signal.h>

#define CTRL(c)	((c) & 0x1f)
#define DISABLED 0xff		/* a control character turned off */

struct tty constty = { .t_termios = {
	.c_iflag = ICRNL, .c_oflag = OPOST | ONLCR, .c_cflag = CS8 | CREAD,
	.c_lflag = ECHO | ECHOE | ECHOK | ISIG | ICANON | IEXTEN,
	.c_cc = { [VEOF] = CTRL('D'), [VEOL] = DISABLED, [2] = DISABLED,
	    [VERASE] = 0x7f, [VWERASE] = CTRL('W'), [VKILL] = CTRL('U'),
	    [6] = DISABLED, [7] = DISABLED, [VINTR] = CTRL('C'),
	    [VQUIT] = CTRL('\\'), [VSUSP] = CTRL('Z'), [11] = DISABLED,
	    [12] = DISABLED, [13] = DISABLED, [14] = DISABLED,
	    [15] = DISABLED, [VMIN] = 1, [VTIME] = 0, [18] = DISABLED,
	    [19] = DISABLED },
	.c_ispeed = 115200, .c_ospeed = 115200 } };

static void
ttyecho(struct tty *tp, int c)
{
	if (!(tp->t_termios.c_lflag & ECHO))
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
	if (tp->t_termios.c_lflag & ECHO) {
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
	pollwakeup();
}

/* The signal a character stands for under ISIG, or 0. */
static int
ttysig(const struct termios *t, int c)
{
	if (!(t->c_lflag & ISIG))
		return 0;
	if (c == t->c_cc[VINTR])
		return SIGINT;
	if (c == t->c_cc[VQUIT])
		return SIGQUIT;
	if (c == t->c_cc[VSUSP])
		return SIGTSTP;
	return 0;
}

/* ^W: rub out the spaces before the cursor, then the word before them. */
static void
ttywerase(struct tty *tp)
{
	while (tp->t_rawlen > 0 && (tp->t_rawq[tp->t_rawlen - 1] == ' ' ||
	    tp->t_rawq[tp->t_rawlen - 1] == '\t'))
		ttyrub(tp);
	while (tp->t_rawlen > 0 && tp->t_rawq[tp->t_rawlen - 1] != ' ' &&
	    tp->t_rawq[tp->t_rawlen - 1] != '\t')
		ttyrub(tp);
}

/* One input character, from the interrupt handler. */
void
ttyinput(struct tty *tp, int c)
{
	const struct termios *t = &tp->t_termios;
	int sig;

	c &= 0x7f;
	if (c == '\r' && (t->c_iflag & ICRNL))
		c = '\n';
	if ((sig = ttysig(t, c)) != 0) {
		ttyecho(tp, c);
		cnputc('\n');
		tp->t_rawlen = 0;
		if (tp->t_pgrp)
			gsignal(tp->t_pgrp, sig);
		return;
	}
	if (!(t->c_lflag & ICANON)) {
		tp->t_rawq[tp->t_rawlen++] = c;
		ttyecho(tp, c);
		ttyline(tp);
		return;
	}
	if (c == t->c_cc[VERASE] || c == '\b') {
		ttyrub(tp);
		return;
	}
	if ((t->c_lflag & IEXTEN) && c == t->c_cc[VWERASE]) {
		ttywerase(tp);
		return;
	}
	if (c == t->c_cc[VKILL]) {		/* kill the line */
		while (tp->t_rawlen > 0)
			ttyrub(tp);
		return;
	}
	if (c == t->c_cc[VEOF]) {		/* end of file */
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

/*
 * A process of a background group touching its terminal: EIO if it
 * ignores or blocks sig (it would never be stopped), else sig goes to its
 * group and the call is restarted, so the process stops on its way out
 * and tries again when continued (4.4BSD's ttread and ttioctl).
 */
static int
ttybg(struct tty *tp, int sig)
{
	struct proc *p = curproc;

	if (p == NULL || !(p->p_flag & P_CONTROLT) || tp->t_pgrp == 0 ||
	    p->p_sid != tp->t_session || p->p_pgid == tp->t_pgrp)
		return 0;
	if ((p->p_sigmask & sigmask(sig)) ||
	    p->p_sigacts[sig].sa_handler == SIG_IGN)
		return sig == SIGTTIN ? EIO : 0;
	gsignal(p->p_pgid, sig);
	return ERESTART;
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
	int error;

	if ((error = ttybg(&constty, SIGTTIN)) != 0)
		return error;
	return ttread(&constty, uio);
}

int
cnwrite(dev_t dev, struct uio *uio, int ioflag)
{
	int error;

	if ((constty.t_termios.c_lflag & TOSTOP) &&
	    (error = ttybg(&constty, SIGTTOU)) != 0)
		return error;
	return ttwrite(&constty, uio);
}

int
cnioctl(dev_t dev, u_long cmd, caddr_t data, int flags)
{
	struct tty *tp = &constty;
	int error, s;

	switch (cmd) {
	case TIOCSPGRP:
	case TIOCSETA:
	case TIOCSETAW:
	case TIOCSETAF:
		if ((error = ttybg(tp, SIGTTOU)) != 0)
			return error;
	}
	switch (cmd) {
	case TIOCGPGRP:
		*(int *)data = tp->t_pgrp;
		return 0;
	case TIOCSPGRP:
		tp->t_pgrp = *(int *)data;
		return 0;
	case TIOCGETA:
		memcpy(data, &tp->t_termios, sizeof(struct termios));
		return 0;
	case TIOCGWINSZ:
		memcpy(data, &tp->t_winsize, sizeof(struct winsize));
		return 0;
	case TIOCSWINSZ:
		memcpy(&tp->t_winsize, data, sizeof(struct winsize));
		return 0;
	case TIOCSETA:
	case TIOCSETAW:
	case TIOCSETAF:
		s = spltty();
		if (cmd == TIOCSETAF) {
			tp->t_rawlen = tp->t_canlen = tp->t_eofs = 0;
		} else if ((tp->t_termios.c_lflag & ICANON) &&
		    !(((struct termios *)data)->c_lflag & ICANON) &&
		    tp->t_rawlen > 0)
			ttyline(tp);	/* a half-typed line goes to the reader */
		memcpy(&tp->t_termios, data, sizeof(struct termios));
		splx(s);
		return 0;
	}
	return ENOTTY;
}

/* poll: typed input waiting (or an end of file); output never waits. */
int
cnpoll(dev_t dev, int events)
{
	int revents = events & (POLLOUT | POLLWRNORM);

	if (constty.t_canlen > 0 || constty.t_eofs > 0)
		revents |= events & (POLLIN | POLLRDNORM);
	return revents;
}
