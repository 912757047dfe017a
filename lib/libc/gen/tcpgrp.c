/*
 * tcgetpgrp(3) and tcsetpgrp(3): a terminal's foreground process group,
 * through the TIOCGPGRP and TIOCSPGRP ioctls.
 */
#include <sys/ioctl.h>
#include <unistd.h>

pid_t
tcgetpgrp(int fd)
{
	pid_t pgrp;

	if (ioctl(fd, TIOCGPGRP, &pgrp) < 0)
		return -1;
	return pgrp;
}

int
tcsetpgrp(int fd, pid_t pgrp)
{
	return ioctl(fd, TIOCSPGRP, &pgrp);
}
