/*
 * exit(3) and atexit(3): run the registered functions, last first, flush
 * the stdio streams and leave through _exit(2).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define ATEXIT_MAX	32

static void (*handlers[ATEXIT_MAX])(void);
static int nhandlers;

int
atexit(void (*fn)(void))
{
	if (nhandlers >= ATEXIT_MAX) {
		errno = ENOMEM;
		return -1;
	}
	handlers[nhandlers++] = fn;
	return 0;
}

void
exit(int status)
{
	while (nhandlers > 0)
		handlers[--nhandlers]();
	fflush(NULL);
	_exit(status);
}
