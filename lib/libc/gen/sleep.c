/*
 * sleep(3) and usleep(3) over nanosleep(2).  sleep returns the seconds
 * left when a signal cut it short.
 */
#include <errno.h>
#include <time.h>
#include <unistd.h>

unsigned
sleep(unsigned seconds)
{
	struct timespec req, rem;

	req.tv_sec = seconds;
	req.tv_nsec = 0;
	if (nanosleep(&req, &rem) < 0) {
		if (errno != EINTR)
			return seconds;
		return rem.tv_sec + (rem.tv_nsec > 0);
	}
	return 0;
}

int
usleep(useconds_t usec)
{
	struct timespec req;

	req.tv_sec = usec / 1000000;
	req.tv_nsec = (usec % 1000000) * 1000;
	return nanosleep(&req, NULL);
}
