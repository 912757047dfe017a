/*
 * Host tests of libdb (lib/libdb), run under ASan and UBSan by
 * tests/host/test_libdb.py:
 *
 *	dbtest btree SEED	random operations against a model in memory,
 *				every key checked by get and by the cursor
 *	dbtest load SEED	bt_load, then the same
 *	dbtest recno SEED	record files against an array
 *	dbtest damage SEED	damaged pages: every call returns EFTYPE or a
 *				right answer, never a crash (ASan watches)
 *	dbtest txn SEED		transactions: commit keeps, abort undoes
 *	dbtest crash SEED	a process dies mid-run (fork, _exit), the
 *				recovery program's body runs, and the files
 *				hold exactly the committed transactions
 *
 * Each prints one line per failed check and last "N passed, M failed";
 * the exit status is 1 if any check failed.  Files go in the current
 * directory.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/libdb/dbint.h"

static int passed, failed;
static u_int64_t rng;

#define CHECK(cond, ...) do {						\
	if (cond)							\
		passed++;						\
	else {								\
		failed++;						\
		printf("FAIL %s:%d: ", __FILE__, __LINE__);		\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	}								\
} while (0)

static u_int32_t
rnd(u_int32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (u_int32_t)(rng >> 11) % n;
}

/* --- the model: key n is present or not, with data (len, seed) --- */

#define NKEYS	3000
#define MAXDATA	100

struct model {
	u_int8_t  present[NKEYS];
	u_int8_t  len[NKEYS];
	u_int32_t seed[NKEYS];
};

/* Key n: 4 bytes big-endian, then n % 7 more; orders like n. */
static u_int32_t
mkkey(u_int32_t n, u_int8_t *buf)
{
	u_int32_t i, len = 4 + n % 7;

	buf[0] = n >> 24;
	buf[1] = n >> 16;
	buf[2] = n >> 8;
	buf[3] = n;
	for (i = 4; i < len; i++)
		buf[i] = (u_int8_t)(n * 31 + i);
	return len;
}

static void
mkdata(u_int32_t seed, u_int32_t len, u_int8_t *buf)
{
	u_int32_t i;

	for (i = 0; i < len; i++)
		buf[i] = (u_int8_t)(seed * 2654435761u >> (i % 24)) + i;
}

static int
keyof(const DBT *k, u_int32_t *n)
{
	const u_int8_t *b = k->data;
	u_int8_t want[16];

	if (k->size < 4)
		return 0;
	*n = (u_int32_t)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3];
	return *n < NKEYS && mkkey(*n, want) == k->size &&
	    memcmp(want, b, k->size) == 0;
}

static int
same(const struct model *m, u_int32_t n, const DBT *d)
{
	u_int8_t want[MAXDATA];

	mkdata(m->seed[n], m->len[n], want);
	return d->size == m->len[n] && memcmp(d->data, want, d->size) == 0;
}

/* Every key by bt_get, then the whole tree by the cursor, then BT_SETs. */
static void
verify(struct btree *bt, const struct model *m, const char *when)
{
	u_int8_t kb[16];
	struct btcursor *c;
	u_int32_t n, next = 0, bad = 0, found;
	DBT k, d;
	int r;

	for (n = 0; n < NKEYS; n++) {
		k.data = kb;
		k.size = mkkey(n, kb);
		r = bt_get(bt, &k, &d);
		if (m->present[n] ? r != 0 || !same(m, n, &d) : r != DB_NOTFOUND)
			bad++;
	}
	CHECK(bad == 0, "%s: %u keys differ from the model by bt_get", when,
	    bad);
	c = bt_cursor(bt);
	bad = 0;
	for (r = bt_cget(c, &k, &d, BT_FIRST); r == 0;
	    r = bt_cget(c, &k, &d, BT_NEXT)) {
		while (next < NKEYS && !m->present[next])
			next++;
		if (!keyof(&k, &found) || found != next || !same(m, found, &d))
			bad++;
		next++;
	}
	while (next < NKEYS && !m->present[next])
		next++;
	CHECK(r == DB_NOTFOUND && bad == 0 && next == NKEYS,
	    "%s: the cursor walk differs (r %d, %u bad, stopped before %u)",
	    when, r, bad, next);
	for (bad = 0, n = 0; n < 50; n++) {
		u_int32_t probe = rnd(NKEYS), want = probe;

		while (want < NKEYS && !m->present[want])
			want++;
		k.data = kb;
		k.size = 4;		/* a prefix: sorts before key probe */
		mkkey(probe, kb);
		r = bt_cget(c, &k, &d, BT_SET);
		if (want == NKEYS ? r != DB_NOTFOUND : r != 0 ||
		    !keyof(&k, &found) || found != want)
			bad++;
	}
	CHECK(bad == 0, "%s: %u BT_SET probes wrong", when, bad);
	bt_cclose(c);
}

/* One random operation on both the tree and the model. */
static int
randop(struct btree *bt, struct model *m)
{
	u_int8_t kb[16], db[MAXDATA];
	u_int32_t n = rnd(NKEYS), op = rnd(100), len, seed;
	DBT k, d;
	int r;

	k.data = kb;
	k.size = mkkey(n, kb);
	if (op < 55) {
		len = m->present[n] && rnd(2) ? m->len[n] : rnd(MAXDATA + 1);
		seed = rnd(1u << 30);
		mkdata(seed, len, db);
		d.data = db;
		d.size = len;
		if ((r = bt_put(bt, &k, &d, 0)) != 0)
			return r;
		m->present[n] = 1;
		m->len[n] = (u_int8_t)len;
		m->seed[n] = seed;
	} else if (op < 85) {
		r = bt_del(bt, &k);
		if (r != (m->present[n] ? 0 : DB_NOTFOUND))
			return r < 0 ? r : 99;
		m->present[n] = 0;
	} else {
		r = bt_get(bt, &k, &d);
		if (m->present[n] ? r != 0 || !same(m, n, &d) : r != DB_NOTFOUND)
			return 98;
	}
	return 0;
}

static struct btree *
openbt(const char *path, u_int32_t psize, u_int32_t cache, u_int32_t fill,
    struct tp_env *env)
{
	struct btreeinfo bi;

	memset(&bi, 0, sizeof(bi));
	bi.psize = psize;
	bi.cache = cache;
	bi.fill = fill;
	return bt_open(path, O_RDWR | O_CREAT, 0644, &bi, env);
}

static void
test_btree(void)
{
	static struct model m;
	struct btree *bt;
	int round, i, r = 0;

	unlink("bt.db");
	bt = openbt("bt.db", 512, 8, 0, NULL);
	CHECK(bt != NULL, "bt_open: %s", strerror(errno));
	for (round = 0; round < 6 && bt != NULL; round++) {
		for (i = 0; i < 3000 && (r = randop(bt, &m)) == 0; i++)
			continue;
		CHECK(r == 0, "round %d op %d: %d (%s)", round, i, r,
		    strerror(errno));
		verify(bt, &m, "after a round");
		CHECK(bt_close(bt) == 0, "bt_close: %s", strerror(errno));
		bt = openbt("bt.db", 0, 8 + round * 16, 0, NULL);
		CHECK(bt != NULL, "reopen: %s", strerror(errno));
		if (bt != NULL)
			verify(bt, &m, "after a reopen");
	}
	if (bt != NULL) {
		CHECK(bt_psize(bt) == 512, "page size %u kept", bt_psize(bt));
		bt_close(bt);
	}
}

/* bt_load's source: the model's present keys in order. */
struct loadsrc {
	struct model *m;
	u_int32_t n;
	u_int8_t kb[16], db[MAXDATA];
};

static int
loadnext(void *arg, DBT *k, DBT *d)
{
	struct loadsrc *s = arg;

	while (s->n < NKEYS && !s->m->present[s->n])
		s->n++;
	if (s->n == NKEYS)
		return DB_NOTFOUND;
	k->data = s->kb;
	k->size = mkkey(s->n, s->kb);
	mkdata(s->m->seed[s->n], s->m->len[s->n], s->db);
	d->data = s->db;
	d->size = s->m->len[s->n];
	s->n++;
	return 0;
}

/* bt_load's source of keys 5, 4, 3, ...: out of order. */
static int
backwards(void *arg, DBT *k, DBT *d)
{
	static u_int8_t kb[16];
	struct model *m = arg;

	if (m->seed[0] == 3)
		return DB_NOTFOUND;
	k->data = kb;
	k->size = mkkey(5 - m->seed[0]++, kb);
	d->data = kb;
	d->size = 0;
	return 0;
}

static void
test_load(void)
{
	static struct model m;
	struct loadsrc src;
	struct btree *bt;
	u_int32_t n, fill;
	int i, r = 0;

	for (fill = 50; fill <= 100; fill += 50) {
		memset(&m, 0, sizeof(m));
		for (n = 0; n < NKEYS; n++)
			if (rnd(4) != 0) {
				m.present[n] = 1;
				m.len[n] = (u_int8_t)rnd(MAXDATA + 1);
				m.seed[n] = n;
			}
		unlink("load.db");
		bt = openbt("load.db", 1024, 16, fill, NULL);
		CHECK(bt != NULL, "bt_open: %s", strerror(errno));
		if (bt == NULL)
			return;
		memset(&src, 0, sizeof(src));
		src.m = &m;
		CHECK(bt_load(bt, loadnext, &src) == 0, "bt_load fill %u: %s",
		    fill, strerror(errno));
		verify(bt, &m, "after bt_load");
		memset(&src, 0, sizeof(src));
		src.m = &m;
		CHECK(bt_load(bt, loadnext, &src) < 0 && errno == EINVAL,
		    "bt_load into a tree that is not empty is EINVAL");
		for (i = 0; i < 4000 && (r = randop(bt, &m)) == 0; i++)
			continue;
		CHECK(r == 0, "after bt_load, op %d: %d", i, r);
		CHECK(bt_close(bt) == 0, "bt_close");
		bt = openbt("load.db", 0, 16, 0, NULL);
		verify(bt, &m, "after bt_load, ops and a reopen");
		bt_close(bt);
	}
	/* Keys out of order are refused. */
	unlink("load.db");
	bt = openbt("load.db", 1024, 16, 0, NULL);
	memset(&m, 0, sizeof(m));
	CHECK(bt_load(bt, backwards, &m) < 0 && errno == EINVAL,
	    "keys out of order: EINVAL");
	bt_close(bt);
}

static void
mkrec(u_int32_t r, u_int32_t gen, u_int32_t reclen, u_int8_t *buf)
{
	u_int32_t i;

	for (i = 0; i < reclen; i++)
		buf[i] = (u_int8_t)(r * 7 + gen * 13 + i);
}

static void
test_recno(void)
{
	static u_int32_t gen[5000];
	struct recnoinfo ri;
	struct recno *rn;
	u_int8_t buf[300], want[300], zero[300];
	u_int32_t n = 0, r, got, i, bad = 0, reclen = 37;
	int rv;

	memset(zero, 0, sizeof(zero));
	unlink("rec.db");
	memset(&ri, 0, sizeof(ri));
	ri.psize = 512;
	ri.cache = 4;
	ri.reclen = reclen;
	rn = rec_open("rec.db", O_RDWR | O_CREAT, 0644, &ri, NULL);
	CHECK(rn != NULL, "rec_open: %s", strerror(errno));
	if (rn == NULL)
		return;
	CHECK(rec_reclen(rn) == reclen, "reclen");
	for (i = 0; i < 6000; i++) {
		u_int32_t op = rnd(100);

		if (op < 40) {
			gen[n + 1] = i + 1;
			mkrec(n + 1, i + 1, reclen, buf);
			if (rec_append(rn, buf, &got) != 0 || got != n + 1)
				bad++;
			n++;
		} else if (op < 60 && n > 0) {
			r = 1 + rnd(n);
			gen[r] = i + 1;
			mkrec(r, i + 1, reclen, buf);
			if (rec_put(rn, r, buf) != 0)
				bad++;
		} else if (op < 62 && n + 30 < 5000) {
			r = n + 1 + rnd(30);	/* past the end */
			gen[r] = i + 1;
			mkrec(r, i + 1, reclen, buf);
			if (rec_put(rn, r, buf) != 0)
				bad++;
			for (; n + 1 < r; n++)
				gen[n + 1] = 0;
			n = r;
		} else {
			r = rnd(n + 2);
			rv = rec_get(rn, r, buf);
			if (r == 0 || r > n)
				bad += rv != DB_NOTFOUND;
			else {
				if (gen[r])
					mkrec(r, gen[r], reclen, want);
				bad += rv != 0 || memcmp(buf, gen[r] ? want :
				    zero, reclen) != 0;
			}
		}
	}
	CHECK(bad == 0, "%u record operations went wrong", bad);
	CHECK(rec_count(rn, &got) == 0 && got == n, "count %u, want %u", got, n);
	CHECK(rec_close(rn) == 0, "rec_close");
	memset(&ri, 0, sizeof(ri));
	rn = rec_open("rec.db", O_RDWR, 0, &ri, NULL);
	CHECK(rn != NULL, "reopen");
	for (bad = 0, r = 1; rn != NULL && r <= n; r++) {
		if (gen[r])
			mkrec(r, gen[r], reclen, want);
		bad += rec_get(rn, r, buf) != 0 ||
		    memcmp(buf, gen[r] ? want : zero, reclen) != 0;
	}
	CHECK(bad == 0, "%u records differ after a reopen", bad);
	ri.reclen = reclen + 1;
	CHECK(rec_open("rec.db", O_RDWR, 0, &ri, NULL) == NULL &&
	    errno == EFTYPE, "a different reclen is EFTYPE");
	rec_close(rn);
}

/* --- damage: byte flips (bad checksum) and forged pages (good one) --- */

static u_int8_t *
slurp(const char *path, size_t *len)
{
	struct stat st;
	u_int8_t *b;
	int fd = open(path, O_RDONLY);

	fstat(fd, &st);
	*len = st.st_size;
	b = malloc(*len);
	if (read(fd, b, *len) != (ssize_t)*len)
		abort();
	close(fd);
	return b;
}

static void
spill(const char *path, const u_int8_t *b, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (write(fd, b, len) != (ssize_t)len)
		abort();
	close(fd);
}

/* Every operation on a damaged tree: EFTYPE or the right answer. */
static u_int32_t
exercise(const char *path, const struct model *m, int forged)
{
	u_int8_t kb[16];
	struct btcursor *c;
	struct btree *bt;
	u_int32_t n, wrong = 0, steps = 0;
	DBT k, d;
	int r;

	if ((bt = openbt(path, 0, 8, 0, NULL)) == NULL)
		return errno != EFTYPE;
	for (n = 0; n < NKEYS; n += 7) {
		k.data = kb;
		k.size = mkkey(n, kb);
		r = bt_get(bt, &k, &d);
		if (r < 0 ? errno != EFTYPE : !forged && (m->present[n] ?
		    r != 0 || !same(m, n, &d) : r != DB_NOTFOUND))
			wrong++;
	}
	c = bt_cursor(bt);
	for (r = bt_cget(c, &k, &d, BT_FIRST); r == 0 && steps < 10 * NKEYS;
	    r = bt_cget(c, &k, &d, BT_NEXT))
		steps++;
	if ((r < 0 && errno != EFTYPE) || steps >= 10 * NKEYS)
		wrong++;
	bt_cclose(c);
	for (n = 0; n < NKEYS; n += 13) {
		u_int8_t db[8] = "damaged";

		k.data = kb;
		k.size = mkkey(n, kb);
		d.data = db;
		d.size = (n % 3) * 3;
		r = n % 2 ? bt_put(bt, &k, &d, 0) : bt_del(bt, &k);
		if (r < 0 && errno != EFTYPE)
			wrong++;
	}
	bt_close(bt);
	return wrong;
}

static void
test_damage(void)
{
	static struct model m;
	struct btree *bt;
	u_int8_t *orig, *img;
	size_t len;
	u_int32_t pg, npg, i, j, wrong, flips = 0, forged = 0, refused = 0;
	u_int32_t psize = 512;
	int r;

	unlink("dmg.db");
	bt = openbt("dmg.db", psize, 8, 0, NULL);
	for (i = 0; i < 4000 && (r = randop(bt, &m)) == 0; i++)
		continue;
	bt_close(bt);
	orig = slurp("dmg.db", &len);
	img = malloc(len);
	npg = len / psize;
	for (i = 0; i < 200; i++) {
		memcpy(img, orig, len);
		pg = rnd(npg);
		for (j = 1 + rnd(4); j > 0; j--)
			img[pg * psize + rnd(psize)] ^= 1 + rnd(255);
		/* Half the time the damage comes with a right checksum. */
		if (i % 2 && pg * psize + psize <= len) {
			page_setcksum(img + pg * psize, psize);
			forged++;
		} else if (memcmp(img, orig, len) != 0)
			flips++;
		spill("dmg2.db", img, len);
		wrong = exercise("dmg2.db", &m, i % 2);
		CHECK(wrong == 0, "damage %u to page %u: %u calls neither "
		    "EFTYPE nor right", i, pg, wrong);
	}
	/* Forged layouts aimed at the checks, one at a time, on the meta
	 * page, the root's neighbours and a sample of the rest. */
	for (pg = 0; pg < npg; pg += pg < 4 ? 1 : 1 + rnd(npg / 8 + 1)) {
		for (j = 0; j < 8; j++) {
			struct pghdr *h;

			memcpy(img, orig, len);
			h = HDR(img + pg * psize);
			switch (j) {
			case 0: h->nent = 0xffff; break;
			case 1: h->upper = 0xffff; break;
			case 2: h->lower = h->upper + 2; break;
			case 3: h->level = 200; break;
			case 4: h->next = pg; h->prev = pg; break;
			case 5: h->type = P_BINTERNAL; h->level = 1; break;
			case 6: h->pgno = pg + 1; break;
			case 7: put16(img + pg * psize + PGHDR, psize - 1); break;
			}
			page_setcksum(img + pg * psize, psize);
			spill("dmg2.db", img, len);
			refused += (wrong = exercise("dmg2.db", &m, 1)) == 0;
			CHECK(wrong == 0, "forged case %u on page %u", j, pg);
		}
	}
	printf("damage: %u flips, %u forged pages, %u forged layouts\n",
	    flips, forged, refused);
	free(img);
	free(orig);
}

/* --- transactions --- */

struct db {
	struct tp_env *env;
	struct btree *bt;
	struct recno *rn;
};

static int dbopen_cache(struct db *, int, struct tp_info *, u_int32_t);

static int
dbopen(struct db *db, int flags, struct tp_info *ti)
{
	return dbopen_cache(db, flags, ti, 6);
}

static int
dbopen_cache(struct db *db, int flags, struct tp_info *ti, u_int32_t cache)
{
	struct recnoinfo ri;

	memset(&ri, 0, sizeof(ri));
	ri.psize = 512;
	ri.cache = 4;
	ri.reclen = 40;
	if ((db->env = tp_open(".", ti, flags)) == NULL)
		return -1;
	if ((db->bt = openbt("txbt.db", 512, cache, 0, db->env)) == NULL ||
	    (db->rn = rec_open("txrec.db", O_RDWR | O_CREAT, 0644, &ri,
	    db->env)) == NULL)
		return -1;
	return 0;
}

static int
dbclose(struct db *db)
{
	int rv = 0;

	if (db->bt != NULL && bt_close(db->bt) < 0)
		rv = -1;
	if (db->rn != NULL && rec_close(db->rn) < 0)
		rv = -1;
	if (db->env != NULL && tp_close(db->env) < 0)
		rv = -1;
	memset(db, 0, sizeof(*db));
	return rv;
}

static void
fresh(void)
{
	unlink("txbt.db");
	unlink("txrec.db");
	unlink("log");
}

/* One transaction: a few random operations and an appended record. */
static int
txnops(struct db *db, struct model *m, u_int32_t *nrec)
{
	u_int8_t rec[40];
	u_int32_t i, n = 1 + rnd(12), got;
	int r;

	for (i = 0; i < n; i++)
		if ((r = randop(db->bt, m)) != 0)
			return r;
	memset(rec, 0, sizeof(rec));
	memcpy(rec, nrec, 4);
	if (rec_append(db->rn, rec, &got) != 0 || got != *nrec + 1)
		return 97;
	(*nrec)++;
	return 0;
}

static void
verify_rec(struct recno *rn, u_int32_t want, const char *when)
{
	u_int8_t rec[40];
	u_int32_t n = 0, r, bad = 0, v;

	rec_count(rn, &n);
	for (r = 1; r <= n; r++) {
		if (rec_get(rn, r, rec) != 0)
			bad++;
		else {
			memcpy(&v, rec, 4);
			bad += v != r - 1;
		}
	}
	CHECK(n == want && bad == 0, "%s: %u records (want %u), %u wrong",
	    when, n, want, bad);
}

static void
test_txn(void)
{
	static struct model m, saved;
	struct tp_info ti;
	struct tp_stat ts;
	struct db db;
	struct tp_txn *t;
	u_int32_t nrec = 0, savedrec, i, commits = 0, aborts = 0;
	int r;

	fresh();
	memset(&ti, 0, sizeof(ti));
	ti.ckpt_kb = 64;
	CHECK(dbopen(&db, 0, &ti) == 0, "open: %s", strerror(errno));
	for (i = 0; i < 600; i++) {
		saved = m;
		savedrec = nrec;
		t = tp_begin(db.env);
		CHECK(t != NULL && tp_begin(db.env) == NULL && errno == EBUSY,
		    "tp_begin, and a second is EBUSY");
		r = txnops(&db, &m, &nrec);
		CHECK(r == 0, "txn %u: %d (%s)", i, r, strerror(errno));
		if (rnd(3) == 0) {
			CHECK(tp_abort(t) == 0, "abort: %s", strerror(errno));
			m = saved;
			nrec = savedrec;
			aborts++;
		} else {
			CHECK(tp_commit(t) == 0, "commit: %s", strerror(errno));
			commits++;
		}
		if (i % 100 == 99) {
			verify(db.bt, &m, "after commits and aborts");
			verify_rec(db.rn, nrec, "after commits and aborts");
		}
	}
	tp_stat(db.env, &ts);
	CHECK(ts.commits == commits && ts.aborts == aborts && ts.locks == 0,
	    "counters: %llu commits, %llu aborts, %u locks",
	    (unsigned long long)ts.commits, (unsigned long long)ts.aborts,
	    ts.locks);
	CHECK(ts.ckpts > 0 && ts.forces >= commits, "%llu checkpoints, "
	    "%llu forces", (unsigned long long)ts.ckpts,
	    (unsigned long long)ts.forces);
	CHECK(tp_durable(db.env) == commits, "every commit durable");
	CHECK(dbclose(&db) == 0, "close: %s", strerror(errno));
	CHECK(dbopen(&db, 0, &ti) == 0, "reopen without recovery: %s",
	    strerror(errno));
	verify(db.bt, &m, "after a reopen");
	verify_rec(db.rn, nrec, "after a reopen");
	/* Group commit: five commits to a force (a cache big enough that
	 * no page write forces the log first). */
	dbclose(&db);
	ti.group = 5;
	dbopen_cache(&db, 0, &ti, 1000);
	for (i = 0; i < 12; i++) {
		t = tp_begin(db.env);
		txnops(&db, &m, &nrec);
		tp_commit(t);
		CHECK(tp_durable(db.env) == (i + 1) / 5 * 5,
		    "group of 5: after commit %u, %llu durable", i + 1,
		    (unsigned long long)tp_durable(db.env));
	}
	CHECK(tp_flush(db.env) == 0 && tp_durable(db.env) == 12,
	    "tp_flush makes the rest durable");
	tp_stat(db.env, &ts);
	CHECK(ts.forces == 3, "12 commits in groups of 5: %llu forces",
	    (unsigned long long)ts.forces);
	dbclose(&db);
}

/*
 * The child runs transactions on small caches (so uncommitted pages are
 * written: STEAL) and dies at a random point, maybe in a transaction or
 * an abort; before each commit it writes the count of transactions it
 * committed and that are durable to "acked".  The parent replays the
 * same choices on a model, recovers, and compares.
 */
static void
child(u_int64_t seed, u_int32_t dieat, struct tp_info *ti)
{
	static struct model m, saved;
	struct db db;
	struct tp_txn *t;
	u_int32_t nrec = 0, i, done = 0, savedrec;
	FILE *f;
	int r;

	rng = seed;
	if (dbopen(&db, 0, ti) < 0)
		_exit(2);
	for (i = 0;; i++) {
		saved = m;
		savedrec = nrec;
		t = tp_begin(db.env);
		if ((r = txnops(&db, &m, &nrec)) != 0) {
			fprintf(stderr, "child: txn %u: %d (%s)\n", i, r,
			    strerror(errno));
			_exit(3);
		}
		if (i == dieat)
			_exit(0);		/* mid-transaction */
		if (rnd(4) == 0) {
			if (tp_abort(t) != 0)
				_exit(4);
			m = saved;
			nrec = savedrec;
		} else {
			if (tp_commit(t) != 0)
				_exit(5);
			done++;
			f = fopen("acked", "w");
			fprintf(f, "%u %llu\n", done,
			    (unsigned long long)tp_durable(db.env));
			fclose(f);
		}
	}
}

/*
 * The model after the child's first k commits: its random choices
 * replayed, aborted and unfinished transactions left out.
 */
static void
replay(u_int64_t seed, u_int32_t dieat, u_int32_t k, struct model *m,
    u_int32_t *nrec)
{
	static struct model saved;
	u_int32_t i, j, n, kn, op, len, commits = 0, savedrec;

	memset(m, 0, sizeof(*m));
	*nrec = 0;
	rng = seed;
	for (i = 0; i <= dieat && commits < k; i++) {
		saved = *m;
		savedrec = *nrec;
		n = 1 + rnd(12);		/* txnops */
		for (j = 0; j < n; j++) {
			kn = rnd(NKEYS);
			op = rnd(100);
			if (op < 55) {		/* randop's put */
				len = m->present[kn] && rnd(2) ? m->len[kn] :
				    rnd(MAXDATA + 1);
				m->seed[kn] = rnd(1u << 30);
				m->present[kn] = 1;
				m->len[kn] = (u_int8_t)len;
			} else if (op < 85)
				m->present[kn] = 0;
		}
		(*nrec)++;
		if (i == dieat || rnd(4) == 0) {
			*m = saved;
			*nrec = savedrec;
		} else
			commits++;
	}
}

static void
test_crash(void)
{
	static struct model m;
	struct tp_recover_stat rs;
	struct tp_info ti;
	struct db db;
	u_int64_t seed;
	u_int32_t round, dieat, nrec, done, durable, k, busy = 0;
	FILE *f;
	int status;

	for (round = 0; round < 12; round++) {
		fresh();
		unlink("acked");
		seed = rng | 1;
		dieat = 20 + rnd(200);
		memset(&ti, 0, sizeof(ti));
		ti.ckpt_kb = round % 3 == 0 ? 16 : 512;
		ti.group = round % 4 == 3 ? 3 : 0;
		fflush(stdout);
		if (fork() == 0)
			child(seed, dieat, &ti);
		wait(&status);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "round %u: child status %d", round, status);
		done = durable = 0;
		if ((f = fopen("acked", "r")) != NULL) {
			if (fscanf(f, "%u %u", &done, &durable) != 2)
				done = durable = 0;
			fclose(f);
		}
		/* Unless the last force was a checkpoint's, the log holds
		 * transactions' records and must be recovered first. */
		db.env = tp_open(".", &ti, 0);
		CHECK(db.env != NULL || errno == EBUSY, "round %u: tp_open: "
		    "%s", round, strerror(errno));
		if (db.env != NULL)
			tp_close(db.env);
		else
			busy++;
		CHECK(tp_recover(".", &rs) == 0, "round %u: recover: %s",
		    round, strerror(errno));
		if (dbopen(&db, 0, &ti) < 0) {
			CHECK(0, "round %u: open after recovery: %s", round,
			    strerror(errno));
			dbclose(&db);
			continue;
		}
		/* One record per committed transaction says how many. */
		rec_count(db.rn, &k);
		CHECK(k >= durable && k <= done, "round %u: %u transactions "
		    "recovered, %u acknowledged, %u committed", round, k,
		    durable, done);
		replay(seed, dieat, k, &m, &nrec);
		verify(db.bt, &m, "after a crash and recovery");
		verify_rec(db.rn, nrec, "after a crash and recovery");
		dbclose(&db);
		rng = seed * 3 + round;
	}
	CHECK(busy > 0, "tp_open refused a log that needs recovery (EBUSY) "
	    "in %u of 12 rounds", busy);
}

int
main(int argc, char *argv[])
{
	if (argc != 3) {
		fprintf(stderr, "usage: dbtest btree|load|recno|damage|txn|"
		    "crash SEED\n");
		return 2;
	}
	rng = strtoull(argv[2], NULL, 0) * 0x9e3779b97f4a7c15ull + 1;
	if (strcmp(argv[1], "btree") == 0)
		test_btree();
	else if (strcmp(argv[1], "load") == 0)
		test_load();
	else if (strcmp(argv[1], "recno") == 0)
		test_recno();
	else if (strcmp(argv[1], "damage") == 0)
		test_damage();
	else if (strcmp(argv[1], "txn") == 0)
		test_txn();
	else if (strcmp(argv[1], "crash") == 0)
		test_crash();
	else {
		fprintf(stderr, "dbtest: no test %s\n", argv[1]);
		return 2;
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
