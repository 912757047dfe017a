/*
 * sleep: suspend execution for an interval.
 *	sleep seconds
 * The interval may have a fraction ("0.5").
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void
usage(void)
{
	fprintf(stderr, "usage: sleep seconds\n");
	exit(1);
}

int
main(int argc, char *argv[])
{
	struct timespec ts;
	const char *p;
	long scale;

	if (getopt(argc, argv, "") != -1 || argc - optind != 1)
		usage();
	p = argv[optind];
	ts.tv_sec = 0;
	ts.tv_nsec = 0;
	if (!isdigit((unsigned char)*p) && *p != '.')
		usage();
	for (; isdigit((unsigned char)*p); p++)
		ts.tv_sec = ts.tv_sec * 10 + *p - '0';
	if (*p == '.')
		for (p++, scale = 100000000; isdigit((unsigned char)*p);
		    p++, scale /= 10)
			ts.tv_nsec += (*p - '0') * scale;
	if (*p != '\0')
		usage();
	while (nanosleep(&ts, &ts) < 0)
		continue;	/* a signal with a handler: sleep on */
	return 0;
}
