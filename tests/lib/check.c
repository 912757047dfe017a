/*
 * The check lines every in-guest test program prints, and the helpers
 * for the children they wait for (see check.h).
 */
#include <sys/types.h>
#include <sys/wait.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include "tests/lib/check.h"

const char *check_prog = "test";
char check_dir[256] = "/tmp";
int passed, failed;

char *
tpath(const char *fmt, ...)
{
	static char names[4][512];
	static int n;
	char tail[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tail, sizeof(tail), fmt, ap);
	va_end(ap);
	n = (n + 1) % 4;
	snprintf(names[n], sizeof(names[n]), "%s/%s.d/%s", check_dir,
	    check_prog, tail);
	return names[n];
}

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

int
reap(int pid)
{
	int status;
	pid_t got = waitpid(pid, &status, 0);

	if (got < 0 || (pid > 0 && got != pid))
		return -1;
	return status;
}

int
exited_with(int status, int code)
{
	return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == code;
}
