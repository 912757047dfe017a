/*
 * gmtime and timegm against the host's gmtime over four centuries of
 * random times (negative ones too), and strftime's conversions.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bsd.h"
#include "harness.h"

static void
conversions(void)
{
	struct bsd_tm *b, copy;
	struct tm *h;
	long t;
	int i, same, inverse;

	same = inverse = 1;
	srand(3);
	for (i = 0; i < 20000; i++) {
		t = i < 10 ? (long)(i - 5) * 86399 :
		    (long)((unsigned)rand() * 2u + (rand() & 1));
		time_t ht = t;

		b = bsd_gmtime(&t);
		h = gmtime(&ht);
		if (b->tm_year != h->tm_year || b->tm_mon != h->tm_mon ||
		    b->tm_mday != h->tm_mday || b->tm_hour != h->tm_hour ||
		    b->tm_min != h->tm_min || b->tm_sec != h->tm_sec ||
		    b->tm_wday != h->tm_wday || b->tm_yday != h->tm_yday) {
			if (same)
				printf("gmtime(%ld) differs\n", t);
			same = 0;
		}
		copy = *b;
		if (bsd_timegm(&copy) != t)
			inverse = 0;
	}
	CHECK(same);
	CHECK(inverse);
}

static void
formats(void)
{
	struct bsd_tm *tm;
	char buf[128];
	long t;

	t = 1000000000;			/* 2001-09-09 01:46:40 UTC, a Sunday */
	tm = bsd_gmtime(&t);
	bsd_strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S %a %A %b %B %j", tm);
	CHECK_STR(buf, "2001-09-09 01:46:40 Sun Sunday Sep September 252");
	bsd_strftime(buf, sizeof(buf), "%e|%D|%T|%y|%Z|%%|%I %p|%u %w|%s", tm);
	CHECK_STR(buf, " 9|09/09/01|01:46:40|01|UTC|%|01 AM|7 0|1000000000");
	CHECK_STR(bsd_ctime(&t), "Sun Sep  9 01:46:40 2001\n");
	CHECK_INT(bsd_strftime(buf, 5, "%Y-%m", tm), 0);	/* too small */
	t = 0;
	CHECK_STR(bsd_ctime(&t), "Thu Jan  1 00:00:00 1970\n");
	t = 951782400;			/* 2000-02-29, a leap day */
	tm = bsd_gmtime(&t);
	bsd_strftime(buf, sizeof(buf), "%F %j", tm);
	CHECK_STR(buf, "2000-02-29 060");
}

void
test_time(void)
{
	conversions();
	formats();
}
