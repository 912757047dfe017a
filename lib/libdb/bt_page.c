/*
 * One B-tree page (the layout is in btint.h): its check when it comes in
 * from the file, the search inside it, and inserting and deleting an
 * entry.
 *
 * bt_pgin is the only defence against a damaged page whose checksum is
 * right (a bug, or a page written by something else): after it passes,
 * every slot points inside the heap, every entry ends inside the page,
 * the entries fit in the heap together (so compaction cannot overflow),
 * the keys are in order and every child is a real page number.  The
 * code that follows trusts those facts and no others.
 */
#include <sys/types.h>
#include <string.h>

#include "lib/libdb/btint.h"

void
bt_pginit(void *page, u_int32_t psize, u_int32_t pgno, int type, int level)
{
	struct pghdr *h = page;

	h->pgno = pgno;
	h->type = (u_int8_t)type;
	h->level = (u_int8_t)level;
	h->nent = 0;
	h->lower = PGHDR;
	h->upper = (u_int16_t)psize;
	h->prev = h->next = P_NONE;
}

u_int32_t
bt_esize(const void *page, int i)
{
	const u_int8_t *e = ENTRY(page, i);

	if (HDR(page)->type == P_BLEAF)
		return LEAFSIZE(get16(e), get16(e + 2));
	return INTSIZE(get16(e));
}

void
bt_ekey(const void *page, int i, DBT *key)
{
	const u_int8_t *e = ENTRY(page, i);

	key->size = get16(e);
	key->data = (void *)(e + (HDR(page)->type == P_BLEAF ? 4 : 8));
}

void
bt_edata(const void *page, int i, DBT *data)
{
	const u_int8_t *e = ENTRY(page, i);

	data->size = get16(e + 2);
	data->data = (void *)(e + 4 + get16(e));
}

u_int32_t
bt_echild(const void *page, int i)
{
	return get32(ENTRY(page, i) + 4);
}

/* Unsigned bytes, a prefix before anything longer. */
int
bt_keycmp(const DBT *a, const DBT *b)
{
	size_t n = a->size < b->size ? a->size : b->size;
	int c = n ? memcmp(a->data, b->data, n) : 0;

	if (c != 0)
		return c;
	return a->size < b->size ? -1 : a->size > b->size;
}

int
bt_pgin(void *arg, u_int32_t pgno, void *page)
{
	struct btree *bt = arg;
	const struct pghdr *h = page;
	u_int32_t psize = bt->psize, off, sum = 0, min;
	DBT k0, k1;
	int i, leaf;

	if (pgno == 0) {
		const struct meta *m = META(page);

		if (meta_check(page, psize, pgno, BT_MAGIC) != 0 ||
		    m->root == 0 || m->root >= m->npages)
			return EFTYPE;
		return 0;
	}
	leaf = h->type == P_BLEAF;
	if (h->pgno != pgno || (h->type != P_BLEAF && h->type != P_BINTERNAL) ||
	    (leaf ? h->level != 0 : h->level == 0 || h->level > MAXLEVEL) ||
	    h->lower != PGHDR + 2 * h->nent || h->upper < h->lower ||
	    h->upper > psize || (!leaf && (h->nent == 0 || h->prev != 0 ||
	    h->next != 0)))
		return EFTYPE;
	min = leaf ? 4 : 8;
	for (i = 0; i < h->nent; i++) {
		off = SLOT(page, i);
		if (off < h->upper || off + min > psize ||
		    bt_esize(page, i) > psize - off)
			return EFTYPE;
		sum += bt_esize(page, i);
		if (!leaf && (bt_echild(page, i) == 0 ||
		    bt_echild(page, i) == pgno || (i == 0 && get16(ENTRY(page,
		    0)) != 0)))
			return EFTYPE;
		if (i > (leaf ? 0 : 1)) {
			bt_ekey(page, i - 1, &k0);
			bt_ekey(page, i, &k1);
			if (bt_keycmp(&k0, &k1) >= 0)
				return EFTYPE;
		}
	}
	if (sum > psize - h->upper)
		return EFTYPE;
	return 0;
}

/*
 * A leaf: the first entry whose key is >= key (*exact: equal).  An
 * internal page: the last entry whose key is <= key, the first entry
 * counting as smaller than every key.
 */
int
bt_pgsearch(const void *page, const DBT *key, int *exact)
{
	int lo, hi, mid, c, leaf = HDR(page)->type == P_BLEAF;
	DBT k;

	*exact = 0;
	lo = leaf ? 0 : 1;
	hi = HDR(page)->nent;
	while (lo < hi) {		/* the first entry > key (leaf: >=) */
		mid = (lo + hi) / 2;
		bt_ekey(page, mid, &k);
		c = bt_keycmp(&k, key);
		if (c == 0 && leaf) {
			*exact = 1;
			return mid;
		}
		if (c < 0 || c == 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return leaf ? lo : lo - 1;
}

static u_int32_t
heapused(const void *page)
{
	u_int32_t sum = 0;
	int i;

	for (i = 0; i < HDR(page)->nent; i++)
		sum += bt_esize(page, i);
	return sum;
}

/* Room for an entry of size bytes and its slot, compacting if need be. */
int
bt_pgfits(const void *page, u_int32_t psize, u_int32_t size)
{
	const struct pghdr *h = page;

	if ((u_int32_t)(h->upper - h->lower) >= size + 2)
		return 1;
	return psize - h->lower - heapused(page) >= size + 2;
}

/* Gather the entries at the end of the page; tmp holds psize bytes. */
static void
compact(void *page, u_int32_t psize, u_int8_t *tmp)
{
	struct pghdr *h = page;
	u_int32_t upper = psize, sz;
	int i;

	memcpy(tmp, page, psize);
	for (i = 0; i < h->nent; i++) {
		sz = bt_esize(tmp, i);
		upper -= sz;
		memcpy((u_int8_t *)page + upper, ENTRY(tmp, i), sz);
		put16((u_int8_t *)page + PGHDR + 2 * i, upper);
	}
	h->upper = (u_int16_t)upper;
}

/* Insert an entry as entry idx; bt_pgfits said there is room. */
void
bt_pginsert(void *page, u_int32_t psize, int idx, const void *e,
    u_int32_t size, u_int8_t *tmp)
{
	struct pghdr *h = page;
	u_int8_t *slots = (u_int8_t *)page + PGHDR;

	if ((u_int32_t)(h->upper - h->lower) < size + 2)
		compact(page, psize, tmp);
	h->upper -= size;
	memcpy((u_int8_t *)page + h->upper, e, size);
	memmove(slots + 2 * (idx + 1), slots + 2 * idx, 2 * (h->nent - idx));
	put16(slots + 2 * idx, h->upper);
	h->nent++;
	h->lower += 2;
}

void
bt_pgdelete(void *page, int idx)
{
	struct pghdr *h = page;
	u_int8_t *slots = (u_int8_t *)page + PGHDR;

	if (SLOT(page, idx) == h->upper)
		h->upper += bt_esize(page, idx);
	memmove(slots + 2 * idx, slots + 2 * (idx + 1),
	    2 * (h->nent - idx - 1));
	h->nent--;
	h->lower -= 2;
}
