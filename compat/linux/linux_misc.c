/*
 * Linux's memory, thread and start-up calls: what glibc's static
 * start-up and malloc ask of the kernel.
 *
 * Memory.  The break is ours (brk), with Linux's convention: it returns
 * the new break, or the old one when it cannot move.  mmap2 gives only
 * anonymous private memory, from an area that grows down from the bottom
 * of the stack's reserve (USRSTACK - MAXSSIZ) towards the break;
 * munmap frees the pages, and a hole at the bottom of the area is given
 * back to it.  The pages are all writable: mprotect answers for the range
 * as Linux does but changes nothing (a teaching shortcut: glibc only uses
 * it to make its relocated data read-only).
 *
 * Threads.  A process is one thread.  set_thread_area puts the thread
 * pointer's segment in GDT slot GUTLS_SEL (machdep.c), from where glibc
 * loads %gs; set_tid_address and set_robust_list only matter when
 * threads die, and rseq is refused as by a kernel built without it.
 * clone makes a process in fork's form (glibc's fork() uses it) or in
 * vfork's, CLONE_VM|CLONE_VFORK on a stack of its own (glibc's
 * posix_spawn, under system() and popen(): kern_fork.c's fork1); a new
 * thread, or memory shared beyond exec or exit, is ENOSYS.  clone3 is
 * clone with its arguments in a structure; vfork is vfork's form.
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/syscallargs.h"
#include "kern/malloc.h"
#include "kern/uio.h"
#include "kern/i386/pmap.h"
#include "kern/i386/machdep.h"
#include "kern/i386/asm.h"
#include "kern/i386/cpu.h"
#include "kern/emul.h"
#include "compat/linux/linux.h"
#include "compat/linux/linux_syscall.h"
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/utsname.h>

#define PTR(i)	((void *)args[i])
#define INT(i)	((int)args[i])

#define LINUX_MAP_SHARED	0x01
#define LINUX_MAP_PRIVATE	0x02
#define LINUX_MAP_FIXED		0x10
#define LINUX_MAP_ANONYMOUS	0x20

#define LINUX_CSIGNAL		0x000000ff	/* clone: the signal at exit */
#define LINUX_CLONE_VM		0x00000100
#define LINUX_CLONE_VFORK	0x00004000
#define LINUX_SIGCHLD		17
#define LINUX_CLONE_PARENT_SETTID 0x00100000
#define LINUX_CLONE_CHILD_CLEARTID 0x00200000
#define LINUX_CLONE_CHILD_SETTID 0x01000000

#define LINUX_PROT_ALL		0x03000007	/* READ WRITE EXEC GROWSDOWN GROWSUP */

#define LINUX_RLIMIT_DATA	2
#define LINUX_RLIMIT_STACK	3
#define LINUX_RLIMIT_NOFILE	7
#define LINUX_RLIM_INFINITY	0xffffffffu

#define LINUX_CLOCK_REALTIME	0
#define LINUX_CLOCK_MONOTONIC	1
#define LINUX_CLOCK_MONOTONIC_RAW 4
#define LINUX_CLOCK_REALTIME_COARSE 5	/* glibc's time() asks for this one */
#define LINUX_CLOCK_MONOTONIC_COARSE 6
#define LINUX_CLOCK_BOOTTIME	7

#define MMAPTOP	(USRSTACK - MAXSSIZ)	/* the mmap area's top */

int
linux_sys_exit(struct proc *p, const u_int32_t *args, int *rval)
{
	(void)rval;
	exit1(p, W_EXITCODE(INT(0) & 0xff, 0));
}

int
linux_sys_brk(struct proc *p, const u_int32_t *args, int *rval)
{
	struct break_args a = { PTR(0) };

	if (args[0] >= p->p_brkbase && args[0] <= p->p_mmaplow &&
	    linux_bsdcall(p, SYS_break, &a, rval) == 0)
		rval[0] = args[0];
	else
		rval[0] = p->p_brk;
	return 0;
}

/* mmap2(addr, length, prot, flags, fd, pgoffset): anonymous memory only. */
int
linux_sys_mmap2(struct proc *p, const u_int32_t *args, int *rval)
{
	u_int32_t len = round_page(args[1]), low, va;
	int flags = INT(3), error;

	if (!(flags & LINUX_MAP_ANONYMOUS))
		return ENODEV;		/* no file mappings */
	if ((flags & (LINUX_MAP_SHARED | LINUX_MAP_FIXED)) || len == 0 ||
	    len > p->p_mmaplow)
		return EINVAL;
	low = p->p_mmaplow - len;
	if (low < round_page(p->p_brk) + PAGE_SIZE)
		return ENOMEM;
	for (va = low; va < p->p_mmaplow; va += PAGE_SIZE)
		if ((error = pmap_enter(p->p_pmap, va, 1)) != 0) {
			pmap_remove(p->p_pmap, low, va);
			return error;
		}
	p->p_mmaplow = low;
	rval[0] = low;
	return 0;
}

int
linux_sys_munmap(struct proc *p, const u_int32_t *args, int *rval)
{
	u_int32_t va = args[0], end = va + round_page(args[1]);

	(void)rval;
	if ((va & (PAGE_SIZE - 1)) || end <= va || va < p->p_mmaplow ||
	    end > MMAPTOP)
		return EINVAL;
	pmap_remove(p->p_pmap, va, end);
	while (p->p_mmaplow < MMAPTOP &&
	    pmap_extract(p->p_pmap, p->p_mmaplow) == NULL)
		p->p_mmaplow += PAGE_SIZE;
	return 0;
}

/*
 * mprotect(addr, len, prot): Linux's answers about the range (EINVAL for
 * an unaligned address or an unknown bit, ENOMEM for a page the program
 * does not have, a kernel address among them), then no change at all.
 */
int
linux_sys_mprotect(struct proc *p, const u_int32_t *args, int *rval)
{
	u_int32_t va = args[0], end = va + round_page(args[1]);

	(void)rval;
	if ((va & (PAGE_SIZE - 1)) || (args[2] & ~LINUX_PROT_ALL))
		return EINVAL;
	if (args[1] == 0)
		return 0;
	if (end <= va || end > VM_MAXUSER_ADDRESS)	/* wraps, or leaves */
		return ENOMEM;
	for (; va < end; va += PAGE_SIZE)
		if (pmap_extract(p->p_pmap, va) == NULL)
			return ENOMEM;
	return 0;
}

int
linux_sys_ugetrlimit(struct proc *p, const u_int32_t *args, int *rval)
{
	u_int32_t lim[2];

	(void)rval;
	switch (INT(0)) {
	case LINUX_RLIMIT_STACK:
		lim[0] = lim[1] = MAXSSIZ;
		break;
	case LINUX_RLIMIT_NOFILE:
		lim[0] = lim[1] = NOFILE;
		break;
	case LINUX_RLIMIT_DATA:
		lim[0] = lim[1] = MMAPTOP - p->p_brkbase;
		break;
	default:
		lim[0] = lim[1] = LINUX_RLIM_INFINITY;
	}
	return copyout(lim, PTR(1), sizeof(lim));
}

int
linux_sys_getrandom(struct proc *p, const u_int32_t *args, int *rval)
{
	u_int8_t chunk[64];
	u_int32_t done, n;
	int error;

	(void)p;
	for (done = 0; done < args[1]; done += n) {
		n = MIN(sizeof(chunk), args[1] - done);
		read_random(chunk, n);
		if ((error = copyout(chunk, (char *)PTR(0) + done, n)) != 0)
			return error;
	}
	rval[0] = args[1];
	return 0;
}

/*
 * A segment register that selects the TLS slot is reloaded on the way back
 * to user mode (trapret): once the slot is cleared it would fault there, in
 * the kernel.  Linux's return path loads the null selector instead, so a
 * later use of the register faults in user mode: do the same.
 */
static void
tls_unselect(struct trapframe *tf)
{
	u_int32_t *sr[] = { &tf->tf_gs, &tf->tf_fs, &tf->tf_es, &tf->tf_ds };

	for (unsigned i = 0; i < sizeof(sr) / sizeof(sr[0]); i++)
		if ((*sr[i] & 0xfffc) == GUTLS_SEL << 3)	/* any RPL */
			*sr[i] = 0;
}

int
linux_sys_set_thread_area(struct proc *p, const u_int32_t *args, int *rval)
{
	struct linux_user_desc ud;
	u_int32_t desc[2];
	int error;

	(void)rval;
	if ((error = copyin(PTR(0), &ud, sizeof(ud))) != 0)
		return error;
	if (ud.entry_number != (u_int32_t)-1 && ud.entry_number != GUTLS_SEL)
		return EINVAL;
	if (linux_tls_descriptor(&ud, VM_MAXUSER_ADDRESS, desc) != 0)
		return EINVAL;
	p->p_tls[0] = desc[0];
	p->p_tls[1] = desc[1];
	set_user_tls(p->p_tls);		/* glibc loads %gs right after */
	if (desc[1] == 0)
		tls_unselect(p->p_tf);
	ud.entry_number = GUTLS_SEL;
	return copyout(&ud.entry_number, PTR(0), sizeof(ud.entry_number));
}

/*
 * clone(flags, newsp, parent_tid, tls, child_tid), in i386's argument
 * order: SIGCHLD at exit, a new stack only in vfork's form, and the new
 * process's id stored, if asked, at parent_tid in the parent and at
 * child_tid in the child (where glibc keeps THREAD_SELF->tid).  As in
 * Linux an address the program cannot write is skipped, not an error.
 * CLONE_CHILD_CLEARTID asks for child_tid to be zeroed when the child
 * exits, which only a thread sharing its memory could see: nothing to do
 * for a process.
 */
static int
do_clone(struct proc *p, u_int32_t flags, u_int32_t stack, void *ptid,
    u_int32_t ctid, int *rval)
{
	int vfork = (flags & (LINUX_CLONE_VM | LINUX_CLONE_VFORK)) ==
	    (LINUX_CLONE_VM | LINUX_CLONE_VFORK);
	u_int32_t w;
	int error, settid;

	if ((flags & LINUX_CSIGNAL) != LINUX_SIGCHLD)
		return ENOSYS;		/* another signal at exit */
	if (vfork) {			/* as posix_spawn asks: nothing more */
		if (flags & ~(LINUX_CSIGNAL | LINUX_CLONE_VM |
		    LINUX_CLONE_VFORK | LINUX_CLONE_PARENT_SETTID))
			return ENOSYS;
		/* Returns when the child has exec'd or exited. */
		error = fork1(p, FORK_SHAREVM | FORK_KEEPREGS, stack, rval);
		if (error == 0 && (flags & LINUX_CLONE_PARENT_SETTID))
			(void)copyout(&rval[0], ptid, sizeof(w));
		return error;
	}
	if ((flags & ~(LINUX_CSIGNAL | LINUX_CLONE_PARENT_SETTID |
	    LINUX_CLONE_CHILD_CLEARTID | LINUX_CLONE_CHILD_SETTID)) != 0 ||
	    stack != 0)
		return ENOSYS;		/* threads */
	/* Writable by the parent now is writable in the child's copy. */
	settid = (flags & LINUX_CLONE_CHILD_SETTID) &&
	    copyin((void *)ctid, &w, sizeof(w)) == 0 &&
	    copyout(&w, (void *)ctid, sizeof(w)) == 0;
	if ((error = fork1(p, FORK_KEEPREGS, 0, rval)) != 0)
		return error;
	w = rval[0];
	/* The child's page is still the parent's, copy-on-write: pmap_copyout
	 * gives the child its own (and skips the store if memory is out). */
	if (settid)
		(void)pmap_copyout(pfind(w)->p_pmap, ctid, &w, sizeof(w));
	if (flags & LINUX_CLONE_PARENT_SETTID)
		(void)copyout(&w, ptid, sizeof(w));
	return 0;
}

int
linux_sys_clone(struct proc *p, const u_int32_t *args, int *rval)
{
	return do_clone(p, args[0], args[1], PTR(2), args[4], rval);
}

/* clone3(args, size): clone's arguments in struct clone_args (64-bit fields). */
struct linux_clone_args {
	u_int64_t flags, pidfd, child_tid, parent_tid, exit_signal;
	u_int64_t stack, stack_size, tls;
};

int
linux_sys_clone3(struct proc *p, const u_int32_t *args, int *rval)
{
	struct linux_clone_args ca;
	int error;

	if (args[1] < sizeof(ca) || args[1] > 4096)
		return EINVAL;
	memset(&ca, 0, sizeof(ca));
	if ((error = copyin(PTR(0), &ca, sizeof(ca))) != 0)
		return error;
	if (ca.exit_signal > LINUX_CSIGNAL || (ca.flags & LINUX_CSIGNAL) ||
	    (ca.stack == 0) != (ca.stack_size == 0))
		return EINVAL;
	if ((ca.flags | ca.child_tid | ca.parent_tid | ca.stack | ca.stack_size)
	    >> 32)
		return EINVAL;		/* past a 32-bit address space */
	return do_clone(p, (u_int32_t)ca.flags | (u_int32_t)ca.exit_signal,
	    (u_int32_t)(ca.stack + ca.stack_size), (void *)(u_int32_t)ca.parent_tid,
	    (u_int32_t)ca.child_tid, rval);
}

/* Linux's fork leaves the child's registers as the parent's, but %eax. */
int
linux_sys_fork(struct proc *p, const u_int32_t *args, int *rval)
{
	(void)args;
	return fork1(p, FORK_KEEPREGS, 0, rval);
}

int
linux_sys_vfork(struct proc *p, const u_int32_t *args, int *rval)
{
	(void)args;
	return fork1(p, FORK_SHAREVM | FORK_KEEPREGS, 0, rval);
}

int
linux_sys_set_tid_address(struct proc *p, const u_int32_t *args, int *rval)
{
	(void)args;
	rval[0] = p->p_pid;
	return 0;
}

int
linux_sys_set_robust_list(struct proc *p, const u_int32_t *args, int *rval)
{
	(void)p, (void)args, (void)rval;
	return 0;
}

int
linux_sys_rseq(struct proc *p, const u_int32_t *args, int *rval)
{
	(void)p, (void)args, (void)rval;
	return ENOSYS;
}

int
linux_sys_time(struct proc *p, const u_int32_t *args, int *rval)
{
	struct timeval tv;
	int32_t t;
	int error;

	(void)p;
	microtime(&tv);
	t = tv.tv_sec;
	if (args[0] && (error = copyout(&t, PTR(0), sizeof(t))) != 0)
		return error;
	rval[0] = t;
	return 0;
}

static int
clock_now(int clock, int64_t *sec, int32_t *nsec)
{
	struct timeval tv;
	u_int64_t us;

	switch (clock) {
	case LINUX_CLOCK_REALTIME:
	case LINUX_CLOCK_REALTIME_COARSE:
		microtime(&tv);
		*sec = tv.tv_sec;
		*nsec = tv.tv_usec * 1000;
		return 0;
	case LINUX_CLOCK_MONOTONIC:
	case LINUX_CLOCK_MONOTONIC_RAW:
	case LINUX_CLOCK_MONOTONIC_COARSE:
	case LINUX_CLOCK_BOOTTIME:
		us = uptime_us();
		*sec = us / 1000000;
		*nsec = (us % 1000000) * 1000;
		return 0;
	default:
		return EINVAL;
	}
}

int
linux_sys_clock_gettime(struct proc *p, const u_int32_t *args, int *rval)
{
	int64_t sec;
	int32_t ts[2];
	int error;

	(void)p, (void)rval;
	if ((error = clock_now(INT(0), &sec, &ts[1])) != 0)
		return error;
	ts[0] = sec;
	return copyout(ts, PTR(1), sizeof(ts));
}

int
linux_sys_clock_gettime64(struct proc *p, const u_int32_t *args, int *rval)
{
	int64_t ts[2];
	int32_t nsec;
	int error;

	(void)p, (void)rval;
	if ((error = clock_now(INT(0), &ts[0], &nsec)) != 0)
		return error;
	ts[1] = nsec;
	return copyout(ts, PTR(1), sizeof(ts));
}

/* prctl: a process's name (PR_SET_NAME, PR_GET_NAME; ps shows it). */
#define LINUX_PR_SET_NAME	15
#define LINUX_PR_GET_NAME	16
#define LINUX_TASK_COMM_LEN	16

int
linux_sys_prctl(struct proc *p, const u_int32_t *args, int *rval)
{
	char name[LINUX_TASK_COMM_LEN];
	int error;

	(void)rval;
	switch (INT(0)) {
	case LINUX_PR_SET_NAME:
		if ((error = copyin(PTR(1), name, sizeof(name))) != 0)
			return error;
		name[sizeof(name) - 1] = '\0';
		strlcpy(p->p_comm, name, sizeof(p->p_comm));
		return 0;
	case LINUX_PR_GET_NAME:
		strlcpy(name, p->p_comm, sizeof(name));
		return copyout(name, PTR(1), sizeof(name));
	default:
		return EINVAL;
	}
}

/*
 * uname (Linux's newuname): our names (kern/kern_version.c's uname) in
 * Linux's six fields of 65 bytes; there is no NIS domain.
 */
#define LINUX_UTSLEN	65

int
linux_sys_uname(struct proc *p, const u_int32_t *args, int *rval)
{
	char lu[6][LINUX_UTSLEN];
	struct utsname u;
	const char *fields[5] = { u.sysname, u.nodename, u.release, u.version,
	    u.machine };
	int i;

	(void)p, (void)rval;
	uname_fill(&u);
	memset(lu, 0, sizeof(lu));
	for (i = 0; i < 5; i++)
		strlcpy(lu[i], fields[i], LINUX_UTSLEN);
	strlcpy(lu[5], "(none)", LINUX_UTSLEN);	/* as Linux says */
	return copyout(lu, PTR(0), sizeof(lu));
}

/* Linux's struct sysinfo (i386), as sysinfo(2) fills it. */
struct linux_sysinfo {
	int32_t	 uptime;		/* seconds since boot */
	u_int32_t loads[3];		/* load averages, << 16: none kept */
	u_int32_t totalram, freeram, sharedram, bufferram;
	u_int32_t totalswap, freeswap;
	u_int16_t procs, pad;
	u_int32_t totalhigh, freehigh;
	u_int32_t mem_unit;		/* the unit of the ram fields: a page */
	char	 reserved[8];
};

/* sysinfo(info): the uptime, the memory in pages and the processes. */
int
linux_sys_sysinfo(struct proc *p, const u_int32_t *args, int *rval)
{
	struct linux_sysinfo si;
	int i;

	(void)p, (void)rval;
	memset(&si, 0, sizeof(si));
	si.uptime = (int32_t)(uptime_us() / 1000000);
	si.totalram = kmem_total_pages();
	si.freeram = kmem_free_pages();
	si.mem_unit = PAGE_SIZE;
	for (i = 0; i < NPROC; i++)
		si.procs += proc[i].p_stat != SFREE;
	return copyout(&si, PTR(0), sizeof(si));
}
