/*
 * fork: a new process with a copy of the parent's address space, open
 * files, current directory, credentials and signal state.  The copy is
 * lazy: pmap_copy shares the pages copy-on-write, and a page is copied
 * only when one of the two first writes it.  The child starts in trapret
 * with the parent's registers, except that fork returns 0 to it (and 1
 * in %edx, as 4.4BSD).
 *
 * vfork's form (FORK_SHAREVM, for an emulation: glibc's posix_spawn) is
 * 4.4BSD's vfork: the child borrows the parent's address space itself,
 * on a stack of its own if given one, and the parent sleeps until the
 * child gives it back by exec or exit (P_PPWAIT).  The child may do
 * little more than that: its break and mmap area are not the parent's.
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/file.h"
#include "kern/vnode.h"
#include "kern/syscallargs.h"
#include "kern/i386/cpu.h"
#include "kern/i386/machdep.h"
#include "kern/i386/pmap.h"

int
sys_fork(struct proc *p, void *uap, int *retval)
{
	return fork1(p, 0, 0, retval);
}

int
fork1(struct proc *p, int flags, u_int32_t stack, int *retval)
{
	struct proc *c;
	struct trapframe *tf;
	struct context *ctx;

	if ((c = proc_alloc()) == NULL)
		return EAGAIN;
	if (flags & FORK_SHAREVM)
		c->p_pmap = p->p_pmap;		/* lent until exec or exit */
	else if ((c->p_pmap = pmap_create()) == NULL ||
	    pmap_copy(c->p_pmap, p->p_pmap) != 0) {
		pmap_destroy(c->p_pmap);
		proc_free(c);
		return ENOMEM;
	}
	tf = (struct trapframe *)(c->p_kstack + KSTACK_SIZE) - 1;
	*tf = *p->p_tf;
	if (stack != 0)
		tf->tf_esp = stack;
	tf->tf_eax = 0;
	if (!(flags & FORK_KEEPREGS))
		tf->tf_edx = 1;
	tf->tf_eflags &= ~PSL_C;
	c->p_tf = tf;
	ctx = (struct context *)tf - 1;
	memset(ctx, 0, sizeof(*ctx));
	ctx->eip = (u_int32_t)trapret;
	c->p_ctx = ctx;

	memcpy(c->p_comm, p->p_comm, sizeof(c->p_comm));
	c->p_pptr = p;
	c->p_pgid = p->p_pgid;
	c->p_sid = p->p_sid;
	c->p_flag = p->p_flag & P_CONTROLT;
	if (flags & FORK_SHAREVM)
		c->p_flag |= P_PPWAIT;
	c->p_cred = p->p_cred;
	c->p_umask = p->p_umask;
	c->p_brkbase = p->p_brkbase;
	c->p_brk = p->p_brk;
	c->p_emul = p->p_emul;
	c->p_tls[0] = p->p_tls[0];
	c->p_tls[1] = p->p_tls[1];
	c->p_mmaplow = p->p_mmaplow;
	memcpy(c->p_sigrestorer, p->p_sigrestorer, sizeof(c->p_sigrestorer));
	c->p_siginfo = p->p_siginfo;
	memcpy(c->p_fpu, p->p_fpu, sizeof(c->p_fpu));
	c->p_sigmask = p->p_sigmask;
	memcpy(c->p_sigacts, p->p_sigacts, sizeof(c->p_sigacts));
	fdcopy(c, p);
	c->p_cdir = p->p_cdir;
	vref(c->p_cdir);
	if ((c->p_rdir = p->p_rdir) != NULL)
		vref(c->p_rdir);
	c->p_stat = SRUN;
	retval[0] = c->p_pid;
	retval[1] = 0;
	while (c->p_flag & P_PPWAIT)	/* vfork: until it is given back */
		tsleep(p, 0, "ppwait", 0);
	return 0;
}

/* A vfork child gives its parent's address space back (exec, exit). */
void
vfork_return(struct proc *c)
{
	c->p_flag &= ~P_PPWAIT;
	c->p_pmap = NULL;
	wakeup(c->p_pptr);
}
