/*
 * abort(3): raise SIGABRT with the signal unblocked; if a handler
 * returns, take the default action; if even that fails, exit.
 */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

void
abort(void)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGABRT);
	sigprocmask(SIG_UNBLOCK, &mask, NULL);
	raise(SIGABRT);
	signal(SIGABRT, SIG_DFL);
	raise(SIGABRT);
	_exit(127);
}
