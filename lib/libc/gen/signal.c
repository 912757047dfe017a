/*
 * signal(3): the old interface, as a wrapper over sigaction(2).  Like
 * 4.4BSD it installs a handler that stays installed and restarts
 * interrupted system calls (SA_RESTART).
 */
#include <signal.h>

sig_t
signal(int sig, sig_t handler)
{
	struct sigaction sa, osa;

	sa.sa_handler = handler;
	sa.sa_mask = 0;
	sa.sa_flags = SA_RESTART;
	if (sigaction(sig, &sa, &osa) < 0)
		return SIG_ERR;
	return osa.sa_handler;
}
