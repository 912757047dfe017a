/*
 * Calendar time.  The system keeps UTC and there are no time zones, so
 * localtime is gmtime.  Dates are converted with the civil-from-days
 * arithmetic on 400-year eras (the proleptic Gregorian calendar).
 */
#include <stddef.h>
#include <time.h>
#include <unistd.h>

#define SECSPERDAY	86400L

static char utc[] = "UTC";

time_t
time(time_t *tp)
{
	struct timeval tv;

	if (gettimeofday(&tv, NULL) < 0)
		return -1;
	if (tp != NULL)
		*tp = tv.tv_sec;
	return tv.tv_sec;
}

/* Days since 1970-01-01 of year y, month m (1-12), day d. */
static long
daysfromcivil(long y, int m, int d)
{
	long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

struct tm *
gmtime_r(const time_t *tp, struct tm *tm)
{
	long days, secs, era, doe, yoe, y, doy, mp;

	days = *tp / SECSPERDAY;
	secs = *tp % SECSPERDAY;
	if (secs < 0) {
		secs += SECSPERDAY;
		days--;
	}
	tm->tm_hour = secs / 3600;
	tm->tm_min = secs / 60 % 60;
	tm->tm_sec = secs % 60;
	tm->tm_wday = (days % 7 + 11) % 7;	/* 1970-01-01 was a Thursday */

	days += 719468;
	era = (days >= 0 ? days : days - 146096) / 146097;
	doe = days - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	tm->tm_mday = doy - (153 * mp + 2) / 5 + 1;
	tm->tm_mon = mp < 10 ? mp + 2 : mp - 10;
	if (tm->tm_mon <= 1)
		y++;
	tm->tm_year = y - 1900;
	tm->tm_yday = daysfromcivil(y, tm->tm_mon + 1, tm->tm_mday) -
	    daysfromcivil(y, 1, 1);
	tm->tm_isdst = 0;
	tm->tm_gmtoff = 0;
	tm->tm_zone = utc;
	return tm;
}

struct tm *
gmtime(const time_t *tp)
{
	static struct tm tm;

	return gmtime_r(tp, &tm);
}

struct tm *
localtime(const time_t *tp)
{
	return gmtime(tp);
}

/* The inverse of gmtime; out-of-range fields are normalized. */
time_t
timegm(struct tm *tm)
{
	long year, mon;
	time_t t;

	mon = tm->tm_mon;
	year = tm->tm_year + 1900L + mon / 12;
	mon %= 12;
	if (mon < 0) {
		mon += 12;
		year--;
	}
	t = daysfromcivil(year, mon + 1, 1) + tm->tm_mday - 1;
	t = t * SECSPERDAY + tm->tm_hour * 3600L + tm->tm_min * 60L + tm->tm_sec;
	gmtime_r(&t, tm);
	return t;
}

time_t
mktime(struct tm *tm)
{
	return timegm(tm);
}

