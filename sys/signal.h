/*
 * Signals, 4.4BSD numbers and struct sigaction.
 */
#ifndef _SYS_SIGNAL_H_
#define _SYS_SIGNAL_H_

#define NSIG	32

#define SIGHUP	1
#define SIGINT	2
#define SIGQUIT	3
#define SIGILL	4
#define SIGTRAP	5
#define SIGABRT	6
#define SIGEMT	7
#define SIGFPE	8
#define SIGKILL	9
#define SIGBUS	10
#define SIGSEGV	11
#define SIGSYS	12
#define SIGPIPE	13
#define SIGALRM	14
#define SIGTERM	15
#define SIGURG	16
#define SIGSTOP	17
#define SIGTSTP	18
#define SIGCONT	19
#define SIGCHLD	20
#define SIGTTIN	21
#define SIGTTOU	22
#define SIGIO	23
#define SIGXCPU	24
#define SIGXFSZ	25
#define SIGVTALRM 26
#define SIGPROF	27
#define SIGWINCH 28
#define SIGINFO	29
#define SIGUSR1	30
#define SIGUSR2	31

typedef unsigned int sigset_t;
typedef void (*sig_t)(int);

#define SIG_DFL		((sig_t)0)
#define SIG_IGN		((sig_t)1)
#define SIG_ERR		((sig_t)-1)

struct sigaction {
	sig_t	 sa_handler;
	sigset_t sa_mask;	/* signals blocked while the handler runs */
	int	 sa_flags;
};
#define SA_ONSTACK	0x0001
#define SA_RESTART	0x0002
#define SA_RESETHAND	0x0004
#define SA_NODEFER	0x0010
#define SA_NOCLDSTOP	0x0008

#define SIG_BLOCK	1
#define SIG_UNBLOCK	2
#define SIG_SETMASK	3

#define sigmask(n)	(1U << ((n) - 1))

#endif
