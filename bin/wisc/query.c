/*
 * The 32 queries of table 7-7, with DeWitt's definitions [DEWI91]
 * (constants for 10,000 tuples, scaled to the database's size; the
 * updates are in update.c).  "No index" reads a relation whole and tests
 * every tuple; "clustered" goes through the tuples file by unique2;
 * "non-clustered" through an index to unique2, then the tuples file.
 *
 * A query's result goes to the temporary relation tmp, a B-tree keyed by
 * the unique2 of the result's first relation (in DeWitt's FROM order)
 * whose record is the result's tuples, except for queries 7 and 8, whose
 * tuples go "to the screen" (they are counted).  For each query the
 * result says how many rows it has and the sums of unique1 and unique2
 * of its first relation's tuples, or, for an aggregate, the sum of the
 * aggregate over its groups: enough for a test to know it is right.
 *
 * Joins without an index are nested loops, a block at a time: the outer
 * relation's qualifying tuples fill a 64 KB block, the inner relation is
 * read whole for each block, and each inner tuple is compared with every
 * tuple of the block.  The three-way join matches a block against
 * TENKTUP2 and then the pairs against ONEKTUP.
 */
#include <sys/types.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bin/wisc/wisc.h"

#define ALL		UINT32_MAX	/* scan_open: to the last key */

/*
 * Shapes of the joins: JoinAselB (9, 12, 15), JoinABprime (10, 13, 16),
 * JoinCselAselB (11, 14, 17).
 */
#define ASELB		0
#define ABPRIME		1
#define CSELASELB	2
#define SHAPE(q)	(((q)->num - 9) % 3)

/* The range of a selection on unique2 (or unique1). */
static void
range(const struct wisc *w, int num, u_int32_t *lo, u_int32_t *hi)
{
	switch (num) {
	case 2: case 4: case 6:
		*lo = TENLO(w->n);
		*hi = *lo + TENPCT(w->n) - 1;
		break;
	case 7:
		*lo = *hi = SINGLE(w->n);
		break;
	default:
		*lo = 0;
		*hi = ONEPCT(w->n) - 1;
	}
}

/*
 * A result row of n tuples, in FROM order: to tmp if the query has one,
 * keyed by the first tuple's unique2; counted either way.
 */
static int
emit(struct wisc *w, struct result *res, const struct tuple *a,
    const struct tuple *b, const struct tuple *c)
{
	const struct tuple *t[3] = { a, b, c };
	u_int8_t k[4], rec[3 * TUPLEN];
	int i, n = c != NULL ? 3 : b != NULL ? 2 : 1, rv;

	if (w->tmp != NULL) {
		for (i = 0; i < n; i++)
			memcpy(rec + i * TUPLEN, t[i], TUPLEN);
		bekey(a->unique2, k);
		if ((rv = tmp_put(w, k, 4, rec, n * TUPLEN)) != 0) {
			if (rv == DB_KEYEXIST)
				errno = EEXIST;
			return -1;
		}
	}
	res->rows++;
	res->sum1 += a->unique1;
	res->sum2 += a->unique2;
	return 0;
}

/* 1, 2: a selection with no index: every tuple of TENKTUP1 tested. */
static int
q_scan(struct wisc *w, const struct query *q, struct result *res)
{
	struct tuple t;
	struct scan s;
	u_int32_t lo, hi;
	int rv;

	range(w, q->num, &lo, &hi);
	if (rel_open(w, TENKTUP1, F_TUPLES, 0) < 0 || tmp_create(w) < 0 ||
	    scan_open(&s, w->rel[TENKTUP1].bt, 0, ALL) < 0)
		return -1;
	while ((rv = scan_tuple(&s, &t)) == 1)
		if (t.unique2 >= lo && t.unique2 <= hi &&
		    emit(w, res, &t, NULL, NULL) < 0) {
			rv = -1;
			break;
		}
	scan_close(&s);
	return rv;
}

/* 3, 4, 7, 8: through the clustered index, the range alone. */
static int
q_clustered(struct wisc *w, const struct query *q, struct result *res)
{
	struct tuple t;
	struct scan s;
	u_int32_t lo, hi;
	int rv;

	range(w, q->num, &lo, &hi);
	if (rel_open(w, TENKTUP1, F_TUPLES, 0) < 0 ||
	    (q->num <= 4 && tmp_create(w) < 0) ||
	    scan_open(&s, w->rel[TENKTUP1].bt, lo, hi) < 0)
		return -1;
	while ((rv = scan_tuple(&s, &t)) == 1)
		if (emit(w, res, &t, NULL, NULL) < 0) {
			rv = -1;
			break;
		}
	scan_close(&s);
	return rv;
}

/* 5, 6: unique1 in the range, through the non-clustered index. */
static int
q_nonclustered(struct wisc *w, const struct query *q, struct result *res)
{
	struct rel *rl = &w->rel[TENKTUP1];
	struct tuple t;
	struct scan s;
	u_int32_t lo, hi, u1, u2;
	int rv;

	range(w, q->num, &lo, &hi);
	if (rel_open(w, TENKTUP1, F_TUPLES | F_U1, 0) < 0 ||
	    tmp_create(w) < 0 || scan_open(&s, rl->u1, lo, hi) < 0)
		return -1;
	while ((rv = scan_index(&s, &u1, &u2)) == 1)
		if (get_u2(rl, u2, &t) != 0 ||
		    emit(w, res, &t, NULL, NULL) < 0) {
			rv = -1;
			break;
		}
	scan_close(&s);
	return rv;
}

/*
 * Fill blk with up to max tuples of the scan whose unique2 is below
 * below; how many, or -1.  *end: the scan is over.
 */
static int
fillblock(struct scan *s, struct tuple *blk, int max, u_int32_t below,
    int *end)
{
	int n = 0, rv = 1;

	while (n < max && (rv = scan_tuple(s, &blk[n])) == 1)
		if (blk[n].unique2 < below)
			n++;
	*end = rv != 1;
	return rv < 0 ? -1 : n;
}

/*
 * Read relation r whole; for each tuple, each i < n with want[i] set and
 * blk[i].unique2 equal to it gets a copy of it in mate[i] (and got[i]).
 */
static int
matchall(struct wisc *w, int r, const struct tuple *blk, int n,
    const char *want, struct tuple *mate, char *got)
{
	struct tuple t;
	struct scan s;
	int i, rv;

	if (scan_open(&s, w->rel[r].bt, 0, ALL) < 0)
		return -1;
	while ((rv = scan_tuple(&s, &t)) == 1)
		for (i = 0; i < n; i++)
			if ((want == NULL || want[i]) &&
			    blk[i].unique2 == t.unique2) {
				mate[i] = t;
				got[i] = 1;
			}
	scan_close(&s);
	return rv;
}

/* 9, 10, 11: joins on unique2 with no index, by nested loops. */
static int
q_nested(struct wisc *w, const struct query *q, struct result *res)
{
	int shape = SHAPE(q), max = JOINKB * 1024 / TUPLEN, n, end, i;
	int outer = shape == ASELB ? TENKTUP2 : shape == ABPRIME ? BPRIME :
	    TENKTUP1;
	int inner = shape == CSELASELB ? TENKTUP2 : TENKTUP1;
	u_int32_t below = shape == ABPRIME ? ALL : TENPCT(w->n);
	struct tuple *blk, *mate, *mate2;
	char *got, *got2;
	struct scan s;
	int rv = -1;

	blk = malloc(max * sizeof(*blk));
	mate = malloc(max * sizeof(*mate));
	mate2 = malloc(max * sizeof(*mate2));
	got = malloc(max);
	got2 = malloc(max);
	if (blk == NULL || mate == NULL || mate2 == NULL || got == NULL ||
	    got2 == NULL || rel_open(w, outer, F_TUPLES, 0) < 0 ||
	    rel_open(w, inner, F_TUPLES, 0) < 0 ||
	    (shape == CSELASELB && rel_open(w, ONEKTUP, F_TUPLES, 0) < 0) ||
	    tmp_create(w) < 0 || scan_open(&s, w->rel[outer].bt, 0, ALL) < 0)
		goto out;
	for (;;) {
		rv = -1;
		if ((n = fillblock(&s, blk, max, below, &end)) < 0)
			break;
		memset(got, 0, max);
		memset(got2, 0, max);
		if (matchall(w, inner, blk, n, NULL, mate, got) < 0 ||
		    (shape == CSELASELB &&
		    matchall(w, ONEKTUP, blk, n, got, mate2, got2) < 0))
			break;
		for (i = 0; i < n; i++) {
			if (shape == CSELASELB) {
				if (got2[i] && emit(w, res, &mate2[i], &blk[i],
				    &mate[i]) < 0)
					break;
			} else if (got[i] &&
			    emit(w, res, &mate[i], &blk[i], NULL) < 0)
				break;
		}
		if (i < n)
			break;
		if (end) {
			rv = 0;
			break;
		}
	}
	scan_close(&s);
out:
	free(blk);
	free(mate);
	free(mate2);
	free(got);
	free(got2);
	return rv;
}

/*
 * The tuple of relation r matching t: by unique2 through the clustered
 * index, or by unique1 through the non-clustered one.  1 found, 0 not,
 * -1 error.
 */
static int
lookup(struct wisc *w, int r, int byu1, const struct tuple *t,
    struct tuple *m)
{
	int rv;

	rv = byu1 ? get_u1(&w->rel[r], t->unique1, m) :
	    get_u2(&w->rel[r], t->unique2, m);
	return rv == 0 ? 1 : rv == DB_NOTFOUND ? 0 : -1;
}

/*
 * 12-17: joins through an index, on unique2 (12-14, clustered) or
 * unique1 (15-17, non-clustered): the outer relation's qualifying tuples
 * in order, each looked up in the others.
 *
 *	12  TENKTUP2 unique2 < 1000, then TENKTUP1 by unique2
 *	13  BPRIME, then TENKTUP1 by unique2
 *	14  TENKTUP1 unique2 < 1000, then TENKTUP2 and ONEKTUP by unique2
 *	15  TENKTUP1 unique2 < 1000, then TENKTUP2 by unique1
 *	16  BPRIME, then TENKTUP1 by unique1
 *	17  TENKTUP1 unique1 < 1000 (its index), then TENKTUP2 and ONEKTUP
 *	    by unique1
 */
static int
q_indexjoin(struct wisc *w, const struct query *q, struct result *res)
{
	int shape = SHAPE(q), byu1 = q->num >= 15, rv, f1, f2;
	int outer = shape == ABPRIME ? BPRIME :
	    shape == ASELB && !byu1 ? TENKTUP2 : TENKTUP1;
	int first = shape == ASELB && !byu1 ? TENKTUP1 :
	    shape == ABPRIME ? TENKTUP1 : TENKTUP2;
	int files = byu1 ? F_TUPLES | F_U1 : F_TUPLES;
	u_int32_t hi = shape == ABPRIME ? ALL : TENPCT(w->n) - 1, k, u2;
	struct tuple o, a, c;
	struct scan s;

	if (rel_open(w, outer, q->num == 17 ? F_TUPLES | F_U1 : F_TUPLES,
	    0) < 0 || rel_open(w, first, files, 0) < 0 ||
	    (shape == CSELASELB && rel_open(w, ONEKTUP, files, 0) < 0) ||
	    tmp_create(w) < 0 ||
	    scan_open(&s, q->num == 17 ? w->rel[outer].u1 :
	    w->rel[outer].bt, 0, hi) < 0)
		return -1;
	for (;;) {
		if (q->num == 17) {
			if ((rv = scan_index(&s, &k, &u2)) == 1 &&
			    get_u2(&w->rel[outer], u2, &o) != 0)
				rv = -1;
		} else
			rv = scan_tuple(&s, &o);
		if (rv != 1)
			break;
		rv = -1;
		if ((f1 = lookup(w, first, byu1, &o, &a)) < 0)
			break;
		if (shape != CSELASELB) {
			/* FROM TENKTUP1, TENKTUP2 (or BPRIME) */
			if (f1 && (outer == TENKTUP1 ? emit(w, res, &o, &a,
			    NULL) : emit(w, res, &a, &o, NULL)) < 0)
				break;
			continue;
		}
		/* FROM ONEKTUP, TENKTUP1, TENKTUP2 */
		if ((f2 = lookup(w, ONEKTUP, byu1, &o, &c)) < 0 ||
		    (f1 && f2 && emit(w, res, &c, &o, &a) < 0))
			break;
	}
	scan_close(&s);
	return rv;
}

/* Projected attributes as a key: 18, of TENKTUP1; 19, of ONEKTUP. */
static size_t
projkey(const struct tuple *t, int all, u_int8_t *k)
{
	const u_int32_t f[11] = { t->two, t->four, t->ten, t->twenty,
	    t->hundred, t->thousand, t->twothous, t->fivethous, t->tenthous,
	    t->odd100, t->even100 };
	int i, nf = all ? 11 : 5;

	for (i = 0; i < nf; i++)
		bekey(f[i], k + 4 * i);
	k += 4 * nf;
	if (all) {
		memcpy(k, t->stringu1, STRLEN);
		memcpy(k + STRLEN, t->stringu2, STRLEN);
		k += 2 * STRLEN;
	}
	memcpy(k, t->string4, STRLEN);
	return 4 * nf + (all ? 3 : 1) * STRLEN;
}

/*
 * 18: SELECT DISTINCT two, four, ten, twenty, hundred, string4 FROM
 * TENKTUP1; 19: every attribute but unique1 and unique2, of ONEKTUP.
 * The temporary relation is keyed by the projection, so a duplicate is
 * found when it is inserted.
 */
static int
q_project(struct wisc *w, const struct query *q, struct result *res)
{
	int r = q->num == 18 ? TENKTUP1 : ONEKTUP, rv;
	u_int8_t k[4 * 11 + 3 * STRLEN];
	struct tuple t;
	struct scan s;
	size_t len;

	if (rel_open(w, r, F_TUPLES, 0) < 0 || tmp_create(w) < 0 ||
	    scan_open(&s, w->rel[r].bt, 0, ALL) < 0)
		return -1;
	while ((rv = scan_tuple(&s, &t)) == 1) {
		len = projkey(&t, q->num == 19, k);
		if ((rv = tmp_put(w, k, len, k, 0)) == DB_KEYEXIST)
			continue;
		if (rv != 0) {
			rv = -1;
			break;
		}
		res->rows++;
		res->sum1 += t.unique1;
		res->sum2 += t.unique2;
	}
	scan_close(&s);
	return rv;
}

/* An aggregate's row of tmp: the group, and the value. */
static int
aggrow(struct wisc *w, u_int32_t group, u_int64_t v)
{
	u_int8_t k[4], d[8];

	bekey(group, k);
	bekey((u_int32_t)(v >> 32), d);
	bekey((u_int32_t)v, d + 4);
	return tmp_put(w, k, 4, d, 8) == 0 ? 0 : -1;
}

/*
 * 20, 23: MIN(unique2) FROM TENKTUP1: every tuple (20), or the first key
 * of the clustered index (23).
 */
static int
q_min(struct wisc *w, const struct query *q, struct result *res)
{
	u_int32_t min = ALL;
	struct tuple t;
	struct scan s;
	int rv;

	res->isagg = 1;
	if (rel_open(w, TENKTUP1, F_TUPLES, 0) < 0 || tmp_create(w) < 0 ||
	    scan_open(&s, w->rel[TENKTUP1].bt, 0, ALL) < 0)
		return -1;
	while ((rv = scan_tuple(&s, &t)) == 1) {
		if (t.unique2 < min)
			min = t.unique2;
		if (q->num == 23)
			break;
	}
	scan_close(&s);
	if (rv < 0 || min == ALL || aggrow(w, 0, min) < 0)
		return -1;
	res->rows = 1;
	res->value = min;
	return 0;
}

/*
 * 21, 22, 24, 25: MIN (21, 24) or SUM (22, 25) of unique1 GROUP BY
 * hundred.  With no index (21, 22) every tuple is read in turn; with
 * the indices (24, 25) the groups come from the index on hundred, and
 * each of its entries fetches its tuple through the clustered index, a
 * page at random for every tuple.
 */
static int
q_group(struct wisc *w, const struct query *q, struct result *res)
{
	struct rel *rl = &w->rel[TENKTUP1];
	int viaindex = q->num >= 24, sum = q->num == 22 || q->num == 25;
	u_int64_t v[100];
	u_int32_t h, u2, cnt[100];
	struct tuple t;
	struct scan s;
	int rv;

	res->isagg = 1;
	memset(v, 0, sizeof(v));
	memset(cnt, 0, sizeof(cnt));
	if (rel_open(w, TENKTUP1, viaindex ? F_TUPLES | F_H : F_TUPLES,
	    0) < 0 || tmp_create(w) < 0 ||
	    scan_open(&s, viaindex ? rl->h : rl->bt, 0, ALL) < 0)
		return -1;
	for (;;) {
		if (viaindex) {
			if ((rv = scan_index(&s, &h, &u2)) == 1 &&
			    get_u2(rl, u2, &t) != 0)
				rv = -1;
		} else
			rv = scan_tuple(&s, &t);
		if (rv != 1)
			break;
		h = t.hundred;
		if (sum)
			v[h] += t.unique1;
		else if (cnt[h] == 0 || t.unique1 < v[h])
			v[h] = t.unique1;
		cnt[h]++;
	}
	scan_close(&s);
	if (rv < 0)
		return -1;
	for (h = 0; h < 100; h++) {
		if (cnt[h] == 0)
			continue;
		if (aggrow(w, h, v[h]) < 0)
			return -1;
		res->rows++;
		res->value += v[h];
	}
	return 0;
}

const struct query queries[] = {
	{ 1, "selection", "1%", "none",
	    "TENKTUP1 unique2 0..99, every tuple tested", q_scan },
	{ 2, "selection", "10%", "none",
	    "TENKTUP1 unique2 792..1791, every tuple tested", q_scan },
	{ 3, "selection", "1%", "clustered",
	    "TENKTUP1 unique2 0..99", q_clustered },
	{ 4, "selection", "10%", "clustered",
	    "TENKTUP1 unique2 792..1791", q_clustered },
	{ 5, "selection", "1%", "non-clustered",
	    "TENKTUP1 unique1 0..99", q_nonclustered },
	{ 6, "selection", "10%", "non-clustered",
	    "TENKTUP1 unique1 792..1791", q_nonclustered },
	{ 7, "selection", ".01%", "clustered",
	    "TENKTUP1 unique2 = 2001, to the screen", q_clustered },
	{ 8, "selection", "1%", "clustered",
	    "TENKTUP1 unique2 0..99, to the screen", q_clustered },
	{ 9, "join-2", "10%", "none",
	    "JoinAselB: TENKTUP1, TENKTUP2 on unique2, TENKTUP2.unique2 < 1000",
	    q_nested },
	{ 10, "join-2", ".01%", "none",
	    "JoinABprime: TENKTUP1, BPRIME on unique2", q_nested },
	{ 11, "join-3", "10%", "none",
	    "JoinCselAselB: ONEKTUP, TENKTUP1, TENKTUP2 on unique2, "
	    "TENKTUP1.unique2 < 1000", q_nested },
	{ 12, "join-2", "10%", "clustered",
	    "JoinAselB on unique2", q_indexjoin },
	{ 13, "join-2", ".01%", "clustered",
	    "JoinABprime on unique2", q_indexjoin },
	{ 14, "join-3", "10%", "clustered",
	    "JoinCselAselB on unique2", q_indexjoin },
	{ 15, "join-2", "10%", "non-clustered",
	    "JoinAselB on unique1, TENKTUP1.unique2 < 1000", q_indexjoin },
	{ 16, "join-2", ".01%", "non-clustered",
	    "JoinABprime on unique1", q_indexjoin },
	{ 17, "join-3", "10%", "non-clustered",
	    "JoinCselAselB on unique1, TENKTUP1.unique1 < 1000", q_indexjoin },
	{ 18, "projection", "1%", "none",
	    "DISTINCT two, four, ten, twenty, hundred, string4 of TENKTUP1",
	    q_project },
	{ 19, "projection", "100%", "none",
	    "DISTINCT all but unique1, unique2 of ONEKTUP", q_project },
	{ 20, "aggregate", "10000", "none",
	    "MIN(unique2) of TENKTUP1", q_min },
	{ 21, "aggregate", "100", "none",
	    "MIN(unique1) of TENKTUP1 GROUP BY hundred", q_group },
	{ 22, "aggregate", "100", "none",
	    "SUM(unique1) of TENKTUP1 GROUP BY hundred", q_group },
	{ 23, "aggregate", "10000", "clustered",
	    "MIN(unique2) of TENKTUP1: the first key", q_min },
	{ 24, "aggregate", "100", "non-clustered",
	    "MIN(unique1) GROUP BY hundred through the hundred index",
	    q_group },
	{ 25, "aggregate", "100", "non-clustered",
	    "SUM(unique1) GROUP BY hundred through the hundred index",
	    q_group },
	{ 26, "insert", "1", "none",
	    "a tuple, unique1 = unique2 = 10001, into TENKTUP1", q_update },
	{ 27, "delete", "1", "none",
	    "the tuple unique1 = 10001, found by reading TENKTUP1", q_update },
	{ 28, "update-key", "1", "none",
	    "unique2 = 10001 where unique2 = 1491, found by reading",
	    q_update },
	{ 29, "insert", "1", "clustered",
	    "as 26, and into both indices", q_update },
	{ 30, "delete", "1", "clustered",
	    "as 27, through the unique1 index, and from both", q_update },
	{ 31, "update-key", "1", "clustered",
	    "as 28, through the clustered index; both indices", q_update },
	{ 32, "update", "1", "clustered",
	    "unique1 = 10001 where unique1 = 1491 (indexed, not the key)",
	    q_update },
};
const int nqueries = sizeof(queries) / sizeof(queries[0]);
