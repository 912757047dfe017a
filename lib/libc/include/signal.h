/*
 * Signals: the numbers and struct sigaction are the kernel's
 * <sys/signal.h>; the set operations, signal(3) and the names are libc's.
 */
#ifndef _SIGNAL_H_
#define _SIGNAL_H_

#include <sys/types.h>
#include <sys/signal.h>

typedef int sig_atomic_t;

extern const char *const sys_siglist[NSIG];	/* "Interrupt" */
extern const char *const sys_signame[NSIG];	/* "int" */

int	kill(pid_t, int);
int	killpg(pid_t, int);
int	raise(int);
int	sigaction(int, const struct sigaction *, struct sigaction *);
int	sigaddset(sigset_t *, int);
int	sigdelset(sigset_t *, int);
int	sigemptyset(sigset_t *);
int	sigfillset(sigset_t *);
int	sigismember(const sigset_t *, int);
sig_t	signal(int, sig_t);
int	sigpending(sigset_t *);
int	sigprocmask(int, const sigset_t *, sigset_t *);
int	sigreturn(void *);
int	sigsuspend(const sigset_t *);

#endif
