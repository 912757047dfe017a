/*
 * Reading a B-tree in key order, and building one from records that come
 * in key order.
 *
 * The cursor (db(3)'s R_FIRST, R_NEXT, R_CURSOR) remembers the leaf and
 * slot of the key it returned, and a copy of that key; it pins nothing
 * between calls.  BT_NEXT takes the next slot if the remembered one still
 * holds the remembered key, and otherwise (the tree changed under it)
 * searches again for the first key above it.  Leaves are followed right
 * through their next pointers, empty ones skipped; every key must be
 * larger than the one before, so a damaged chain cannot loop.
 *
 * bt_load fills an empty tree bottom up, as 4.4BSD's bulk loaders and
 * LIBTP's in-order creation did: leaves from the first page on, each
 * filled to the tree's fill percentage, then the internal levels, each a
 * page in memory that is written when the next one starts; the last page
 * of the top level becomes the root.  The records must come in strictly
 * increasing key order; nothing is logged (load first, then use the file
 * in transactions).
 */
#include <sys/types.h>
#include <stdlib.h>
#include <string.h>

#include "lib/libdb/btint.h"

struct btcursor {
	struct btree *bt;
	int	  state;	/* C_NONE, C_AT or C_END */
	u_int32_t pgno;		/* C_AT: the leaf and slot of key */
	int	  idx;
	u_int8_t *key;
	u_int32_t klen;
	u_int8_t *data;
};
#define C_NONE	0
#define C_AT	1
#define C_END	2

struct btcursor *
bt_cursor(struct btree *bt)
{
	struct btcursor *c;

	if ((c = calloc(1, sizeof(*c))) == NULL)
		return NULL;
	c->bt = bt;
	if ((c->key = malloc(bt->maxitem)) == NULL ||
	    (c->data = malloc(bt->psize)) == NULL) {
		bt_cclose(c);
		return NULL;
	}
	return c;
}

void
bt_cclose(struct btcursor *c)
{
	free(c->key);
	free(c->data);
	free(c);
}

/*
 * From slot idx of a pinned leaf, the first entry there or to the right:
 * return it through key and data and remember it.  Unpins the leaf.
 */
static int
settle(struct btcursor *c, void *page, int idx, DBT *key, DBT *data)
{
	struct btree *bt = c->bt;
	u_int32_t next, steps = 0, limit = bt_npages(bt);
	DBT k, d, prev;

	while (idx >= HDR(page)->nent) {
		next = HDR(page)->next;
		mpool_put(bt->mp, page, 0);
		if (next == P_NONE) {
			c->state = C_END;
			return DB_NOTFOUND;
		}
		if (++steps > limit) {
			errno = EFTYPE;
			return -1;
		}
		if ((page = mpool_get(bt->mp, next, 0)) == NULL)
			return -1;
		if (HDR(page)->type != P_BLEAF) {
			mpool_put(bt->mp, page, 0);
			errno = EFTYPE;
			return -1;
		}
		idx = 0;
	}
	bt_ekey(page, idx, &k);
	prev.data = c->key;
	prev.size = c->klen;
	if (c->state == C_AT && bt_keycmp(&k, &prev) <= 0) {
		mpool_put(bt->mp, page, 0);
		errno = EFTYPE;
		return -1;
	}
	bt_edata(page, idx, &d);
	memcpy(c->key, k.data, k.size);
	memcpy(c->data, d.data, d.size);
	c->klen = k.size;
	c->pgno = HDR(page)->pgno;
	c->idx = idx;
	c->state = C_AT;
	key->data = c->key;
	key->size = k.size;
	data->data = c->data;
	data->size = d.size;
	mpool_put(bt->mp, page, 0);
	return 0;
}

static int
first(struct btcursor *c, DBT *key, DBT *data)
{
	struct btree *bt = c->bt;
	void *meta, *page, *child;
	u_int32_t root;

	if ((meta = bt_meta(bt, 0)) == NULL)
		return -1;
	root = META(meta)->root;
	mpool_put(bt->mp, meta, 0);
	if ((page = mpool_get(bt->mp, root, 0)) == NULL)
		return -1;
	while (HDR(page)->level > 0) {
		child = bt_child(bt, page, 0, 0);
		mpool_put(bt->mp, page, 0);
		if ((page = child) == NULL)
			return -1;
	}
	return settle(c, page, 0, key, data);
}

int
bt_cget(struct btcursor *c, DBT *key, DBT *data, int flags)
{
	struct btree *bt = c->bt;
	struct btpath path;
	void *page;
	int idx, exact;
	DBT k, cur;

	switch (flags) {
	case BT_FIRST:
		c->state = C_NONE;
		return first(c, key, data);
	case BT_SET:
		c->state = C_NONE;
		if ((page = bt_descend(bt, key, 0, &path)) == NULL)
			return -1;
		return settle(c, page, bt_pgsearch(page, key, &exact), key,
		    data);
	case BT_NEXT:
		if (c->state == C_NONE)
			return first(c, key, data);
		if (c->state == C_END)
			return DB_NOTFOUND;
		cur.data = c->key;
		cur.size = c->klen;
		if ((page = mpool_get(bt->mp, c->pgno, 0)) == NULL)
			return -1;
		if (HDR(page)->type == P_BLEAF && c->idx < HDR(page)->nent) {
			bt_ekey(page, c->idx, &k);
			if (bt_keycmp(&k, &cur) == 0)
				return settle(c, page, c->idx + 1, key, data);
		}
		mpool_put(bt->mp, page, 0);
		if ((page = bt_descend(bt, &cur, 0, &path)) == NULL)
			return -1;
		idx = bt_pgsearch(page, &cur, &exact);
		return settle(c, page, idx + exact, key, data);
	}
	errno = EINVAL;
	return -1;
}

/* bt_load's state: the leaf being filled and one page per upper level. */
struct loader {
	struct btree *bt;
	void	 *leaf;			/* pinned */
	u_int8_t *lfirst;		/* its first key */
	u_int32_t lflen;
	int	  nlev;			/* internal levels so far */
	u_int8_t *lev[MAXLEVEL + 1];	/* [1..nlev]: a page in memory */
	u_int8_t *first[MAXLEVEL + 1];	/* its first key */
	u_int32_t flen[MAXLEVEL + 1];
};

static int push(struct loader *, int, const u_int8_t *, u_int32_t,
    u_int32_t);

/* Write level l's page as a new page of the file; return its number. */
static int
flushlevel(struct loader *ld, int l, u_int32_t *pgno)
{
	struct btree *bt = ld->bt;
	void *page;

	if ((page = bt_newpage(bt, P_BINTERNAL, l)) == NULL)
		return -1;
	*pgno = HDR(page)->pgno;
	memcpy((u_int8_t *)page + PG_LOGGED, ld->lev[l] + PG_LOGGED,
	    bt->psize - PG_LOGGED);
	HDR(page)->pgno = *pgno;
	mpool_put(bt->mp, page, MPOOL_DIRTY);
	return 0;
}

/* Add (key, child) to level l, writing its page first if it is full. */
static int
push(struct loader *ld, int l, const u_int8_t *key, u_int32_t klen,
    u_int32_t child)
{
	struct btree *bt = ld->bt;
	u_int8_t *e = bt->ebuf;
	u_int32_t pgno;

	if (l > MAXLEVEL) {
		errno = EFBIG;
		return -1;
	}
	if (l > ld->nlev) {
		if ((ld->lev[l] = calloc(1, bt->psize)) == NULL ||
		    (ld->first[l] = malloc(bt->maxitem)) == NULL)
			return -1;
		bt_pginit(ld->lev[l], bt->psize, 0, P_BINTERNAL, l);
		ld->nlev = l;
	}
	if (HDR(ld->lev[l])->nent > 0 &&
	    (u_int32_t)(HDR(ld->lev[l])->upper - HDR(ld->lev[l])->lower) <
	    INTSIZE(klen) + 2) {
		if (flushlevel(ld, l, &pgno) < 0 ||
		    push(ld, l + 1, ld->first[l], ld->flen[l], pgno) < 0)
			return -1;
		bt_pginit(ld->lev[l], bt->psize, 0, P_BINTERNAL, l);
	}
	if (HDR(ld->lev[l])->nent == 0) {
		memcpy(ld->first[l], key, klen);
		ld->flen[l] = klen;
		klen = 0;		/* the first entry has no key */
	}
	put16(e, klen);
	put16(e + 2, 0);
	put32(e + 4, child);
	memcpy(e + 8, key, klen);
	bt_pginsert(ld->lev[l], bt->psize, HDR(ld->lev[l])->nent, e,
	    INTSIZE(klen), bt->tmp);
	return 0;
}

/* The records, then the levels above them; the top page is the root. */
static int
load(struct loader *ld, int (*next)(void *, DBT *, DBT *), void *arg)
{
	struct btree *bt = ld->bt;
	u_int32_t cap = (bt->psize - PGHDR) * bt->fill / 100, size, pgno;
	u_int8_t *prev = NULL;
	u_int32_t plen = 0, used = 0, nrec = 0;
	void *leaf, *meta;
	DBT key, data, pk;
	int r, l;

	if ((prev = malloc(bt->maxitem)) == NULL)
		return -1;
	while ((r = next(arg, &key, &data)) == 0) {
		size = LEAFSIZE(key.size, data.size);
		pk.data = prev;
		pk.size = plen;
		if (key.size > 0xffff || data.size > 0xffff ||
		    size > bt->maxitem || (nrec++ > 0 &&
		    bt_keycmp(&pk, &key) >= 0)) {
			errno = EINVAL;
			goto fail;
		}
		if (HDR(ld->leaf)->nent > 0 && (used + size + 2 > cap ||
		    !bt_pgfits(ld->leaf, bt->psize, size))) {
			if ((leaf = bt_newpage(bt, P_BLEAF, 0)) == NULL ||
			    push(ld, 1, ld->lfirst, ld->lflen,
			    HDR(ld->leaf)->pgno) < 0)
				goto fail;
			HDR(ld->leaf)->next = HDR(leaf)->pgno;
			HDR(leaf)->prev = HDR(ld->leaf)->pgno;
			mpool_put(bt->mp, ld->leaf, MPOOL_DIRTY);
			ld->leaf = leaf;
			used = 0;
		}
		if (HDR(ld->leaf)->nent == 0) {
			memcpy(ld->lfirst, key.data, key.size);
			ld->lflen = key.size;
		}
		put16(bt->ebuf, key.size);
		put16(bt->ebuf + 2, data.size);
		memcpy(bt->ebuf + 4, key.data, key.size);
		memcpy(bt->ebuf + 4 + key.size, data.data, data.size);
		bt_pginsert(ld->leaf, bt->psize, HDR(ld->leaf)->nent, bt->ebuf,
		    size, bt->tmp);
		used += size + 2;
		memcpy(prev, key.data, key.size);
		plen = key.size;
	}
	if (r < 0)
		goto fail;
	pgno = HDR(ld->leaf)->pgno;
	if (ld->nlev > 0 && push(ld, 1, ld->lfirst, ld->lflen, pgno) < 0)
		goto fail;
	mpool_put(bt->mp, ld->leaf, MPOOL_DIRTY);
	ld->leaf = NULL;
	for (l = 1; l <= ld->nlev; l++)
		if (flushlevel(ld, l, &pgno) < 0 || (l < ld->nlev &&
		    push(ld, l + 1, ld->first[l], ld->flen[l], pgno) < 0))
			goto fail;
	if ((meta = bt_meta(bt, MPOOL_WRITE)) == NULL)
		goto fail;
	META(meta)->root = pgno;
	mpool_put(bt->mp, meta, MPOOL_DIRTY);
	free(prev);
	return 0;
fail:
	free(prev);
	return -1;
}

int
bt_load(struct btree *bt, int (*next)(void *, DBT *, DBT *), void *arg)
{
	struct loader ld;
	void *meta;
	int rv, l, error, empty;

	if (bt->env != NULL && tp_current(bt->env) != NULL) {
		errno = EINVAL;
		return -1;
	}
	if ((meta = bt_meta(bt, 0)) == NULL)
		return -1;
	empty = META(meta)->root == 1 && META(meta)->npages == 2;
	mpool_put(bt->mp, meta, 0);
	memset(&ld, 0, sizeof(ld));
	ld.bt = bt;
	if (!empty || (ld.leaf = mpool_get(bt->mp, 1, MPOOL_WRITE)) == NULL ||
	    HDR(ld.leaf)->nent != 0 || (ld.lfirst = malloc(bt->maxitem)) ==
	    NULL) {
		if (ld.leaf != NULL)
			mpool_put(bt->mp, ld.leaf, 0);
		errno = EINVAL;
		return -1;
	}
	rv = load(&ld, next, arg);
	error = errno;
	if (ld.leaf != NULL)
		mpool_put(bt->mp, ld.leaf, MPOOL_DIRTY);
	for (l = 1; l <= ld.nlev; l++) {
		free(ld.lev[l]);
		free(ld.first[l]);
	}
	free(ld.lfirst);
	errno = error;
	return rv;
}
