/*
 * CPU time: how long each process has run in user mode and in the kernel,
 * and getrusage(2), which reports it.
 *
 * 4.4BSD sampled it: each clock tick charged the running process's user or
 * system count, whichever mode the tick interrupted.  This kernel runs with
 * interrupts off (kern/i386/cpu.h: no preemption, splhigh is all the
 * locking there is), so a tick can only land in user mode or in the idle
 * loop and sampled system time would always read 0.  Instead the clock is
 * read at every crossing:
 *
 *	trap from user mode (system call, fault, interrupt)	user time ends
 *	userret, back to user mode				system time ends
 *	mi_switch, the CPU given up in the kernel		system time ends
 *	scheduler, the process chosen to run			its clock restarts
 *
 * so p_uus + p_sus is exactly the time the process had the CPU.
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/uio.h"
#include "kern/syscallargs.h"
#include <sys/resource.h>

/* Entered the kernel from user mode: the time since userret was user time. */
void
cputime_enter(struct proc *p)
{
	u_int64_t now = uptime_us();

	p->p_uus += now - p->p_tstamp;
	p->p_tstamp = now;
}

/* Leaving the kernel, for user mode or for another process: system time. */
void
cputime_leave(struct proc *p)
{
	u_int64_t now = uptime_us();

	p->p_sus += now - p->p_tstamp;
	p->p_tstamp = now;
}

/* Given the CPU (by the scheduler): its clock starts again now. */
void
cputime_start(struct proc *p)
{
	p->p_tstamp = uptime_us();
}

static void
us_to_timeval(u_int64_t us, struct timeval *tv)
{
	tv->tv_sec = us / 1000000;
	tv->tv_usec = us % 1000000;
}

/* User and system time of p so far (4.4BSD's calcru). */
void
calcru(struct proc *p, struct timeval *up, struct timeval *sp)
{
	us_to_timeval(p->p_uus, up);
	us_to_timeval(p->p_sus, sp);
}

int
sys_getrusage(struct proc *p, struct getrusage_args *uap, int *retval)
{
	struct rusage ru;

	switch (uap->who) {
	case RUSAGE_SELF:
		ru = p->p_ru;
		cputime_leave(p);	/* up to this call */
		calcru(p, &ru.ru_utime, &ru.ru_stime);
		break;
	case RUSAGE_CHILDREN:
		ru = p->p_cru;
		break;
	default:
		return EINVAL;
	}
	return copyout(&ru, uap->rusage, sizeof(ru));
}
