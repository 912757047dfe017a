/*
 * tpcb -c, the consistency check, and tpcb -x, SCAN.
 *
 * The check (TPC-B's consistency conditions, made per row): the history
 * is read first and every delta added to its account, teller and branch;
 * then every row of the three relations must hold exactly the sum of
 * the deltas of its history records (every balance started at 0), so
 * the account, teller and branch sums each equal the history's sum, and
 * a committed transaction is one history record: no more (an aborted or
 * unfinished transaction leaves none) and no fewer (its updates are
 * there only with it).  History records are in the order of the
 * transactions' numbers.  The accounts touched are summed in a hash
 * table, so the check needs memory for the history, not the accounts.
 *
 * SCAN (thesis 5.3.3): the account relation read in key order with a
 * cursor, timed; on a file system that wrote the randomly updated pages
 * wherever its log was, key order is no longer disk order.
 */
#include <sys/types.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bin/tpcb/tpcb.h"

/* Sums of deltas by account id: open addressing, id + 1 as the tag. */
struct sums {
	u_int32_t *tag;
	int64_t	  *sum;
	u_int32_t  mask;
};

static int64_t *
slot(struct sums *s, u_int32_t id)
{
	u_int32_t i = (id * 2654435761u) & s->mask;

	while (s->tag[i] != 0 && s->tag[i] != id + 1)
		i = (i + 1) & s->mask;
	s->tag[i] = id + 1;
	return &s->sum[i];
}

static int64_t
lookup(struct sums *s, u_int32_t id)
{
	u_int32_t i = (id * 2654435761u) & s->mask;

	while (s->tag[i] != 0) {
		if (s->tag[i] == id + 1)
			return s->sum[i];
		i = (i + 1) & s->mask;
	}
	return 0;
}

static struct btree *
open_ro(const char *dir, const char *name)
{
	struct btreeinfo bi;
	char path[1024];

	memset(&bi, 0, sizeof(bi));
	bi.cache = 16;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return bt_open(path, O_RDONLY, 0, &bi, NULL);
}

/* Rows 0 .. n - 1 of a small relation against their expected balances. */
static int
checkrows(const char *dir, const char *name, u_int32_t n, const int64_t *want,
    int64_t *sum)
{
	struct btree *bt = open_ro(dir, name);
	u_int8_t key[4];
	struct row r;
	u_int32_t id, bad = 0;
	DBT k, d;

	if (bt == NULL)
		return -1;
	*sum = 0;
	for (id = 0; id < n; id++) {
		idkey(id, key);
		k.data = key;
		k.size = 4;
		if (bt_get(bt, &k, &d) != 0 || d.size != ROWLEN) {
			printf("tpcb: check: %s %u: missing\n", name, id);
			bad++;
			continue;
		}
		memcpy(&r, d.data, ROWLEN);
		*sum += r.balance;
		if (r.id != id || r.balance != want[id]) {
			if (bad++ < 5)
				printf("tpcb: check: %s %u: balance %lld, "
				    "history says %lld\n", name, id,
				    (long long)r.balance, (long long)want[id]);
		}
	}
	bt_close(bt);
	return bad;
}

int
check(const char *dir)
{
	struct scale sc;
	struct recno *rn;
	struct btree *bt;
	struct btcursor *c;
	struct sums s;
	struct hist h;
	struct row r;
	int64_t *teller = NULL, *branch = NULL, hsum = 0, asum = 0, tsum, bsum;
	u_int32_t nh, i, prev = 0, n, bad = 0, size;
	char path[1024];
	DBT k, d;
	int rv;

	memset(&s, 0, sizeof(s));
	if (readscale(dir, &sc) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/history", dir);
	if ((rn = rec_open(path, O_RDONLY, 0, NULL, NULL)) == NULL ||
	    rec_count(rn, &nh) < 0)
		return -1;
	for (size = 64; size < 2 * nh + 16; size *= 2)
		continue;
	s.mask = size - 1;
	if ((s.tag = calloc(size, sizeof(*s.tag))) == NULL ||
	    (s.sum = calloc(size, sizeof(*s.sum))) == NULL ||
	    (teller = calloc(sc.tellers, sizeof(*teller))) == NULL ||
	    (branch = calloc(sc.branches, sizeof(*branch))) == NULL)
		return -1;
	for (i = 1; i <= nh; i++) {
		if (rec_get(rn, i, &h) != 0)
			return -1;
		if (h.account >= sc.accounts || h.teller >= sc.tellers ||
		    h.branch >= sc.branches) {
			if (bad++ < 5)
				printf("tpcb: check: history %u: account %u "
				    "teller %u branch %u\n", i, h.account,
				    h.teller, h.branch);
			continue;
		}
		if (h.txn <= prev && bad++ < 5)
			printf("tpcb: check: history %u: transaction %u "
			    "after %u\n", i, h.txn, prev);
		prev = h.txn;
		*slot(&s, h.account) += h.delta;
		teller[h.teller] += h.delta;
		branch[h.branch] += h.delta;
		hsum += h.delta;
	}
	rec_close(rn);
	if ((bt = open_ro(dir, "account")) == NULL ||
	    (c = bt_cursor(bt)) == NULL)
		return -1;
	n = 0;
	while ((rv = bt_cget(c, &k, &d, BT_NEXT)) == 0) {
		u_int8_t want[4];

		memcpy(&r, d.data, ROWLEN);
		idkey(n, want);
		if (k.size != 4 || memcmp(k.data, want, 4) != 0 ||
		    d.size != ROWLEN || r.id != n ||
		    r.balance != lookup(&s, n)) {
			if (bad++ < 5)
				printf("tpcb: check: account %u: balance "
				    "%lld, history says %lld\n", n,
				    (long long)r.balance,
				    (long long)lookup(&s, n));
		}
		asum += r.balance;
		n++;
	}
	bt_cclose(c);
	bt_close(bt);
	if (rv < 0)
		return -1;
	if (n != sc.accounts) {
		printf("tpcb: check: %u accounts, params says %u\n", n,
		    sc.accounts);
		bad++;
	}
	if ((rv = checkrows(dir, "teller", sc.tellers, teller, &tsum)) < 0)
		return -1;
	bad += rv;
	if ((rv = checkrows(dir, "branch", sc.branches, branch, &bsum)) < 0)
		return -1;
	bad += rv;
	printf("tpcb: check: history %u records, sum %lld; accounts %u sum "
	    "%lld; tellers %u sum %lld; branches %u sum %lld\n", nh,
	    (long long)hsum, n, (long long)asum, sc.tellers, (long long)tsum,
	    sc.branches, (long long)bsum);
	if (asum != hsum || tsum != hsum || bsum != hsum)
		bad++;
	printf("tpcb: check: %s\n", bad ? "INCONSISTENT" : "consistent");
	free(s.tag);
	free(s.sum);
	free(teller);
	free(branch);
	return bad ? 1 : 0;
}

int
scan(const char *dir, u_int32_t cache)
{
	struct btreeinfo bi;
	struct mpool_stat ms;
	struct btcursor *c;
	struct btree *bt;
	char path[1024];
	u_int32_t n = 0;
	int64_t sum = 0;
	long long t0, us;
	struct row r;
	DBT k, d;
	int rv;

	memset(&bi, 0, sizeof(bi));
	bi.cache = cache;
	snprintf(path, sizeof(path), "%s/account", dir);
	t0 = now_us();
	if ((bt = bt_open(path, O_RDONLY, 0, &bi, NULL)) == NULL ||
	    (c = bt_cursor(bt)) == NULL)
		return -1;
	while ((rv = bt_cget(c, &k, &d, BT_NEXT)) == 0) {
		memcpy(&r, d.data, ROWLEN);
		sum += r.balance;
		n++;
	}
	us = now_us() - t0;
	mpool_stat(bt_mpool(bt), &ms);
	bt_cclose(c);
	bt_close(bt);
	if (rv < 0)
		return -1;
	printf("tpcb scan records %u pages %llu usecs %lld sum %lld\n", n,
	    (unsigned long long)ms.reads, us, (long long)sum);
	return 0;
}
