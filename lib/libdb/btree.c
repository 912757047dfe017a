/*
 * The primary B-tree (thesis 5.1.4.6, 4.4BSD btree(3)): records live in
 * the leaves, keys are ordered; get, put (insert, or replace), delete.
 *
 * Every operation descends from the root (the meta page says which page
 * it is) to the leaf that holds or would hold the key, pinning one page
 * at a time and remembering the path.  A replace of a record by one of
 * the same length overwrites it in place, so a TPC-B update changes (and
 * logs) only the bytes of the balance.  An insert into a full page splits
 * it: half the bytes go to a new right sibling (all but the new entry
 * when it is appended to the rightmost leaf, which keeps in-order inserts
 * dense), the right page's first key goes up into the parent, and a full
 * parent splits in turn; a root that splits gets a new root above it.
 * A delete takes the entry out of its leaf; pages are never merged or
 * freed (as in db(3), the file does not shrink).
 */
#include <sys/types.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/libdb/btint.h"

/* A new file: the meta page and an empty leaf as the root, fsync'd. */
static int
bt_create(struct btree *bt)
{
	u_int8_t *page;
	struct meta *m;
	int rv = -1;

	if ((page = calloc(1, bt->psize)) == NULL)
		return -1;
	HDR(page)->type = P_META;
	m = META(page);
	m->magic = BT_MAGIC;
	m->version = DB_VERSION;
	m->psize = bt->psize;
	m->npages = 2;
	m->root = 1;
	page_setcksum(page, bt->psize);
	if (lseek(bt->fd, 0, SEEK_SET) != 0 ||
	    write(bt->fd, page, bt->psize) != (ssize_t)bt->psize)
		goto out;
	memset(page, 0, bt->psize);
	bt_pginit(page, bt->psize, 1, P_BLEAF, 0);
	page_setcksum(page, bt->psize);
	if (write(bt->fd, page, bt->psize) != (ssize_t)bt->psize ||
	    (!bt->nosync && fsync(bt->fd) < 0))
		goto out;
	rv = 0;
out:
	free(page);
	return rv;
}

/* The page size an existing file was made with, from its meta page. */
static u_int32_t
bt_filepsize(int fd)
{
	u_int8_t buf[PGHDR + sizeof(struct meta)];
	u_int32_t ps;

	if (lseek(fd, 0, SEEK_SET) != 0 ||
	    read(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		return 0;
	ps = META(buf)->psize;
	if (ps < MIN_PSIZE || ps > MAX_PSIZE || (ps & (ps - 1)) != 0)
		return 0;
	return ps;
}

static void
bt_free(struct btree *bt)
{
	if (bt->fd >= 0)
		close(bt->fd);
	free(bt->dbuf);
	free(bt->tmp);
	free(bt->ebuf);
	free(bt);
}

struct btree *
bt_open(const char *path, int flags, int mode, const struct btreeinfo *info,
    struct tp_env *env)
{
	struct btree *bt;
	void *meta;
	off_t end;
	int error;

	if ((bt = calloc(1, sizeof(*bt))) == NULL)
		return NULL;
	if ((bt->fd = open(path, flags, mode)) < 0) {
		free(bt);
		return NULL;
	}
	bt->nosync = info != NULL && info->nosync;
	if ((end = lseek(bt->fd, 0, SEEK_END)) < 0)
		goto fail;
	if (end == 0) {
		errno = EFTYPE;
		if ((flags & O_ACCMODE) == O_RDONLY)
			goto fail;
		errno = EINVAL;
		if ((bt->psize = fs_psize(bt->fd, info ? info->psize : 0)) == 0 ||
		    bt_create(bt) < 0)
			goto fail;
	} else if ((bt->psize = bt_filepsize(bt->fd)) == 0) {
		errno = EFTYPE;
		goto fail;
	}
	bt->fill = info && info->fill > 0 && info->fill <= 100 ? info->fill : 100;
	bt->maxitem = (bt->psize - PGHDR) / 4 - 2;
	bt->env = env;
	if ((bt->dbuf = malloc(bt->psize)) == NULL ||
	    (bt->tmp = malloc(bt->psize)) == NULL ||
	    (bt->ebuf = malloc(bt->maxitem)) == NULL ||
	    (bt->mp = mpool_open(bt->fd, bt->psize,
	    info && info->cache ? info->cache : 64)) == NULL)
		goto fail;
	bt->mp->pgin = bt_pgin;
	bt->mp->arg = bt;
	if ((meta = mpool_get(bt->mp, 0, 0)) == NULL)
		goto fail;
	mpool_put(bt->mp, meta, 0);
	if (env != NULL && tp_register(env, bt->mp, path) < 0)
		goto fail;
	return bt;
fail:
	error = errno;
	if (bt->mp != NULL)
		mpool_close(bt->mp);
	bt_free(bt);
	errno = error;
	return NULL;
}

/* Write what is dirty, fsync (unless nosync), and close. */
int
bt_close(struct btree *bt)
{
	int rv, error;

	if (bt->mp->env != NULL)
		tp_unregister(bt->mp->env, bt->mp);
	rv = mpool_close(bt->mp);
	if (rv == 0 && !bt->nosync)
		rv = fsync(bt->fd);
	error = errno;
	bt_free(bt);
	errno = error;
	return rv;
}

int
bt_sync(struct btree *bt)
{
	if (mpool_sync(bt->mp) < 0)
		return -1;
	return bt->nosync ? 0 : fsync(bt->fd);
}

void *
bt_meta(struct btree *bt, int flags)
{
	return mpool_get(bt->mp, 0, flags);
}

u_int32_t
bt_psize(struct btree *bt)
{
	return bt->psize;
}

struct mpool *
bt_mpool(struct btree *bt)
{
	return bt->mp;
}

u_int32_t
bt_npages(struct btree *bt)
{
	void *meta = bt_meta(bt, 0);
	u_int32_t n;

	if (meta == NULL)
		return 0;
	n = META(meta)->npages;
	mpool_put(bt->mp, meta, 0);
	return n;
}

/*
 * Entry idx's child of an internal page, pinned; it must be a page one
 * level down (so a damaged child pointer cannot make a cycle).
 */
void *
bt_child(struct btree *bt, const void *parent, int idx, int flags)
{
	void *page = mpool_get(bt->mp, bt_echild(parent, idx), flags);

	if (page != NULL && HDR(page)->level + 1 != HDR(parent)->level) {
		mpool_put(bt->mp, page, 0);
		errno = EFTYPE;
		return NULL;
	}
	return page;
}

/*
 * The leaf where key is or belongs, pinned (MPOOL_WRITE: for writing),
 * and in path the internal pages on the way down.  Internal pages are
 * pinned and locked for reading only.
 */
void *
bt_descend(struct btree *bt, const DBT *key, int flags, struct btpath *path)
{
	void *meta, *page, *next;
	u_int32_t root;
	int idx, exact;

	if ((meta = bt_meta(bt, 0)) == NULL)
		return NULL;
	root = META(meta)->root;
	mpool_put(bt->mp, meta, 0);
	if ((page = mpool_get(bt->mp, root, 0)) == NULL)
		return NULL;
	if (HDR(page)->level == 0 && (flags & MPOOL_WRITE)) {
		next = mpool_get(bt->mp, root, MPOOL_WRITE);
		mpool_put(bt->mp, page, 0);
		if ((page = next) == NULL)
			return NULL;
	}
	path->depth = 0;
	while (HDR(page)->level > 0) {
		idx = bt_pgsearch(page, key, &exact);
		path->pgno[path->depth] = HDR(page)->pgno;
		path->idx[path->depth++] = (u_int16_t)idx;
		next = bt_child(bt, page, idx,
		    HDR(page)->level == 1 ? flags & MPOOL_WRITE : 0);
		mpool_put(bt->mp, page, 0);
		if ((page = next) == NULL)
			return NULL;
	}
	return page;
}

/* A new page at the end of the file, pinned for writing. */
void *
bt_newpage(struct btree *bt, int type, int level)
{
	void *meta, *page;
	u_int32_t pgno;

	if ((meta = bt_meta(bt, MPOOL_WRITE)) == NULL)
		return NULL;
	pgno = META(meta)->npages;
	if (pgno == 0xffffffffu) {
		mpool_put(bt->mp, meta, 0);
		errno = EFBIG;
		return NULL;
	}
	META(meta)->npages++;
	mpool_put(bt->mp, meta, MPOOL_DIRTY);
	if ((page = mpool_get(bt->mp, pgno, MPOOL_NEW | MPOOL_WRITE)) == NULL)
		return NULL;
	bt_pginit(page, bt->psize, pgno, type, level);
	return page;
}

int
bt_get(struct btree *bt, const DBT *key, DBT *data)
{
	struct btpath path;
	void *leaf;
	int idx, exact;
	DBT d;

	if ((leaf = bt_descend(bt, key, 0, &path)) == NULL)
		return -1;
	idx = bt_pgsearch(leaf, key, &exact);
	if (exact) {
		bt_edata(leaf, idx, &d);
		memcpy(bt->dbuf, d.data, d.size);
		data->data = bt->dbuf;
		data->size = d.size;
	}
	mpool_put(bt->mp, leaf, 0);
	return exact ? 0 : DB_NOTFOUND;
}

static int insert(struct btree *, struct btpath *, void *, int,
    const u_int8_t *, u_int32_t);

/*
 * Split a full page in two and insert entry e (size bytes) as its entry
 * idx; then put the right half's first key into the parent.
 */
static int
split(struct btree *bt, struct btpath *path, void *page, int idx,
    const u_int8_t *e, u_int32_t size)
{
	struct pghdr *h = page;
	int n = h->nent + 1, i, s, leaf = h->type == P_BLEAF, level = h->level;
	const u_int8_t **item = NULL;
	u_int32_t *isize = NULL, total = 0, sum, oldnext, klen;
	u_int8_t *sep = NULL;
	void *right = NULL, *up;
	int rv = -1;

	memcpy(bt->tmp, page, bt->psize);
	if ((item = malloc(n * sizeof(*item))) == NULL ||
	    (isize = malloc(n * sizeof(*isize))) == NULL ||
	    (sep = malloc(INTSIZE(bt->maxitem))) == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		if (i == idx) {
			item[i] = e;
			isize[i] = size;
		} else {
			item[i] = ENTRY(bt->tmp, i < idx ? i : i - 1);
			isize[i] = bt_esize(bt->tmp, i < idx ? i : i - 1);
		}
		total += isize[i] + 2;
	}
	if (leaf && idx == n - 1 && h->next == P_NONE)
		s = n - 1;		/* appending: keep the left page full */
	else
		for (s = 1, sum = isize[0] + 2; s < n - 1 &&
		    sum + isize[s] + 2 <= total / 2; s++)
			sum += isize[s] + 2;
	if ((right = bt_newpage(bt, h->type, h->level)) == NULL)
		goto out;
	/* The separator, and for an internal page a keyless first entry. */
	klen = get16(item[s]);
	put16(sep, klen);
	put16(sep + 2, 0);
	put32(sep + 4, HDR(right)->pgno);
	memcpy(sep + 8, item[s] + (leaf ? 4 : 8), klen);
	oldnext = h->next;
	bt_pginit(page, bt->psize, h->pgno, h->type, h->level);
	for (i = 0; i < s; i++)
		bt_pginsert(page, bt->psize, i, item[i], isize[i], bt->tmp);
	for (i = s; i < n; i++) {
		if (i == s && !leaf) {
			u_int8_t first[8];

			put16(first, 0);
			put16(first + 2, 0);
			put32(first + 4, get32(item[i] + 4));
			bt_pginsert(right, bt->psize, 0, first, 8, bt->tmp);
		} else
			bt_pginsert(right, bt->psize, i - s, item[i], isize[i],
			    bt->tmp);
	}
	if (leaf) {
		HDR(right)->prev = h->pgno;
		HDR(right)->next = oldnext;
		h->next = HDR(right)->pgno;
		if (oldnext != P_NONE) {
			void *nb = mpool_get(bt->mp, oldnext, MPOOL_WRITE);

			if (nb == NULL)
				goto out;
			HDR(nb)->prev = HDR(right)->pgno;
			mpool_put(bt->mp, nb, MPOOL_DIRTY);
		}
	}
	if (path->depth == 0) {		/* a new root above the two */
		void *meta;
		u_int8_t first[8];

		if ((up = bt_newpage(bt, P_BINTERNAL, level + 1)) == NULL ||
		    (meta = bt_meta(bt, MPOOL_WRITE)) == NULL)
			goto out;
		put16(first, 0);
		put16(first + 2, 0);
		put32(first + 4, h->pgno);
		bt_pginsert(up, bt->psize, 0, first, 8, bt->tmp);
		bt_pginsert(up, bt->psize, 1, sep, INTSIZE(klen), bt->tmp);
		META(meta)->root = HDR(up)->pgno;
		mpool_put(bt->mp, meta, MPOOL_DIRTY);
		mpool_put(bt->mp, up, MPOOL_DIRTY);
		rv = 0;
		goto out;
	}
	mpool_put(bt->mp, right, MPOOL_DIRTY);
	right = NULL;
	mpool_put(bt->mp, page, MPOOL_DIRTY);
	page = NULL;
	path->depth--;
	if ((up = mpool_get(bt->mp, path->pgno[path->depth], MPOOL_WRITE)) ==
	    NULL)
		goto out;
	if (HDR(up)->level != level + 1) {
		mpool_put(bt->mp, up, 0);
		errno = EFTYPE;
		goto out;
	}
	rv = insert(bt, path, up, path->idx[path->depth] + 1, sep,
	    INTSIZE(klen));
out:
	if (right != NULL)
		mpool_put(bt->mp, right, MPOOL_DIRTY);
	if (page != NULL)
		mpool_put(bt->mp, page, MPOOL_DIRTY);
	free(item);
	free(isize);
	free(sep);
	return rv;
}

/* Insert entry e as entry idx of a pinned page, splitting if it is full. */
static int
insert(struct btree *bt, struct btpath *path, void *page, int idx,
    const u_int8_t *e, u_int32_t size)
{
	if (!bt_pgfits(page, bt->psize, size))
		return split(bt, path, page, idx, e, size);
	bt_pginsert(page, bt->psize, idx, e, size, bt->tmp);
	mpool_put(bt->mp, page, MPOOL_DIRTY);
	return 0;
}

int
bt_put(struct btree *bt, const DBT *key, const DBT *data, int flags)
{
	struct btpath path;
	void *leaf;
	int idx, exact;
	DBT old;

	if (key->size > 0xffff || data->size > 0xffff ||
	    LEAFSIZE(key->size, data->size) > bt->maxitem) {
		errno = EINVAL;
		return -1;
	}
	if ((leaf = bt_descend(bt, key, MPOOL_WRITE, &path)) == NULL)
		return -1;
	idx = bt_pgsearch(leaf, key, &exact);
	if (exact) {
		if (flags & BT_NOOVERWRITE) {
			mpool_put(bt->mp, leaf, 0);
			return DB_KEYEXIST;
		}
		bt_edata(leaf, idx, &old);
		if (old.size == data->size) {
			memcpy(old.data, data->data, data->size);
			mpool_put(bt->mp, leaf, MPOOL_DIRTY);
			return 0;
		}
		bt_pgdelete(leaf, idx);
	}
	put16(bt->ebuf, key->size);
	put16(bt->ebuf + 2, data->size);
	memcpy(bt->ebuf + 4, key->data, key->size);
	memcpy(bt->ebuf + 4 + key->size, data->data, data->size);
	return insert(bt, &path, leaf, idx, bt->ebuf,
	    LEAFSIZE(key->size, data->size));
}

int
bt_del(struct btree *bt, const DBT *key)
{
	struct btpath path;
	void *leaf;
	int idx, exact;

	if ((leaf = bt_descend(bt, key, MPOOL_WRITE, &path)) == NULL)
		return -1;
	idx = bt_pgsearch(leaf, key, &exact);
	if (!exact) {
		mpool_put(bt->mp, leaf, 0);
		return DB_NOTFOUND;
	}
	bt_pgdelete(leaf, idx);
	mpool_put(bt->mp, leaf, MPOOL_DIRTY);
	return 0;
}
