/*
 * The process table: allocation of process slots and process ids, and
 * kernel processes (threads with no user space, such as the update
 * daemon).
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/emul.h"
#include "kern/malloc.h"
#include "kern/i386/cpu.h"
#include "kern/i386/machdep.h"
#include "kern/i386/pmap.h"
#include "kern/uio.h"
#include "kern/syscallargs.h"
#include <sys/kinfo.h>

struct proc proc[NPROC];
struct proc *initproc;
static pid_t nextpid = 1;

struct proc *
pfind(pid_t pid)
{
	int i;

	for (i = 0; i < NPROC; i++)
		if (proc[i].p_stat != SFREE && proc[i].p_pid == pid)
			return &proc[i];
	return NULL;
}

/* A free slot in state SIDL with a kernel stack and a new pid, or NULL. */
struct proc *
proc_alloc(void)
{
	struct proc *p = NULL;
	int i, s;

	s = splhigh();
	for (i = 0; i < NPROC; i++) {
		if (proc[i].p_stat == SFREE) {
			p = &proc[i];
			p->p_stat = SIDL;
			break;
		}
	}
	splx(s);
	if (p == NULL)
		return NULL;
	memset((char *)p + sizeof(p->p_stat), 0,
	    sizeof(*p) - sizeof(p->p_stat));
	fpu_clean(p->p_fpu);
	p->p_emul = &emul_native;
	p->p_kstack = page_alloc(KSTACK_SIZE / PAGE_SIZE, M_NOWAIT);
	if (p->p_kstack == NULL) {
		p->p_stat = SFREE;
		return NULL;
	}
	do {
		p->p_pid = nextpid++;
		if (nextpid >= 30000)
			nextpid = 2;
	} while (pfind(p->p_pid) != p);
	p->p_start_us = uptime_us();
	return p;
}

/* Release what is left of a reaped zombie. */
void
proc_free(struct proc *p)
{
	page_free(p->p_kstack, KSTACK_SIZE / PAGE_SIZE);
	p->p_kstack = NULL;
	p->p_stat = SFREE;
}

static void
kthread_main(void)
{
	struct proc *p = curproc;

	sti();
	p->p_kthread_fn(p->p_kthread_arg);
	panic("kernel process %s returned", p->p_comm);
}

/* Start a kernel process running fn(arg). */
struct proc *
kthread_create(void (*fn)(void *), void *arg, const char *name)
{
	struct proc *p = proc_alloc();
	struct context *ctx;

	if (p == NULL)
		panic("kthread_create: no process slot for %s", name);
	strlcpy(p->p_comm, name, sizeof(p->p_comm));
	p->p_flag = P_SYSTEM;
	p->p_kthread_fn = fn;
	p->p_kthread_arg = arg;
	p->p_pptr = initproc;
	/* Room for a trap frame at the top, should it become a user process. */
	ctx = (struct context *)(p->p_kstack + KSTACK_SIZE -
	    sizeof(struct trapframe)) - 1;
	memset(ctx, 0, sizeof(*ctx));
	ctx->eip = (u_int32_t)kthread_main;
	p->p_ctx = ctx;
	p->p_stat = SRUN;
	return p;
}

int
suser(struct proc *p)
{
	return p->p_cred.cr_uid == 0 ? 0 : EPERM;
}

/* getproc(buf, count): a snapshot of the process table, for ps. */
int
sys_getproc(struct proc *p, struct getproc_args *uap, int *retval)
{
	struct kinfo_proc kp;
	int i, n = 0, error;

	if (uap->count < 0)
		return EINVAL;
	for (i = 0; i < NPROC; i++) {
		struct proc *q = &proc[i];

		if (q->p_stat == SFREE)
			continue;
		if (n < uap->count && uap->buf != NULL) {
			memset(&kp, 0, sizeof(kp));
			kp.kp_pid = q->p_pid;
			kp.kp_ppid = q->p_pptr ? q->p_pptr->p_pid : 0;
			kp.kp_pgid = q->p_pgid;
			kp.kp_sid = q->p_sid;
			kp.kp_uid = q->p_cred.cr_uid;
			kp.kp_stat = q->p_stat;		/* enum procstat = KP_* */
			if (q->p_stat == SSLEEP && q->p_wmesg)
				strlcpy(kp.kp_wmesg, q->p_wmesg,
				    sizeof(kp.kp_wmesg));
			kp.kp_utime_ms = q->p_uus / 1000;
			kp.kp_stime_ms = q->p_sus / 1000;
			kp.kp_size_kb = q->p_pmap ? q->p_pmap->pm_npages * 4 : 0;
			kp.kp_start_sec = q->p_start_us / 1000000;
			kp.kp_flag = ((q->p_flag & P_SYSTEM) ? KP_SYSTEM : 0) |
			    ((q->p_flag & P_CONTROLT) ? KP_CONTROLT : 0);
			strlcpy(kp.kp_comm, q->p_comm, sizeof(kp.kp_comm));
			error = copyout(&kp, (struct kinfo_proc *)uap->buf + n,
			    sizeof(kp));
			if (error)
				return error;
		}
		n++;
	}
	*retval = n;
	return 0;
}
