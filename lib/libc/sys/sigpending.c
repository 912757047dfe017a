/*
 * sigpending(2) and sigsuspend(2).  As in 4.4BSD the traps pass masks by
 * value: sigpending() returns the pending set, sigsuspend(mask) takes the
 * mask itself.  These wrappers give them their POSIX pointer interfaces.
 */
#include <signal.h>

int	__sys_sigpending(void);
int	__sys_sigsuspend(sigset_t);

int
sigpending(sigset_t *set)
{
	*set = (sigset_t)__sys_sigpending();
	return 0;
}

int
sigsuspend(const sigset_t *set)
{
	return __sys_sigsuspend(*set);
}
