/*
 * Queries 26-32, the updates of one tuple of TENKTUP1 [DEWI91], and
 * wisc setup, which puts TENKTUP1 back the way query N expects it.
 *
 * "No index" (26-28) changes the tuples file alone and finds its tuple by
 * reading the relation; the indices are left as they were (the relation
 * is treated as one that has none).  With the indices (29-32) the tuple
 * is found through one, and every file whose entry changes is changed:
 * an insert, a delete or a new unique2 touches all three files (the
 * thesis' "writing one or more pages to multiple (3) files"), a new
 * unique1 the tuples file and the unique1 index.
 *
 * The new tuple and the new key are 10001 (scaled: n + 1), the tuple
 * changed is unique2 = 1491 (28, 31) or unique1 = 1491 (32), scaled.
 * Nothing here is undone: after a query the driver (or a test) runs
 * wisc setup for the next one, which brings back the tuples 26-32
 * touch, as loaded, and for 27 and 30 inserts the tuple they delete.
 */
#include <sys/types.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bin/wisc/wisc.h"

/* The first tuple of TENKTUP1 whose unique1 (or unique2) is v, read in order. */
static int
findby(struct rel *rl, int u1, u_int32_t v, struct tuple *t)
{
	struct scan s;
	int rv;

	if (scan_open(&s, rl->bt, 0, UINT32_MAX) < 0)
		return -1;
	while ((rv = scan_tuple(&s, t)) == 1)
		if ((u1 ? t->unique1 : t->unique2) == v)
			break;
	scan_close(&s);
	return rv;
}

/* Both indices say t is there. */
static int
index_in(struct rel *rl, const struct tuple *t)
{
	return u1_put(rl, t->unique1, t->unique2) != 0 ||
	    h_put(rl, t->hundred, t->unique2) != 0 ? -1 : 0;
}

/* Neither does; an entry not there is no error. */
static int
index_out(struct rel *rl, const struct tuple *t)
{
	return u1_del(rl, t->unique1) < 0 ||
	    h_del(rl, t->hundred, t->unique2) < 0 ? -1 : 0;
}

int
q_update(struct wisc *w, const struct query *q, struct result *res)
{
	struct rel *rl = &w->rel[TENKTUP1];
	u_int32_t newkey = NEWKEY(w->n), old = OLDKEY(w->n);
	int indexed = q->num >= 29, rv;
	struct tuple t;

	if (rel_open(w, TENKTUP1, indexed ? F_ALL : F_TUPLES, 1) < 0)
		return -1;
	switch (q->num) {
	case 26:
	case 29:		/* INSERT INTO TENKTUP1 VALUES (10001, ...) */
		mktuple(&t, newkey, newkey);
		if ((rv = put_tuple(rl, &t, BT_NOOVERWRITE)) == DB_KEYEXIST) {
			fprintf(stderr, "wisc: the tuple is there already: "
			    "wisc setup %d first\n", q->num);
			errno = EEXIST;
			return -1;
		}
		if (rv != 0 || (indexed && index_in(rl, &t) < 0))
			return -1;
		break;
	case 27:		/* DELETE FROM TENKTUP1 WHERE unique1 = 10001 */
	case 30:
		rv = indexed ? get_u1(rl, newkey, &t) :
		    findby(rl, 1, newkey, &t) == 1 ? 0 : DB_NOTFOUND;
		if (rv == DB_NOTFOUND)
			return 0;
		if (rv != 0 || del_tuple(rl, t.unique2) != 0 ||
		    (indexed && index_out(rl, &t) < 0))
			return -1;
		break;
	case 28:		/* UPDATE SET unique2 = 10001 WHERE unique2 = 1491 */
	case 31:
		rv = indexed ? get_u2(rl, old, &t) :
		    findby(rl, 0, old, &t) == 1 ? 0 : DB_NOTFOUND;
		if (rv == DB_NOTFOUND)
			return 0;
		if (rv != 0 || del_tuple(rl, old) != 0)
			return -1;
		t.unique2 = newkey;
		if (put_tuple(rl, &t, BT_NOOVERWRITE) != 0)
			return -1;
		if (indexed && (u1_put(rl, t.unique1, newkey) != 0 ||
		    h_del(rl, t.hundred, old) < 0 ||
		    h_put(rl, t.hundred, newkey) != 0))
			return -1;
		break;
	case 32:		/* UPDATE SET unique1 = 10001 WHERE unique1 = 1491 */
		if ((rv = get_u1(rl, old, &t)) == DB_NOTFOUND)
			return 0;
		if (rv != 0 || u1_del(rl, old) != 0)
			return -1;
		t.unique1 = newkey;
		if (put_tuple(rl, &t, 0) != 0 ||
		    u1_put(rl, newkey, t.unique2) != 0)
			return -1;
		break;
	default:
		errno = EINVAL;
		return -1;
	}
	res->rows = 1;
	res->sum1 = t.unique1;
	res->sum2 = t.unique2;
	return 0;
}

/*
 * TENKTUP1 as query num expects it: the tuples 26-32 change (unique2
 * 1491, unique1 1491, and 10001) as loaded in all three files, and for 27
 * and 30 the tuple of 26 (29) that they delete.
 */
int
setup(struct wisc *w, int num)
{
	struct rel *rl = &w->rel[TENKTUP1];
	u_int32_t newkey = NEWKEY(w->n), old = OLDKEY(w->n), *u1, k;
	struct tuple t;
	int rv = -1;

	if ((u1 = genrel(TENKTUP1, w->n)) == NULL ||
	    rel_open(w, TENKTUP1, F_ALL, 1) < 0)
		goto out;
	for (k = 0; u1[k] != old; k++)
		continue;
	/* 26, 29 inserted 10001; 28, 31 moved 1491 to 10001. */
	if (del_tuple(rl, newkey) < 0 || u1_del(rl, newkey) < 0 ||
	    h_del(rl, newkey % 100, newkey) < 0 ||
	    h_del(rl, u1[old] % 100, newkey) < 0)
		goto out;
	/* The tuple unique2 = 1491 (28, 31) and unique1 = 1491 (32). */
	mktuple(&t, u1[old], old);
	if (put_tuple(rl, &t, 0) != 0 || index_in(rl, &t) < 0)
		goto out;
	mktuple(&t, old, k);
	if (put_tuple(rl, &t, 0) != 0 || index_in(rl, &t) < 0)
		goto out;
	if (num == 27 || num == 30) {
		mktuple(&t, newkey, newkey);
		if (put_tuple(rl, &t, 0) != 0 ||
		    (num == 30 && index_in(rl, &t) < 0))
			goto out;
	}
	rv = 0;
out:
	free(u1);
	return rv;
}
