/*
 * Time structures shared by kernel and userland.
 */
#ifndef _SYS_TIME_H_
#define _SYS_TIME_H_

#include <sys/types.h>

struct timeval {
	long	tv_sec;
	long	tv_usec;
};

struct timespec {
	time_t	tv_sec;
	long	tv_nsec;
};

struct timezone {
	int	tz_minuteswest;
	int	tz_dsttime;
};

#endif
