/*
 * date: print or set the date and time (UTC; there are no time zones).
 *	date [-u] [+format]
 *	date [-u] [[[[cc]yy]mm]dd]HH]MM[.ss]
 * The default format is 4.4BSD's: "Thu Nov 21 08:57:00 UTC 2024".
 * Setting the date takes the fields not given from the current date.
 */
#include <sys/time.h>
#include <ctype.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void
usage(void)
{
	fprintf(stderr, "usage: date [-u] [+format]\n"
	    "       date [-u] [[[[cc]yy]mm]dd]HH]MM[.ss]\n");
	exit(1);
}

/* Two digits from p, in [lo, hi]. */
static int
two(const char *p, int lo, int hi)
{
	int v;

	v = (p[0] - '0') * 10 + p[1] - '0';
	if (v < lo || v > hi)
		usage();
	return v;
}

static void
setdate(const char *arg, time_t now)
{
	struct timeval tv;
	struct tm tm;
	const char *dot;
	size_t len, i;
	int year;

	tm = *gmtime(&now);
	tm.tm_sec = 0;
	if ((dot = strchr(arg, '.')) != NULL) {
		if (strlen(dot + 1) != 2 || !isdigit((unsigned char)dot[1]) ||
		    !isdigit((unsigned char)dot[2]))
			usage();
		tm.tm_sec = two(dot + 1, 0, 60);
		len = dot - arg;
	} else
		len = strlen(arg);
	for (i = 0; i < len; i++)
		if (!isdigit((unsigned char)arg[i]))
			usage();
	if (len == 12) {		/* ccyy */
		year = two(arg, 0, 99) * 100 + two(arg + 2, 0, 99);
		tm.tm_year = year - 1900;
		arg += 4;
	} else if (len == 10) {		/* yy: 69-99 is 19yy, 00-68 is 20yy */
		year = two(arg, 0, 99);
		tm.tm_year = year < 69 ? year + 100 : year;
		arg += 2;
	} else if (len != 8 && len != 6 && len != 4)
		usage();
	if (len >= 8) {			/* mm */
		tm.tm_mon = two(arg, 1, 12) - 1;
		arg += 2;
	}
	if (len >= 6) {			/* dd */
		tm.tm_mday = two(arg, 1, 31);
		arg += 2;
	}
	tm.tm_hour = two(arg, 0, 23);	/* HHMM */
	tm.tm_min = two(arg + 2, 0, 59);
	tv.tv_sec = timegm(&tm);
	tv.tv_usec = 0;
	if (settimeofday(&tv, NULL) < 0)
		err(1, "settimeofday");
}

int
main(int argc, char *argv[])
{
	const char *format;
	char buf[1024];
	time_t now;
	int ch;

	while ((ch = getopt(argc, argv, "u")) != -1) {
		switch (ch) {
		case 'u':		/* it is always UTC */
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage();
	now = time(NULL);
	format = "%a %b %e %H:%M:%S %Z %Y";
	if (argc == 1) {
		if (argv[0][0] == '+')
			format = argv[0] + 1;
		else {
			setdate(argv[0], now);
			now = time(NULL);
		}
	}
	strftime(buf, sizeof(buf), format, localtime(&now));
	printf("%s\n", buf);
	return 0;
}
