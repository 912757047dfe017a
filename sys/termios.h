/*
 * Terminal attributes (4.4BSD's <sys/termios.h>, the parts this kernel's
 * one terminal honours): tcgetattr/tcsetattr through TIOCGETA/TIOCSETA.
 * The console's line discipline (kern/tty.c) reads c_lflag's ICANON,
 * ECHO and ISIG, c_iflag's ICRNL, and the control characters below; the
 * other bits (4.4BSD's values) are kept and returned, as a program that
 * saves and restores its terminal expects.
 */
#ifndef _SYS_TERMIOS_H_
#define _SYS_TERMIOS_H_

typedef unsigned int tcflag_t;
typedef unsigned char cc_t;
typedef int speed_t;

#define NCCS	20
#define VEOF	0		/* ^D: end of file (an empty line) */
#define VEOL	1
#define VEOL2	2
#define VERASE	3		/* DEL (^H too): erase a character */
#define VWERASE	4		/* ^W: erase a word */
#define VKILL	5		/* ^U: erase the line */
#define VREPRINT 6
#define VINTR	8		/* ^C: SIGINT */
#define VQUIT	9		/* ^\: SIGQUIT */
#define VSUSP	10		/* ^Z: SIGTSTP */
#define VSTART	12
#define VSTOP	13
#define VLNEXT	14
#define VDISCARD 15
#define VMIN	16		/* non-canonical reads: at least one byte */
#define VTIME	17

#define _POSIX_VDISABLE	0xff	/* a control character turned off */

struct termios {
	tcflag_t c_iflag;	/* input: ICRNL */
	tcflag_t c_oflag;	/* output: OPOST, ONLCR (always on here) */
	tcflag_t c_cflag;
	tcflag_t c_lflag;	/* local: ECHO, ISIG, ICANON, ... */
	cc_t	 c_cc[NCCS];
	speed_t	 c_ispeed;
	speed_t	 c_ospeed;
};

/* c_iflag */
#define IGNBRK	0x00000001
#define BRKINT	0x00000002
#define IGNPAR	0x00000004
#define PARMRK	0x00000008
#define INPCK	0x00000010
#define ISTRIP	0x00000020
#define INLCR	0x00000040
#define IGNCR	0x00000080
#define ICRNL	0x00000100	/* carriage return in, newline to the reader */
#define IXON	0x00000200
#define IXOFF	0x00000400
#define IXANY	0x00000800
#define IMAXBEL	0x00002000
/* c_oflag */
#define OPOST	0x00000001
#define ONLCR	0x00000002
/* c_cflag */
#define CSIZE	0x00000300
#define CS5	0x00000000
#define CS6	0x00000100
#define CS7	0x00000200
#define CS8	0x00000300
#define CSTOPB	0x00000400
#define CREAD	0x00000800
#define PARENB	0x00001000
#define PARODD	0x00002000
#define HUPCL	0x00004000
#define CLOCAL	0x00008000
/* c_lflag */
#define ECHOKE	0x00000001
#define ECHOE	0x00000002	/* erase visually */
#define ECHOK	0x00000004
#define ECHO	0x00000008	/* echo what is typed */
#define ECHONL	0x00000010
#define ECHOPRT	0x00000020
#define ECHOCTL	0x00000040
#define ISIG	0x00000080	/* ^C ^\ ^Z are signals */
#define ICANON	0x00000100	/* edit lines (erase, kill, ^D) */
#define IEXTEN	0x00000400	/* ^W */
#define TOSTOP	0x00400000
#define NOFLSH	0x80000000

/* tcsetattr's when: this kernel writes the console synchronously, so
 * all three take effect at once (TCSAFLUSH also drops unread input). */
#define TCSANOW		0
#define TCSADRAIN	1
#define TCSAFLUSH	2

#endif
