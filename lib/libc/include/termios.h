/*
 * Terminal attributes: tcgetattr(3), tcsetattr(3) and cfmakeraw(3) over
 * the TIOCGETA and TIOCSETA* ioctls (the structure: sys/termios.h).
 */
#ifndef _TERMIOS_H_
#define _TERMIOS_H_

#include <sys/termios.h>

int	tcgetattr(int, struct termios *);
int	tcsetattr(int, int, const struct termios *);
void	cfmakeraw(struct termios *);

#endif
