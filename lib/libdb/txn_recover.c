/*
 * Undo and redo (thesis 5.1.4.1): log_unroll aborts a transaction,
 * tp_recover is the recovery program's body (log_roll).
 *
 * log_unroll follows the transaction's records backward through prev and
 * puts each changed run of bytes back as it was (its before-image).
 * Each undo is logged as a CLR (compensation record: the bytes put
 * back, redo only) and stamps the page with the CLR's LSN, so an aborted
 * transaction's history, forward and back, can be replayed like any
 * other.
 *
 * tp_recover reads the log from the checkpoint three times:
 *   1. which transactions finished: a COMMIT or ABORT record;
 *   2. redo, forward: every UPDATE and CLR of a finished transaction is
 *      applied to its page unless the page's lsn says it is there already
 *      (a page written after the change has a later lsn);
 *   3. undo, backward: every UPDATE of an unfinished transaction is
 *      undone with its before-image.
 * Strict page locking makes this enough: a page's changes by an
 * unfinished transaction come after every finished one's, so undoing them
 * last leaves the finished ones in place.  Then every page is written and
 * fsync'd and the log emptied (a checkpoint), so recovery that is cut
 * short by another crash simply runs again.  A page of zeros is one
 * never written (lsn 0); a page whose checksum fails cannot be repaired
 * (physical logging has no full image of it) and recovery stops with
 * EFTYPE.
 */
#include <sys/types.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/libdb/txnint.h"

/*
 * Apply an UPDATE's before-image (undo) or an UPDATE's or CLR's
 * after-image to a page; EFTYPE if the record does not fit the page.
 */
static int
apply(void *page, u_int32_t psize, const u_int8_t *rec, int undo)
{
	struct lrec h;
	struct lrupdate u;
	const u_int8_t *img;
	u_int32_t need;
	int zero;

	memcpy(&h, rec, LRHDR);
	memcpy(&u, rec + LRHDR, sizeof(u));
	zero = h.type == LR_UPDATE && (h.flags & LRF_ZEROBEFORE);
	need = LRHDR + sizeof(u) + u.n *
	    (h.type == LR_UPDATE && !zero ? 2 : 1);
	if (u.off < PG_LOGGED || u.off + u.n > psize || need > h.len) {
		errno = EFTYPE;
		return -1;
	}
	img = rec + LRHDR + sizeof(u);
	if (undo && zero)
		memset((u_int8_t *)page + u.off, 0, u.n);
	else if (undo)
		memcpy((u_int8_t *)page + u.off, img, u.n);
	else
		memcpy((u_int8_t *)page + u.off,
		    h.type == LR_UPDATE && !zero ? img + u.n : img, u.n);
	return 0;
}

int
log_unroll(struct tp_env *env, struct tp_txn *txn)
{
	struct lrec h;
	struct lrupdate u;
	struct mpool *mp;
	u_int8_t *rec;
	u_int64_t lsn, clr;
	void *page;
	int rv = -1;

	if ((rec = malloc(MAXREC)) == NULL)
		return -1;
	env->cur = NULL;		/* undo takes no locks, logs no diffs */
	for (lsn = txn->lastlsn; lsn != 0; lsn = h.prev) {
		if (log_read(env, lsn, rec) < 0)
			goto out;
		memcpy(&h, rec, LRHDR);
		if (h.txnid != txn->id || (h.prev != 0 && h.prev >= lsn)) {
			errno = EFTYPE;
			goto out;
		}
		if (h.type != LR_UPDATE)
			continue;
		memcpy(&u, rec + LRHDR, sizeof(u));
		if (u.fileid >= MAXFILES ||
		    (mp = env->files[u.fileid].mp) == NULL) {
			errno = EFTYPE;
			goto out;
		}
		if ((page = mpool_get(mp, u.pgno, MPOOL_WRITE)) == NULL)
			goto out;
		if (apply(page, mp->psize, rec, 1) < 0 ||
		    (clr = log_put(env, txn, LR_CLR, 0, &u, sizeof(u),
		    (u_int8_t *)page + u.off, u.n, NULL, 0)) == 0) {
			mpool_put(mp, page, 0);
			goto out;
		}
		HDR(page)->lsn = clr;
		mpool_put(mp, page, MPOOL_DIRTY);
	}
	rv = 0;
out:
	env->cur = txn;
	free(rec);
	return rv;
}

/* A file named in the log, as recovery opens it. */
struct rfile {
	char	  name[MAXNAME];
	int	  fd;
	struct mpool *mp;
};

struct recovery {
	struct tp_env env;		/* only the log part is used */
	struct rfile files[4 * MAXFILES];
	int	  nfiles;
	int	  idmap[MAXFILES];	/* file id -> files[], as of the scan */
	u_int8_t *state;		/* by transaction id: T_* */
	u_int32_t nstate;
	u_int64_t *undo;		/* LSNs of unfinished transactions' UPDATEs */
	u_int32_t nundo, maxundo;
	u_int8_t *rec;
};
#define T_SEEN		0x01	/* it has records */
#define T_COMMITTED	0x02
#define T_ABORTED	0x04
#define T_END		(T_COMMITTED | T_ABORTED)

static int
markstate(struct recovery *r, u_int32_t id, int state)
{
	u_int8_t *ns;
	u_int32_t n;

	if (id >= r->nstate) {
		for (n = r->nstate ? r->nstate : 256; n <= id; n *= 2)
			continue;
		if ((ns = realloc(r->state, n)) == NULL)
			return -1;
		memset(ns + r->nstate, 0, n - r->nstate);
		r->state = ns;
		r->nstate = n;
	}
	r->state[id] |= (u_int8_t)(T_SEEN | state);
	return 0;
}

/* A FILE record: the file it names now has that id. */
static int
usefile(struct recovery *r, const u_int8_t *rec)
{
	struct lrfile f;
	char path[1024];
	const char *name = (const char *)rec + LRHDR + sizeof(f);
	struct lrec h;
	int i;

	memcpy(&h, rec, LRHDR);
	memcpy(&f, rec + LRHDR, sizeof(f));
	if (f.fileid >= MAXFILES || h.len <= LRHDR + sizeof(f) ||
	    memchr(name, 0, h.len - LRHDR - sizeof(f)) == NULL ||
	    strlen(name) >= MAXNAME || f.psize < MIN_PSIZE ||
	    f.psize > MAX_PSIZE) {
		errno = EFTYPE;
		return -1;
	}
	for (i = 0; i < r->nfiles; i++)
		if (strcmp(r->files[i].name, name) == 0)
			break;
	if (i == r->nfiles) {
		if (r->nfiles == 4 * MAXFILES) {
			errno = EMFILE;
			return -1;
		}
		snprintf(path, sizeof(path), "%s/%s", r->env.dir, name);
		strcpy(r->files[i].name, name);
		if ((r->files[i].fd = open(path, O_RDWR)) < 0)
			return -1;
		r->nfiles++;
		if ((r->files[i].mp = mpool_open(r->files[i].fd, f.psize,
		    256)) == NULL)
			return -1;
		r->files[i].mp->zerook = 1;
	}
	r->idmap[f.fileid] = i;
	return 0;
}

/* The page an UPDATE or CLR names, pinned, through the file map. */
static void *
recpage(struct recovery *r, const u_int8_t *rec, int fi, struct mpool **mpp)
{
	struct lrupdate u;

	memcpy(&u, rec + LRHDR, sizeof(u));
	if (u.fileid >= MAXFILES || (fi < 0 && (fi = r->idmap[u.fileid]) < 0)) {
		errno = EFTYPE;
		return NULL;
	}
	*mpp = r->files[fi].mp;
	return mpool_get(*mpp, u.pgno, 0);
}

/* Passes 1 and 2: who finished; then redo them and list the rest. */
static int
roll(struct recovery *r, struct tp_recover_stat *st, int pass)
{
	struct logscan sc;
	struct lrec h;
	struct mpool *mp;
	void *page;
	int n, i;

	for (i = 0; i < MAXFILES; i++)
		r->idmap[i] = -1;
	if (log_scanstart(&r->env, &sc) < 0)
		return -1;
	while ((n = log_scan(&sc, r->rec)) > 0) {
		memcpy(&h, r->rec, LRHDR);
		if (h.type == LR_FILE) {
			if (usefile(r, r->rec) < 0)
				break;
			continue;
		}
		if (markstate(r, h.txnid, h.type == LR_COMMIT ? T_COMMITTED :
		    h.type == LR_ABORT ? T_ABORTED : 0) < 0)
			break;
		if (pass == 1) {
			st->records++;
			continue;
		}
		if (h.type != LR_UPDATE && h.type != LR_CLR)
			continue;
		if ((r->state[h.txnid] & T_END) == 0) {
			if (h.type == LR_CLR)
				continue;
			if (r->nundo == r->maxundo) {
				u_int64_t *nu;

				r->maxundo = r->maxundo ? 2 * r->maxundo : 256;
				if ((nu = realloc(r->undo, r->maxundo *
				    sizeof(*nu))) == NULL)
					break;
				r->undo = nu;
			}
			r->undo[r->nundo++] = h.lsn;
			continue;
		}
		if ((page = recpage(r, r->rec, -1, &mp)) == NULL)
			break;
		if (HDR(page)->lsn < h.lsn) {
			if (apply(page, mp->psize, r->rec, 0) < 0) {
				mpool_put(mp, page, 0);
				break;
			}
			HDR(page)->lsn = h.lsn;
			mpool_put(mp, page, MPOOL_DIRTY);
			st->redone++;
		} else
			mpool_put(mp, page, 0);
	}
	log_scanend(&sc);
	return n > 0 ? -1 : n;
}

/*
 * Pass 3: undo the unfinished, newest first.  A record's file is the one
 * its id named when it was written, so the log is read forward once more
 * to see which that was for each record to undo.
 */
static int
unroll(struct recovery *r, struct tp_recover_stat *st)
{
	struct logscan sc;
	struct lrec h;
	struct lrupdate u;
	struct mpool *mp;
	u_int32_t k = 0;
	int *fileof, n = 0, i;
	void *page;

	if (r->nundo == 0)
		return 0;
	if ((fileof = malloc(r->nundo * sizeof(*fileof))) == NULL)
		return -1;
	for (i = 0; i < MAXFILES; i++)
		r->idmap[i] = -1;
	if (log_scanstart(&r->env, &sc) < 0)
		goto fail;
	while (k < r->nundo && (n = log_scan(&sc, r->rec)) > 0) {
		memcpy(&h, r->rec, LRHDR);
		memcpy(&u, r->rec + LRHDR, sizeof(u));
		if (h.type == LR_FILE && usefile(r, r->rec) < 0)
			break;
		if (h.lsn == r->undo[k])
			fileof[k++] = u.fileid < MAXFILES ?
			    r->idmap[u.fileid] : -1;
	}
	log_scanend(&sc);
	errno = EFTYPE;
	if (k < r->nundo)
		goto fail;
	while (k-- > 0) {
		if (fileof[k] < 0 || log_read(&r->env, r->undo[k], r->rec) < 0 ||
		    (page = recpage(r, r->rec, fileof[k], &mp)) == NULL)
			goto fail;
		n = apply(page, mp->psize, r->rec, 1);
		mpool_put(mp, page, MPOOL_DIRTY);
		if (n < 0)
			goto fail;
		st->undone++;
	}
	free(fileof);
	return 0;
fail:
	free(fileof);
	return -1;
}

int
tp_recover(const char *dir, struct tp_recover_stat *stp)
{
	struct recovery *r;
	struct tp_recover_stat st;
	u_int32_t i;
	int dirty, rv = -1, error;

	memset(&st, 0, sizeof(st));
	if ((r = calloc(1, sizeof(*r))) == NULL)
		return -1;
	r->env.logfd = -1;
	if ((r->env.dir = strdup(dir)) == NULL ||
	    (r->rec = malloc(MAXREC)) == NULL ||
	    log_open(&r->env, &dirty) < 0)
		goto out;
	if (dirty && (roll(r, &st, 1) < 0 || roll(r, &st, 2) < 0 ||
	    unroll(r, &st) < 0))
		goto out;
	for (i = 0; i < r->nstate; i++) {
		st.committed += (r->state[i] & T_END) == T_COMMITTED;
		st.aborted += (r->state[i] & T_END) == T_ABORTED;
		st.losers += r->state[i] == T_SEEN;
	}
	for (i = 0; i < (u_int32_t)r->nfiles; i++)
		if (mpool_sync(r->files[i].mp) < 0 ||
		    fsync(r->files[i].fd) < 0)
			goto out;
	if (log_reset(&r->env) < 0)
		goto out;
	rv = 0;
out:
	error = errno;
	for (i = 0; i < (u_int32_t)r->nfiles; i++) {
		if (r->files[i].mp != NULL)
			mpool_close(r->files[i].mp);
		close(r->files[i].fd);
	}
	log_close(&r->env);
	free(r->env.dir);
	free(r->state);
	free(r->undo);
	free(r->rec);
	free(r);
	if (stp != NULL)
		*stp = st;
	errno = error;
	return rv;
}
