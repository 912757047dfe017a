/*
 * Calendar time.  There are no time zones: localtime is UTC.
 */
#ifndef _TIME_H_
#define _TIME_H_

#include <sys/types.h>
#include <sys/time.h>

#define CLOCKS_PER_SEC	100

struct tm {
	int	tm_sec;		/* seconds after the minute [0-60] */
	int	tm_min;		/* minutes after the hour [0-59] */
	int	tm_hour;	/* hours since midnight [0-23] */
	int	tm_mday;	/* day of the month [1-31] */
	int	tm_mon;		/* months since January [0-11] */
	int	tm_year;	/* years since 1900 */
	int	tm_wday;	/* days since Sunday [0-6] */
	int	tm_yday;	/* days since January 1 [0-365] */
	int	tm_isdst;	/* always 0 */
	long	tm_gmtoff;	/* always 0 */
	char	*tm_zone;	/* always "UTC" */
};

char	*asctime(const struct tm *);
char	*ctime(const time_t *);
struct tm *gmtime(const time_t *);
struct tm *gmtime_r(const time_t *, struct tm *);
struct tm *localtime(const time_t *);
time_t	 mktime(struct tm *);
int	 nanosleep(const struct timespec *, struct timespec *);
size_t	 strftime(char *, size_t, const char *, const struct tm *);
time_t	 time(time_t *);
time_t	 timegm(struct tm *);

#endif
