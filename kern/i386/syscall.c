/*
 * The system call dispatcher: the number in %eax selects an entry of
 * sysent; its arguments are copied from the user stack; the result or
 * the errno goes back in %eax with the carry flag (see sys/syscall.h).
 * A Linux program's process has a table of its own (compat/linux).
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/syscalls.h"
#include "kern/uio.h"
#include "kern/i386/cpu.h"
#include "compat/linux/linux.h"

#define MAXARGS	8

void
syscall(struct trapframe *tf)
{
	struct proc *p = curproc;
	const struct sysent *callp;
	u_int32_t args[MAXARGS];
	int code = tf->tf_eax, error, rval[2];

	p->p_tf = tf;
	if (p->p_emul == EMUL_LINUX) {
		linux_syscall(p, tf);
		return;
	}
	if (code < 0 || code >= nsysent || sysent[code].sy_call == NULL)
		callp = &sysent[0];		/* nosys: ENOSYS */
	else
		callp = &sysent[code];
	error = copyin((void *)(tf->tf_esp + 4), args,
	    callp->sy_narg * sizeof(u_int32_t));
	if (error == 0) {
		rval[0] = 0;
		rval[1] = tf->tf_edx;
		error = callp->sy_call(p, args, rval);
	}
	switch (error) {
	case 0:
		tf->tf_eax = rval[0];
		tf->tf_edx = rval[1];
		tf->tf_eflags &= ~PSL_C;
		break;
	case ERESTART:
		tf->tf_eip -= 2;		/* run "int $0x80" again */
		break;
	case EJUSTRETURN:
		break;
	default:
		tf->tf_eax = error;
		tf->tf_eflags |= PSL_C;
		break;
	}
}
