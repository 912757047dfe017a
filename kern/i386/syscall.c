/*
 * The system call dispatcher: the number in %eax selects an entry of
 * sysent (kern/syscalls.master); its arguments are copied from the user
 * stack; the result or the errno goes back in %eax with the carry flag.
 *
 * The trap ABI (i386, as 4.4BSD): a libc stub is called like a C function,
 * loads the number into %eax and executes "int $0x80".  The kernel reads
 * the arguments from the user stack, starting at 4(%esp) (0(%esp) is the
 * stub's return address).  On success the carry flag is clear and the
 * result is in %eax (64-bit results such as lseek's in %edx:%eax; pipe
 * returns the read end in %eax and the write end in %edx; fork returns 0
 * in the child).  On failure the carry flag is set and %eax holds the
 * errno value.  64-bit arguments (off_t) occupy two stack words, low first,
 * after the 4.4BSD pad word where 4.4BSD had one (lseek, truncate, ftruncate).
 *
 * A process of another emulation (kern/emul.h) has a table and an ABI of
 * its own: the trap goes to its dispatcher.
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/syscalls.h"
#include "kern/uio.h"
#include "kern/i386/cpu.h"
#include "kern/i386/machdep.h"
#include "kern/emul.h"

#define MAXARGS	8		/* kern/makesyscalls.py holds every call to it */

void
syscall(struct trapframe *tf)
{
	struct proc *p = curproc;

	p->p_tf = tf;
	p->p_emul->e_syscall(p, tf);
}

/* emul_native's dispatcher: this kernel's own calls, as above. */
void
syscall_native(struct proc *p, struct trapframe *tf)
{
	const struct sysent *callp;
	u_int32_t args[MAXARGS];
	int code = tf->tf_eax, error, rval[2];

	if (code < 0 || code >= nsysent || sysent[code].sy_call == NULL)
		error = ENOSYS;
	else {
		callp = &sysent[code];
		error = copyin((void *)(tf->tf_esp + 4), args,
		    callp->sy_narg * sizeof(u_int32_t));
		if (error == 0) {
			rval[0] = 0;
			rval[1] = tf->tf_edx;
			error = callp->sy_call(p, args, rval);
		}
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
