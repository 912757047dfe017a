/*
 * Reaching the relations: opening a relation's files, a tuple by unique2
 * (the clustered index) or by unique1 (the non-clustered index, then the
 * clustered one), scans in key order, keeping the indices in step with a
 * changed tuple, and the temporary relation a query writes its result to.
 *
 * Every B-tree has the 64 KB page cache of the thesis' data manager and
 * is opened nosync: closing it writes its dirty pages to the kernel and
 * leaves them to the file system (a query's temporary relation and its
 * updates are not forced, and a reader's fsync would write the access
 * time of every file it read).
 */
#include <sys/types.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bin/wisc/wisc.h"

const char *const relname[NREL] = { "onektup", "tenktup1", "tenktup2",
	"bprime" };

void
bekey(u_int32_t v, u_int8_t *k)
{
	k[0] = (u_int8_t)(v >> 24);
	k[1] = (u_int8_t)(v >> 16);
	k[2] = (u_int8_t)(v >> 8);
	k[3] = (u_int8_t)v;
}

u_int32_t
getbe(const void *p)
{
	const u_int8_t *k = p;

	return (u_int32_t)k[0] << 24 | (u_int32_t)k[1] << 16 |
	    (u_int32_t)k[2] << 8 | k[3];
}

void
relpath(char *buf, size_t len, const char *dir, int r, int file)
{
	snprintf(buf, len, "%s/%s%s", dir, relname[r],
	    file == F_U1 ? ".u1" : file == F_H ? ".h" : "");
}

static struct btree *
open1(const char *path, int flags)
{
	struct btreeinfo bi;
	struct btree *bt;

	memset(&bi, 0, sizeof(bi));
	bi.psize = PSIZE;
	bi.cache = CACHEKB * 1024 / PSIZE;
	bi.nosync = 1;
	if ((bt = bt_open(path, flags, 0644, &bi, NULL)) == NULL)
		fprintf(stderr, "wisc: %s: %s\n", path, strerror(errno));
	return bt;
}

/* The database in dir: its scale, from params.  Nothing is open yet. */
int
db_open(struct wisc *w, const char *dir)
{
	char path[1024], line[128];
	u_int32_t fill;
	FILE *f;
	int r, n = 0;

	memset(w, 0, sizeof(*w));
	w->dir = dir;
	snprintf(path, sizeof(path), "%s/params", dir);
	if ((f = fopen(path, "r")) != NULL) {
		if (fgets(line, sizeof(line), f) != NULL)
			n = sscanf(line, "tuples %u fill %u", &w->n, &fill);
		fclose(f);
	}
	if (n != 2 || w->n < MINTUPLES || w->n > MAXTUPLES) {
		fprintf(stderr, "wisc: %s: no database here (wisc load)\n",
		    dir);
		return -1;
	}
	for (r = 0; r < NREL; r++) {
		w->rel[r].name = relname[r];
		w->rel[r].ntup = relsize(r, w->n);
	}
	return 0;
}

/* Open the files of relation r that are not open yet (rw: for writing). */
int
rel_open(struct wisc *w, int r, int files, int rw)
{
	struct rel *rl = &w->rel[r];
	int flags = rw ? O_RDWR : O_RDONLY;
	char path[1024];

	if ((files & F_TUPLES) && rl->bt == NULL) {
		relpath(path, sizeof(path), w->dir, r, F_TUPLES);
		if ((rl->bt = open1(path, flags)) == NULL)
			return -1;
	}
	if ((files & F_U1) && rl->u1 == NULL) {
		relpath(path, sizeof(path), w->dir, r, F_U1);
		if ((rl->u1 = open1(path, flags)) == NULL)
			return -1;
	}
	if ((files & F_H) && rl->h == NULL) {
		relpath(path, sizeof(path), w->dir, r, F_H);
		if ((rl->h = open1(path, flags)) == NULL)
			return -1;
	}
	return 0;
}

/* Close one B-tree, adding what its page cache read and wrote to w's. */
static int
close1(struct wisc *w, struct btree **btp)
{
	struct mpool_stat st;
	int rv = 0;

	if (*btp == NULL)
		return 0;
	if (bt_sync(*btp) < 0)
		rv = -1;
	mpool_stat(bt_mpool(*btp), &st);
	w->pgreads += st.reads;
	w->pgwrites += st.writes;
	if (bt_close(*btp) < 0)
		rv = -1;
	*btp = NULL;
	return rv;
}

int
rel_close(struct wisc *w, int r)
{
	struct rel *rl = &w->rel[r];
	int rv = 0;

	rv |= close1(w, &rl->bt);
	rv |= close1(w, &rl->u1);
	rv |= close1(w, &rl->h);
	return rv;
}

/* Close everything, the temporary relation too. */
int
db_close(struct wisc *w)
{
	int r, rv = 0;

	for (r = 0; r < NREL; r++)
		rv |= rel_close(w, r);
	rv |= tmp_close(w);
	return rv;
}

/* The tuple whose unique2 is u2, through the clustered index. */
int
get_u2(struct rel *rl, u_int32_t u2, struct tuple *t)
{
	u_int8_t k[4];
	DBT key, data;
	int rv;

	bekey(u2, k);
	key.data = k;
	key.size = 4;
	if ((rv = bt_get(rl->bt, &key, &data)) != 0)
		return rv;
	if (data.size != TUPLEN) {
		errno = EFTYPE;
		return -1;
	}
	memcpy(t, data.data, TUPLEN);
	return 0;
}

/* The tuple whose unique1 is u1: its unique2 from the index, then it. */
int
get_u1(struct rel *rl, u_int32_t u1, struct tuple *t)
{
	u_int8_t k[4];
	DBT key, data;
	int rv;

	bekey(u1, k);
	key.data = k;
	key.size = 4;
	if ((rv = bt_get(rl->u1, &key, &data)) != 0)
		return rv;
	if (data.size != 4) {
		errno = EFTYPE;
		return -1;
	}
	return get_u2(rl, getbe(data.data), t);
}

/* Put t in the tuples file under its unique2 (flags: bt_put's). */
int
put_tuple(struct rel *rl, const struct tuple *t, int flags)
{
	u_int8_t k[4];
	DBT key, data;

	bekey(t->unique2, k);
	key.data = k;
	key.size = 4;
	data.data = (void *)t;
	data.size = TUPLEN;
	return bt_put(rl->bt, &key, &data, flags);
}

/* Delete the tuple whose unique2 is u2; DB_NOTFOUND if there is none. */
int
del_tuple(struct rel *rl, u_int32_t u2)
{
	u_int8_t k[4];
	DBT key;

	bekey(u2, k);
	key.data = k;
	key.size = 4;
	return bt_del(rl->bt, &key);
}

/* The unique1 index says u1 is the tuple u2 (replacing what it said). */
int
u1_put(struct rel *rl, u_int32_t u1, u_int32_t u2)
{
	u_int8_t k[4], d[4];
	DBT key, data;

	bekey(u1, k);
	bekey(u2, d);
	key.data = k;
	key.size = 4;
	data.data = d;
	data.size = 4;
	return bt_put(rl->u1, &key, &data, 0);
}

/* ... and of u1 says nothing; DB_NOTFOUND if it said nothing already. */
int
u1_del(struct rel *rl, u_int32_t u1)
{
	u_int8_t k[4];
	DBT key;

	bekey(u1, k);
	key.data = k;
	key.size = 4;
	return bt_del(rl->u1, &key);
}

/* The hundred index holds (hundred, u2). */
int
h_put(struct rel *rl, u_int32_t hundred, u_int32_t u2)
{
	u_int8_t k[8];
	DBT key, data;

	bekey(hundred, k);
	bekey(u2, k + 4);
	key.data = k;
	key.size = 8;
	data.data = k;
	data.size = 0;
	return bt_put(rl->h, &key, &data, 0);
}

int
h_del(struct rel *rl, u_int32_t hundred, u_int32_t u2)
{
	u_int8_t k[8];
	DBT key;

	bekey(hundred, k);
	bekey(u2, k + 4);
	key.data = k;
	key.size = 8;
	return bt_del(rl->h, &key);
}

/*
 * A scan in key order of bt from the first key >= lo (a 4-byte key, or
 * the first 4 bytes of one) to the last whose first 4 bytes are <= hi.
 */
int
scan_open(struct scan *s, struct btree *bt, u_int32_t lo, u_int32_t hi)
{
	s->flags = lo == 0 ? BT_FIRST : BT_SET;
	s->hi = hi;
	s->lo = lo;
	if ((s->c = bt_cursor(bt)) == NULL)
		return -1;
	return 0;
}

static int
scan_next(struct scan *s, DBT *key, DBT *data)
{
	u_int8_t k[4];
	int rv;

	if (s->flags == BT_SET) {
		bekey(s->lo, k);
		key->data = k;
		key->size = 4;
	}
	rv = bt_cget(s->c, key, data, s->flags);
	s->flags = BT_NEXT;
	if (rv != 0)
		return rv < 0 ? -1 : 0;
	if (key->size < 4) {
		errno = EFTYPE;
		return -1;
	}
	return getbe(key->data) <= s->hi;
}

/* The next tuple of a scan of a tuples file: 1, 0 at the end, or -1. */
int
scan_tuple(struct scan *s, struct tuple *t)
{
	DBT key, data;
	int rv;

	if ((rv = scan_next(s, &key, &data)) <= 0)
		return rv;
	if (data.size != TUPLEN) {
		errno = EFTYPE;
		return -1;
	}
	memcpy(t, data.data, TUPLEN);
	return 1;
}

/*
 * The next entry of a scan of an index: its first key field and the
 * unique2 it names (in the unique1 index the record, in the hundred
 * index the key's second field).
 */
int
scan_index(struct scan *s, u_int32_t *k, u_int32_t *u2)
{
	DBT key, data;
	int rv;

	if ((rv = scan_next(s, &key, &data)) <= 0)
		return rv;
	*k = getbe(key.data);
	if (key.size == 8 && data.size == 0)
		*u2 = getbe((u_int8_t *)key.data + 4);
	else if (key.size == 4 && data.size == 4)
		*u2 = getbe(data.data);
	else {
		errno = EFTYPE;
		return -1;
	}
	return 1;
}

void
scan_close(struct scan *s)
{
	if (s->c != NULL)
		bt_cclose(s->c);
	s->c = NULL;
}

/* A new, empty temporary relation (the last query's goes). */
int
tmp_create(struct wisc *w)
{
	struct btreeinfo bi;
	char path[1024];

	snprintf(path, sizeof(path), "%s/tmp", w->dir);
	if (unlink(path) < 0 && errno != ENOENT) {
		fprintf(stderr, "wisc: %s: %s\n", path, strerror(errno));
		return -1;
	}
	memset(&bi, 0, sizeof(bi));
	bi.psize = PSIZE;
	bi.cache = CACHEKB * 1024 / PSIZE;
	bi.nosync = 1;
	if ((w->tmp = bt_open(path, O_RDWR | O_CREAT | O_EXCL, 0644, &bi,
	    NULL)) == NULL) {
		fprintf(stderr, "wisc: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Insert a row; DB_KEYEXIST when the key is there already (DISTINCT). */
int
tmp_put(struct wisc *w, const void *k, size_t klen, const void *d,
    size_t dlen)
{
	DBT key, data;

	key.data = (void *)k;
	key.size = klen;
	data.data = (void *)d;
	data.size = dlen;
	return bt_put(w->tmp, &key, &data, BT_NOOVERWRITE);
}

int
tmp_close(struct wisc *w)
{
	return close1(w, &w->tmp);
}
