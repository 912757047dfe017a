/*
 * Signals (4.4BSD kern_sig.c, simplified).
 *
 * psignal() marks a signal pending and wakes the process if it sleeps
 * interruptibly; the signal acts when the process next returns to user
 * mode (userret: issignal + postsig).  Default actions: terminate,
 * ignore, or stop; a handler runs on the user stack with a frame that
 * ends in a call to sigreturn, which restores the interrupted registers.
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/uio.h"
#include "kern/syscallargs.h"
#include "kern/i386/cpu.h"
#include "kern/emul.h"
#include <sys/wait.h>

#define CANTMASK	(sigmask(SIGKILL) | sigmask(SIGSTOP))
#define DFL_IGNORE	(sigmask(SIGURG) | sigmask(SIGCONT) | \
			 sigmask(SIGCHLD) | sigmask(SIGIO) | \
			 sigmask(SIGWINCH) | sigmask(SIGINFO))
#define DFL_STOP	(sigmask(SIGSTOP) | sigmask(SIGTSTP) | \
			 sigmask(SIGTTIN) | sigmask(SIGTTOU))

/* What a handler's frame holds to resume the interrupted code. */
struct sigcontext {
	int	sc_onstack;
	sigset_t sc_mask;
	u_int32_t sc_esp, sc_ebp, sc_eip, sc_efl;
	u_int32_t sc_edi, sc_esi, sc_ebx, sc_edx, sc_ecx, sc_eax;
};

struct sigframe {
	u_int32_t sf_ret;		/* handler returns into sf_code */
	int	sf_signum;		/* handler(signum, code, scp) */
	u_int32_t sf_code;
	u_int32_t sf_scp;
	struct sigcontext sf_sc;
	u_int8_t sf_tramp[16];		/* calls sigreturn(scp) */
};

/* movl 8(%esp),%eax; pushl %eax; pushl %eax; movl $103,%eax; int $0x80 */
static const u_int8_t sigcode[] = {
	0x8b, 0x44, 0x24, 0x08, 0x50, 0x50, 0xb8, 103, 0, 0, 0,
	0xcd, 0x80, 0xf4,
};

/* Is the default action of sig to ignore it? */
int
sig_default_ignored(int sig)
{
	return (sigmask(sig) & DFL_IGNORE) != 0;
}

/* Is the default action of sig to stop the process? */
int
sig_default_stops(int sig)
{
	return (sigmask(sig) & DFL_STOP) != 0;
}

void
siginit(struct proc *p)
{
	memset(p->p_sigacts, 0, sizeof(p->p_sigacts));
	p->p_sigmask = 0;
	p->p_siglist = 0;
}

/* Caught signals go back to default on exec; ignored ones stay. */
void
execsigs(struct proc *p)
{
	int i;

	for (i = 1; i < NSIG; i++) {
		if (p->p_sigacts[i].sa_handler != SIG_IGN)
			p->p_sigacts[i].sa_handler = SIG_DFL;
		p->p_sigacts[i].sa_flags = 0;
		p->p_sigacts[i].sa_mask = 0;
	}
}

/* Stop p for sig and tell its parent (wait4 with WUNTRACED sees it). */
static void
stop(struct proc *p, int sig)
{
	p->p_xstat = sig;
	p->p_flag &= ~P_WAITED;
	p->p_stat = SSTOP;
	psignal(p->p_pptr, SIGCHLD);
	wakeup(p->p_pptr);
}

void
psignal(struct proc *p, int sig)
{
	int s;

	if (sig <= 0 || sig >= NSIG || p == NULL || p->p_stat == SZOMB ||
	    p->p_stat == SFREE || (p->p_flag & P_SYSTEM))
		return;
	s = splhigh();
	if (sig == SIGCONT) {
		p->p_siglist &= ~DFL_STOP;
		/* A process stopped in a sleep goes back to that sleep. */
		if (p->p_stat == SSTOP)
			p->p_stat = p->p_wchan ? SSLEEP : SRUN;
	} else if (sigmask(sig) & DFL_STOP)
		p->p_siglist &= ~sigmask(SIGCONT);
	/*
	 * A default stop signal stops a process in an interruptible sleep
	 * where it sleeps (4.4BSD): the sleep is not aborted, and SIGCONT
	 * resumes it.  Others stop on their way back to user mode.
	 */
	if ((sigmask(sig) & DFL_STOP) && p->p_stat == SSLEEP &&
	    (p->p_slpflags & PCATCH) &&
	    p->p_sigacts[sig].sa_handler == SIG_DFL &&
	    !(p->p_sigmask & sigmask(sig))) {
		stop(p, sig);
		splx(s);
		return;
	}
	p->p_siglist |= sigmask(sig);
	if (sig == SIGKILL && p->p_stat == SSTOP)
		setrunnable(p);
	if (p->p_stat == SSLEEP && (p->p_slpflags & PCATCH) &&
	    (!(p->p_sigmask & sigmask(sig)) || sig == SIGKILL))
		setrunnable(p);
	splx(s);
}

void
gsignal(pid_t pgid, int sig)
{
	int i;

	for (i = 0; i < NPROC; i++)
		if (proc[i].p_stat != SFREE && proc[i].p_pgid == pgid)
			psignal(&proc[i], sig);
}

/*
 * The next signal to act on, or 0.  Ignored signals are dropped here,
 * and a default-stop signal stops the process until SIGCONT.
 */
int
issignal(struct proc *p)
{
	for (;;) {
		sigset_t pending = p->p_siglist & ~(p->p_sigmask & ~CANTMASK);
		int sig;
		sig_t action;

		if (pending == 0)
			return 0;
		sig = __builtin_ffs(pending);
		action = p->p_sigacts[sig].sa_handler;
		if (action == SIG_IGN && !(sigmask(sig) & CANTMASK)) {
			p->p_siglist &= ~sigmask(sig);
			continue;
		}
		if (action == SIG_DFL || (sigmask(sig) & CANTMASK)) {
			if (sigmask(sig) & DFL_IGNORE) {
				p->p_siglist &= ~sigmask(sig);
				continue;
			}
			if (sigmask(sig) & DFL_STOP) {
				int s = splhigh();

				p->p_siglist &= ~sigmask(sig);
				stop(p, sig);
				mi_switch();
				splx(s);
				continue;
			}
		}
		return sig;
	}
}

void
sigexit(struct proc *p, int sig)
{
	exit1(p, W_EXITCODE(0, sig));
}

/* Build the handler's frame on the user stack and point %eip at it. */
static void
sendsig(struct proc *p, int sig, sigset_t mask, u_int32_t code)
{
	struct trapframe *tf = p->p_tf;
	struct sigaction *sa = &p->p_sigacts[sig];
	struct sigframe sf, *fp;

	fp = (struct sigframe *)((tf->tf_esp - sizeof(sf)) & ~15u);
	sf.sf_ret = (u_int32_t)fp->sf_tramp;
	sf.sf_signum = sig;
	sf.sf_code = code;
	sf.sf_scp = (u_int32_t)&fp->sf_sc;
	memset(&sf.sf_sc, 0, sizeof(sf.sf_sc));
	sf.sf_sc.sc_mask = mask;
	sf.sf_sc.sc_esp = tf->tf_esp;
	sf.sf_sc.sc_ebp = tf->tf_ebp;
	sf.sf_sc.sc_eip = tf->tf_eip;
	sf.sf_sc.sc_efl = tf->tf_eflags;
	sf.sf_sc.sc_edi = tf->tf_edi;
	sf.sf_sc.sc_esi = tf->tf_esi;
	sf.sf_sc.sc_ebx = tf->tf_ebx;
	sf.sf_sc.sc_edx = tf->tf_edx;
	sf.sf_sc.sc_ecx = tf->tf_ecx;
	sf.sf_sc.sc_eax = tf->tf_eax;
	memset(sf.sf_tramp, 0, sizeof(sf.sf_tramp));
	memcpy(sf.sf_tramp, sigcode, sizeof(sigcode));
	if (copyout(&sf, fp, sizeof(sf)) != 0) {
		/* No room on the stack for the frame: the process dies. */
		sigexit(p, SIGILL);
	}
	tf->tf_esp = (u_int32_t)fp;
	tf->tf_eip = (u_int32_t)sa->sa_handler;
}

/* Act on sig: run the handler or take the default action. */
void
postsig(int sig)
{
	struct proc *p = curproc;
	struct sigaction *sa = &p->p_sigacts[sig];
	sigset_t returnmask;

	p->p_siglist &= ~sigmask(sig);
	if (sa->sa_handler == SIG_DFL || (sigmask(sig) & CANTMASK))
		sigexit(p, sig);
	p->p_ru.ru_nsignals++;
	if (p->p_flag & P_SIGSUSPEND) {
		returnmask = p->p_oldmask;
		p->p_flag &= ~P_SIGSUSPEND;
	} else
		returnmask = p->p_sigmask;
	if (p->p_emul->e_sendsig != NULL)
		p->p_emul->e_sendsig(p, sig, returnmask, 0);
	else
		sendsig(p, sig, returnmask, 0);
	p->p_sigmask |= sa->sa_mask;
	if (!(sa->sa_flags & SA_NODEFER))
		p->p_sigmask |= sigmask(sig);
	p->p_sigmask &= ~CANTMASK;
	if (sa->sa_flags & SA_RESETHAND)
		sa->sa_handler = SIG_DFL;
}

/* A fault in user mode: deliver now if caught, else the default kills. */
void
trapsignal(struct proc *p, int sig, u_int32_t code)
{
	struct sigaction *sa = &p->p_sigacts[sig];

	if (sa->sa_handler != SIG_DFL && sa->sa_handler != SIG_IGN &&
	    !(p->p_sigmask & sigmask(sig))) {
		sigset_t mask = p->p_sigmask;

		p->p_ru.ru_nsignals++;
		if (p->p_emul->e_sendsig != NULL)
			p->p_emul->e_sendsig(p, sig, mask, code);
		else
			sendsig(p, sig, mask, code);
		p->p_sigmask |= sa->sa_mask | sigmask(sig);
		p->p_sigmask &= ~CANTMASK;
		if (sa->sa_flags & SA_RESETHAND)
			sa->sa_handler = SIG_DFL;
		return;
	}
	/* Ignored or blocked faults cannot be ignored: they kill. */
	sigexit(p, sig);
}

/* Set sig's action (sigaction's work, for an emulation's too). */
int
setsigaction(struct proc *p, int sig, const struct sigaction *nsa)
{
	if (sig <= 0 || sig >= NSIG || (sigmask(sig) & CANTMASK))
		return EINVAL;
	p->p_sigacts[sig] = *nsa;
	p->p_sigacts[sig].sa_mask &= ~CANTMASK;
	/* Setting SIG_IGN (or default-ignore) discards a pending signal. */
	if (nsa->sa_handler == SIG_IGN ||
	    (nsa->sa_handler == SIG_DFL && (sigmask(sig) & DFL_IGNORE)))
		p->p_siglist &= ~sigmask(sig);
	return 0;
}

int
sys_sigaction(struct proc *p, struct sigaction_args *uap, int *retval)
{
	struct sigaction nsa;
	int error, sig = uap->signum;

	if (sig <= 0 || sig >= NSIG)
		return EINVAL;
	if (uap->osa && (error = copyout(&p->p_sigacts[sig], uap->osa,
	    sizeof(nsa))) != 0)
		return error;
	if (uap->nsa == NULL)
		return 0;
	if ((error = copyin(uap->nsa, &nsa, sizeof(nsa))) != 0)
		return error;
	return setsigaction(p, sig, &nsa);
}

int
sys_sigprocmask(struct proc *p, struct sigprocmask_args *uap, int *retval)
{
	*retval = p->p_sigmask;
	switch (uap->how) {
	case SIG_BLOCK:
		p->p_sigmask |= uap->mask & ~CANTMASK;
		break;
	case SIG_UNBLOCK:
		p->p_sigmask &= ~uap->mask;
		break;
	case SIG_SETMASK:
		p->p_sigmask = uap->mask & ~CANTMASK;
		break;
	default:
		return EINVAL;
	}
	return 0;
}

int
sys_sigpending(struct proc *p, void *uap, int *retval)
{
	*retval = p->p_siglist;
	return 0;
}

int
sys_sigsuspend(struct proc *p, struct sigsuspend_args *uap, int *retval)
{
	p->p_oldmask = p->p_sigmask;
	p->p_flag |= P_SIGSUSPEND;
	p->p_sigmask = uap->mask & ~CANTMASK;
	while (tsleep(&p->p_oldmask, PCATCH, "pause", 0) == 0)
		continue;
	return EINTR;
}

int
sys_sigreturn(struct proc *p, struct sigreturn_args *uap, int *retval)
{
	struct trapframe *tf = p->p_tf;
	struct sigcontext sc;
	int error;

	if ((error = copyin(uap->sigcntxp, &sc, sizeof(sc))) != 0)
		return error;
	/* Only the flags user code may change; interrupts stay on. */
	tf->tf_eflags = (sc.sc_efl & 0x00000cd5) | PSL_USERSET;
	tf->tf_esp = sc.sc_esp;
	tf->tf_ebp = sc.sc_ebp;
	tf->tf_eip = sc.sc_eip;
	tf->tf_edi = sc.sc_edi;
	tf->tf_esi = sc.sc_esi;
	tf->tf_ebx = sc.sc_ebx;
	tf->tf_edx = sc.sc_edx;
	tf->tf_ecx = sc.sc_ecx;
	tf->tf_eax = sc.sc_eax;
	tf->tf_cs = GSEL_UCODE;
	tf->tf_ss = tf->tf_ds = tf->tf_es = tf->tf_fs = tf->tf_gs = GSEL_UDATA;
	p->p_sigmask = sc.sc_mask & ~CANTMASK;
	return EJUSTRETURN;
}

/* May p send a signal to q? */
static int
cansignal(struct proc *p, struct proc *q)
{
	return p->p_cred.cr_uid == 0 ||
	    p->p_cred.cr_ruid == q->p_cred.cr_ruid ||
	    p->p_cred.cr_uid == q->p_cred.cr_ruid ||
	    p->p_cred.cr_ruid == q->p_cred.cr_uid ||
	    p->p_cred.cr_uid == q->p_cred.cr_uid;
}

/* Is q one of the processes kill(pid) names, as seen by p? */
static int
kill_matches(struct proc *p, struct proc *q, pid_t pid)
{
	if (q->p_stat == SFREE || q->p_stat == SIDL || (q->p_flag & P_SYSTEM))
		return 0;
	if (pid > 0)
		return q->p_pid == pid;
	if (q == initproc)
		return 0;		/* groups and broadcasts spare init */
	if (pid == 0)
		return q->p_pgid == p->p_pgid;
	if (pid == -1)
		return q != p;		/* everyone else */
	return q->p_pgid == -pid;
}

int
sys_kill(struct proc *p, struct kill_args *uap, int *retval)
{
	int i, found = 0, denied = 0;

	if (uap->signum < 0 || uap->signum >= NSIG)
		return EINVAL;
	for (i = 0; i < NPROC; i++) {
		struct proc *q = &proc[i];

		if (!kill_matches(p, q, uap->pid))
			continue;
		found++;
		if (!cansignal(p, q)) {
			denied++;
			continue;
		}
		if (uap->signum)
			psignal(q, uap->signum);
	}
	if (!found)
		return ESRCH;
	return denied == found ? EPERM : 0;
}
