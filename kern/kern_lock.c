/*
 * Sleep locks (kern/lock.h).
 *
 * lockyield=N on the kernel command line (0, off, by default): before
 * one lock taken in N, at random, the taker gives up the CPU as if it
 * had to wait, so the other processes run between its locks.  A kernel
 * that is never preempted otherwise runs from one lock to the next
 * without a break, and a wrong lock order shows only when a third
 * process happens to hold the second lock; with lockyield the tests
 * (tests/test_reliability.py, renames) meet it in a few hundred tries.
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/lock.h"

static int lock_yield = -1;		/* the N of lockyield=N; 0: off */
static u_int32_t lock_seed = 1;

/* Give up the CPU before this lock?  One time in lock_yield. */
static int
lock_yieldnow(void)
{
	if (cold || curproc == NULL)
		return 0;
	if (lock_yield < 0)
		lock_yield = getkarg_int("lockyield", 0);
	if (lock_yield <= 0)
		return 0;
	lock_seed = lock_seed * 1103515245 + 12345;
	return (lock_seed >> 16) % lock_yield == 0;
}

void
lockinit(struct lock *lk, const char *wmesg)
{
	lk->lk_holder = NULL;
	lk->lk_waiters = 0;
	lk->lk_wmesg = wmesg;
}

void
lockacquire(struct lock *lk)
{
	if (lockheld(lk))
		panic("lockacquire: %s %p held by its taker", lk->lk_wmesg, lk);
	if (lock_yieldnow())
		preempt();
	while (lockbusy(lk)) {
		lk->lk_waiters++;
		tsleep(lk, 0, lk->lk_wmesg, 0);
		lk->lk_waiters--;
	}
	lk->lk_holder = curproc;
}

void
lockrelease(struct lock *lk)
{
	KASSERT(lockheld(lk));
	lk->lk_holder = NULL;
	if (lk->lk_waiters > 0)
		wakeup(lk);
}
