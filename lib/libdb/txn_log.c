/*
 * The log manager (thesis 5.1.4.1): log appends a record to the log
 * buffer and returns its LSN; log_flush writes the buffer and fsyncs the
 * log (the force of commit and of write-ahead logging); log_read fetches
 * one record back, for abort; log_scan reads the log forward from the
 * checkpoint, for recovery and to find the end; log_reset is the
 * checkpoint's last step, which empties the log.
 *
 * The buffer holds the records from bufstart to end; those from
 * written on are not in the file yet.  When a record does not fit, what
 * is unwritten is written (not forced) and the buffer starts again.
 * The format is described in txnint.h.
 */
#include <sys/types.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/libdb/txnint.h"

#define SCANBUF	(64 * 1024 + MAXREC)

static int
hdr_write(struct tp_env *env, u_int64_t base)
{
	u_int8_t sec[LOGHDR];
	struct loghdr h;

	memset(sec, 0, sizeof(sec));
	memset(&h, 0, sizeof(h));
	h.magic = LOG_MAGIC;
	h.version = DB_VERSION;
	h.base = base;
	h.cksum = db_crc32(0, &h, offsetof(struct loghdr, cksum));
	memcpy(sec, &h, sizeof(h));
	if (lseek(env->logfd, 0, SEEK_SET) != 0 ||
	    write(env->logfd, sec, LOGHDR) != LOGHDR ||
	    fsync(env->logfd) < 0)
		return -1;
	return 0;
}

static int
hdr_read(struct tp_env *env, u_int64_t *base)
{
	struct loghdr h;

	if (lseek(env->logfd, 0, SEEK_SET) != 0)
		return -1;
	if (read(env->logfd, &h, sizeof(h)) != (ssize_t)sizeof(h) ||
	    h.magic != LOG_MAGIC || h.version != DB_VERSION ||
	    h.cksum != db_crc32(0, &h, offsetof(struct loghdr, cksum)) ||
	    h.base < LOGHDR) {
		errno = EFTYPE;
		return -1;
	}
	*base = h.base;
	return 0;
}

/* A whole, undamaged record that says it is at lsn. */
int
log_recok(const u_int8_t *rec, u_int64_t lsn)
{
	struct lrec h;
	u_int32_t crc;
	static const u_int8_t zero[4];

	memcpy(&h, rec, LRHDR);
	if (h.len < LRHDR || h.len > MAXREC || h.len % 4 != 0 || h.lsn != lsn)
		return 0;
	crc = db_crc32(0, rec, 4);
	crc = db_crc32(crc, zero, 4);
	crc = db_crc32(crc, rec + 8, h.len - 8);
	return crc == h.cksum;
}

static void
rec_setcksum(u_int8_t *rec, u_int32_t len)
{
	u_int32_t crc;
	static const u_int8_t zero[4];

	crc = db_crc32(0, rec, 4);
	crc = db_crc32(crc, zero, 4);
	crc = db_crc32(crc, rec + 8, len - 8);
	memcpy(rec + 4, &crc, 4);
}

int
log_scanstart(struct tp_env *env, struct logscan *sc)
{
	memset(sc, 0, sizeof(*sc));
	sc->env = env;
	sc->lsn = env->base;
	sc->bufpos = env->base;
	if ((sc->buf = malloc(SCANBUF)) == NULL)
		return -1;
	return 0;
}

void
log_scanend(struct logscan *sc)
{
	free(sc->buf);
	sc->buf = NULL;
}

/* n bytes from LSN sc->lsn in the scan buffer: 1, 0 (end of file), -1 */
static int
scanfill(struct logscan *sc, u_int32_t n)
{
	struct tp_env *env = sc->env;
	off_t off;
	ssize_t got;

	if (sc->lsn + n <= sc->bufpos + sc->buflen)
		return 1;
	off = (off_t)(LOGHDR + sc->lsn - env->base);
	if (lseek(env->logfd, off, SEEK_SET) != off)
		return -1;
	if ((got = read(env->logfd, sc->buf, SCANBUF)) < 0)
		return -1;
	sc->bufpos = sc->lsn;
	sc->buflen = (u_int32_t)got;
	return sc->buflen >= n;
}

/* The next record into rec (MAXREC bytes): 1, 0 at the log's end, -1. */
int
log_scan(struct logscan *sc, u_int8_t *rec)
{
	struct lrec h;
	int r;

	if ((r = scanfill(sc, LRHDR)) <= 0)
		return r;
	memcpy(&h, sc->buf + (sc->lsn - sc->bufpos), LRHDR);
	if (h.len < LRHDR || h.len > MAXREC || h.len % 4 != 0)
		return 0;
	if ((r = scanfill(sc, h.len)) <= 0)
		return r;
	memcpy(rec, sc->buf + (sc->lsn - sc->bufpos), h.len);
	if (!log_recok(rec, sc->lsn))
		return 0;
	sc->lsn += h.len;
	return 1;
}

/*
 * Open (or make) the log and find its end.  *dirty: it holds the work of
 * transactions, so a crash left it and recovery must run.
 */
int
log_open(struct tp_env *env, int *dirty)
{
	char path[1024];
	struct logscan sc;
	u_int8_t *rec;
	u_int16_t type;
	off_t size;
	int r;

	*dirty = 0;
	snprintf(path, sizeof(path), "%s/log", env->dir);
	if ((env->logfd = open(path, O_RDWR | O_CREAT, 0644)) < 0)
		return -1;
	if ((size = lseek(env->logfd, 0, SEEK_END)) < 0)
		return -1;
	if (size == 0) {
		env->base = LOGHDR;
		if (hdr_write(env, env->base) < 0)
			return -1;
	} else if (hdr_read(env, &env->base) < 0)
		return -1;
	if ((rec = malloc(MAXREC)) == NULL)
		return -1;
	if (log_scanstart(env, &sc) < 0) {
		free(rec);
		return -1;
	}
	while ((r = log_scan(&sc, rec)) > 0) {
		memcpy(&type, rec + offsetof(struct lrec, type), 2);
		if (type != LR_FILE)
			*dirty = 1;
	}
	env->end = sc.lsn;
	log_scanend(&sc);
	free(rec);
	if (r < 0)
		return -1;
	env->written = env->durable = env->bufstart = env->end;
	if ((env->buf = malloc(LOGBUF)) == NULL)
		return -1;
	return 0;
}

void
log_close(struct tp_env *env)
{
	if (env->logfd >= 0)
		close(env->logfd);
	env->logfd = -1;
	free(env->buf);
	env->buf = NULL;
}

/* Write the records not yet in the file (no fsync). */
static int
log_write(struct tp_env *env)
{
	off_t off = (off_t)(LOGHDR + env->written - env->base);
	u_int32_t n = (u_int32_t)(env->end - env->written);

	if (n == 0)
		return 0;
	if (lseek(env->logfd, off, SEEK_SET) != off ||
	    write(env->logfd, env->buf + (env->written - env->bufstart), n) !=
	    (ssize_t)n) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	env->written = env->end;
	return 0;
}

/*
 * Append a record of up to three pieces; return its LSN (0: error).  A
 * transaction's records are chained through prev.
 */
u_int64_t
log_put(struct tp_env *env, struct tp_txn *txn, int type, int flags,
    const void *p1, u_int32_t l1, const void *p2, u_int32_t l2,
    const void *p3, u_int32_t l3)
{
	u_int32_t len = (LRHDR + l1 + l2 + l3 + 3) & ~3u;
	u_int64_t lsn = env->end;
	struct lrec h;
	u_int8_t *rec;

	if (len > MAXREC) {
		errno = EINVAL;
		return 0;
	}
	if (env->end - env->bufstart + len > LOGBUF) {
		if (log_write(env) < 0)
			return 0;
		env->bufstart = env->end;
	}
	rec = env->buf + (env->end - env->bufstart);
	memset(&h, 0, sizeof(h));
	h.len = len;
	h.lsn = lsn;
	h.prev = txn != NULL ? txn->lastlsn : 0;
	h.txnid = txn != NULL ? txn->id : 0;
	h.type = (u_int16_t)type;
	h.flags = (u_int16_t)flags;
	memcpy(rec, &h, LRHDR);
	if (l1 > 0)
		memcpy(rec + LRHDR, p1, l1);
	if (l2 > 0)
		memcpy(rec + LRHDR + l1, p2, l2);
	if (l3 > 0)
		memcpy(rec + LRHDR + l1 + l2, p3, l3);
	memset(rec + LRHDR + l1 + l2 + l3, 0, len - (LRHDR + l1 + l2 + l3));
	rec_setcksum(rec, len);
	if (txn != NULL)
		txn->lastlsn = lsn;
	env->end += len;
	env->st.records++;
	env->st.logbytes += len;
	return lsn;
}

/* The log force: every record so far on the disk. */
int
log_flush(struct tp_env *env)
{
	if (env->durable == env->end)
		return 0;
	if (log_write(env) < 0 || fsync(env->logfd) < 0)
		return -1;
	env->durable = env->end;
	env->st.forces++;
	return 0;
}

/* Log pages with records that are not on the disk yet (logdelay). */
u_int32_t
log_dirtypages(struct tp_env *env)
{
	if (env->end == env->durable)
		return 0;
	return (u_int32_t)((env->end - 1) / LOGPAGE - env->durable / LOGPAGE + 1);
}

/* The record at lsn into rec (MAXREC bytes), from the buffer or the file. */
int
log_read(struct tp_env *env, u_int64_t lsn, u_int8_t *rec)
{
	struct lrec h;
	off_t off;

	if (lsn < env->base || lsn >= env->end) {
		errno = EINVAL;
		return -1;
	}
	if (lsn >= env->bufstart) {
		memcpy(rec, env->buf + (lsn - env->bufstart), LRHDR);
		memcpy(&h, rec, LRHDR);
		if (h.len >= LRHDR && h.len <= MAXREC &&
		    lsn + h.len <= env->end)
			memcpy(rec, env->buf + (lsn - env->bufstart), h.len);
	} else {
		off = (off_t)(LOGHDR + lsn - env->base);
		if (lseek(env->logfd, off, SEEK_SET) != off ||
		    read(env->logfd, rec, LRHDR) != LRHDR)
			return -1;
		memcpy(&h, rec, LRHDR);
		if (h.len >= LRHDR && h.len <= MAXREC &&
		    read(env->logfd, rec + LRHDR, h.len - LRHDR) !=
		    (ssize_t)(h.len - LRHDR))
			return -1;
	}
	if (!log_recok(rec, lsn)) {
		errno = EFTYPE;
		return -1;
	}
	return 0;
}

/*
 * The checkpoint's last step: everything before end is on the disk in
 * the files, so the log starts again at end.  The header is one sector:
 * it lands whole or not at all, and until it lands the old log (whose
 * work is all in the files) is still a valid log.
 */
int
log_reset(struct tp_env *env)
{
	if (log_flush(env) < 0 || hdr_write(env, env->end) < 0)
		return -1;
	env->base = env->written = env->durable = env->bufstart = env->end;
	return 0;
}
