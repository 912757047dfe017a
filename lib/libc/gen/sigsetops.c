/*
 * Signal set operations.  A sigset_t is a 32-bit mask; signal n is bit n-1
 * (sigmask(n) in <sys/signal.h>).
 */
#include <errno.h>
#include <signal.h>

static int
badsig(int sig)
{
	if (sig <= 0 || sig >= NSIG) {
		errno = EINVAL;
		return 1;
	}
	return 0;
}

int
sigemptyset(sigset_t *set)
{
	*set = 0;
	return 0;
}

int
sigfillset(sigset_t *set)
{
	*set = ~(sigset_t)0;
	return 0;
}

int
sigaddset(sigset_t *set, int sig)
{
	if (badsig(sig))
		return -1;
	*set |= sigmask(sig);
	return 0;
}

int
sigdelset(sigset_t *set, int sig)
{
	if (badsig(sig))
		return -1;
	*set &= ~sigmask(sig);
	return 0;
}

int
sigismember(const sigset_t *set, int sig)
{
	if (badsig(sig))
		return -1;
	return (*set & sigmask(sig)) != 0;
}
