/*
 * Terminal attributes (4.4BSD's <sys/termios.h>, the parts this kernel's
 * one terminal honours): tcgetattr/tcsetattr through TIOCGETA/TIOCSETA.
 * The console's line discipline (kern/tty.c) reads c_lflag's ICANON,
 * ECHO and ISIG, c_iflag's ICRNL, and the control characters below; the
 * other bits are kept and returned, as a program that saves and restores
 * its terminal expects.
 */
#ifndef _SYS_TERMIOS_H_
#define _SYS_TERMIOS_H_

typedef unsigned int tcflag_t;
typedef unsigned char cc_t;
typedef int speed_t;

#define NCCS	20
#define VEOF	0		/* ^D: end of file (an empty line) */
#define VEOL	1
#define VERASE	3		/* DEL (^H too): erase a character */
#define VWERASE	4		/* ^W: erase a word */
#define VKILL	5		/* ^U: erase the line */
#define VINTR	8		/* ^C: SIGINT */
#define VQUIT	9		/* ^\: SIGQUIT */
#define VSUSP	10		/* ^Z: SIGTSTP */
#define VMIN	16		/* non-canonical reads: at least one byte */
#define VTIME	17

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
#define ICRNL	0x00000100	/* carriage return in, newline to the reader */
/* c_oflag */
#define OPOST	0x00000001
#define ONLCR	0x00000002
/* c_cflag */
#define CS8	0x00000300
#define CREAD	0x00000800
/* c_lflag */
#define ECHOE	0x00000002	/* erase visually */
#define ECHOK	0x00000004
#define ECHO	0x00000008	/* echo what is typed */
#define ISIG	0x00000080	/* ^C ^\ ^Z are signals */
#define ICANON	0x00000100	/* edit lines (erase, kill, ^D) */
#define IEXTEN	0x00000400	/* ^W */
#define TOSTOP	0x00400000

/* tcsetattr's when: this kernel writes the console synchronously, so
 * all three take effect at once (TCSAFLUSH also drops unread input). */
#define TCSANOW		0
#define TCSADRAIN	1
#define TCSAFLUSH	2

#endif
