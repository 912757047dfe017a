/*
 * tcgetattr(3), tcsetattr(3), cfmakeraw(3): the terminal's attributes
 * through its ioctls, as 4.4BSD's libc.
 */
#include <errno.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

int
tcgetattr(int fd, struct termios *t)
{
	return ioctl(fd, TIOCGETA, t);
}

int
tcsetattr(int fd, int when, const struct termios *t)
{
	switch (when) {
	case TCSANOW:
		return ioctl(fd, TIOCSETA, t);
	case TCSADRAIN:
		return ioctl(fd, TIOCSETAW, t);
	case TCSAFLUSH:
		return ioctl(fd, TIOCSETAF, t);
	}
	errno = EINVAL;
	return -1;
}

/* No editing, echo or signals: every byte to the reader as it comes. */
void
cfmakeraw(struct termios *t)
{
	t->c_iflag &= ~ICRNL;
	t->c_lflag &= ~(ECHO | ECHOE | ECHOK | ISIG | ICANON | IEXTEN);
	t->c_cc[VMIN] = 1;
	t->c_cc[VTIME] = 0;
}
