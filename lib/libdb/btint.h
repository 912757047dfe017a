/*
 * The B-tree's page format (bt_page.c) and what btree.c and
 * bt_cursor.c share.
 *
 * A B-tree page is the common header, an array of 16-bit slots that
 * grows up from the header (lower is its end), and a heap of entries
 * that grows down from the end of the page (upper is its start).  Slot
 * i holds the offset of entry i; the entries are in key order through
 * the slots, not in the heap.
 *
 *	leaf entry	klen:16 dlen:16 key data
 *	internal entry	klen:16 0:16 child:32 key
 *
 * The first entry of an internal page has no key (klen 0): it stands
 * for every key below the second entry's.  Its child, like every child
 * of a page at level L, is a page at level L - 1; leaves are level 0 and
 * are chained left to right through prev and next, which the cursor
 * follows.  The root is the meta page's root; it moves up when it splits.
 */
#ifndef _LIBDB_BTINT_H_
#define _LIBDB_BTINT_H_

#include "lib/libdb/dbint.h"

#define MAXLEVEL	30

struct btree {
	int	  fd;
	u_int32_t psize;
	u_int32_t fill;		/* bt_load's fill, percent */
	u_int32_t maxitem;	/* largest entry, so four fit in a page */
	int	  nosync;	/* close and sync without fsync */
	struct mpool *mp;
	struct tp_env *env;
	u_int8_t *dbuf;		/* bt_get's record, until the next call */
	u_int8_t *tmp;		/* a page: compaction and splits */
	u_int8_t *ebuf;		/* the entry bt_put inserts */
};

/* The path of a descent: the internal pages and the slot taken in each. */
struct btpath {
	int	  depth;
	u_int32_t pgno[MAXLEVEL + 1];
	u_int16_t idx[MAXLEVEL + 1];
};

#define SLOT(p, i)	get16((u_int8_t *)(p) + PGHDR + 2 * (i))
#define ENTRY(p, i)	((u_int8_t *)(p) + SLOT(p, i))
#define LEAFSIZE(k, d)	(4 + (k) + (d))
#define INTSIZE(k)	(8 + (k))

/* bt_page.c */
int	 bt_pgin(void *, u_int32_t, void *);
void	 bt_pginit(void *, u_int32_t, u_int32_t, int, int);
u_int32_t bt_esize(const void *, int);
void	 bt_ekey(const void *, int, DBT *);
void	 bt_edata(const void *, int, DBT *);
u_int32_t bt_echild(const void *, int);
int	 bt_keycmp(const DBT *, const DBT *);
int	 bt_pgsearch(const void *, const DBT *, int *);
int	 bt_pgfits(const void *, u_int32_t, u_int32_t);
void	 bt_pginsert(void *, u_int32_t, int, const void *, u_int32_t,
	    u_int8_t *);
void	 bt_pgdelete(void *, int);

/* btree.c */
void	*bt_meta(struct btree *, int);
void	*bt_descend(struct btree *, const DBT *, int, struct btpath *);
void	*bt_child(struct btree *, const void *, int, int);
void	*bt_newpage(struct btree *, int, int);

#endif
