/*
 * tee: copy the standard input to the standard output and to files.
 *	tee [-a] [file ...]
 * -a appends.  A file that cannot be opened or written is named on the
 * standard error and the exit status is 1; the copy goes on.
 */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXFILES	32

int
main(int argc, char *argv[])
{
	int fds[MAXFILES + 1], nfd = 0, flags = O_WRONLY | O_CREAT | O_TRUNC;
	const char *names[MAXFILES + 1];
	char buf[8192];
	ssize_t n, w, off;
	int ch, i, rval = 0;

	while ((ch = getopt(argc, argv, "a")) != -1) {
		if (ch != 'a') {
			fprintf(stderr, "usage: tee [-a] [file ...]\n");
			return 1;
		}
		flags = O_WRONLY | O_CREAT | O_APPEND;
	}
	fds[nfd] = 1;
	names[nfd++] = "stdout";
	for (i = optind; i < argc; i++) {
		if (nfd > MAXFILES)
			errx(1, "at most %d files", MAXFILES);
		if ((fds[nfd] = open(argv[i], flags, 0666)) < 0) {
			warn("%s", argv[i]);
			rval = 1;
			continue;
		}
		names[nfd++] = argv[i];
	}
	while ((n = read(0, buf, sizeof(buf))) > 0)
		for (i = 0; i < nfd; i++) {
			if (fds[i] < 0)
				continue;
			for (off = 0; off < n; off += w)
				if ((w = write(fds[i], buf + off, n - off)) <= 0) {
					warn("%s", names[i]);
					rval = 1;
					fds[i] = -1;
					break;
				}
		}
	if (n < 0) {
		warn("stdin");
		rval = 1;
	}
	return rval;
}
