/*
 * isatty(3): a terminal is a file that answers TIOCGPGRP.
 */
#include <sys/ioctl.h>
#include <unistd.h>

int
isatty(int fd)
{
	pid_t pgrp;

	return ioctl(fd, TIOCGPGRP, &pgrp) == 0;
}
