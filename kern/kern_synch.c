/*
 * Sleeping, waking and the scheduler.
 *
 * The scheduler runs on its own stack (the boot stack) and picks the
 * next runnable process round-robin; a process gives the CPU back by
 * switching to it (mi_switch()).  A process sleeps on a "channel", any
 * address that names what it waits for; wakeup(chan) makes every sleeper
 * on chan runnable.  Interrupts stay off from the decision to sleep to
 * the switch, so a wakeup from an interrupt handler cannot slip between
 * them and be lost.
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/i386/cpu.h"
#include "kern/i386/machdep.h"
#include "kern/i386/pmap.h"

struct proc *curproc;
int want_resched;
static struct context *sched_ctx;

void	swtch(struct context **from, struct context *to);

/* Switch to the scheduler; return when this process is chosen again. */
void
mi_switch(void)
{
	KASSERT(!(read_eflags() & PSL_I));
	cputime_leave(curproc);
	swtch(&curproc->p_ctx, sched_ctx);
}

void
scheduler(void)
{
	static int last;
	int i, found;

	for (;;) {
		sti();
		cli();
		found = 0;
		for (i = 1; i <= NPROC; i++) {
			struct proc *p = &proc[(last + i) % NPROC];

			if (p->p_stat != SRUN)
				continue;
			last = p - proc;
			found = 1;
			curproc = p;
			want_resched = 0;
			set_kstack((u_int32_t)p->p_kstack + KSTACK_SIZE);
			pmap_activate(p->p_pmap);
			set_user_tls(p->p_tls);
			fpu_restore(p->p_fpu);
			cputime_start(p);
			swtch(&sched_ctx, p->p_ctx);
			fpu_save(p->p_fpu);
			curproc = NULL;
			break;
		}
		if (!found) {
			/* Nothing to run: wait for an interrupt. */
			__asm volatile("sti; hlt");
		}
	}
}

/* Give up the CPU but stay runnable (the time slice is over). */
void
preempt(void)
{
	int s = splhigh();

	curproc->p_stat = SRUN;
	curproc->p_ru.ru_nivcsw++;
	mi_switch();
	splx(s);
}

/* A signal that would end an interruptible sleep? */
static int
sleep_signal(struct proc *p)
{
	sigset_t pending = p->p_siglist & ~p->p_sigmask;

	/* Signals the process ignores, by choice or by default, do not. */
	while (pending) {
		int sig = __builtin_ffs(pending);
		sig_t action = p->p_sigacts[sig].sa_handler;

		if (sig == SIGKILL || (action != SIG_IGN &&
		    !(action == SIG_DFL && (sig_default_ignored(sig) ||
		    sig_default_stops(sig)))))
			return sig;
		pending &= ~sigmask(sig);
	}
	return 0;
}

/*
 * Sleep on chan until wakeup(chan), for at most timo ticks (0: forever).
 * With PCATCH a signal ends the sleep: EINTR, or ERESTART if its handler
 * asked for SA_RESTART.  A timeout returns EWOULDBLOCK.
 */
int
tsleep(void *chan, int flags, const char *wmesg, int timo)
{
	struct proc *p = curproc;
	int s, sig, error = 0;

	KASSERT(p != NULL && !cold);
	s = splhigh();
	if ((flags & PCATCH) && (sig = sleep_signal(p)) != 0)
		goto interrupted;
	p->p_wchan = chan;
	p->p_wmesg = wmesg;
	p->p_slpflags = flags;
	p->p_timeout = timo ? ticks + timo : 0;
	p->p_flag &= ~P_TIMEDOUT;
	p->p_stat = SSLEEP;
	p->p_ru.ru_nvcsw++;
	mi_switch();
	p->p_wchan = NULL;
	if (p->p_flag & P_TIMEDOUT) {
		p->p_flag &= ~P_TIMEDOUT;
		error = EWOULDBLOCK;
	}
	if ((flags & PCATCH) && (sig = sleep_signal(p)) != 0)
		goto interrupted;
	splx(s);
	return error;
interrupted:
	splx(s);
	return (p->p_sigacts[sig].sa_flags & SA_RESTART) ? ERESTART : EINTR;
}

void
setrunnable(struct proc *p)
{
	if (p->p_stat == SSLEEP || p->p_stat == SSTOP) {
		p->p_stat = SRUN;
		p->p_wchan = NULL;
	}
}

/*
 * The event p sleeps for happened: run it, or, if it was stopped while
 * asleep, let it run when SIGCONT comes.
 */
static void
endsleep(struct proc *p)
{
	if (p->p_stat == SSTOP)
		p->p_wchan = NULL;
	else
		setrunnable(p);
}

void
wakeup(void *chan)
{
	int i, s = splhigh();

	for (i = 0; i < NPROC; i++)
		if ((proc[i].p_stat == SSLEEP || proc[i].p_stat == SSTOP) &&
		    proc[i].p_wchan == chan && chan != NULL)
			endsleep(&proc[i]);
	splx(s);
}

void
wakeup_one(void *chan)
{
	int i, s = splhigh();

	for (i = 0; i < NPROC; i++) {
		if ((proc[i].p_stat == SSLEEP || proc[i].p_stat == SSTOP) &&
		    proc[i].p_wchan == chan && chan != NULL) {
			endsleep(&proc[i]);
			break;
		}
	}
	splx(s);
}

/* From hardclock: wake the sleepers whose timeout has come. */
void
sleep_timeouts(void)
{
	int i;

	for (i = 0; i < NPROC; i++) {
		struct proc *p = &proc[i];

		if ((p->p_stat == SSLEEP || p->p_stat == SSTOP) &&
		    p->p_wchan != NULL && p->p_timeout != 0 &&
		    (int32_t)(ticks - p->p_timeout) >= 0) {
			p->p_timeout = 0;
			p->p_flag |= P_TIMEDOUT;
			endsleep(p);
		}
	}
}
