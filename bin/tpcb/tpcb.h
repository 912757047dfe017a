/*
 * tpcb: the modified TPC-B of thesis 5.3.1 and 7.8, and SCAN (5.3.3).
 * What tpcb.c (the transactions), load.c (creating the database),
 * check.c (the consistency check and the scan) and lfs.c (the counters
 * of the LFS under it) share.
 *
 * The database is a directory: account, teller and branch are primary
 * B-trees keyed by a 4-byte big-endian id with 100-byte records (TPC-B's
 * minimum row), history is a fixed-length record file of 52-byte records,
 * params says the scale, and log is the user-level transaction manager's
 * log.  Every balance starts at 0, so after any number of transactions
 * each relation's balances add up to the history's deltas.
 */
#ifndef _TPCB_H_
#define _TPCB_H_

#include <sys/types.h>

#include "lib/libdb/db.h"

#define ROWLEN		100	/* account, teller, branch */
#define HISTLEN		52	/* history (TPC-B: at least 50) */

/* A row of account, teller or branch: ROWLEN bytes. */
struct row {
	u_int32_t id;
	u_int32_t branch;	/* account, teller: its branch */
	int64_t	  balance;
	char	  filler[ROWLEN - 16];
};

/* A history record: HISTLEN bytes. */
struct hist {
	u_int32_t txn;		/* the transaction's number, from 1 */
	u_int32_t account;
	u_int32_t teller;
	u_int32_t branch;
	int32_t	  delta;
	u_int32_t time;
	char	  filler[HISTLEN - 24];
};

struct scale {
	u_int32_t accounts, tellers, branches;
};

/* The open database. */
struct tpcb {
	const char *dir;
	struct scale sc;
	struct tp_env *env;	/* user-level transactions, else NULL */
	struct btree *account, *teller, *branch;
	struct recno *history;
};

void	 idkey(u_int32_t, u_int8_t *);
int	 readscale(const char *, struct scale *);
int	 load(const char *, const struct scale *, u_int32_t, u_int32_t);
int	 check(const char *);
int	 scan(const char *, u_int32_t);
long long now_us(void);
void	 pr_rate(const char *, unsigned long long, long long);
/* lfs.c: the LFS under the database, if it is one */
struct lfs_stats;
void	 lfscounters(const char *);
int	 lfsnow(const char *, struct lfs_stats *);

#endif
