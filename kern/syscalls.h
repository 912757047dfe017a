/*
 * The system call table (kern/syscalls.c).
 */
#ifndef _KERN_SYSCALLS_H_
#define _KERN_SYSCALLS_H_

struct proc;

struct sysent {
	int	sy_narg;		/* argument words */
	int	(*sy_call)(struct proc *, void *, int *);
	const char *sy_name;
};

extern const struct sysent sysent[];
extern const int nsysent;

#endif
