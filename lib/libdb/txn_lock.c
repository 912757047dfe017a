/*
 * The lock manager (thesis 5.1.4.3): page locks, single writer or many
 * readers, named by (file id, page number), found through a hash table
 * and chained both by page (the holders of one page) and by transaction
 * (every lock one transaction holds, which lock_unlock_all walks at
 * commit and abort).  Strict two-phase locking: a transaction takes a
 * lock before it touches the page and lets go of all of them at its end.
 *
 * A request that conflicts with another transaction's lock would wait
 * in LIBTP, in a queue the process manager sleeps on.  Here one process
 * runs one transaction at a time (MPL 1, as the thesis ran TPC-B), so
 * the holder could never run to release it: the request fails with
 * EDEADLK instead of waiting forever.
 */
#include <sys/types.h>
#include <stdlib.h>

#include "lib/libdb/txnint.h"

int
lock_init(struct tp_env *env)
{
	env->lockhash = calloc(LOCKHASH, sizeof(*env->lockhash));
	return env->lockhash == NULL ? -1 : 0;
}

static struct lockobj **
lslot(struct tp_env *env, u_int32_t fileid, u_int32_t pgno)
{
	return &env->lockhash[(pgno * 2654435761u + fileid * 40503u) &
	    (LOCKHASH - 1)];
}

int
lock_get(struct tp_env *env, struct tp_txn *txn, u_int32_t fileid,
    u_int32_t pgno, int mode)
{
	struct lockobj *o, **op = lslot(env, fileid, pgno);
	struct lock *l, *mine = NULL;

	for (o = *op; o != NULL; o = o->hnext)
		if (o->fileid == fileid && o->pgno == pgno)
			break;
	if (o != NULL) {
		for (l = o->holders; l != NULL; l = l->onext)
			if (l->txn == txn)
				mine = l;
			else if (mode == LOCK_WRITE || l->mode == LOCK_WRITE) {
				errno = EDEADLK;
				return -1;
			}
		if (mine != NULL) {		/* held: maybe an upgrade */
			if (mode > mine->mode)
				mine->mode = mode;
			return 0;
		}
	} else {
		if ((o = calloc(1, sizeof(*o))) == NULL)
			return -1;
		o->fileid = fileid;
		o->pgno = pgno;
		o->hnext = *op;
		*op = o;
	}
	if ((l = calloc(1, sizeof(*l))) == NULL)
		return -1;
	l->obj = o;
	l->txn = txn;
	l->mode = mode;
	l->onext = o->holders;
	o->holders = l;
	l->tnext = txn->locks;
	txn->locks = l;
	env->st.locks++;
	return 0;
}

/* The end of a transaction: every lock it holds, and empty pages' entries. */
void
lock_unlock_all(struct tp_env *env, struct tp_txn *txn)
{
	struct lock *l, *next, **lp;
	struct lockobj *o, **op;

	for (l = txn->locks; l != NULL; l = next) {
		next = l->tnext;
		o = l->obj;
		for (lp = &o->holders; *lp != l; lp = &(*lp)->onext)
			continue;
		*lp = l->onext;
		if (o->holders == NULL) {
			for (op = lslot(env, o->fileid, o->pgno); *op != o;
			    op = &(*op)->hnext)
				continue;
			*op = o->hnext;
			free(o);
		}
		free(l);
		env->st.locks--;
	}
	txn->locks = NULL;
}

void
lock_free(struct tp_env *env)
{
	free(env->lockhash);
	env->lockhash = NULL;
}
