/*
 * The check lines every in-guest test program prints (see check.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include "tests/lib/check.h"

const char *check_prog = "test";
int passed, failed;

void
checkline(int cond, const char *what, const char *fmt, ...)
{
	va_list ap;

	if (cond) {
		printf("(%s) %s: ok\n", check_prog, what);
		passed++;
		return;
	}
	printf("(%s) %s: FAILED: ", check_prog, what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failed++;
}

int
check_done(void)
{
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
