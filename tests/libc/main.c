/*
 * The libc host test driver: run each group of checks, print one line
 * per group and a line per failed check, exit 1 if anything failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

int nchecks, nfailures;

void
check(int ok, const char *expr, const char *file, int line)
{
	nchecks++;
	if (!ok) {
		nfailures++;
		printf("FAIL %s:%d: %s\n", file, line, expr);
	}
}

void
checkstr(const char *got, const char *want, const char *expr,
    const char *file, int line)
{
	nchecks++;
	if (got == NULL || strcmp(got, want) != 0) {
		nfailures++;
		printf("FAIL %s:%d: %s is \"%s\", want \"%s\"\n", file, line,
		    expr, got != NULL ? got : "(null)", want);
	}
}

void
checkint(long long got, long long want, const char *expr, const char *file,
    int line)
{
	nchecks++;
	if (got != want) {
		nfailures++;
		printf("FAIL %s:%d: %s is %lld, want %lld\n", file, line, expr,
		    got, want);
	}
}

static void
run(const char *name, void (*fn)(void))
{
	int before = nfailures, cbefore = nchecks;

	fn();
	printf("%-12s %s (%d checks)\n", name,
	    nfailures == before ? "ok" : "FAILED", nchecks - cbefore);
	fflush(stdout);
}

int
main(void)
{
	run("printf", test_printf);
	run("string", test_string);
	run("stdlib", test_stdlib);
	run("malloc", test_malloc);
	run("stdio", test_stdio);
	run("time", test_time);
	run("misc", test_misc);
	run("regex", test_regex);
	printf("%d checks, %d failed\n", nchecks, nfailures);
	return nfailures != 0;
}
