/*
 * The ioctl(2) requests the console and disks answer.
 */
#ifndef _SYS_IOCTL_H_
#define _SYS_IOCTL_H_

#define TIOCGPGRP	0x40047477	/* get foreground process group */
#define TIOCSPGRP	0x80047476	/* set foreground process group */
#define TIOCGETA	0x402c7413	/* get termios (struct termios) */
#define TIOCSETA	0x802c7414	/* set termios */

#define DIOCGDINFO	0x4a046465	/* get disk label (struct disklabel) */

#endif
