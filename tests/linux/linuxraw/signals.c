/*
 * linuxraw: rt_sigaction, handlers on both frames, masks, a forged
 * sigreturn.
 */
#include "linuxraw.h"

/* --- signals ------------------------------------------------------------- */

static volatile int caught, caught_info, info_signo, masked_inside;

static void
on_signal(int sig)
{
	sigset_t now;

	caught = sig;
	sigprocmask(SIG_BLOCK, NULL, &now);
	masked_inside = sigismember(&now, sig);
}

static void
on_siginfo(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	caught_info = sig;
	info_signo = si->si_signo;
}

/* A sigreturn with no frame under it: the child dies of SIGSEGV. */
static int
c_forged_sigreturn(void *arg)
{
	(void)arg;
	__asm volatile("movl $0xbfff0000, %%esp; movl $119, %%eax; int $0x80"
	    ::: "memory");
	return 0;
}

void
t_signals(void)
{
	struct sigaction sa, old;
	sigset_t set, now;
	unsigned long long kset[2] = { 0, 0 };
	int status;
	pid_t pid;

	expect("rt_sigaction with a 4-byte set: EINVAL",
	    sys(NR_rt_sigaction, SIGUSR1, 0, (long)kset, 4, 0), -EINVAL);
	expect("rt_sigaction of signal 0: EINVAL",
	    sys(NR_rt_sigaction, 0, 0, (long)kset, 8, 0), -EINVAL);
	expect("rt_sigaction of signal 65: EINVAL",
	    sys(NR_rt_sigaction, 65, 0, (long)kset, 8, 0), -EINVAL);
	expect("rt_sigaction of SIGKILL: EINVAL",
	    sys(NR_rt_sigaction, SIGKILL, (long)kset, 0, 8, 0), -EINVAL);
	expect("rt_sigaction to an unreadable address: EFAULT",
	    sys(NR_rt_sigaction, SIGUSR1, (long)KERNADDR, 0, 8, 0), -EFAULT);
	expect("rt_sigprocmask with a bad how: EINVAL",
	    sys(NR_rt_sigprocmask, 7, (long)kset, 0, 8, 0), -EINVAL);

	signal(SIGUSR2, on_signal);
	caught = 0;
	raise(SIGUSR2);
	check("a plain handler runs (sigreturn's frame)", caught == SIGUSR2,
	    caught);
	check("... with its signal blocked inside", masked_inside == 1,
	    masked_inside);
	sigprocmask(SIG_BLOCK, NULL, &now);
	check("... and unblocked after", !sigismember(&now, SIGUSR2), 0);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_siginfo;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	caught_info = info_signo = 0;
	kill(getpid(), SIGUSR1);
	check("an SA_SIGINFO handler runs (rt_sigreturn's frame)",
	    caught_info == SIGUSR1 && info_signo == SIGUSR1, caught_info);
	sigaction(SIGUSR1, NULL, &old);
	check("sigaction gives back the handler and its flags",
	    old.sa_sigaction == on_siginfo &&
	    (old.sa_flags & (SA_SIGINFO | SA_RESTART)) ==
	    (SA_SIGINFO | SA_RESTART), old.sa_flags);

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	caught_info = 0;
	kill(getpid(), SIGUSR1);
	check("a blocked signal waits", caught_info == 0, caught_info);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	check("... and comes when unblocked", caught_info == SIGUSR1,
	    caught_info);
	expect("tgkill of another thread group's thread: ESRCH",
	    sys(NR_tgkill, getpid(), getpid() + 1, SIGUSR1, 0, 0), -ESRCH);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);

	if ((pid = fork()) == 0) {
		kill(getpid(), SIGUSR1);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	check("a child killed by SIGUSR1: wait says SIGUSR1",
	    WIFSIGNALED(status) && WTERMSIG(status) == SIGUSR1, status);
	status = inchild(c_forged_sigreturn, NULL);
	check("sigreturn on a forged frame: SIGSEGV, the kernel lives",
	    WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, status);
}
