/*
 * trap(): every interrupt, exception and system call enters here from
 * locore's alltraps with the trap frame.
 *
 *   - a device interrupt goes to its driver (intr_dispatch);
 *   - a system call goes to syscall();
 *   - a write to a page fork left shared (copy-on-write), by the user
 *     or by the kernel's copyout, gets the process its own copy and is
 *     retried; with no memory for the copy the process is killed (a
 *     copyout fails with EFAULT);
 *   - a fault in user mode becomes a signal to the process (SIGSEGV,
 *     SIGILL, SIGFPE, SIGBUS, SIGTRAP), except a fault just below the
 *     stack, which grows the stack;
 *   - a page fault in the kernel while copying from or to user memory
 *     resumes at the copy routine's recovery point (onfault), which
 *     returns EFAULT;
 *   - any other kernel fault is a kernel bug: panic with the frame.
 * On the way back to user mode, pending signals are delivered and the
 * process gives up the CPU if the clock asked for it.
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/malloc.h"
#include "kern/i386/cpu.h"
#include "kern/i386/machdep.h"
#include "kern/i386/pmap.h"

u_int32_t onfault;			/* recovery %eip for copyin/copyout */

static const char *const trapnames[] = {
	"divide error", "debug", "NMI", "breakpoint", "overflow",
	"bound range", "invalid opcode", "device not available",
	"double fault", "coprocessor overrun", "invalid TSS",
	"segment not present", "stack fault", "general protection fault",
	"page fault", "reserved", "floating point error", "alignment check",
	"machine check", "SIMD exception",
};

static void
dumpframe(struct trapframe *tf)
{
	const char *name;
	u_int32_t off;

	printf("trap %u (%s), error 0x%x, cr2 0x%08x\n", tf->tf_trapno,
	    tf->tf_trapno < nitems(trapnames) ? trapnames[tf->tf_trapno] : "?",
	    tf->tf_err, rcr2());
	name = ksym_lookup(tf->tf_eip, &off);
	printf("eip 0x%08x <%s+0x%x> cs 0x%x eflags 0x%x\n", tf->tf_eip,
	    name ? name : "?", off, tf->tf_cs, tf->tf_eflags);
	printf("eax 0x%08x ebx 0x%08x ecx 0x%08x edx 0x%08x\n", tf->tf_eax,
	    tf->tf_ebx, tf->tf_ecx, tf->tf_edx);
	printf("esi 0x%08x edi 0x%08x ebp 0x%08x esp 0x%08x\n", tf->tf_esi,
	    tf->tf_edi, tf->tf_ebp, (u_int32_t)&tf->tf_esp);
	if (curproc)
		printf("process %d (%s)\n", curproc->p_pid, curproc->p_comm);
}

/* Grow the user stack when a fault lands in the stack region. */
static int
grow_stack(struct proc *p, u_int32_t va)
{
	if (va >= USRSTACK || va < USRSTACK - MAXSSIZ)
		return 0;
	return pmap_enter(p->p_pmap, trunc_page(va), 1) == 0;
}

/*
 * A write to a present, read-only user page may be a copy-on-write one:
 * pmap_cow makes it the process's own.  0 if the write may be retried.
 */
static int
cow_fault(struct proc *p, struct trapframe *tf, u_int32_t va)
{
	if (p == NULL || p->p_pmap == NULL ||
	    (tf->tf_err & (PGEX_P | PGEX_W)) != (PGEX_P | PGEX_W))
		return EFAULT;
	return pmap_cow(p->p_pmap, va);
}

static void
userret(struct trapframe *tf)
{
	struct proc *p = curproc;
	int sig;

	while ((sig = issignal(p)) != 0)
		postsig(sig);
	if (want_resched) {
		preempt();
		while ((sig = issignal(p)) != 0)
			postsig(sig);
	}
	cputime_leave(p);		/* back to user mode */
}

void
trap(struct trapframe *tf)
{
	struct proc *p = curproc;
	int sig = 0, user = USERMODE(tf), error;
	u_int32_t va;

	if (user && p)
		cputime_enter(p);
	if (tf->tf_trapno >= T_IRQ0 && tf->tf_trapno < T_IRQ0 + 16) {
		if (tf->tf_trapno == T_IRQ0)
			hardclock(tf);
		else
			intr_dispatch(tf->tf_trapno - T_IRQ0);
		if (user && p)
			userret(tf);
		return;
	}
	if (tf->tf_trapno == T_SYSCALL) {
		syscall(tf);
		userret(tf);
		return;
	}
	if (user && p)
		p->p_tf = tf;

	switch (tf->tf_trapno) {
	case T_PAGEFLT:
		va = rcr2();
		if ((error = cow_fault(p, tf, va)) == 0) {
			if (user)
				goto out;
			return;
		}
		if (!user && onfault != 0) {
			/* copyin/copyout: an untouched stack page grows, like
			 * a user access; anything else is EFAULT. */
			if (p && grow_stack(p, va))
				return;
			tf->tf_eip = onfault;
			return;
		}
		if (user && error == ENOMEM) {
			printf("pid %d (%s): out of memory for a copy-on-write "
			    "page, killed\n", p->p_pid, p->p_comm);
			sig = SIGKILL;
			break;
		}
		if (user && grow_stack(p, va))
			goto out;
		sig = SIGSEGV;
		break;
	case T_PROTFLT:
	case T_SEGNPFLT:
	case T_STKFLT:
	case T_TSSFLT:
		sig = SIGBUS;
		break;
	case T_PRIVINFLT:
		sig = SIGILL;
		break;
	case T_DIVIDE:
	case T_OFLOW:
	case T_BOUND:
	case T_ARITHTRAP:
	case T_XMM:
		sig = SIGFPE;
		break;
	case T_BPT:
	case T_DEBUG:
		sig = SIGTRAP;
		break;
	case T_NMI:
		printf("NMI ignored\n");
		return;
	default:
		sig = SIGBUS;
		break;
	}
	if (!user || p == NULL) {
		dumpframe(tf);
		backtrace(tf->tf_ebp);
		panic("kernel mode trap %u", tf->tf_trapno);
	}
	trapsignal(p, sig, tf->tf_trapno == T_PAGEFLT ? rcr2() : tf->tf_err);
out:
	userret(tf);
}
