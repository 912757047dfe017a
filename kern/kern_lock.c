/*
 * Sleep locks (kern/lock.h).
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/lock.h"

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
