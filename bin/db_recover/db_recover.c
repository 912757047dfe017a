/*
 * db_recover: the recovery program of thesis 5.1.4.1 for the user-level
 * transaction manager (lib/libdb).
 *
 *	usage: db_recover dir
 *
 * After a crash, the log in dir is read from its last checkpoint: the
 * work of every transaction that committed (or finished aborting) is
 * redone where the files lack it, the work of every transaction that
 * had not finished is undone, every page is written and fsync'd, and the
 * log is emptied.  Running it again, or on a log that needs nothing, is
 * harmless.  It prints what it did in one line and exits 0, or 1 with
 * the error (a damaged log header, a file the log names that is gone, a
 * page whose checksum fails).
 */
#include <sys/types.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/libdb/db.h"

int
main(int argc, char *argv[])
{
	struct tp_recover_stat st;

	if (argc != 2) {
		fprintf(stderr, "usage: db_recover dir\n");
		return 2;
	}
	if (tp_recover(argv[1], &st) < 0) {
		fprintf(stderr, "db_recover: %s: %s\n", argv[1],
		    strerror(errno));
		return 1;
	}
	printf("db_recover: %s: %u log records; %u committed and %u aborted "
	    "transactions redone (%u changes), %u unfinished undone (%u "
	    "changes)\n", argv[1], st.records, st.committed, st.aborted,
	    st.redone, st.losers, st.undone);
	return 0;
}
