/*
 * The lock table of kernel transactions (thesis 5.2.1.1, figure 5-4).
 *
 * An object is a page of a protected file (its vnode and logical block)
 * or the file's size (TXN_SIZE), hashed by both.  Each object has the
 * locks granted on it and the requests waiting for it, in arrival
 * order; every lock and request is also chained on its transaction, so
 * commit and abort walk only their own.  Locks are shared (a read) or
 * exclusive (a write); a holder of a shared lock may upgrade, ahead of
 * the other waiters.  Locking is strict two-phase: nothing is released
 * before its transaction ends (txn_unlockall, at abort, or at commit
 * once its write is issued: lfs_txncommit.c).
 *
 * A request that cannot be granted sleeps if the caller allows it
 * (TXN_WAIT: the read and write paths ask first, holding no vnode lock,
 * and only check inside it).  Before it sleeps, the deadlock detector
 * looks for a cycle in the wait-for graph through the new request: the
 * requester waits for every other holder its mode conflicts with and
 * for every conflicting request ahead of it.  If there is a cycle the
 * requester is the victim (thesis 5.2.3), so a ring of n waiters loses
 * exactly one; and since every edge is made by a request that begins to
 * wait, no cycle can form unseen.  txn_detect_all, for the system call,
 * looks through every waiter anyway.
 *
 * Who may block whom (doc/transactions.md).  A shared lock taken for a
 * process that may not write the file is weak (TXL_WEAK): it waits for
 * writers like any other, but stands in no one's way, so it makes no
 * edge in the wait-for graph.  An exclusive lock granted over it breaks
 * it (txn_break): the lock goes, and its transaction is aborted, since
 * what it read may now change; a plain read starts over instead
 * (lfs_txnfile.c).  So a reader who may not write cannot hold off the
 * file's writers, nor the readers queued behind them, however long it
 * sleeps inside its transaction or is stopped inside a read.
 *
 * A victim is always a transaction someone asked for.  The implicit
 * transaction of a plain read or write (TXN_IMPLICIT) must never see
 * ETXNABORT, so when it closes a cycle the youngest transactional member
 * of the cycle loses instead, and is woken to find out (and so on, for
 * each cycle the wait closes: the requester is no longer the one member
 * they all share).  A cycle always
 * has one: implicit transactions each lock one file, its size first and
 * then its pages upward (lfs_txnfile.c, txn_lockrange), so each waits for
 * more than it holds and they cannot wait for each other in a circle.
 *
 * An object holds a reference to its file's vnode, so the file (and
 * the pages its transactions keep dirty) stays in core until the last
 * lock on it goes.  Nothing here sleeps but the wait itself, so the
 * table needs no lock of its own on this uniprocessor kernel.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/malloc.h"
#include "kern/proc.h"
#include "ufs/inode.h"
#include "lfs/lfs_extern.h"
#include "lfs/lfs_txn.h"
#include <sys/txn.h>

#define TXN_NHASH	256
static LIST_HEAD(, txn_obj) txn_hash[TXN_NHASH];
#define TXNHASH(vp, lbn) \
	(&txn_hash[(((u_int32_t)(vp) >> 6) + (u_int32_t)(lbn)) & (TXN_NHASH - 1)])


static struct txn_obj *
txn_obj_find(struct vnode *vp, daddr_t lbn)
{
	struct txn_obj *o;

	LIST_FOREACH(o, TXNHASH(vp, lbn), o_hash)
		if (o->o_vp == vp && o->o_lbn == lbn)
			return o;
	return NULL;
}

static struct txn_obj *
txn_obj_new(struct vnode *vp, daddr_t lbn)
{
	struct txn_obj *o;

	o = malloc(sizeof(*o), M_WAITOK | M_ZERO);
	o->o_vp = vp;
	o->o_lbn = lbn;
	vref(vp);
	LIST_INIT(&o->o_granted);
	TAILQ_INIT(&o->o_waiting);
	LIST_INSERT_HEAD(TXNHASH(vp, lbn), o, o_hash);
	return o;
}

/* An object nobody holds or waits for goes, with its vnode reference. */
static void
txn_obj_put(struct txn_obj *o)
{
	if (!LIST_EMPTY(&o->o_granted) || !TAILQ_EMPTY(&o->o_waiting))
		return;
	LIST_REMOVE(o, o_hash);
	vrele(o->o_vp);
	free(o);
}

/* Do modes a (of another transaction) and b conflict? */
#define CONFLICT(a, b)	((a) == TXN_EXCL || (b) == TXN_EXCL)

/* Does lock or request l stand in the way of t's asking for mode? */
#define BLOCKS(l, t, mode)	((l)->l_txn != (t) && \
	!((l)->l_flags & TXL_WEAK) && CONFLICT((l)->l_mode, (mode)))

/* Can t have mode on o now?  req: t's request in the queue, or NULL. */
static int
txn_grantable(struct txn_obj *o, struct txn *t, int mode,
    struct txn_lock *req)
{
	struct txn_lock *l;

	LIST_FOREACH(l, &o->o_granted, l_olink)
		if (BLOCKS(l, t, mode))
			return 0;
	/* No passing a conflicting request that came first. */
	TAILQ_FOREACH(l, &o->o_waiting, l_wlink) {
		if (l == req)
			break;
		if (BLOCKS(l, t, mode))
			return 0;
	}
	return 1;
}

/*
 * A weak lock, granted, goes: a writer has the page, or the protection
 * came off the file.  Its transaction is aborted (its next call fails
 * with ETXNABORT; a plain read starts over), unless it is over or its
 * commit is under way, which has read all it will.
 */
static void
txn_breaklock(struct txn_lock *l)
{
	struct txn *b = l->l_txn;
	struct txn_obj *o = l->l_obj;

	LIST_REMOVE(l, l_olink);
	LIST_REMOVE(l, l_tlink);
	free(l);
	txn_obj_put(o);
	txn_stats.broken++;
	if (b->t_state != TXN_RUNNING)
		return;
	b->t_state = TXN_ABORTED;
	b->t_flags |= TXN_BROKEN;
	if (b->t_wait != NULL)
		wakeup(b->t_wait);
}

/* t was granted o exclusive: the weak locks others hold on o break. */
static void
txn_break(struct txn_obj *o, struct txn *t)
{
	struct txn_lock *l, *next;

	for (l = LIST_FIRST(&o->o_granted); l != NULL; l = next) {
		next = LIST_NEXT(l, l_olink);
		if (l->l_txn != t && (l->l_flags & TXL_WEAK))
			txn_breaklock(l);
	}
}

/* t's lock on o, granted, or NULL. */
static struct txn_lock *
txn_objheld(struct txn *t, struct txn_obj *o)
{
	struct txn_lock *l;

	if (o == NULL)
		return NULL;
	LIST_FOREACH(l, &o->o_granted, l_olink)
		if (l->l_txn == t)
			return l;
	return NULL;
}

/* t's lock on (vp, lbn), granted, or NULL. */
struct txn_lock *
txn_held(struct txn *t, struct vnode *vp, daddr_t lbn)
{
	return txn_objheld(t, txn_obj_find(vp, lbn));
}

/*
 * May vp's protection come off?  EBUSY while a transaction holds or
 * wants a lock on it that others must respect; weak ones are broken.
 */
int
txn_file_release(struct vnode *vp)
{
	struct txn *t;
	struct txn_lock *l, *next;

	LIST_FOREACH(t, &txn_all, t_all)
		LIST_FOREACH(l, &t->t_locks, l_tlink)
			if (l->l_obj->o_vp == vp && !(l->l_flags & TXL_WEAK))
				return EBUSY;
	LIST_FOREACH(t, &txn_all, t_all)
		for (l = LIST_FIRST(&t->t_locks); l != NULL; l = next) {
			next = LIST_NEXT(l, l_tlink);
			if (l->l_obj->o_vp == vp && l->l_granted)
				txn_breaklock(l);
		}
	return 0;
}

/* Grant what waits on o and can have it now, in order. */
static void
txn_grant(struct txn_obj *o)
{
	struct txn_lock *l, *next, *old;

	for (l = TAILQ_FIRST(&o->o_waiting); l != NULL; l = next) {
		next = TAILQ_NEXT(l, l_wlink);
		if (!txn_grantable(o, l->l_txn, l->l_mode, l))
			break;
		TAILQ_REMOVE(&o->o_waiting, l, l_wlink);
		/* An upgrade replaces the holder's shared lock. */
		LIST_FOREACH(old, &o->o_granted, l_olink)
			if (old->l_txn == l->l_txn)
				break;
		if (old != NULL) {
			old->l_mode = l->l_mode;
			old->l_flags &= ~TXL_WEAK;
			LIST_REMOVE(l, l_tlink);
			l->l_txn->t_wait = NULL;
			wakeup(l);
			l->l_obj = NULL;	/* the sleeper sees it granted */
			l->l_granted = 1;
			txn_break(o, old->l_txn);
			continue;
		}
		l->l_granted = 1;
		LIST_INSERT_HEAD(&o->o_granted, l, l_olink);
		l->l_txn->t_wait = NULL;
		wakeup(l);
		if (l->l_mode == TXN_EXCL)
			txn_break(o, l->l_txn);
	}
}

/* LAB(txnlock) begin */
static int txn_markgen;			/* the detector's visit marks */

/*
 * Does from's wait lead back to target?  Depth first along the edges
 * txn_incycle names, each transaction visited once a search (t_mark).
 * On the way back along a cycle found, *victim becomes its youngest
 * member that is not TXN_IMPLICIT.
 */
static int
txn_reaches(struct txn *from, struct txn *target, struct txn **victim)
{
	struct txn_lock *req = from->t_wait, *l;
	struct txn_obj *o;

	if (req == NULL || from->t_state == TXN_ABORTED ||
	    from->t_mark == txn_markgen)
		return 0;
	from->t_mark = txn_markgen;
	o = req->l_obj;
	LIST_FOREACH(l, &o->o_granted, l_olink)
		if (BLOCKS(l, from, req->l_mode) && (l->l_txn == target ||
		    txn_reaches(l->l_txn, target, victim)))
			goto cycle;
	TAILQ_FOREACH(l, &o->o_waiting, l_wlink) {
		if (l == req)
			break;
		if (BLOCKS(l, from, req->l_mode) && (l->l_txn == target ||
		    txn_reaches(l->l_txn, target, victim)))
			goto cycle;
	}
	return 0;
cycle:
	if (!(from->t_flags & TXN_IMPLICIT) &&
	    (*victim == NULL || from->t_id > (*victim)->t_id))
		*victim = from;
	return 1;
}
/* LAB(txnlock) end */

/*
 * The deadlock detector (thesis 5.2.3).  t begins to wait: its request,
 * t->t_wait, is queued on its object.  Does that close a cycle in the
 * wait-for graph?  A waiting transaction waits for every other one that
 * holds a lock on the object of its request, or asked for one there
 * before it, in a mode that conflicts (BLOCKS: a weak lock makes no
 * edge); an aborted transaction waits for no one, it is on its way out
 * and its locks with it.  The victim if so, NULL if not: t itself,
 * unless t is a plain call's (TXN_IMPLICIT); then the cycle's youngest
 * member that is not (the largest t_id; there is one: see the top of
 * the file).  It must not sleep: txn_detect_all asks it about others.
 */
static struct txn *
txn_incycle(struct txn *t)
{
	/* LAB(txnlock) begin */
	struct txn *v = NULL;

	txn_markgen++;
	if (!txn_reaches(t, t, &v))
		return NULL;
	return (t->t_flags & TXN_IMPLICIT) && v != NULL ? v : t;
	/* LAB(txnlock) end, stub:
	 *	if ((t->t_flags & TXN_IMPLICIT) || t->t_proc != curproc)
	 *		return NULL;
	 *	tsleep(t->t_wait, 0, "txnwait", hz);
	 *	return t->t_wait != NULL && t->t_state != TXN_ABORTED ? t : NULL;
	 */
}

/* Take a request off its queue (it was not granted) and free it. */
static void
txn_dequeue(struct txn_lock *req)
{
	struct txn_obj *o = req->l_obj;

	TAILQ_REMOVE(&o->o_waiting, req, l_wlink);
	LIST_REMOVE(req, l_tlink);
	req->l_txn->t_wait = NULL;
	free(req);
	txn_grant(o);		/* those behind it may go now */
	txn_obj_put(o);
}

/*
 * Lock page lbn of vp (or its size, TXN_SIZE) for t in mode (shared and
 * TXN_WEAK: a weak lock, which blocks no one).  Returns 0 with the lock
 * in *lp (NULL is allowed), EWOULDBLOCK if it cannot be had now and
 * TXN_WAIT is not given, ETXNABORT if waiting would close a cycle (t is
 * the victim) or t was aborted while it slept (a victim, or a weak lock
 * of it broken), EINTR if a signal ended the wait.
 */
int
txn_lock(struct txn *t, struct vnode *vp, daddr_t lbn, int mode, int flags,
    struct txn_lock **lp)
{
	struct txn_obj *o = txn_obj_find(vp, lbn);
	struct txn_lock *held = txn_objheld(t, o), *req;
	struct txn *victim;
	int weak = (flags & TXN_WEAK) && mode == TXN_SHARED ? TXL_WEAK : 0;
	int error = 0;

	if (held != NULL && held->l_mode >= mode) {
		if (!weak)
			held->l_flags &= ~TXL_WEAK;	/* read by a writer */
		if (lp)
			*lp = held;
		return 0;
	}
	if (o == NULL)		/* one lookup: the object is found or made */
		o = txn_obj_new(vp, lbn);
	if (txn_grantable(o, t, mode, NULL)) {
		if (held != NULL) {
			held->l_mode = mode;		/* an upgrade */
			held->l_flags &= ~TXL_WEAK;
		} else {
			held = malloc(sizeof(*held), M_WAITOK | M_ZERO);
			held->l_obj = o;
			held->l_txn = t;
			held->l_mode = mode;
			held->l_flags = weak;
			held->l_granted = 1;
			LIST_INSERT_HEAD(&o->o_granted, held, l_olink);
			LIST_INSERT_HEAD(&t->t_locks, held, l_tlink);
		}
		if (mode == TXN_EXCL)
			txn_break(o, t);
		if (lp)
			*lp = held;
		return 0;
	}
	if (!(flags & TXN_WAIT)) {
		txn_obj_put(o);
		return EWOULDBLOCK;
	}
	req = malloc(sizeof(*req), M_WAITOK | M_ZERO);
	req->l_obj = o;
	req->l_txn = t;
	req->l_mode = mode;
	req->l_flags = weak;
	if (held != NULL)
		TAILQ_INSERT_HEAD(&o->o_waiting, req, l_wlink);
	else
		TAILQ_INSERT_TAIL(&o->o_waiting, req, l_wlink);
	LIST_INSERT_HEAD(&t->t_locks, req, l_tlink);
	t->t_wait = req;
	txn_stats.waits++;
	/* A plain call's wait may close several cycles: one victim each. */
	while ((victim = txn_incycle(t)) != NULL) {
		txn_stats.victims++;
		victim->t_state = TXN_ABORTED;
		if (victim == t) {
			txn_dequeue(req);
			return ETXNABORT;
		}
		wakeup(victim->t_wait);	/* it undoes itself; t waits on */
	}
	while (t->t_wait == req && t->t_state != TXN_ABORTED && error == 0)
		error = tsleep(req, PCATCH, "txnlock", 0);
	if (t->t_wait == req) {		/* still waiting: aborted, a signal */
		txn_dequeue(req);
		return t->t_state == TXN_ABORTED ? ETXNABORT :
		    error == ERESTART ? EINTR : error;
	}
	/*
	 * Granted (txn_grant cleared t_wait).  A weak lock may have been
	 * broken since, and freed: then t is aborted, and req is not to be
	 * looked at.  An upgrade's request is strong, and txn_grant left it
	 * to us (l_obj NULL): the lock is held.
	 */
	if (held != NULL && req->l_obj == NULL) {
		free(req);
		req = held;
	}
	if (t->t_state == TXN_ABORTED)
		return ETXNABORT;
	if (lp)
		*lp = req;
	return 0;
}

/* Strict 2PL's one release: every lock and request of t. */
void
txn_unlockall(struct txn *t)
{
	struct txn_lock *l;
	struct txn_obj *o;

	while ((l = LIST_FIRST(&t->t_locks)) != NULL) {
		o = l->l_obj;
		LIST_REMOVE(l, l_tlink);
		if (l->l_granted)
			LIST_REMOVE(l, l_olink);
		else
			TAILQ_REMOVE(&o->o_waiting, l, l_wlink);
		free(l);
		txn_grant(o);
		txn_obj_put(o);
	}
	t->t_wait = NULL;
}

/*
 * txn_detect (thesis 5.2.3): abort one member of each cycle of waiters,
 * the youngest that is not a plain call's, and wake it; its read or
 * write returns ETXNABORT.  How many were aborted.
 */
int
txn_detect_all(void)
{
	struct txn *t, *victim;
	int n = 0;

	for (;;) {
		victim = NULL;
		LIST_FOREACH(t, &txn_all, t_all)
			if (t->t_wait != NULL && t->t_state != TXN_ABORTED &&
			    !(t->t_flags & TXN_IMPLICIT) &&
			    txn_incycle(t) != NULL && (victim == NULL ||
			    t->t_id > victim->t_id))
				victim = t;
		if (victim == NULL)
			return n;
		victim->t_state = TXN_ABORTED;
		txn_stats.victims++;
		wakeup(victim->t_wait);
		n++;
	}
}
