/*
 * Identity: process ids, user and group ids, process groups, sessions
 * (4.4BSD kern_prot.c).  As in 4.4BSD, getpid also returns the parent's
 * pid in %edx and getuid/getgid the effective id.
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/uio.h"
#include "kern/syscallargs.h"

int
sys_getpid(struct proc *p, void *uap, int *retval)
{
	retval[0] = p->p_pid;
	retval[1] = p->p_pptr ? p->p_pptr->p_pid : 0;
	return 0;
}

int
sys_getppid(struct proc *p, void *uap, int *retval)
{
	retval[0] = p->p_pptr ? p->p_pptr->p_pid : 0;
	return 0;
}

int
sys_getuid(struct proc *p, void *uap, int *retval)
{
	retval[0] = p->p_cred.cr_ruid;
	retval[1] = p->p_cred.cr_uid;
	return 0;
}

int
sys_geteuid(struct proc *p, void *uap, int *retval)
{
	retval[0] = p->p_cred.cr_uid;
	return 0;
}

int
sys_getgid(struct proc *p, void *uap, int *retval)
{
	retval[0] = p->p_cred.cr_rgid;
	retval[1] = p->p_cred.cr_gid;
	return 0;
}

int
sys_getegid(struct proc *p, void *uap, int *retval)
{
	retval[0] = p->p_cred.cr_gid;
	return 0;
}

int
sys_setuid(struct proc *p, struct setuid_args *uap, int *retval)
{
	if (uap->uid != p->p_cred.cr_ruid && suser(p))
		return EPERM;
	p->p_cred.cr_uid = p->p_cred.cr_ruid = uap->uid;
	return 0;
}

int
sys_seteuid(struct proc *p, struct seteuid_args *uap, int *retval)
{
	if (uap->euid != p->p_cred.cr_ruid && suser(p))
		return EPERM;
	p->p_cred.cr_uid = uap->euid;
	return 0;
}

int
sys_setgid(struct proc *p, struct setgid_args *uap, int *retval)
{
	if (uap->gid != p->p_cred.cr_rgid && suser(p))
		return EPERM;
	p->p_cred.cr_gid = p->p_cred.cr_rgid = uap->gid;
	return 0;
}

int
sys_setegid(struct proc *p, struct setegid_args *uap, int *retval)
{
	if (uap->egid != p->p_cred.cr_rgid && suser(p))
		return EPERM;
	p->p_cred.cr_gid = uap->egid;
	return 0;
}

int
sys_getgroups(struct proc *p, struct getgroups_args *uap, int *retval)
{
	int n = p->p_cred.cr_ngroups, error;

	if (uap->gidsetsize == 0) {
		*retval = n;
		return 0;
	}
	if ((int)uap->gidsetsize < n)
		return EINVAL;
	if ((error = copyout(p->p_cred.cr_groups, uap->gidset,
	    n * sizeof(gid_t))) != 0)
		return error;
	*retval = n;
	return 0;
}

int
sys_setgroups(struct proc *p, struct setgroups_args *uap, int *retval)
{
	int error;

	if ((error = suser(p)) != 0)
		return error;
	if (uap->gidsetsize > NGROUPS)
		return EINVAL;
	if ((error = copyin(uap->gidset, p->p_cred.cr_groups,
	    uap->gidsetsize * sizeof(gid_t))) != 0)
		return error;
	p->p_cred.cr_ngroups = uap->gidsetsize;
	return 0;
}

int
sys_getpgrp(struct proc *p, void *uap, int *retval)
{
	*retval = p->p_pgid;
	return 0;
}

/* setpgid: a process or its child (before exec) joins or starts a group
 * within its session. */
int
sys_setpgid(struct proc *p, struct setpgid_args *uap, int *retval)
{
	struct proc *t = uap->pid ? pfind(uap->pid) : p;
	pid_t pgid;
	int i;

	if (t == NULL || (t != p && t->p_pptr != p))
		return ESRCH;
	if (t != p && (t->p_flag & P_EXEC))
		return EACCES;
	if (t->p_sid != p->p_sid)
		return EPERM;
	if (t->p_pid == t->p_sid)
		return EPERM;		/* a session leader keeps its group */
	if (uap->pgid < 0)
		return EINVAL;
	pgid = uap->pgid ? uap->pgid : t->p_pid;
	if (pgid != t->p_pid) {
		for (i = 0; i < NPROC; i++)
			if (proc[i].p_stat != SFREE && proc[i].p_pgid == pgid &&
			    proc[i].p_sid == p->p_sid)
				break;
		if (i == NPROC)
			return EPERM;
	}
	t->p_pgid = pgid;
	return 0;
}

int
sys_setsid(struct proc *p, void *uap, int *retval)
{
	int i;

	for (i = 0; i < NPROC; i++)
		if (proc[i].p_stat != SFREE && proc[i].p_pgid == p->p_pid &&
		    &proc[i] != p)
			return EPERM;
	if (p->p_pgid == p->p_pid)
		return EPERM;
	p->p_sid = p->p_pgid = p->p_pid;
	p->p_flag &= ~P_CONTROLT;
	*retval = p->p_sid;
	return 0;
}
