/*
 * tpcb -i: make the database.  Each B-tree is built by bt_load in key
 * order, so its leaves are written front to back (sequential on every
 * file system); the account relation's leaves are filled to the fill
 * percentage (default 50: the thesis' 237 MB account file for 1,000,000
 * accounts came from in-order creation that left pages half empty),
 * teller's and branch's full.  Nothing is logged: a load is not a
 * transaction, and every file is fsync'd before tpcb says it is done.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bin/tpcb/tpcb.h"

_Static_assert(sizeof(struct row) == ROWLEN, "a row is ROWLEN bytes");
_Static_assert(sizeof(struct hist) == HISTLEN, "history is HISTLEN bytes");

/* Ids are keys as 4 big-endian bytes: the B-tree's order is the ids'. */
void
idkey(u_int32_t id, u_int8_t *k)
{
	k[0] = (u_int8_t)(id >> 24);
	k[1] = (u_int8_t)(id >> 16);
	k[2] = (u_int8_t)(id >> 8);
	k[3] = (u_int8_t)id;
}

int
readscale(const char *dir, struct scale *sc)
{
	char path[1024], line[128];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "%s/params", dir);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	if (fgets(line, sizeof(line), f) != NULL)
		n = sscanf(line, "accounts %u tellers %u branches %u",
		    &sc->accounts, &sc->tellers, &sc->branches);
	fclose(f);
	if (n != 3 || sc->branches == 0 || sc->tellers < sc->branches ||
	    sc->accounts < sc->branches) {
		errno = EFTYPE;
		return -1;
	}
	return 0;
}

/* bt_load's source: rows 0 .. n - 1, row i in branch i * nbranch / n. */
struct rows {
	u_int32_t next, n, nbranch;
	u_int8_t  key[4];
	struct row r;
};

static int
nextrow(void *arg, DBT *key, DBT *data)
{
	struct rows *g = arg;

	if (g->next == g->n)
		return DB_NOTFOUND;
	g->r.id = g->next;
	g->r.branch = (u_int32_t)((u_int64_t)g->next * g->nbranch / g->n);
	g->r.balance = 0;
	idkey(g->next++, g->key);
	key->data = g->key;
	key->size = 4;
	data->data = &g->r;
	data->size = ROWLEN;
	return 0;
}

static int
mktree(const char *dir, const char *name, u_int32_t n, u_int32_t nbranch,
    u_int32_t fill, u_int32_t psize)
{
	struct btreeinfo bi;
	struct btree *bt;
	struct rows g;
	char path[1024];
	u_int32_t pages;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	memset(&bi, 0, sizeof(bi));
	bi.psize = psize;
	bi.cache = 64;
	bi.fill = fill;
	if ((bt = bt_open(path, O_RDWR | O_CREAT | O_EXCL, 0644, &bi,
	    NULL)) == NULL)
		return -1;
	memset(&g, 0, sizeof(g));
	memset(g.r.filler, 'x', sizeof(g.r.filler));
	g.n = n;
	g.nbranch = nbranch;
	if (bt_load(bt, nextrow, &g) < 0) {
		bt_close(bt);
		return -1;
	}
	pages = bt_npages(bt);
	printf("tpcb: %s: %u rows in %u pages of %u bytes (%u KB)\n", name, n,
	    pages, bt_psize(bt), (u_int32_t)((u_int64_t)pages *
	    bt_psize(bt) / 1024));
	return bt_close(bt);
}

int
load(const char *dir, const struct scale *sc, u_int32_t fill,
    u_int32_t psize)
{
	struct recnoinfo ri;
	struct recno *rn;
	char path[1024];
	long long t0 = now_us();
	FILE *f;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -1;
	snprintf(path, sizeof(path), "%s/params", dir);
	if ((f = fopen(path, "w")) == NULL)
		return -1;
	fprintf(f, "accounts %u tellers %u branches %u\n", sc->accounts,
	    sc->tellers, sc->branches);
	if (fclose(f) != 0)
		return -1;
	if (mktree(dir, "account", sc->accounts, sc->branches, fill,
	    psize) < 0 ||
	    mktree(dir, "teller", sc->tellers, sc->branches, 100, psize) < 0 ||
	    mktree(dir, "branch", sc->branches, sc->branches, 100, psize) < 0)
		return -1;
	memset(&ri, 0, sizeof(ri));
	ri.psize = psize;
	ri.reclen = HISTLEN;
	snprintf(path, sizeof(path), "%s/history", dir);
	if ((rn = rec_open(path, O_RDWR | O_CREAT | O_EXCL, 0644, &ri,
	    NULL)) == NULL || rec_close(rn) < 0)
		return -1;
	sync();
	printf("tpcb: loaded %s in %lld ms\n", dir, (now_us() - t0) / 1000);
	return 0;
}
