/*
 * OO1's three tests (thesis 7.6), each one transaction:
 *
 *	lookup		LOOKUPS random part ids; fetch each part and call
 *			a null procedure with its x and y
 *	traverse	from a random part, depth first: fetch the part,
 *			call the null procedure, and follow each of its
 *			connections (connect_forward, then the connector
 *			record for its to) to the next part, HOPS hops deep:
 *			1 + 3 + ... + 3^7 = 3280 parts, repeats counted
 *	rtraverse	the same backwards: the connections to a part
 *			(connect_backward) back to their from
 *	insert		INSERTS new parts, each with three connections
 *			chosen as load chose them, then commit
 *
 * A traversal visits TRAVERSED parts.  Forwards one walk does (three
 * connections from every part); backwards a walk visits as many parts
 * as the connections to them lead to, from one (one part in twenty has
 * none: the connections to a part are about Poisson with mean 3) to
 * thousands, so rtraverse stops at TRAVERSED and, when a walk ends
 * short of it, walks again from another random part.  Every run then
 * does the forward traversal's work, as the thesis' backward times (28.6
 * to 29.0 s, standard deviations under 0.6 s, beside 28.1 to 28.4 s
 * forwards) say its runs did.
 *
 * The clock runs from opening the database to the commit and the
 * changed pages' write(2) to the kernel (see oo1.c).
 */
#include <sys/types.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bin/oo1/oo1.h"

/*
 * The host language's null procedure, called through a pointer the
 * compiler cannot see through, so that the call stays.
 */
static void
nullproc(int32_t x, int32_t y)
{
	(void)x;
	(void)y;
}

static void (*volatile callproc)(int32_t, int32_t) = nullproc;

/* Fetch part id and call the null procedure with its x and y. */
static int
fetch(struct oo1 *db, u_int32_t id)
{
	u_int8_t key[4];
	struct part p;
	DBT k, d;
	int r;

	idkey(id, key);
	k.data = key;
	k.size = 4;
	if ((r = bt_get(db->part, &k, &d)) != 0)
		return r;
	if (d.size != PARTLEN) {
		errno = EFTYPE;
		return -1;
	}
	memcpy(&p, d.data, PARTLEN);
	callproc(p.x, p.y);
	return 0;
}

/*
 * A test's start: the clock, the database under the transaction
 * manager, and the transaction.
 */
static struct tp_txn *
start(struct oo1 *db, const char *dir, long long *t0)
{
	struct tp_txn *txn;

	*t0 = now_us();
	db->dir = dir;
	if (opendb(db, 1) < 0) {
		int error = errno;

		closedb(db);
		errno = error;
		return NULL;
	}
	if ((txn = tp_begin(db->env)) == NULL)
		closedb(db);
	return txn;
}

/*
 * A test's end: commit, write the changed pages to the kernel, stop the
 * clock, close (timed apart), and say what was done.
 */
static int
finish(struct oo1 *db, struct tp_txn *txn, long long t0, const char *what)
{
	u_int64_t reads, writes;
	long long t1, t2;

	if (tp_commit(txn) < 0 ||	/* COMMIT POINT: the log forced */
	    mpool_sync(bt_mpool(db->part)) < 0 ||
	    mpool_sync(bt_mpool(db->fwd)) < 0 ||
	    mpool_sync(bt_mpool(db->bwd)) < 0 ||
	    mpool_sync(rec_mpool(db->conn)) < 0) {
		closedb(db);
		return -1;
	}
	t1 = now_us();
	iocount(db, &reads, &writes);
	if (closedb(db) < 0)
		return -1;
	t2 = now_us();
	printf("oo1 %s in %lld ms, %llu pages read, %llu pages written, "
	    "close %lld ms\n", what, (t1 - t0) / 1000,
	    (unsigned long long)reads, (unsigned long long)writes,
	    (t2 - t1) / 1000);
	return 0;
}

/* A failed test: its transaction aborted, the database closed. */
static int
fail(struct oo1 *db, struct tp_txn *txn)
{
	int error = errno;

	tp_abort(txn);
	closedb(db);
	errno = error;
	return -1;
}

int
lookup(const char *dir)
{
	struct tp_txn *txn;
	struct oo1 db;
	u_int32_t i, found = 0;
	long long t0;
	char what[64];
	int r;

	if ((txn = start(&db, dir, &t0)) == NULL)
		return -1;
	for (i = 0; i < LOOKUPS; i++) {
		if ((r = fetch(&db, 1 + rnd(db.nparts))) < 0)
			return fail(&db, txn);
		found += r == 0;
	}
	snprintf(what, sizeof(what), "lookup: %u parts found", found);
	return finish(&db, txn, t0, what);
}

/* The connections of one part, gathered before the walk goes deeper. */
struct conns {
	u_int32_t *c;
	u_int32_t  n, cap;
};

/*
 * The connections of part id in the cursor's B-tree (connect_forward:
 * from it; connect_backward: to it), in connection order.
 */
static int
connections(struct btcursor *cur, u_int32_t id, struct conns *v)
{
	u_int8_t key[8];
	DBT k, d;
	int r;

	connkey(id, 0, key);
	k.data = key;
	k.size = 8;
	v->n = 0;
	for (r = bt_cget(cur, &k, &d, BT_SET); r == 0;
	    r = bt_cget(cur, &k, &d, BT_NEXT)) {
		if (k.size != 8 || keyid(k.data) != id)
			break;
		if (v->n == v->cap) {
			u_int32_t *nc = realloc(v->c, (v->cap + 16) *
			    sizeof(*nc));

			if (nc == NULL)
				return -1;
			v->c = nc;
			v->cap += 16;
		}
		v->c[v->n++] = keyid((u_int8_t *)k.data + 4);
	}
	return r < 0 ? -1 : 0;
}

/* The walk: one list of connections per depth, and the count. */
struct walk {
	struct oo1 *db;
	struct btcursor *cur;
	int	  fwd;
	u_int32_t visited;
	u_int32_t walks;
	struct conns lev[HOPS];
};

static int
visit(struct walk *w, u_int32_t id, int depth)
{
	struct connector rec;
	struct conns *v;
	u_int32_t i;
	int r;

	if (w->visited == TRAVERSED)
		return 0;
	if ((r = fetch(w->db, id)) != 0) {
		if (r > 0)		/* a connection to no part */
			errno = EFTYPE;
		return -1;
	}
	w->visited++;
	if (depth == HOPS)
		return 0;
	v = &w->lev[depth];
	if (connections(w->cur, id, v) < 0)
		return -1;
	for (i = 0; i < v->n; i++) {
		if ((r = rec_get(w->db->conn, v->c[i], &rec)) != 0) {
			if (r > 0)
				errno = EFTYPE;
			return -1;
		}
		if (visit(w, w->fwd ? rec.to : rec.from, depth + 1) < 0)
			return -1;
	}
	return 0;
}

int
traverse(const char *dir, int fwd)
{
	struct tp_txn *txn;
	struct walk w;
	struct oo1 db;
	long long t0;
	char what[80];
	int i, r = 0;

	if ((txn = start(&db, dir, &t0)) == NULL)
		return -1;
	memset(&w, 0, sizeof(w));
	w.db = &db;
	w.fwd = fwd;
	if ((w.cur = bt_cursor(fwd ? db.fwd : db.bwd)) == NULL)
		return fail(&db, txn);
	while (r == 0 && w.visited < TRAVERSED) {
		w.walks++;
		r = visit(&w, 1 + rnd(db.nparts), 0);
	}
	bt_cclose(w.cur);
	for (i = 0; i < HOPS; i++)
		free(w.lev[i].c);
	if (r < 0)
		return fail(&db, txn);
	snprintf(what, sizeof(what), "%s: %u parts visited (%u walk%s)",
	    fwd ? "traverse" : "rtraverse", w.visited, w.walks,
	    w.walks == 1 ? "" : "s");
	return finish(&db, txn, t0, what);
}

/* Part id and its connections, as load makes them, among nparts parts. */
static int
insert1(struct oo1 *db, u_int32_t id, u_int32_t nparts)
{
	u_int8_t key[8];
	char filler[CONNLEN];
	struct connector rec;
	struct part p;
	u_int32_t c, to;
	DBT k, d;
	int i, r;

	mkpart(&p, id);
	idkey(id, key);
	k.data = key;
	k.size = 4;
	d.data = &p;
	d.size = PARTLEN;
	if ((r = bt_put(db->part, &k, &d, BT_NOOVERWRITE)) != 0) {
		if (r > 0)		/* the part is there already */
			errno = EFTYPE;
		return -1;
	}
	memset(filler, 'f', sizeof(filler));
	k.size = 8;
	d.data = filler;
	d.size = CONNLEN;
	for (i = 0; i < NCONN; i++) {
		to = pickto(id, nparts);
		mkconnector(&rec, id, to);
		if (rec_append(db->conn, &rec, &c) < 0)
			return -1;
		connkey(id, c, key);
		if (bt_put(db->fwd, &k, &d, 0) < 0)
			return -1;
		connkey(to, c, key);
		if (bt_put(db->bwd, &k, &d, 0) < 0)
			return -1;
	}
	return 0;
}

int
insert(const char *dir)
{
	struct tp_txn *txn;
	struct oo1 db;
	u_int32_t i;
	long long t0;
	char what[80];

	if ((txn = start(&db, dir, &t0)) == NULL)
		return -1;
	for (i = 1; i <= INSERTS; i++)
		if (insert1(&db, db.nparts + i, db.nparts + i) < 0)
			return fail(&db, txn);
	snprintf(what, sizeof(what), "insert: %u parts inserted (%u "
	    "connections)", INSERTS, NCONN * INSERTS);
	return finish(&db, txn, t0, what);
}
