/*
 * libdb's insides: the page header every file shares, the page cache,
 * and the seams between the access methods and the transaction manager.
 *
 * Every page of every file starts with the same 32-byte header.  The
 * first twelve bytes (lsn and cksum) belong to the page cache and the
 * log: lsn is the log sequence number of the last logged change to the
 * page (write-ahead logging: the page is not written before the log up
 * to lsn is on disk), cksum a CRC-32 of the page with cksum zero, set
 * when the page is written and checked when it is read.  Page 0 of a
 * file is its meta page.
 */
#ifndef _LIBDB_DBINT_H_
#define _LIBDB_DBINT_H_

#include <errno.h>

#include "lib/libdb/db.h"

#ifndef EFTYPE			/* a host without 4.4BSD's errno */
#define EFTYPE	EILSEQ
#endif

struct pghdr {
	u_int64_t lsn;		/* last logged change (0: none) */
	u_int32_t cksum;	/* CRC-32 of the page, this field zero */
	u_int32_t pgno;		/* the page's own number */
	u_int8_t  type;		/* P_* */
	u_int8_t  level;	/* B-tree: 0 for a leaf, parent = child + 1 */
	u_int16_t nent;		/* entries (B-tree) or records (recno) */
	u_int16_t lower;	/* B-tree: end of the slot array */
	u_int16_t upper;	/* B-tree: start of the entry heap */
	u_int32_t prev;		/* leaves: left and right neighbours */
	u_int32_t next;		/* (P_NONE: none) */
};
#define PGHDR		32	/* sizeof(struct pghdr) */
#define PG_LOGGED	12	/* bytes 0..11 (lsn, cksum) are never logged */

#define P_META		1
#define P_BINTERNAL	2
#define P_BLEAF		3
#define P_RECNO		4
#define P_NONE		0	/* no page: page 0 is always the meta page */

#define MIN_PSIZE	512
#define MAX_PSIZE	32768	/* offsets are 16 bits */

/* The meta page (page 0) of a B-tree or record file, after the header. */
struct meta {
	u_int32_t magic;	/* BT_MAGIC or REC_MAGIC */
	u_int32_t version;
	u_int32_t psize;
	u_int32_t npages;	/* pages in use: the next new page's number */
	u_int32_t root;		/* B-tree: the root, always page 1 */
	u_int32_t nrecs;	/* recno: records */
	u_int32_t reclen;	/* recno: record length */
};
#define BT_MAGIC	0x62747265	/* "btre" */
#define REC_MAGIC	0x7265636e	/* "recn" */
#define DB_VERSION	1
#define META(p)		((struct meta *)((char *)(p) + PGHDR))
#define HDR(p)		((struct pghdr *)(p))

u_int32_t db_crc32(u_int32_t, const void *, size_t);
void	 page_setcksum(void *, u_int32_t);
int	 page_cksumok(const void *, u_int32_t);
int	 page_iszero(const void *, u_int32_t);
int	 meta_check(const void *, u_int32_t, u_int32_t, u_int32_t);
u_int32_t fs_psize(int, u_int32_t);

/*
 * The page cache (mpool.c).  A page is pinned between mpool_get and
 * mpool_put and is never evicted while pinned.  The access method's
 * pgin hook checks every page read from the file (it returns an errno,
 * or 0); mpool sets the checksum when it writes one.  Under a running
 * transaction mpool_get locks the page (MPOOL_WRITE: a write lock) and,
 * for writing, keeps a copy of it; the last mpool_put of a write pin logs
 * the bytes that changed (tp_logpage) and stamps the page's lsn.
 */
#define MPOOL_WRITE	0x01	/* mpool_get: the caller will change it */
#define MPOOL_NEW	0x02	/* ... a page past the end: zeroed, not read */
#define MPOOL_RAW	0x04	/* ... no pgin check, no lock, no logging */
#define MPOOL_DIRTY	0x01	/* mpool_put: it changed */

struct bpage;
struct mpool {
	int	  fd;
	u_int32_t psize;
	u_int32_t max, ncached;
	struct bpage **hash;
	u_int32_t nhash;
	struct bpage *lru, *mru;	/* unpinned or not, oldest first */
	int	(*pgin)(void *, u_int32_t, void *);
	void	 *arg;
	int	  zerook;	/* a page of zeros passes unchecked */
	struct tp_env *env;	/* NULL: not transactional */
	u_int32_t fileid;	/* its number in env's file table */
	struct mpool_stat st;
};

struct mpool *mpool_open(int, u_int32_t, u_int32_t);
void	*mpool_get(struct mpool *, u_int32_t, int);
int	 mpool_put(struct mpool *, void *, int);
int	 mpool_close(struct mpool *);

/* The transaction manager's side of the seam (txn.c, txn_log.c). */
int	 tp_register(struct tp_env *, struct mpool *, const char *);
void	 tp_unregister(struct tp_env *, struct mpool *);
struct tp_txn *tp_current(struct tp_env *);
int	 tp_lockpage(struct tp_env *, u_int32_t, u_int32_t, int);
int	 tp_logpage(struct tp_env *, struct mpool *, u_int32_t,
	    const void *, void *, int);
int	 tp_walflush(struct tp_env *, u_int64_t);

/* Unaligned little-endian fields inside B-tree entries. */
static inline u_int16_t
get16(const void *p)
{
	const u_int8_t *b = p;

	return (u_int16_t)(b[0] | b[1] << 8);
}

static inline void
put16(void *p, u_int32_t v)
{
	u_int8_t *b = p;

	b[0] = (u_int8_t)v;
	b[1] = (u_int8_t)(v >> 8);
}

static inline u_int32_t
get32(const void *p)
{
	return get16(p) | (u_int32_t)get16((const u_int8_t *)p + 2) << 16;
}

static inline void
put32(void *p, u_int32_t v)
{
	put16(p, v & 0xffff);
	put16((u_int8_t *)p + 2, v >> 16);
}

#endif
