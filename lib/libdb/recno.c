/*
 * Fixed-length record files (4.4BSD recno(3) with R_FIXEDLEN; thesis
 * 5.3.1: TPC-B's history relation): records numbered from 1, packed
 * into pages after the common header, record r in page 1 + (r - 1) /
 * perpage.  The meta page holds the number of records; a page's nent,
 * how many of its records exist, so a damaged count is caught.
 *
 * An append changes the meta page's count and the bytes of one record:
 * that is all a TPC-B history append logs.  Putting past the end makes
 * the records in between, zero-filled, as recno(3) does.
 */
#include <sys/types.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/libdb/dbint.h"

struct recno {
	int	  fd;
	u_int32_t psize;
	u_int32_t reclen;
	u_int32_t perpage;
	struct mpool *mp;
	struct tp_env *env;
};

static int
rec_pgin(void *arg, u_int32_t pgno, void *page)
{
	struct recno *rn = arg;
	const struct pghdr *h = page;
	const struct meta *m = META(page);

	if (pgno == 0)
		return meta_check(page, rn->psize, 0, REC_MAGIC) != 0 ||
		    m->reclen != rn->reclen ? EFTYPE : 0;
	if (h->pgno != pgno || h->type != P_RECNO || h->nent > rn->perpage)
		return EFTYPE;
	return 0;
}

static int
rec_create(struct recno *rn)
{
	u_int8_t *page;
	struct meta *m;
	int rv = -1;

	if ((page = calloc(1, rn->psize)) == NULL)
		return -1;
	HDR(page)->type = P_META;
	m = META(page);
	m->magic = REC_MAGIC;
	m->version = DB_VERSION;
	m->psize = rn->psize;
	m->npages = 1;
	m->reclen = rn->reclen;
	page_setcksum(page, rn->psize);
	if (lseek(rn->fd, 0, SEEK_SET) == 0 &&
	    write(rn->fd, page, rn->psize) == (ssize_t)rn->psize &&
	    fsync(rn->fd) == 0)
		rv = 0;
	free(page);
	return rv;
}

struct recno *
rec_open(const char *path, int flags, int mode, const struct recnoinfo *info,
    struct tp_env *env)
{
	u_int8_t buf[PGHDR + sizeof(struct meta)];
	struct recno *rn;
	void *meta;
	off_t end;
	int error;

	if ((rn = calloc(1, sizeof(*rn))) == NULL)
		return NULL;
	if ((rn->fd = open(path, flags, mode)) < 0) {
		free(rn);
		return NULL;
	}
	if ((end = lseek(rn->fd, 0, SEEK_END)) < 0)
		goto fail;
	if (end == 0) {
		errno = (flags & O_ACCMODE) == O_RDONLY ? EFTYPE : EINVAL;
		if ((flags & O_ACCMODE) == O_RDONLY || info == NULL ||
		    (rn->psize = fs_psize(rn->fd, info->psize)) == 0 ||
		    info->reclen == 0 || info->reclen > rn->psize - PGHDR)
			goto fail;
		rn->reclen = info->reclen;
		if (rec_create(rn) < 0)
			goto fail;
	} else {
		errno = EFTYPE;
		if (lseek(rn->fd, 0, SEEK_SET) != 0 ||
		    read(rn->fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			goto fail;
		rn->psize = META(buf)->psize;
		rn->reclen = META(buf)->reclen;
		if (rn->psize < MIN_PSIZE || rn->psize > MAX_PSIZE ||
		    (rn->psize & (rn->psize - 1)) != 0 || rn->reclen == 0 ||
		    rn->reclen > rn->psize - PGHDR ||
		    (info != NULL && info->reclen != 0 &&
		    info->reclen != rn->reclen))
			goto fail;
	}
	rn->perpage = (rn->psize - PGHDR) / rn->reclen;
	rn->env = env;
	if ((rn->mp = mpool_open(rn->fd, rn->psize,
	    info && info->cache ? info->cache : 16)) == NULL)
		goto fail;
	rn->mp->pgin = rec_pgin;
	rn->mp->arg = rn;
	if ((meta = mpool_get(rn->mp, 0, 0)) == NULL)
		goto fail;
	mpool_put(rn->mp, meta, 0);
	if (env != NULL && tp_register(env, rn->mp, path) < 0)
		goto fail;
	return rn;
fail:
	error = errno;
	if (rn->mp != NULL)
		mpool_close(rn->mp);
	close(rn->fd);
	free(rn);
	errno = error;
	return NULL;
}

int
rec_close(struct recno *rn)
{
	int rv, error;

	if (rn->mp->env != NULL)
		tp_unregister(rn->mp->env, rn->mp);
	rv = mpool_close(rn->mp);
	if (rv == 0)
		rv = fsync(rn->fd);
	error = errno;
	close(rn->fd);
	free(rn);
	errno = error;
	return rv;
}

int
rec_sync(struct recno *rn)
{
	if (mpool_sync(rn->mp) < 0)
		return -1;
	return fsync(rn->fd);
}

u_int32_t
rec_reclen(struct recno *rn)
{
	return rn->reclen;
}

struct mpool *
rec_mpool(struct recno *rn)
{
	return rn->mp;
}

int
rec_count(struct recno *rn, u_int32_t *n)
{
	void *meta;

	if ((meta = mpool_get(rn->mp, 0, 0)) == NULL)
		return -1;
	*n = META(meta)->nrecs;
	mpool_put(rn->mp, meta, 0);
	return 0;
}

/* Record r's page, pinned, and its bytes in it. */
static void *
recpage(struct recno *rn, u_int32_t r, int flags, u_int8_t **rec)
{
	u_int32_t slot = (r - 1) % rn->perpage;
	void *page;

	if ((page = mpool_get(rn->mp, 1 + (r - 1) / rn->perpage, flags)) ==
	    NULL)
		return NULL;
	if (slot >= HDR(page)->nent) {		/* the meta page says more */
		mpool_put(rn->mp, page, 0);
		errno = EFTYPE;
		return NULL;
	}
	*rec = (u_int8_t *)page + PGHDR + slot * rn->reclen;
	return page;
}

int
rec_get(struct recno *rn, u_int32_t r, void *buf)
{
	u_int32_t n;
	u_int8_t *rec;
	void *page;

	if (rec_count(rn, &n) < 0)
		return -1;
	if (r == 0 || r > n)
		return DB_NOTFOUND;
	if ((page = recpage(rn, r, 0, &rec)) == NULL)
		return -1;
	memcpy(buf, rec, rn->reclen);
	mpool_put(rn->mp, page, 0);
	return 0;
}

/* Records nrecs + 1 .. r exist from now on, zero-filled. */
static int
extend(struct recno *rn, void *meta, u_int32_t r)
{
	struct meta *m = META(meta);
	u_int32_t pg, last = 1 + (r - 1) / rn->perpage, slot;
	void *page;

	while (m->nrecs < r) {
		pg = 1 + m->nrecs / rn->perpage;
		slot = m->nrecs % rn->perpage;
		if (slot == 0) {
			page = mpool_get(rn->mp, pg, MPOOL_NEW | MPOOL_WRITE);
			if (page != NULL) {
				HDR(page)->type = P_RECNO;
				m->npages = pg + 1;
			}
		} else
			page = mpool_get(rn->mp, pg, MPOOL_WRITE);
		if (page == NULL)
			return -1;
		HDR(page)->nent = (u_int16_t)(pg == last ?
		    (r - 1) % rn->perpage + 1 : rn->perpage);
		m->nrecs = pg == last ? r : pg * rn->perpage;
		mpool_put(rn->mp, page, MPOOL_DIRTY);
	}
	return 0;
}

int
rec_put(struct recno *rn, u_int32_t r, const void *buf)
{
	void *meta, *page;
	u_int8_t *rec;
	int rv = 0;

	if (r == 0) {
		errno = EINVAL;
		return -1;
	}
	if ((meta = mpool_get(rn->mp, 0, 0)) == NULL)
		return -1;
	if (r > META(meta)->nrecs) {
		void *wmeta = mpool_get(rn->mp, 0, MPOOL_WRITE);

		mpool_put(rn->mp, meta, 0);
		if ((meta = wmeta) == NULL)
			return -1;
		rv = extend(rn, meta, r);
		mpool_put(rn->mp, meta, MPOOL_DIRTY);
	} else
		mpool_put(rn->mp, meta, 0);
	if (rv < 0 || (page = recpage(rn, r, MPOOL_WRITE, &rec)) == NULL)
		return -1;
	memcpy(rec, buf, rn->reclen);
	mpool_put(rn->mp, page, MPOOL_DIRTY);
	return 0;
}

int
rec_append(struct recno *rn, const void *buf, u_int32_t *rp)
{
	u_int32_t n;

	if (rec_count(rn, &n) < 0)
		return -1;
	if (n == 0xffffffffu) {
		errno = EFBIG;
		return -1;
	}
	if (rec_put(rn, n + 1, buf) < 0)
		return -1;
	if (rp != NULL)
		*rp = n + 1;
	return 0;
}
