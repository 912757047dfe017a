/*
 * exit and wait4.  An exiting process releases everything but its slot
 * and kernel stack and becomes a zombie holding its status; its children
 * go to init; its parent is signalled and woken.  wait4 reaps a zombie
 * child: the status and resource usage go to the parent and the slot is
 * freed.
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/uio.h"
#include "kern/file.h"
#include "kern/vnode.h"
#include "kern/syscallargs.h"
#include "kern/i386/cpu.h"
#include "kern/i386/pmap.h"
#include <sys/wait.h>

static void
ruadd(struct rusage *ru, const struct rusage *ru2)
{
	long *ip = &ru->ru_maxrss;
	const long *ip2 = &ru2->ru_maxrss;
	int i;

	ru->ru_utime.tv_sec += ru2->ru_utime.tv_sec;
	ru->ru_utime.tv_usec += ru2->ru_utime.tv_usec;
	ru->ru_stime.tv_sec += ru2->ru_stime.tv_sec;
	ru->ru_stime.tv_usec += ru2->ru_stime.tv_usec;
	for (i = 0; i < 2; i++) {
		struct timeval *tv = i ? &ru->ru_stime : &ru->ru_utime;
		if (tv->tv_usec >= 1000000) {
			tv->tv_sec++;
			tv->tv_usec -= 1000000;
		}
	}
	for (i = 0; i < 14; i++)
		ip[i] += ip2[i];
}

/*
 * What subsystems outside kern/ must do when a process exits (LFS aborts
 * the transaction it left running): registered at boot, run in order
 * before the process lets go of its files.
 */
#define NEXITHOOK	4
static void (*exithooks[NEXITHOOK])(struct proc *);

void
exithook_establish(void (*fn)(struct proc *))
{
	int i;

	for (i = 0; i < NEXITHOOK; i++)
		if (exithooks[i] == NULL) {
			exithooks[i] = fn;
			return;
		}
	panic("exithook_establish: more than %d hooks", NEXITHOOK);
}

void
exit1(struct proc *p, int status)
{
	int i;

	if (p == initproc)
		panic("init died (status 0x%x)", status);
	p->p_flag |= P_WEXIT;
	p->p_sigmask = ~0u;
	for (i = 0; i < NEXITHOOK && exithooks[i] != NULL; i++)
		exithooks[i](p);
	fdfree(p);
	if (p->p_cdir)
		vrele(p->p_cdir);
	if (p->p_rdir)
		vrele(p->p_rdir);
	p->p_cdir = p->p_rdir = NULL;
	pmap_activate(NULL);
	if (p->p_flag & P_PPWAIT)	/* vfork: the parent's, given back */
		vfork_return(p);
	else
		pmap_destroy(p->p_pmap);
	p->p_pmap = NULL;
	cputime_leave(p);
	calcru(p, &p->p_ru.ru_utime, &p->p_ru.ru_stime);
	ruadd(&p->p_ru, &p->p_cru);

	(void)splhigh();		/* until mi_switch: see wait4 */
	for (i = 0; i < NPROC; i++) {
		if (proc[i].p_pptr == p && proc[i].p_stat != SFREE) {
			proc[i].p_pptr = initproc;
			if (proc[i].p_stat == SZOMB)
				wakeup(initproc);
		}
	}
	p->p_xstat = status;
	p->p_stat = SZOMB;
	psignal(p->p_pptr, SIGCHLD);
	wakeup(p->p_pptr);
	mi_switch();
	panic("zombie %d ran", p->p_pid);
}

int
sys_exit(struct proc *p, struct exit_args *uap, int *retval)
{
	exit1(p, W_EXITCODE(uap->rval & 0xff, 0));
}

static int
wait_matches(struct proc *p, struct proc *c, int pid)
{
	if (c->p_pptr != p || c->p_stat == SFREE || c->p_stat == SIDL)
		return 0;
	if (pid == WAIT_ANY)
		return 1;
	if (pid > 0)
		return c->p_pid == pid;
	if (pid == 0)
		return c->p_pgid == p->p_pgid;
	return c->p_pgid == -pid;
}

int
sys_wait4(struct proc *p, struct wait4_args *uap, int *retval)
{
	int i, found, error, status;

	if (uap->options & ~(WNOHANG | WUNTRACED))
		return EINVAL;
	for (;;) {
		found = 0;
		for (i = 0; i < NPROC; i++) {
			struct proc *c = &proc[i];

			if (!wait_matches(p, c, uap->pid))
				continue;
			found++;
			if (c->p_stat == SZOMB) {
				status = c->p_xstat;
				if (uap->status && (error = copyout(&status,
				    uap->status, sizeof(status))) != 0)
					return error;
				if (uap->rusage && (error = copyout(&c->p_ru,
				    uap->rusage, sizeof(c->p_ru))) != 0)
					return error;
				ruadd(&p->p_cru, &c->p_ru);
				*retval = c->p_pid;
				proc_free(c);
				return 0;
			}
			if (c->p_stat == SSTOP && !(c->p_flag & P_WAITED) &&
			    (uap->options & WUNTRACED)) {
				c->p_flag |= P_WAITED;
				status = W_STOPCODE(c->p_xstat);
				if (uap->status && (error = copyout(&status,
				    uap->status, sizeof(status))) != 0)
					return error;
				*retval = c->p_pid;
				return 0;
			}
		}
		if (!found)
			return ECHILD;
		if (uap->options & WNOHANG) {
			*retval = 0;
			return 0;
		}
		if ((error = tsleep(p, PCATCH, "wait", 0)) != 0)
			return error;
	}
}
