/*
 * oo1: Cattell's OO1 benchmark (thesis 7.6, tables 7-4 and 7-5) on
 * libdb.
 *
 *	oo1 -d dir [-n nparts] [-s seed] load	make the database
 *	oo1 -d dir [-s seed] lookup		1000 random parts
 *	oo1 -d dir [-s seed] traverse		3280 parts, 7 hops forward
 *	oo1 -d dir [-s seed] rtraverse		3280 parts, 7 hops backward
 *	oo1 -d dir [-s seed] insert		100 parts, 300 connections
 *	oo1 -d dir sizes			table 7-4: entries and bytes
 *	oo1 -d dir check			the relations agree
 *
 * The database (oo1.h) models electronic parts and the connections
 * between them: three connections leave every part, nine in ten to a
 * part whose id is within 1% of the id space of its own (wrapping around
 * the ends), one in ten to any part.  x and y are random in 0 .. 99999.
 * load makes 20,000 parts unless -n says otherwise.
 *
 * Each test is one run of the program, so libdb's page caches start
 * empty; it runs as one transaction of the user-level transaction
 * manager (page locks held to the end, the log forced at commit), as
 * OO1 asks for multi-user access control in a single-user test.  The
 * time printed runs from opening the database to the commit, with the
 * pages the test changed written to the kernel after it (write(2), no
 * fsync: the file system's delayed writes); closing, which fsyncs the
 * files and checkpoints the log, is timed on its own.  -s seeds the
 * random numbers (default 1); the same seed picks the same parts.
 *
 * The output says what was done, a count that proves it, and the time:
 *
 *	oo1 lookup: 1000 parts found in T ms, R pages read, W pages
 *	    written, close C ms
 *
 * (traverse and rtraverse: "3280 parts visited (W walks)", see ops.c;
 * insert: "100 parts inserted (300 connections)").
 */
#include <sys/types.h>
#include <sys/time.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bin/oo1/oo1.h"

#define MAXPARTS	10000000

const char *const relname[NREL] = { "part", "connect_forward",
	"connect_backward", "connector" };

/* Ids are keys as 4 big-endian bytes: the B-tree's order is the ids'. */
void
idkey(u_int32_t id, u_int8_t *k)
{
	k[0] = (u_int8_t)(id >> 24);
	k[1] = (u_int8_t)(id >> 16);
	k[2] = (u_int8_t)(id >> 8);
	k[3] = (u_int8_t)id;
}

u_int32_t
keyid(const void *key)
{
	const u_int8_t *k = key;

	return (u_int32_t)k[0] << 24 | (u_int32_t)k[1] << 16 |
	    (u_int32_t)k[2] << 8 | k[3];
}

/* A connect_forward or connect_backward key: the part, the connection. */
void
connkey(u_int32_t id, u_int32_t c, u_int8_t *k)
{
	idkey(id, k);
	idkey(c, k + 4);
}

static u_int32_t rngstate = 1;

void
seed(u_int32_t s)
{
	rngstate = s * 2654435761u + 1;
	if (rngstate == 0)
		rngstate = 1;
}

/* 0 .. n - 1 (xorshift32). */
u_int32_t
rnd(u_int32_t n)
{
	rngstate ^= rngstate << 13;
	rngstate ^= rngstate >> 17;
	rngstate ^= rngstate << 5;
	return rngstate % n;
}

/*
 * Where a connection from part from goes when there are nparts: nine
 * times in ten a part within 1% of the id space (nparts / 200 either
 * side, not from itself), wrapping around the ends; else any part.
 */
u_int32_t
pickto(u_int32_t from, u_int32_t nparts)
{
	u_int32_t w = nparts / 200, d;
	int64_t to;

	if (w == 0)
		w = 1;
	if (rnd(10) == 0 || nparts < 2)
		return 1 + rnd(nparts);
	d = rnd(2 * w);
	to = (int64_t)from - 1 + (d < w ? (int64_t)d - w : (int64_t)d - w + 1);
	to %= nparts;
	if (to < 0)
		to += nparts;
	return (u_int32_t)to + 1;
}

void
mkpart(struct part *p, u_int32_t id)
{
	memset(p, 0, sizeof(*p));
	p->id = id;
	p->x = (int32_t)rnd(XYMAX);
	p->y = (int32_t)rnd(XYMAX);
	p->build = 694224000u + rnd(10 * 365 * 86400);	/* 1992 .. 2001 */
	snprintf(p->type, sizeof(p->type), "part-%03u", rnd(1000));
	memset(p->filler, 'p', sizeof(p->filler));
}

void
mkconnector(struct connector *c, u_int32_t from, u_int32_t to)
{
	memset(c, 0, sizeof(*c));
	c->from = from;
	c->to = to;
	c->length = rnd(XYMAX);
	snprintf(c->type, sizeof(c->type), "conn-%03u", rnd(1000));
	memset(c->filler, 'c', sizeof(c->filler));
}

long long
now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

/*
 * Open the four relations (txn: under the transaction manager, whose
 * log is dir/log) and count the parts from the connections.
 */
int
opendb(struct oo1 *db, int txn)
{
	struct btreeinfo bi;
	struct recnoinfo ri;
	struct btree **bt[3];
	char path[1024];
	u_int32_t nconn;
	int i;

	db->env = NULL;
	db->part = db->fwd = db->bwd = NULL;
	db->conn = NULL;
	if (txn && (db->env = tp_open(db->dir, NULL, 0)) == NULL) {
		if (errno == EBUSY)
			fprintf(stderr, "oo1: %s: the log holds unfinished "
			    "work: run db_recover %s\n", db->dir, db->dir);
		return -1;
	}
	bt[0] = &db->part;
	bt[1] = &db->fwd;
	bt[2] = &db->bwd;
	memset(&bi, 0, sizeof(bi));
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", db->dir, relname[i]);
		if ((*bt[i] = bt_open(path, O_RDWR, 0, &bi, db->env)) == NULL)
			return -1;
	}
	memset(&ri, 0, sizeof(ri));
	ri.reclen = CONNECTORLEN;
	snprintf(path, sizeof(path), "%s/%s", db->dir, relname[REL_CONNECTOR]);
	if ((db->conn = rec_open(path, O_RDWR, 0, &ri, db->env)) == NULL ||
	    rec_count(db->conn, &nconn) < 0)
		return -1;
	if (nconn == 0 || nconn % NCONN != 0) {
		errno = EFTYPE;
		return -1;
	}
	db->nparts = nconn / NCONN;
	return 0;
}

/* Write, fsync and close every relation, then checkpoint the log. */
int
closedb(struct oo1 *db)
{
	int rv = 0;

	if (db->part != NULL && bt_close(db->part) < 0)
		rv = -1;
	if (db->fwd != NULL && bt_close(db->fwd) < 0)
		rv = -1;
	if (db->bwd != NULL && bt_close(db->bwd) < 0)
		rv = -1;
	if (db->conn != NULL && rec_close(db->conn) < 0)
		rv = -1;
	if (db->env != NULL && tp_close(db->env) < 0)
		rv = -1;
	return rv;
}

/* Pages read from and written to the files by the page caches so far. */
void
iocount(struct oo1 *db, u_int64_t *reads, u_int64_t *writes)
{
	struct mpool *mp[4];
	struct mpool_stat st;
	int i;

	mp[0] = bt_mpool(db->part);
	mp[1] = bt_mpool(db->fwd);
	mp[2] = bt_mpool(db->bwd);
	mp[3] = rec_mpool(db->conn);
	*reads = *writes = 0;
	for (i = 0; i < 4; i++) {
		mpool_stat(mp[i], &st);
		*reads += st.reads;
		*writes += st.writes;
	}
}

static void
usage(void)
{
	fprintf(stderr, "usage: oo1 -d dir [-n nparts] [-s seed] load\n"
	    "       oo1 -d dir [-s seed] lookup | traverse | rtraverse | "
	    "insert\n"
	    "       oo1 -d dir sizes | check\n");
	exit(1);
}

/* A whole decimal number in 0 .. max, or usage. */
static u_int32_t
number(const char *s, u_int32_t max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s < '0' || *s > '9' || *end != '\0' || errno != 0 || v > max)
		usage();
	return (u_int32_t)v;
}

int
main(int argc, char *argv[])
{
	const char *dir = NULL, *cmd;
	u_int32_t nparts = 20000, s = 1;
	int ch, rv, nflag = 0;

	while ((ch = getopt(argc, argv, "d:n:s:")) != -1) {
		switch (ch) {
		case 'd':
			dir = optarg;
			break;
		case 'n':
			nparts = number(optarg, MAXPARTS);
			nflag = 1;
			break;
		case 's':
			s = number(optarg, 0xffffffffu);
			break;
		default:
			usage();
		}
	}
	if (dir == NULL || argc - optind != 1)
		usage();
	cmd = argv[optind];
	if ((nflag && strcmp(cmd, "load") != 0) || nparts < 2)
		usage();
	seed(s);
	if (strcmp(cmd, "load") == 0)
		rv = load(dir, nparts);
	else if (strcmp(cmd, "lookup") == 0)
		rv = lookup(dir);
	else if (strcmp(cmd, "traverse") == 0)
		rv = traverse(dir, 1);
	else if (strcmp(cmd, "rtraverse") == 0)
		rv = traverse(dir, 0);
	else if (strcmp(cmd, "insert") == 0)
		rv = insert(dir);
	else if (strcmp(cmd, "sizes") == 0)
		rv = sizes(dir);
	else if (strcmp(cmd, "check") == 0)
		rv = check(dir);
	else
		usage();
	if (rv < 0) {
		fprintf(stderr, "oo1: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	return rv;
}
