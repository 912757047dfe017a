/*
 * The page cache (thesis 5.1.4.2, 4.4BSD mpool(3)): a fixed number of
 * pages of one file, found through a hash on the page number, replaced
 * least recently used first.
 *
 * Protocol: mpool_get pins a page and returns its bytes; the caller
 * reads or changes them and calls mpool_put, with MPOOL_DIRTY if it
 * changed them.  A pinned page is never replaced, and the caller never
 * touches a page after its last mpool_put.  When every page is pinned the
 * cache grows past its size rather than fail (an operation pins at most
 * the path from the root to a leaf and a few more).
 *
 * A dirty page is written when it is replaced or by mpool_sync, and only
 * after the log holds everything it depends on: tp_walflush forces the
 * log up to the page's lsn first (write-ahead logging).  The page gets
 * its checksum on the way out, and is checked on the way in, by the
 * checksum and then by the access method's pgin hook.  mpool_discard
 * forgets every unpinned page, for a caller whose file changed behind
 * the cache (the kernel aborted its transaction: tpcb -m kernel).
 *
 * In a transaction (the environment's current one) every get locks the
 * page, and the first write pin keeps a copy of it; when the last pin
 * goes, tp_logpage compares the page with the copy and logs the bytes
 * that changed, before and after.  The access methods do no logging of
 * their own.
 */
#include <sys/types.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/libdb/dbint.h"

struct bpage {
	struct bpage *hnext;		/* hash chain */
	struct bpage *prev, *next;	/* the LRU list: lru ... mru */
	u_int32_t pgno;
	int	  pins;
	int	  dirty;
	int	  full;			/* log all of it: it was made new */
	u_int8_t *snap;			/* the page before this pin's changes */
	u_int64_t pad;			/* the page that follows is 8-aligned */
};
#define PAGE(bp)	((void *)((bp) + 1))
#define BPAGE(pg)	((struct bpage *)(pg) - 1)

struct mpool *
mpool_open(int fd, u_int32_t psize, u_int32_t max)
{
	struct mpool *mp;

	if ((mp = calloc(1, sizeof(*mp))) == NULL)
		return NULL;
	mp->fd = fd;
	mp->psize = psize;
	mp->max = max < 8 ? 8 : max;
	for (mp->nhash = 64; mp->nhash < mp->max; mp->nhash <<= 1)
		continue;
	if ((mp->hash = calloc(mp->nhash, sizeof(*mp->hash))) == NULL) {
		free(mp);
		return NULL;
	}
	mp->st.max = mp->max;
	return mp;
}

static struct bpage **
hslot(struct mpool *mp, u_int32_t pgno)
{
	return &mp->hash[(pgno * 2654435761u) & (mp->nhash - 1)];
}

static struct bpage *
lookup(struct mpool *mp, u_int32_t pgno)
{
	struct bpage *bp;

	for (bp = *hslot(mp, pgno); bp != NULL; bp = bp->hnext)
		if (bp->pgno == pgno)
			return bp;
	return NULL;
}

static void
lru_remove(struct mpool *mp, struct bpage *bp)
{
	if (bp->prev != NULL)
		bp->prev->next = bp->next;
	else
		mp->lru = bp->next;
	if (bp->next != NULL)
		bp->next->prev = bp->prev;
	else
		mp->mru = bp->prev;
}

static void
lru_append(struct mpool *mp, struct bpage *bp)
{
	bp->next = NULL;
	bp->prev = mp->mru;
	if (mp->mru != NULL)
		mp->mru->next = bp;
	else
		mp->lru = bp;
	mp->mru = bp;
}

static void
hash_remove(struct mpool *mp, struct bpage *bp)
{
	struct bpage **pp;

	for (pp = hslot(mp, bp->pgno); *pp != bp; pp = &(*pp)->hnext)
		continue;
	*pp = bp->hnext;
}

/* Write one page: the log first (WAL), then the page with its checksum. */
static int
pagewrite(struct mpool *mp, struct bpage *bp)
{
	void *page = PAGE(bp);
	off_t off = (off_t)bp->pgno * mp->psize;

	if (mp->env != NULL && HDR(page)->lsn != 0 &&
	    tp_walflush(mp->env, HDR(page)->lsn) < 0)
		return -1;
	page_setcksum(page, mp->psize);
	if (pwrite(mp->fd, page, mp->psize, off) != (ssize_t)mp->psize) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	bp->dirty = 0;
	mp->st.writes++;
	return 0;
}

/*
 * Read one page; past the end of the file it is zeros.  The file's size
 * is the kernel's to say, every time: another process may have grown it
 * (kernel transactions, where this cache is emptied between them).
 */
static int
pageread(struct mpool *mp, struct bpage *bp)
{
	void *page = PAGE(bp);
	off_t off = (off_t)bp->pgno * mp->psize;
	ssize_t n;

	if ((n = pread(mp->fd, page, mp->psize, off)) < 0)
		return -1;
	mp->st.reads++;
	memset((char *)page + n, 0, mp->psize - n);
	return 0;
}

/* A buffer for page pgno: a free one, the oldest unpinned, or a new one. */
static struct bpage *
getbuf(struct mpool *mp)
{
	struct bpage *bp;

	if (mp->ncached >= mp->max)
		for (bp = mp->lru; bp != NULL; bp = bp->next) {
			if (bp->pins > 0)
				continue;
			if (bp->dirty && pagewrite(mp, bp) < 0)
				return NULL;
			lru_remove(mp, bp);
			hash_remove(mp, bp);
			return bp;
		}
	if ((bp = malloc(sizeof(*bp) + mp->psize)) == NULL)
		return NULL;
	mp->ncached++;
	return bp;
}

void *
mpool_get(struct mpool *mp, u_int32_t pgno, int flags)
{
	struct tp_env *env = (flags & MPOOL_RAW) ? NULL : mp->env;
	struct bpage *bp;
	int error;

	mp->st.gets++;
	if (env != NULL && tp_current(env) != NULL &&
	    tp_lockpage(env, mp->fileid, pgno, flags & MPOOL_WRITE) < 0)
		return NULL;
	if ((bp = lookup(mp, pgno)) != NULL) {
		mp->st.hits++;
		lru_remove(mp, bp);
		if (flags & MPOOL_NEW) {
			memset(PAGE(bp), 0, mp->psize);
			HDR(PAGE(bp))->pgno = pgno;
		}
	} else {
		if ((bp = getbuf(mp)) == NULL)
			return NULL;
		memset(bp, 0, sizeof(*bp));
		bp->pgno = pgno;
		error = 0;
		if (flags & MPOOL_NEW) {
			memset(PAGE(bp), 0, mp->psize);
			HDR(PAGE(bp))->pgno = pgno;
		} else if (pageread(mp, bp) < 0)
			error = errno != 0 ? errno : EIO;
		else if (!(flags & MPOOL_RAW) &&
		    !(mp->zerook && page_iszero(PAGE(bp), mp->psize))) {
			if (!page_cksumok(PAGE(bp), mp->psize))
				error = EFTYPE;
			else if (mp->pgin != NULL)
				error = mp->pgin(mp->arg, pgno, PAGE(bp));
		}
		if (error != 0) {
			free(bp);
			mp->ncached--;
			errno = error;
			return NULL;
		}
		bp->hnext = *hslot(mp, pgno);
		*hslot(mp, pgno) = bp;
	}
	lru_append(mp, bp);
	if ((flags & MPOOL_WRITE) && env != NULL && tp_current(env) != NULL &&
	    bp->snap == NULL) {
		if ((bp->snap = malloc(mp->psize)) == NULL)
			return NULL;
		memcpy(bp->snap, PAGE(bp), mp->psize);
		bp->full = (flags & MPOOL_NEW) != 0;
	}
	bp->pins++;
	return PAGE(bp);
}

int
mpool_put(struct mpool *mp, void *page, int flags)
{
	struct bpage *bp = BPAGE(page);
	int rv = 0;

	if (flags & MPOOL_DIRTY)
		bp->dirty = 1;
	if (--bp->pins > 0 || bp->snap == NULL)
		return 0;
	if (bp->full || memcmp((char *)bp->snap + PG_LOGGED,
	    (char *)page + PG_LOGGED, mp->psize - PG_LOGGED) != 0) {
		bp->dirty = 1;
		rv = tp_logpage(mp->env, mp, bp->pgno, bp->snap, page,
		    bp->full);
	}
	bp->full = 0;
	free(bp->snap);
	bp->snap = NULL;
	return rv;
}

static int
bypgno(const void *a, const void *b)
{
	u_int32_t x = (*(struct bpage *const *)a)->pgno;
	u_int32_t y = (*(struct bpage *const *)b)->pgno;

	return x < y ? -1 : x > y;
}

/* Write every dirty page, in page order (sequential where it can be). */
int
mpool_sync(struct mpool *mp)
{
	struct bpage *bp, **v;
	u_int32_t n = 0, i;
	int rv = 0;

	for (bp = mp->lru; bp != NULL; bp = bp->next)
		n += bp->dirty;
	if (n == 0)
		return 0;
	if ((v = malloc(n * sizeof(*v))) == NULL)
		return -1;
	n = 0;
	for (bp = mp->lru; bp != NULL; bp = bp->next)
		if (bp->dirty)
			v[n++] = bp;
	qsort(v, n, sizeof(*v), bypgno);
	for (i = 0; i < n && rv == 0; i++)
		rv = pagewrite(mp, v[i]);
	free(v);
	return rv;
}

/* Forget every unpinned page, dirty or not: the file changed behind us. */
void
mpool_discard(struct mpool *mp)
{
	struct bpage *bp, *next;

	for (bp = mp->lru; bp != NULL; bp = next) {
		next = bp->next;
		if (bp->pins > 0)
			continue;
		lru_remove(mp, bp);
		hash_remove(mp, bp);
		free(bp->snap);
		free(bp);
		mp->ncached--;
	}
}

/* Write what is dirty and free the cache; the file stays open. */
int
mpool_close(struct mpool *mp)
{
	struct bpage *bp, *next;
	int rv = mpool_sync(mp);

	for (bp = mp->lru; bp != NULL; bp = next) {
		next = bp->next;
		free(bp->snap);
		free(bp);
	}
	free(mp->hash);
	free(mp);
	return rv;
}

void
mpool_stat(struct mpool *mp, struct mpool_stat *st)
{
	*st = mp->st;
	st->cached = mp->ncached;
}
