/*
 * raise(3) and killpg(3) over kill(2).
 */
#include <errno.h>
#include <signal.h>
#include <unistd.h>

int
raise(int sig)
{
	return kill(getpid(), sig);
}

int
killpg(pid_t pgrp, int sig)
{
	if (pgrp <= 0) {
		errno = EINVAL;
		return -1;
	}
	return kill(-pgrp, sig);
}
