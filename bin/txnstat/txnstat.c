/*
 * txnstat: the counters of kernel transactions (thesis 5.2).
 *	txnstat [-z]
 * -z zeroes them after printing (root only).  "steals" counts pages of a
 * running transaction the segment writer took: NO-STEAL says 0.
 */
#include <sys/txn.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	struct txnstats s;
	int ch, zero = 0;

	while ((ch = getopt(argc, argv, "z")) != -1) {
		if (ch != 'z') {
			fprintf(stderr, "usage: txnstat [-z]\n");
			return 1;
		}
		zero = 1;
	}
	if (txnstats(&s, zero) < 0)
		err(1, "txnstats");
	printf("begins %u implicit %u commits %u aborts %u victims %u\n",
	    s.begins, s.implicit, s.commits, s.aborts, s.victims);
	printf("read locks broken %u (of readers who may not write)\n",
	    s.broken);
	printf("lock waits %u\n", s.waits);
	printf("group commits %u of %u transactions (mean %u.%02u), "
	    "pages forced %u\n", s.groups, s.group_txns,
	    s.groups ? s.group_txns / s.groups : 0,
	    s.groups ? s.group_txns * 100 / s.groups % 100 : 0,
	    s.pages_forced);
	printf("pre-committed %u (locks released when queued)\n",
	    s.precommits);
	printf("commit latency mean %llu us max %llu us\n",
	    s.group_txns ? (unsigned long long)(s.commit_us / s.group_txns) : 0,
	    (unsigned long long)s.commit_us_max);
	printf("steals %u\n", s.steals);
	printf("now: running %u dirty pages %u; txn_gcwait %u ms txn_gcmin %u "
	    "txn_maxdirty %u txn_elr %u\n", s.running, s.dirty, s.gcwait,
	    s.gcmin, s.maxdirty, s.elr);
	return 0;
}
