/*
 * wisc: the Wisconsin benchmark of thesis 7.7 (tables 7-6 to 7-8) on the
 * record library.
 *
 *	wisc -d DIR load [-n tuples] [-f fill]	make the four relations
 *	wisc -d DIR query N			run query N (1-32), timed
 *	wisc -d DIR setup N			TENKTUP1 as query N expects it
 *	wisc -d DIR check			every file against the load
 *	wisc [-d DIR] list			the queries (table 7-7)
 *
 * load: TENKTUP1 and TENKTUP2 of -n tuples (10,000, the benchmark's;
 * 1,000 to 17,500, a multiple of 100), ONEKTUP and BPRIME of a tenth of
 * that, each with its two indices, the B-trees' pages -f percent full
 * (65); one line per file with its size.  query: the query's line
 *
 *	wisc query N rows R sum1 S1 sum2 S2 usecs U pgreads P pgwrites W
 *
 * (an aggregate says "value V" for sum1 and sum2; see query.c), timed
 * from opening the relations to closing them, the temporary relation of
 * the last query removed first; pgreads and pgwrites are the pages the
 * B-trees' caches read and wrote (8 KB each).  The updates (26-32) change
 * the database: run setup N before query N (the driver does).
 */
#include <sys/types.h>
#include <sys/time.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bin/wisc/wisc.h"

static void
usage(void)
{
	fprintf(stderr,
	    "usage: wisc -d dir load [-n tuples] [-f fill]\n"
	    "       wisc -d dir query N\n"
	    "       wisc -d dir setup N\n"
	    "       wisc -d dir check\n"
	    "       wisc [-d dir] list\n");
	exit(1);
}

/* A whole decimal number in [lo, hi], or usage. */
static u_int32_t
number(const char *s, u_int32_t lo, u_int32_t hi)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s < '0' || *s > '9' || *end != '\0' || errno != 0 || v < lo ||
	    v > hi)
		usage();
	return (u_int32_t)v;
}

static long long
now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

static void
list(void)
{
	int i;

	printf("%-5s %-11s %-11s %-14s %s\n", "query", "type", "selectivity",
	    "index", "definition (for 10,000 tuples)");
	for (i = 0; i < nqueries; i++)
		printf("%5d %-11s %-11s %-14s %s\n", queries[i].num,
		    queries[i].type, queries[i].sel, queries[i].index,
		    queries[i].what);
}

static int
query(const char *dir, int num)
{
	const struct query *q = &queries[num - 1];
	struct result res;
	struct wisc w;
	char path[1024];
	long long t0, us;
	int rv;

	if (db_open(&w, dir) < 0)
		return 1;
	snprintf(path, sizeof(path), "%s/tmp", dir);
	if (unlink(path) < 0 && errno != ENOENT) {
		fprintf(stderr, "wisc: %s: %s\n", path, strerror(errno));
		return 1;
	}
	memset(&res, 0, sizeof(res));
	t0 = now_us();
	rv = q->run(&w, q, &res);
	if (rv < 0)
		fprintf(stderr, "wisc: query %d: %s\n", num, strerror(errno));
	if (db_close(&w) < 0 && rv >= 0) {
		fprintf(stderr, "wisc: query %d: closing: %s\n", num,
		    strerror(errno));
		rv = -1;
	}
	us = now_us() - t0;
	if (rv < 0)
		return 1;
	printf("wisc query %d rows %llu ", num, (unsigned long long)res.rows);
	if (res.isagg)
		printf("value %llu ", (unsigned long long)res.value);
	else
		printf("sum1 %llu sum2 %llu ", (unsigned long long)res.sum1,
		    (unsigned long long)res.sum2);
	printf("usecs %lld pgreads %llu pgwrites %llu\n", us,
	    (unsigned long long)w.pgreads, (unsigned long long)w.pgwrites);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *dir = NULL, *cmd;
	u_int32_t n = NTUPLES, fill = 65;
	struct wisc w;
	int c, i;

	while ((c = getopt(argc, argv, "d:")) != -1) {
		if (c != 'd')
			usage();
		dir = optarg;
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	cmd = argv[0];
	if (strcmp(cmd, "list") == 0) {
		if (argc != 1)
			usage();
		list();
		return 0;
	}
	if (dir == NULL)
		usage();
	if (strcmp(cmd, "load") == 0) {
		for (i = 1; i < argc; i += 2) {
			if (i + 1 >= argc)
				usage();
			if (strcmp(argv[i], "-n") == 0)
				n = number(argv[i + 1], MINTUPLES, MAXTUPLES);
			else if (strcmp(argv[i], "-f") == 0)
				fill = number(argv[i + 1], 10, 100);
			else
				usage();
		}
		if (n % 100 != 0)
			usage();
		return load(dir, n, fill) < 0 ? 1 : 0;
	}
	if (strcmp(cmd, "query") == 0 && argc == 2)
		return query(dir, (int)number(argv[1], 1, (u_int32_t)nqueries));
	if (strcmp(cmd, "setup") == 0 && argc == 2) {
		i = (int)number(argv[1], 1, (u_int32_t)nqueries);
		if (db_open(&w, dir) < 0)
			return 1;
		if (setup(&w, i) < 0 || db_close(&w) < 0) {
			fprintf(stderr, "wisc: setup: %s\n", strerror(errno));
			return 1;
		}
		return 0;
	}
	if (strcmp(cmd, "check") == 0 && argc == 1) {
		if (db_open(&w, dir) < 0)
			return 1;
		if (check(&w) < 0 || db_close(&w) < 0) {
			fprintf(stderr, "wisc: check: %s\n", strerror(errno));
			return 1;
		}
		return 0;
	}
	usage();
	return 1;
}
