/*
 * Linux's signals, on ours (kern/kern_sig.c).
 *
 * The numbers differ (linux_xlate.c translates them, their sets and
 * sigaction's flags); a Linux signal with no twin here (SIGSTKFLT,
 * SIGPWR, the real-time ones) cannot be caught: EINVAL.  What our
 * struct sigaction has no room for is kept in struct proc: the restorer
 * (where glibc wants its handler to return: a call of sigreturn or
 * rt_sigreturn) and whether the handler takes SA_SIGINFO's three
 * arguments.
 *
 * The frame a handler runs on is Linux's (linux_sendsig, the emulation's
 * e_sendsig), so that glibc's restorer finds it:
 *
 *	plain:	  [ret] [sig] [sigcontext] [mask's high word] [code]
 *	SA_SIGINFO: [ret] [sig] [&info] [&uc] [siginfo] [ucontext] [code]
 *
 * "ret" is the restorer, or, with none, the code after the frame, which
 * calls sigreturn or rt_sigreturn as Linux's own did.  The registers
 * are Linux's struct sigcontext; the FPU's are not saved (fpstate NULL),
 * as our own frames do not save them either.  sigreturn finds the frame
 * again from %esp: the handler's "ret" popped the return address and
 * glibc's plain restorer pops sig.
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/syscallargs.h"
#include "kern/uio.h"
#include "kern/i386/cpu.h"
#include "kern/i386/asm.h"
#include "compat/linux/linux.h"
#include "compat/linux/linux_syscall.h"
#include <sys/syscall.h>

#define PTR(i)	((void *)args[i])
#define INT(i)	((int)args[i])

#define LINUX_NR_sigreturn	119
#define LINUX_NR_rt_sigreturn	173
#define LINUX_SIGSET_SIZE	8
#define LINUX_SI_KERNEL		0x80	/* si_code of a signal we sent */
#define LINUX_NSIG_ALL		64	/* with the real-time ones */

struct linux_sigaction {
	u_int32_t handler, flags, restorer;
	linux_sigset_t mask;
} __attribute__((packed, aligned(4)));

struct linux_sigcontext {
	u_int32_t gs, fs, es, ds;
	u_int32_t edi, esi, ebp, esp, ebx, edx, ecx, eax;
	u_int32_t trapno, err, eip, cs, eflags, esp_at_signal, ss;
	u_int32_t fpstate, oldmask, cr2;
};

struct linux_sigframe {
	u_int32_t ret;
	int32_t	sig;
	struct linux_sigcontext sc;
	u_int32_t extramask;		/* the mask's high word */
	u_int8_t code[8];
};

struct linux_siginfo {
	int32_t	si_signo, si_errno, si_code;
	u_int32_t si_pad[29];		/* 128 bytes in all */
};

struct linux_ucontext {
	u_int32_t uc_flags, uc_link;
	u_int32_t ss_sp, ss_flags, ss_size;	/* no alternate stack */
	struct linux_sigcontext uc_mcontext;
	linux_sigset_t uc_sigmask;
} __attribute__((packed, aligned(4)));

struct linux_rt_sigframe {
	u_int32_t ret;
	int32_t	sig;
	u_int32_t pinfo, puc;
	struct linux_siginfo info;
	struct linux_ucontext uc;
	u_int8_t code[8];
};

/* popl %eax; movl $119,%eax; int $0x80   and   movl $173,%eax; int $0x80 */
static const u_int8_t sigcode[8] = { 0x58, 0xb8, LINUX_NR_sigreturn, 0, 0, 0,
	0xcd, 0x80 };
static const u_int8_t rtsigcode[8] = { 0xb8, LINUX_NR_rt_sigreturn, 0, 0, 0,
	0xcd, 0x80, 0x90 };

static void
save_regs(const struct trapframe *tf, struct linux_sigcontext *sc, u_int32_t code)
{
	memset(sc, 0, sizeof(*sc));
	sc->gs = tf->tf_gs;
	sc->fs = tf->tf_fs;
	sc->es = tf->tf_es;
	sc->ds = tf->tf_ds;
	sc->edi = tf->tf_edi;
	sc->esi = tf->tf_esi;
	sc->ebp = tf->tf_ebp;
	sc->esp = sc->esp_at_signal = tf->tf_esp;
	sc->ebx = tf->tf_ebx;
	sc->edx = tf->tf_edx;
	sc->ecx = tf->tf_ecx;
	sc->eax = tf->tf_eax;
	sc->trapno = tf->tf_trapno;
	sc->err = code;
	sc->eip = tf->tf_eip;
	sc->cs = tf->tf_cs;
	sc->eflags = tf->tf_eflags;
	sc->ss = tf->tf_ss;
}

/*
 * Back from a frame: only the flags user code may change, our own code
 * and data selectors, and for %fs and %gs the data segment, the null
 * one or the TLS slot while it holds a segment.
 */
static void
restore_regs(struct proc *p, const struct linux_sigcontext *sc)
{
	struct trapframe *tf = p->p_tf;
	u_int32_t tls = GUTLS_SEL << 3 | SEL_UPL;

	tf->tf_eflags = (sc->eflags & 0x00000cd5) | PSL_USERSET;
	tf->tf_edi = sc->edi;
	tf->tf_esi = sc->esi;
	tf->tf_ebp = sc->ebp;
	tf->tf_esp = sc->esp;
	tf->tf_ebx = sc->ebx;
	tf->tf_edx = sc->edx;
	tf->tf_ecx = sc->ecx;
	tf->tf_eax = sc->eax;
	tf->tf_eip = sc->eip;
	tf->tf_cs = GSEL_UCODE;
	tf->tf_ss = tf->tf_ds = tf->tf_es = GSEL_UDATA;
	tf->tf_fs = (sc->fs & 0xffff) == tls && p->p_tls[1] ? tls : GSEL_UDATA;
	tf->tf_gs = (sc->gs & 0xffff) == tls && p->p_tls[1] ? tls : GSEL_UDATA;
	if ((sc->fs & 0xffff) == 0)
		tf->tf_fs = 0;
	if ((sc->gs & 0xffff) == 0)
		tf->tf_gs = 0;
}

/* Linux's alignment: %esp + 4 a multiple of 16 when the handler starts. */
static u_int32_t
frame_at(u_int32_t sp, u_int32_t size)
{
	return ((sp - size + 4) & ~15u) - 4;
}

void
linux_sendsig(struct proc *p, int sig, sigset_t mask, u_int32_t code)
{
	struct trapframe *tf = p->p_tf;
	u_int32_t handler = (u_int32_t)p->p_sigacts[sig].sa_handler;
	u_int32_t restorer = p->p_sigrestorer[sig], fp;
	linux_sigset_t lmask = bsd_to_linux_sigset(mask);
	int lsig = bsd_to_linux_sig(sig), error;

	if (p->p_siginfo & sigmask(sig)) {
		struct linux_rt_sigframe f;

		fp = frame_at(tf->tf_esp, sizeof(f));
		memset(&f, 0, sizeof(f));
		f.ret = restorer ? restorer :
		    fp + offsetof(struct linux_rt_sigframe, code);
		f.sig = lsig;
		f.pinfo = fp + offsetof(struct linux_rt_sigframe, info);
		f.puc = fp + offsetof(struct linux_rt_sigframe, uc);
		f.info.si_signo = lsig;
		f.info.si_code = LINUX_SI_KERNEL;
		save_regs(tf, &f.uc.uc_mcontext, code);
		f.uc.uc_mcontext.oldmask = (u_int32_t)lmask;
		f.uc.uc_sigmask = lmask;
		memcpy(f.code, rtsigcode, sizeof(f.code));
		error = copyout(&f, (void *)fp, sizeof(f));
		tf->tf_eax = lsig;	/* regparm(3) handlers: the arguments */
		tf->tf_edx = f.pinfo;
		tf->tf_ecx = f.puc;
	} else {
		struct linux_sigframe f;

		fp = frame_at(tf->tf_esp, sizeof(f));
		memset(&f, 0, sizeof(f));
		f.ret = restorer ? restorer :
		    fp + offsetof(struct linux_sigframe, code);
		f.sig = lsig;
		save_regs(tf, &f.sc, code);
		f.sc.oldmask = (u_int32_t)lmask;
		f.extramask = (u_int32_t)(lmask >> 32);
		memcpy(f.code, sigcode, sizeof(f.code));
		error = copyout(&f, (void *)fp, sizeof(f));
		tf->tf_eax = lsig;
		tf->tf_edx = tf->tf_ecx = 0;
	}
	if (error != 0)
		sigexit(p, SIGILL);	/* no room on the stack: as ours */
	tf->tf_esp = fp;
	tf->tf_eip = handler;
	tf->tf_cs = GSEL_UCODE;
	tf->tf_ss = tf->tf_ds = tf->tf_es = GSEL_UDATA;
	tf->tf_eflags &= ~0x400;	/* the direction flag clear, as the ABI says */
}

int
linux_sys_sigreturn(struct proc *p, const u_int32_t *args, int *rval)
{
	struct linux_sigframe f;
	u_int32_t fp = p->p_tf->tf_esp - 8;	/* ret and sig popped */
	int error;

	(void)args, (void)rval;
	if ((error = copyin((void *)fp, &f, sizeof(f))) != 0)
		sigexit(p, SIGSEGV);	/* Linux: a bad frame kills */
	restore_regs(p, &f.sc);
	p->p_sigmask = linux_to_bsd_sigset(f.sc.oldmask |
	    (linux_sigset_t)f.extramask << 32) &
	    ~(sigmask(SIGKILL) | sigmask(SIGSTOP));
	return EJUSTRETURN;
}

int
linux_sys_rt_sigreturn(struct proc *p, const u_int32_t *args, int *rval)
{
	struct linux_rt_sigframe f;
	u_int32_t fp = p->p_tf->tf_esp - 4;	/* ret popped */
	int error;

	(void)args, (void)rval;
	if ((error = copyin((void *)fp, &f, sizeof(f))) != 0)
		sigexit(p, SIGSEGV);
	restore_regs(p, &f.uc.uc_mcontext);
	p->p_sigmask = linux_to_bsd_sigset(f.uc.uc_sigmask) &
	    ~(sigmask(SIGKILL) | sigmask(SIGSTOP));
	return EJUSTRETURN;
}

/* rt_sigaction(sig, act, oact, sigsetsize) */
int
linux_sys_rt_sigaction(struct proc *p, const u_int32_t *args, int *rval)
{
	struct linux_sigaction la;
	struct sigaction sa;
	int lsig = INT(0), sig = linux_to_bsd_sig(lsig), error;

	(void)rval;
	if (args[3] != LINUX_SIGSET_SIZE || lsig <= 0 || lsig > LINUX_NSIG_ALL)
		return EINVAL;
	if (sig == 0)
		return EINVAL;		/* no twin: we could never deliver it */
	if (args[2]) {
		sa = p->p_sigacts[sig];
		la.handler = (u_int32_t)sa.sa_handler;
		la.flags = bsd_to_linux_saflags(sa.sa_flags);
		if (p->p_siginfo & sigmask(sig))
			la.flags |= LINUX_SA_SIGINFO;
		if ((la.restorer = p->p_sigrestorer[sig]) != 0)
			la.flags |= LINUX_SA_RESTORER;
		la.mask = bsd_to_linux_sigset(sa.sa_mask);
		if ((error = copyout(&la, PTR(2), sizeof(la))) != 0)
			return error;
	}
	if (args[1] == 0)
		return 0;
	if ((error = copyin(PTR(1), &la, sizeof(la))) != 0)
		return error;
	sa.sa_handler = (sig_t)la.handler;
	sa.sa_mask = linux_to_bsd_sigset(la.mask);
	sa.sa_flags = linux_to_bsd_saflags(la.flags);
	if ((error = setsigaction(p, sig, &sa)) != 0)
		return error;
	p->p_sigrestorer[sig] = (la.flags & LINUX_SA_RESTORER) ? la.restorer : 0;
	if (la.flags & LINUX_SA_SIGINFO)
		p->p_siginfo |= sigmask(sig);
	else
		p->p_siginfo &= ~sigmask(sig);
	return 0;
}

/* rt_sigprocmask(how, set, oset, sigsetsize): Linux's how is ours less one. */
int
linux_sys_rt_sigprocmask(struct proc *p, const u_int32_t *args, int *rval)
{
	struct sigprocmask_args a = { SIG_BLOCK, 0 };
	linux_sigset_t set, old = bsd_to_linux_sigset(p->p_sigmask);
	int error;

	if (args[3] != LINUX_SIGSET_SIZE)
		return EINVAL;
	if (args[1]) {
		if ((error = copyin(PTR(1), &set, sizeof(set))) != 0)
			return error;
		a.how = INT(0) + 1;
		a.mask = linux_to_bsd_sigset(set);
		if ((error = linux_bsdcall(p, SYS_sigprocmask, &a, rval)) != 0)
			return error;
	}
	rval[0] = 0;
	return args[2] ? copyout(&old, PTR(2), sizeof(old)) : 0;
}

int
linux_sys_kill(struct proc *p, const u_int32_t *args, int *rval)
{
	struct kill_args a = { INT(0), linux_to_bsd_sig(INT(1)) };

	if (INT(1) != 0 && a.signum == 0)
		return EINVAL;
	return linux_bsdcall(p, SYS_kill, &a, rval);
}

/* A process is one thread, its id the pid: tkill and tgkill are kill. */
int
linux_sys_tkill(struct proc *p, const u_int32_t *args, int *rval)
{
	u_int32_t kargs[2] = { args[0], args[1] };

	if (INT(0) <= 0)
		return EINVAL;
	return linux_sys_kill(p, kargs, rval);
}

int
linux_sys_tgkill(struct proc *p, const u_int32_t *args, int *rval)
{
	u_int32_t kargs[2] = { args[1], args[2] };

	if (INT(0) <= 0 || INT(1) <= 0)
		return EINVAL;
	if (args[0] != args[1])
		return ESRCH;
	return linux_sys_kill(p, kargs, rval);
}
