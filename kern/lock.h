/*
 * Sleep locks: held across sleeps (disk I/O), by one process at a time,
 * like xv6's sleeplock or 4.4BSD's lockmgr in exclusive mode.  Vnodes
 * (vn_lock), the LFS segment lock and the UFS rename lock are these.
 *
 * Rules: only a process takes one (never an interrupt handler); a
 * process never takes a lock it already holds (a panic: it would sleep
 * forever); whoever takes several keeps the order its file documents,
 * since nothing here checks it.  The kernel is not preempted, so the
 * test and the set in lockacquire need no spl.
 */
#ifndef _KERN_LOCK_H_
#define _KERN_LOCK_H_

struct proc;

struct lock {
	struct proc *lk_holder;		/* NULL: free */
	int	lk_waiters;		/* sleeping for it */
	const char *lk_wmesg;		/* what ps shows the sleepers wait on */
};

void	lockinit(struct lock *, const char *wmesg);
void	lockacquire(struct lock *);
void	lockrelease(struct lock *);
#define lockheld(lk)	((lk)->lk_holder == curproc)	/* by the caller */
#define lockbusy(lk)	((lk)->lk_holder != NULL)	/* by anyone */

#endif
