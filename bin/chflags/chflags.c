/*
 * chflags: change file flags.
 *	chflags flags file ...
 * flags is "txn" (transaction protection: reads and writes of the file
 * are page-locked, and its dirty pages kept until the transaction
 * commits; BSD-LFS only, thesis 5.2) or "notxn", or a comma-separated
 * list of them.  The owner or root may.
 */
#include <sys/stat.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	u_int32_t set, clr;
	struct stat st;
	char *words;
	int i, rval = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: chflags txn|notxn file ...\n");
		return 1;
	}
	words = argv[1];
	if (strtofflags(&words, &set, &clr) < 0)
		errx(1, "%s: no such flag (txn, notxn)", words);
	for (i = 2; i < argc; i++) {
		if (stat(argv[i], &st) < 0 ||
		    chflags(argv[i], (st.st_flags | set) & ~clr) < 0) {
			warn("%s", argv[i]);
			rval = 1;
		}
	}
	return rval;
}
