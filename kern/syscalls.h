/*
 * The system call table, sysent[], made from kern/syscalls.master (as
 * build/gen/kern/init_sysent.c) and indexed by the call's number.
 */
#ifndef _KERN_SYSCALLS_H_
#define _KERN_SYSCALLS_H_

struct proc;

/*
 * Every handler is int sys_NAME(struct proc *, struct NAME_args *, int *)
 * (kern/syscallargs.h, where the compiler checks it); the table holds
 * them all as this one type.
 */
typedef int sy_call_t(struct proc *, void *, int *);

struct sysent {
	int	sy_narg;		/* argument words */
	sy_call_t *sy_call;		/* NULL: no such call, ENOSYS */
	const char *sy_name;
};

extern const struct sysent sysent[];
extern const int nsysent;

#endif
