/*
 * The transaction manager (thesis 5.1.4.5): tp_begin, tp_commit,
 * tp_abort, and the environment that ties the log, the locks and the
 * files together.
 *
 * Write-ahead logging with before- and after-images (thesis 5.1.1), so
 * the buffer manager may write a dirty page of a running transaction
 * (STEAL) and commit forces only the log (NO-FORCE).  The record manager
 * does no logging itself: mpool hands tp_logpage the page as it was
 * when it was pinned for writing and as it is now, and the bytes that
 * differ become UPDATE records, runs closer than GAP bytes merged into
 * one record.  (LIBTP logged each access method's operations logically,
 * a B-tree replace as a delete and an insert; physical images of the
 * changed bytes need no per-method undo and redo code, and a TPC-B
 * update logs only the eight bytes of a balance.)
 *
 * Commit: the COMMIT record goes to the log buffer, the locks are
 * released, and the log is forced now or later as the group-commit
 * thresholds say (db.h).  Releasing the locks before the force is safe
 * with one log: a transaction that saw this one's changes writes its
 * COMMIT record after this one's, so it cannot be durable without it.
 * A commit is acknowledged (tp_durable) once the force covers it.
 *
 * Checkpoint: between transactions, every dirty page of every file is
 * written and fsync'd, then the log is emptied (log_reset) and the files
 * are logged again, so recovery never reads more than one checkpoint
 * interval of log.
 */
#include <sys/types.h>
#include <sys/time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/libdb/txnint.h"

#define GAP	40	/* unchanged bytes that end a logged run */

static u_int64_t
now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (u_int64_t)tv.tv_sec * 1000000 + (u_int64_t)tv.tv_usec;
}

static void
env_free(struct tp_env *env)
{
	log_close(env);
	lock_free(env);
	free(env->dir);
	free(env);
}

struct tp_env *
tp_open(const char *dir, const struct tp_info *info, int flags)
{
	struct tp_env *env;
	int dirty, error;

	if ((env = calloc(1, sizeof(*env))) == NULL)
		return NULL;
	env->logfd = -1;
	if (info != NULL)
		env->info = *info;
	if (env->info.ckpt_kb == 0)
		env->info.ckpt_kb = 1024;
	env->nextid = 1;
	if ((env->dir = strdup(dir)) == NULL || lock_init(env) < 0 ||
	    log_open(env, &dirty) < 0)
		goto fail;
	if (dirty) {
		errno = EBUSY;
		if (!(flags & TP_RECOVER))
			goto fail;
		log_close(env);
		if (tp_recover(dir, NULL) < 0 || log_open(env, &dirty) < 0)
			goto fail;
	}
	return env;
fail:
	error = errno;
	env_free(env);
	errno = error;
	return NULL;
}

int
tp_close(struct tp_env *env)
{
	u_int32_t id;
	int rv = 0, error;

	if (env->cur != NULL)
		rv = tp_abort(env->cur);
	if (tp_checkpoint(env) < 0)
		rv = -1;
	for (id = 0; id < MAXFILES; id++)
		if (env->files[id].mp != NULL)
			env->files[id].mp->env = NULL;
	error = errno;
	env_free(env);
	errno = error;
	return rv;
}

struct tp_txn *
tp_current(struct tp_env *env)
{
	return env->cur;
}

u_int32_t
tp_id(struct tp_txn *txn)
{
	return txn->id;
}

u_int64_t
tp_durable(struct tp_env *env)
{
	return env->durable_commits;
}

void
tp_stat(struct tp_env *env, struct tp_stat *st)
{
	*st = env->st;
}

static void
file_record(struct tp_env *env, u_int32_t id)
{
	struct lrfile f;

	f.fileid = id;
	f.psize = env->files[id].mp->psize;
	log_put(env, NULL, LR_FILE, 0, &f, sizeof(f), env->files[id].name,
	    strlen(env->files[id].name) + 1, NULL, 0);
}

/*
 * A file opened in the environment: it gets a file id, and a FILE record
 * tells recovery its name (its last component: the file lives in the
 * environment's directory).
 */
int
tp_register(struct tp_env *env, struct mpool *mp, const char *path)
{
	const char *name = strrchr(path, '/');
	u_int32_t id;

	name = name != NULL ? name + 1 : path;
	if (strlen(name) >= MAXNAME || env->cur != NULL) {
		errno = EINVAL;
		return -1;
	}
	for (id = 0; id < MAXFILES && env->files[id].mp != NULL; id++)
		continue;
	if (id == MAXFILES) {
		errno = EMFILE;
		return -1;
	}
	env->files[id].mp = mp;
	strcpy(env->files[id].name, name);
	mp->env = env;
	mp->fileid = id;
	file_record(env, id);
	return 0;
}

void
tp_unregister(struct tp_env *env, struct mpool *mp)
{
	env->files[mp->fileid].mp = NULL;
	mp->env = NULL;
}

struct tp_txn *
tp_begin(struct tp_env *env)
{
	struct tp_txn *txn;

	if (env->cur != NULL) {
		errno = EBUSY;		/* one transaction per process */
		return NULL;
	}
	if ((txn = calloc(1, sizeof(*txn))) == NULL)
		return NULL;
	txn->id = env->nextid++;
	txn->env = env;
	env->cur = txn;
	env->st.begins++;
	return txn;
}

int
tp_lockpage(struct tp_env *env, u_int32_t fileid, u_int32_t pgno, int write)
{
	return lock_get(env, env->cur, fileid, pgno,
	    write ? LOCK_WRITE : LOCK_READ);
}

/*
 * Log what a transaction changed on a page: the runs of bytes that differ
 * between before and after (all of it for a page made new), each as an
 * UPDATE record; the page's lsn becomes the last one's.
 */
int
tp_logpage(struct tp_env *env, struct mpool *mp, u_int32_t pgno,
    const void *before, void *after, int full)
{
	const u_int8_t *b = before, *a = after;
	struct lrupdate u;
	u_int32_t i = PG_LOGGED, start, end, k, psize = mp->psize;
	u_int64_t lsn = 0;

	memset(&u, 0, sizeof(u));
	u.fileid = mp->fileid;
	u.pgno = pgno;
	while (i < psize) {
		if (!full && b[i] == a[i]) {
			i++;
			continue;
		}
		start = i;
		end = full ? psize : i + 1;
		for (k = end; k < psize && k < end + GAP; k++)
			if (b[k] != a[k])
				end = k + 1;
		u.off = (u_int16_t)start;
		u.n = (u_int16_t)(end - start);
		lsn = full ?
		    log_put(env, env->cur, LR_UPDATE, LRF_ZEROBEFORE, &u,
		    sizeof(u), a + start, end - start, NULL, 0) :
		    log_put(env, env->cur, LR_UPDATE, 0, &u, sizeof(u),
		    b + start, end - start, a + start, end - start);
		if (lsn == 0)
			return -1;
		i = end;
	}
	HDR(after)->lsn = lsn;
	return 0;
}

/* Write-ahead logging: a page with lsn may be written once it is durable. */
int
tp_walflush(struct tp_env *env, u_int64_t lsn)
{
	if (lsn < env->durable)
		return 0;
	env->st.walforces++;
	return tp_flush(env);
}

/* Force the log: every waiting commit is durable after it. */
int
tp_flush(struct tp_env *env)
{
	if (log_flush(env) < 0)
		return -1;
	env->durable_commits += env->nwait;
	env->nwait = 0;
	return 0;
}

/* The group-commit decision (db.h): force now? */
static int
mustforce(struct tp_env *env)
{
	struct tp_info *in = &env->info;

	if (in->group <= 1 || env->nwait >= in->group)
		return 1;
	if (in->logdelay > 0 && log_dirtypages(env) >= in->logdelay)
		return 1;
	return in->wait_ms > 0 &&
	    now_us() - env->waitsince >= (u_int64_t)in->wait_ms * 1000;
}

int
tp_commit(struct tp_txn *txn)
{
	struct tp_env *env = txn->env;
	int rv = 0;

	if (txn != env->cur) {
		errno = EINVAL;
		return -1;
	}
	/* The commit point: this record, once on the disk. */
	if (log_put(env, txn, LR_COMMIT, 0, NULL, 0, NULL, 0, NULL, 0) == 0)
		rv = -1;
	lock_unlock_all(env, txn);
	env->cur = NULL;
	free(txn);
	if (rv < 0)
		return -1;
	env->st.commits++;
	if (env->nwait++ == 0)
		env->waitsince = now_us();
	if (mustforce(env) && tp_flush(env) < 0)
		return -1;
	if (env->end - env->base >= (u_int64_t)env->info.ckpt_kb * 1024)
		return tp_checkpoint(env);
	return 0;
}

int
tp_abort(struct tp_txn *txn)
{
	struct tp_env *env = txn->env;
	int rv;

	if (txn != env->cur) {
		errno = EINVAL;
		return -1;
	}
	rv = log_unroll(env, txn);
	if (rv == 0 &&
	    log_put(env, txn, LR_ABORT, 0, NULL, 0, NULL, 0, NULL, 0) == 0)
		rv = -1;
	lock_unlock_all(env, txn);
	env->cur = NULL;
	free(txn);
	env->st.aborts++;
	return rv;
}

int
tp_checkpoint(struct tp_env *env)
{
	u_int32_t id;

	if (env->cur != NULL) {
		errno = EBUSY;
		return -1;
	}
	if (tp_flush(env) < 0)
		return -1;
	for (id = 0; id < MAXFILES; id++)
		if (env->files[id].mp != NULL &&
		    (mpool_sync(env->files[id].mp) < 0 ||
		    fsync(env->files[id].mp->fd) < 0))
			return -1;
	if (log_reset(env) < 0)
		return -1;
	for (id = 0; id < MAXFILES; id++)
		if (env->files[id].mp != NULL)
			file_record(env, id);
	env->st.ckpts++;
	return 0;
}
