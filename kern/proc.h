/*
 * Processes.
 *
 * States (p_stat): SIDL while fork builds it; SRUN runnable (or running:
 * curproc); SSLEEP in tsleep() on p_wchan; SSTOP stopped by a signal;
 * SZOMB exited, waiting for its parent's wait4().  A process runs in
 * user mode until a trap; in the kernel it is never preempted, it gives
 * the CPU up only in tsleep() or, on the way back to user mode, when the
 * clock asked for a reschedule (preempt()).
 */
#ifndef _KERN_PROC_H_
#define _KERN_PROC_H_

#include <sys/types.h>
#include <sys/param.h>
#include <sys/signal.h>
#include <sys/resource.h>

struct trapframe;
struct vnode;
struct file;
struct pmap;
struct emul;

struct context {			/* saved by swtch() */
	u_int32_t edi, esi, ebx, ebp, eip;
};

struct ucred {
	uid_t	cr_uid, cr_ruid;	/* effective and real */
	gid_t	cr_gid, cr_rgid;
	int	cr_ngroups;
	gid_t	cr_groups[NGROUPS];
};

enum procstat { SFREE, SIDL, SRUN, SSLEEP, SSTOP, SZOMB };

struct proc {
	enum procstat p_stat;
	int	p_flag;			/* P_* below */
	pid_t	p_pid;
	pid_t	p_pgid;			/* process group */
	pid_t	p_sid;			/* session */
	struct proc *p_pptr;		/* parent */
	char	p_comm[MAXCOMLEN + 1];	/* program name */

	struct pmap *p_pmap;		/* address space */
	char	*p_kstack;		/* kernel stack (KSTACK_SIZE) */
	struct trapframe *p_tf;		/* user registers, on p_kstack */
	struct context *p_ctx;		/* kernel registers, for swtch() */
	u_int32_t p_brkbase;		/* start of the heap (end of data) */
	u_int32_t p_brk;		/* current break */
	const struct emul *p_emul;	/* its program's system calls and
					   stack (kern/emul.h) */
	u_int32_t p_tls[2];		/* TLS segment descriptor (GUTLS_SEL) */
	u_int32_t p_mmaplow;		/* bottom of the mmap area, for an
					   emulation that has mmap */
	u_int32_t p_sigrestorer[NSIG];	/* where an emulation's handler
					   returns to (its sigreturn call) */
	sigset_t p_siginfo;		/* handlers that take (sig, info,
					   context): SA_SIGINFO */
	u_int8_t p_fpu[512] __attribute__((aligned(16)));	/* FPU/SSE
					   registers, fxsave image */

	void	*p_wchan;		/* what it sleeps on */
	const char *p_wmesg;
	int	p_slpflags;		/* PCATCH: signals interrupt sleep */
	u_int32_t p_timeout;		/* tick to wake at, or 0 */

	struct file *p_fd[NOFILE];	/* open files */
	char	p_fdflags[NOFILE];	/* FD_CLOEXEC */
	struct vnode *p_cdir;		/* current directory */
	struct vnode *p_rdir;		/* root directory (NULL: /) */
	mode_t	p_umask;
	struct ucred p_cred;

	sigset_t p_siglist;		/* pending signals */
	sigset_t p_sigmask;		/* blocked signals */
	sigset_t p_oldmask;		/* saved by sigsuspend */
	struct sigaction p_sigacts[NSIG];
	int	p_xstat;		/* exit status for wait4 */

	u_int64_t p_uus, p_sus;		/* microseconds in user / system */
	u_int64_t p_tstamp;		/* since then (kern_resource.c) */
	struct rusage p_ru;		/* this process */
	struct rusage p_cru;		/* its reaped children */
	u_int64_t p_start_us;		/* when it started */
	void	(*p_kthread_fn)(void *);	/* kernel process body */
	void	*p_kthread_arg;
};

#define P_CONTROLT	0x0001		/* has a controlling terminal */
#define P_SYSTEM	0x0002		/* kernel process, no user space */
#define P_WEXIT		0x0004		/* exiting */
#define P_SIGSUSPEND	0x0008		/* p_oldmask to be restored */
#define P_WAITED	0x0010		/* stop already reported to parent */
#define P_EXEC		0x0020		/* has exec'd (for setpgid) */
#define P_TIMEDOUT	0x0040		/* tsleep timed out */
#define P_PPWAIT	0x0080		/* a vfork child: its parent waits, its
					   address space is the parent's */

#define PCATCH		0x100		/* tsleep: a signal ends the sleep */
#define ERESTART	(-1)		/* restart the system call */
#define EJUSTRETURN	(-2)		/* registers already set; lookup: absent */

#define NPROC		64

extern struct proc proc[NPROC];
extern struct proc *curproc;
extern struct proc *initproc;
extern int want_resched;

/* scheduling: kern_synch.c */
int	tsleep(void *chan, int flags, const char *wmesg, int timo);
void	wakeup(void *chan);
void	wakeup_one(void *chan);
void	setrunnable(struct proc *);
void	preempt(void);
void	mi_switch(void);
void	scheduler(void) __attribute__((noreturn));
void	sleep_timeouts(void);

/* processes: kern_proc.c, kern_fork.c, kern_exit.c, kern_exec.c */
struct proc *pfind(pid_t);
struct proc *proc_alloc(void);
void	proc_free(struct proc *);
struct proc *kthread_create(void (*fn)(void *), void *arg, const char *name);
void	exit1(struct proc *, int status) __attribute__((noreturn));
void	exithook_establish(void (*fn)(struct proc *));
int	kern_execve(struct proc *, const char *path, int segflg,
	    char **argp, char **envp);
int	suser(struct proc *);

/* CPU time: kern_resource.c */
void	cputime_enter(struct proc *);
void	cputime_leave(struct proc *);
void	cputime_start(struct proc *);
void	calcru(struct proc *, struct timeval *up, struct timeval *sp);

/* signals: kern_sig.c */
void	psignal(struct proc *, int sig);
void	gsignal(pid_t pgid, int sig);
int	issignal(struct proc *);
void	postsig(int sig);
void	sigexit(struct proc *, int sig) __attribute__((noreturn));
void	trapsignal(struct proc *, int sig, u_int32_t code);
void	siginit(struct proc *);
int	sig_default_ignored(int sig);
int	sig_default_stops(int sig);
#define FORK_SHAREVM	0x1	/* fork1: vfork's form */
#define FORK_KEEPREGS	0x2	/* the child's registers all the parent's but
				   %eax (0), not 4.4BSD's 1 in %edx */
int	fork1(struct proc *, int flags, u_int32_t stack, int *retval);
void	vfork_return(struct proc *);
void	execsigs(struct proc *);
int	setsigaction(struct proc *, int sig, const struct sigaction *);

#endif
