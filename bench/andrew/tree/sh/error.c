/*
 * Errors and interrupts.  A syntax or expansion error, or a ^C at the
 * prompt, abandons the command being read or run: exraise longjmps to
 * the innermost handler, which is the command loop (or a cleanup on the
 * way, such as the "." command popping its input).  An interactive
 * shell then reads the next command; any other shell exits.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "sh.h"

struct jmploc *handler;
int exception;
volatile int intpending;	/* set by the SIGINT handler */

void
exraise(int e)
{
	exception = e;
	longjmp(handler->jb, 1);
}

void
shwarn(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("sh: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Report an error and abandon the command, with status 2. */
void
sherror(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("sh: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exitstatus = 2;
	exraise(EXERROR);
}

/* A ^C arrived while the shell itself was busy (not a child). */
void
onint(void)
{
	exitstatus = 128 + SIGINT;
	exraise(EXINT);
}
