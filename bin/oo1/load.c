/*
 * oo1 load, sizes and check.
 *
 * load makes the four relations outside any transaction (nothing is
 * logged; every file is fsync'd before it says it is done), each in one
 * pass from front to back:
 *
 *	connector	the 3 * nparts connections appended in order
 *	connect_forward	bt_load in key order, pages 70% full
 *	connect_backward bt_load in key order (the connections sorted by
 *			their to id), pages full
 *	part		bt_load in id order, pages half full
 *
 * The fills give each file table 7-4's size: the thesis explains its
 * half-empty part relation by in-order creation (a split never adds to
 * the left page again), and its Connect Forward (3.7 MB for 2.6 MB of
 * entries) and Connect Backward (2.5 MB for as much) say how full those
 * were.
 *
 * sizes counts every relation's entries (a cursor over each B-tree) and
 * prints them with each file's bytes: table 7-4's columns, as load does
 * at its end.  check proves the relations agree: the parts are 1 ..
 * nparts, every part has exactly three connections in connect_forward,
 * and every connect_forward and connect_backward entry names a
 * connection whose from (to) is the entry's part.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bin/oo1/oo1.h"

_Static_assert(sizeof(struct part) >= PARTLEN, "a part holds PARTLEN bytes");
_Static_assert(sizeof(struct connector) == CONNECTORLEN,
    "a connector record is CONNECTORLEN bytes");

#define FILL_PART	50
#define FILL_FORWARD	70
#define FILL_BACKWARD	100

static const int entrysize[NREL] = { PART_ENTRY, CONN_ENTRY, CONN_ENTRY,
	CONNECTOR_ENTRY };

/* Table 7-4's columns for the relations of dir, entries as counted. */
static int
printsizes(const char *dir, const u_int32_t *entries)
{
	char path[1024];
	struct stat st;
	long long total = 0;
	int i;

	printf("%-17s %-20s %8s %6s %10s\n", "relation", "format", "entries",
	    "entry", "bytes");
	for (i = 0; i < NREL; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, relname[i]);
		if (stat(path, &st) < 0)
			return -1;
		printf("%-17s %-20s %8u %6d %10lld\n", relname[i],
		    i == REL_CONNECTOR ? "fixed-length record" : "B-tree",
		    entries[i], entrysize[i], (long long)st.st_size);
		total += st.st_size;
	}
	printf("%-17s %-20s %8s %6s %10lld\n", "total", "", "", "", total);
	return 0;
}

/* bt_load's sources: one per B-tree, each a position and its buffers. */
struct source {
	u_int32_t next, n;
	const u_int32_t *order;		/* backward: connections by to id */
	const u_int32_t *to;
	u_int8_t key[8];
	struct part p;
	char	 filler[CONNLEN];
};

static int
nextpart(void *arg, DBT *key, DBT *data)
{
	struct source *s = arg;

	if (s->next == s->n)
		return DB_NOTFOUND;
	mkpart(&s->p, ++s->next);
	idkey(s->next, s->key);
	key->data = s->key;
	key->size = 4;
	data->data = &s->p;
	data->size = PARTLEN;
	return 0;
}

static int
nextforward(void *arg, DBT *key, DBT *data)
{
	struct source *s = arg;
	u_int32_t c;

	if (s->next == s->n)
		return DB_NOTFOUND;
	c = ++s->next;
	connkey((c - 1) / NCONN + 1, c, s->key);
	key->data = s->key;
	key->size = 8;
	data->data = s->filler;
	data->size = CONNLEN;
	return 0;
}

static int
nextbackward(void *arg, DBT *key, DBT *data)
{
	struct source *s = arg;
	u_int32_t c;

	if (s->next == s->n)
		return DB_NOTFOUND;
	c = s->order[s->next++];
	connkey(s->to[c - 1], c, s->key);
	key->data = s->key;
	key->size = 8;
	data->data = s->filler;
	data->size = CONNLEN;
	return 0;
}

/* Make relation i, a B-tree, from source next. */
static int
mktree(const char *dir, int i, u_int32_t fill,
    int (*next)(void *, DBT *, DBT *), struct source *s)
{
	struct btreeinfo bi;
	struct btree *bt;
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, relname[i]);
	memset(&bi, 0, sizeof(bi));
	bi.fill = fill;
	if ((bt = bt_open(path, O_RDWR | O_CREAT | O_EXCL, 0644, &bi,
	    NULL)) == NULL)
		return -1;
	memset(s->filler, 'f', sizeof(s->filler));
	if (bt_load(bt, next, s) < 0) {
		bt_close(bt);
		return -1;
	}
	return bt_close(bt);
}

/* The connections in order of their to id (a counting sort: stable). */
static u_int32_t *
byto(const u_int32_t *to, u_int32_t nconn, u_int32_t nparts)
{
	u_int32_t *first, *order, c;

	if ((first = calloc(nparts + 2, sizeof(*first))) == NULL)
		return NULL;
	if ((order = malloc(nconn * sizeof(*order))) == NULL) {
		free(first);
		return NULL;
	}
	for (c = 0; c < nconn; c++)
		first[to[c] + 1]++;
	for (c = 1; c <= nparts + 1; c++)
		first[c] += first[c - 1];
	for (c = 0; c < nconn; c++)
		order[first[to[c]]++] = c + 1;
	free(first);
	return order;
}

int
load(const char *dir, u_int32_t nparts)
{
	u_int32_t nconn = NCONN * nparts, c, *to = NULL, *order = NULL;
	u_int32_t entries[NREL];
	struct recnoinfo ri;
	struct connector rec;
	struct recno *rn;
	struct source s;
	char path[1024];
	long long t0 = now_us();
	int rv = -1;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -1;
	if ((to = malloc(nconn * sizeof(*to))) == NULL)
		return -1;
	memset(&ri, 0, sizeof(ri));
	ri.reclen = CONNECTORLEN;
	snprintf(path, sizeof(path), "%s/%s", dir, relname[REL_CONNECTOR]);
	if ((rn = rec_open(path, O_RDWR | O_CREAT | O_EXCL, 0644, &ri,
	    NULL)) == NULL)
		goto out;
	for (c = 1; c <= nconn; c++) {
		u_int32_t from = (c - 1) / NCONN + 1;

		to[c - 1] = pickto(from, nparts);
		mkconnector(&rec, from, to[c - 1]);
		if (rec_append(rn, &rec, NULL) < 0) {
			rec_close(rn);
			goto out;
		}
	}
	if (rec_close(rn) < 0)
		goto out;
	memset(&s, 0, sizeof(s));
	s.n = nconn;
	if (mktree(dir, REL_FORWARD, FILL_FORWARD, nextforward, &s) < 0 ||
	    (order = byto(to, nconn, nparts)) == NULL)
		goto out;
	memset(&s, 0, sizeof(s));
	s.n = nconn;
	s.order = order;
	s.to = to;
	if (mktree(dir, REL_BACKWARD, FILL_BACKWARD, nextbackward, &s) < 0)
		goto out;
	memset(&s, 0, sizeof(s));
	s.n = nparts;
	if (mktree(dir, REL_PART, FILL_PART, nextpart, &s) < 0)
		goto out;
	sync();
	printf("oo1 load: %u parts, %u connections in %lld ms\n", nparts,
	    nconn, (now_us() - t0) / 1000);
	entries[REL_PART] = nparts;
	entries[REL_FORWARD] = entries[REL_BACKWARD] = nconn;
	entries[REL_CONNECTOR] = nconn;
	rv = printsizes(dir, entries);
out:
	free(to);
	free(order);
	return rv;
}

/*
 * Every entry of a B-tree in key order, each given to fn (which returns
 * 0 to go on, 1 to stop: an inconsistency, -1 for an error); *n counts
 * them.
 */
static int
walk(struct btree *bt, int (*fn)(void *, const DBT *, const DBT *),
    void *arg, u_int32_t *n)
{
	struct btcursor *cur;
	DBT key, data;
	int r;

	*n = 0;
	if ((cur = bt_cursor(bt)) == NULL)
		return -1;
	while ((r = bt_cget(cur, &key, &data, BT_NEXT)) == 0) {
		++*n;
		if (fn != NULL && (r = fn(arg, &key, &data)) != 0)
			break;
	}
	bt_cclose(cur);
	return r == DB_NOTFOUND ? 0 : r;
}

int
sizes(const char *dir)
{
	u_int32_t entries[NREL];
	struct oo1 db;
	int rv;

	db.dir = dir;
	if ((rv = opendb(&db, 0)) == 0 &&
	    (rv = walk(db.part, NULL, NULL, &entries[REL_PART])) == 0 &&
	    (rv = walk(db.fwd, NULL, NULL, &entries[REL_FORWARD])) == 0 &&
	    (rv = walk(db.bwd, NULL, NULL, &entries[REL_BACKWARD])) == 0)
		rv = rec_count(db.conn, &entries[REL_CONNECTOR]);
	if (closedb(&db) < 0)
		rv = -1;
	return rv < 0 ? -1 : printsizes(dir, entries);
}

/* check's state: the database, where the walk is, and what went wrong. */
struct checker {
	struct oo1 *db;
	u_int32_t n;		/* entries seen */
	u_int32_t run, prev;	/* forward: connections of part prev so far */
	char	  why[160];
};

static int
partok(void *arg, const DBT *key, const DBT *data)
{
	struct checker *ck = arg;
	struct part p;

	ck->n++;
	if (key->size != 4 || data->size != PARTLEN) {
		snprintf(ck->why, sizeof(ck->why), "part entry %u: key %u "
		    "bytes, record %u", ck->n, (u_int32_t)key->size,
		    (u_int32_t)data->size);
		return 1;
	}
	memcpy(&p, data->data, PARTLEN);
	if (keyid(key->data) != ck->n || p.id != ck->n) {
		snprintf(ck->why, sizeof(ck->why), "part entry %u: id %u, "
		    "record's id %u", ck->n, keyid(key->data), p.id);
		return 1;
	}
	return 0;
}

/* A connect_forward (fwd) or connect_backward entry. */
static int
connok(struct checker *ck, const DBT *key, const DBT *data, int fwd)
{
	const char *rel = relname[fwd ? REL_FORWARD : REL_BACKWARD];
	struct connector rec;
	u_int32_t id, c;
	int r;

	ck->n++;
	if (key->size != 8 || data->size != CONNLEN) {
		snprintf(ck->why, sizeof(ck->why), "%s entry %u: key %u bytes, "
		    "record %u", rel, ck->n, (u_int32_t)key->size,
		    (u_int32_t)data->size);
		return 1;
	}
	id = keyid(key->data);
	c = keyid((const u_int8_t *)key->data + 4);
	if (id == 0 || id > ck->db->nparts) {
		snprintf(ck->why, sizeof(ck->why), "%s: part %u of connection "
		    "%u is not a part", rel, id, c);
		return 1;
	}
	if ((r = rec_get(ck->db->conn, c, &rec)) != 0) {
		if (r < 0)
			return -1;
		snprintf(ck->why, sizeof(ck->why), "%s: part %u: no connection "
		    "%u", rel, id, c);
		return 1;
	}
	if ((fwd ? rec.from : rec.to) != id) {
		snprintf(ck->why, sizeof(ck->why), "%s: part %u: connection %u "
		    "goes from %u to %u", rel, id, c, rec.from, rec.to);
		return 1;
	}
	if (!fwd)
		return 0;
	if (id != ck->prev) {
		if (ck->prev != 0 && ck->run != NCONN) {
			snprintf(ck->why, sizeof(ck->why), "part %u has %u "
			    "connections", ck->prev, ck->run);
			return 1;
		}
		ck->prev = id;
		ck->run = 0;
	}
	ck->run++;
	return 0;
}

static int
forwardok(void *arg, const DBT *key, const DBT *data)
{
	return connok(arg, key, data, 1);
}

static int
backwardok(void *arg, const DBT *key, const DBT *data)
{
	return connok(arg, key, data, 0);
}

int
check(const char *dir)
{
	struct checker ck;
	struct oo1 db;
	u_int32_t n[3];
	int rv;

	memset(&ck, 0, sizeof(ck));
	ck.db = &db;
	db.dir = dir;
	if ((rv = opendb(&db, 0)) == 0 &&
	    (rv = walk(db.part, partok, &ck, &n[0])) == 0 &&
	    (ck.n = 0, rv = walk(db.fwd, forwardok, &ck, &n[1])) == 0 &&
	    (ck.n = 0, rv = walk(db.bwd, backwardok, &ck, &n[2])) == 0) {
		/* Three connections each, both ways, and the last part's too. */
		if (n[0] != db.nparts)
			snprintf(ck.why, sizeof(ck.why), "%u parts, %u "
			    "connections", n[0], NCONN * db.nparts);
		else if (ck.run != NCONN || n[1] != NCONN * db.nparts)
			snprintf(ck.why, sizeof(ck.why), "%u connect_forward "
			    "entries for %u parts", n[1], db.nparts);
		else if (n[2] != NCONN * db.nparts)
			snprintf(ck.why, sizeof(ck.why), "%u connect_backward "
			    "entries for %u parts", n[2], db.nparts);
		rv = ck.why[0] != '\0';
	}
	if (closedb(&db) < 0)
		rv = -1;
	if (rv < 0)
		return -1;
	if (rv == 1) {
		printf("oo1 check: %s: inconsistent\n", ck.why);
		return 1;
	}
	printf("oo1 check: %u parts, %u connections: consistent\n", db.nparts,
	    NCONN * db.nparts);
	return 0;
}
