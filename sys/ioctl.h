/*
 * The ioctl(2) requests the console and disks answer.
 */
#ifndef _SYS_IOCTL_H_
#define _SYS_IOCTL_H_

/*
 * A command encodes the size of its argument and whether the kernel
 * copies it in (IOC_IN), out (IOC_OUT) or both, as 4.4BSD's <sys/ioccom.h>.
 */
#define IOCPARM_MASK	0x1fff
#define IOC_OUT		0x40000000
#define IOC_IN		0x80000000
#define _IOC(inout, group, num, len) \
	((inout) | (((len) & IOCPARM_MASK) << 16) | ((group) << 8) | (num))
#define _IOR(g, n, t)	_IOC(IOC_OUT, (g), (n), sizeof(t))
#define _IOW(g, n, t)	_IOC(IOC_IN, (g), (n), sizeof(t))

/* The terminal (struct termios, sys/termios.h). */
#define TIOCGETA	_IOR('t', 19, struct termios)	/* get attributes */
#define TIOCSETA	_IOW('t', 20, struct termios)	/* set them now */
#define TIOCSETAW	_IOW('t', 21, struct termios)	/* ... after output */
#define TIOCSETAF	_IOW('t', 22, struct termios)	/* ... and flush input */
#define TIOCGPGRP	_IOR('t', 119, int)	/* get foreground process group */
#define TIOCSPGRP	_IOW('t', 118, int)	/* set foreground process group */

/*
 * The terminal's size, as whoever knows it last said (a serial line does
 * not know: 0 x 0 until then, and programs take 24 x 80).
 */
struct winsize {
	unsigned short ws_row;
	unsigned short ws_col;
	unsigned short ws_xpixel;
	unsigned short ws_ypixel;
};
#define TIOCGWINSZ	_IOR('t', 104, struct winsize)	/* get the size */
#define TIOCSWINSZ	_IOW('t', 103, struct winsize)	/* set it */

/* Get a disk's label (struct disklabel, from sys/disklabel.h). */
#define DIOCGDINFO	_IOR('d', 101, struct disklabel)

#endif
