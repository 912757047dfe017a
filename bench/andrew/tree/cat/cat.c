/*
 * cat: copy files, or standard input ("-" or no file), to standard
 * output, unchanged.
 *	cat [-u] [file ...]
 * -u is accepted for compatibility; output is never buffered anyway.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char buf[8192];

static int
copy(int fd, const char *name)
{
	ssize_t n, w, off;

	for (;;) {
		if ((n = read(fd, buf, sizeof(buf))) < 0) {
			if (errno == EINTR)
				continue;
			warn("%s", name);
			return 1;
		}
		if (n == 0)
			return 0;
		for (off = 0; off < n; off += w) {
			if ((w = write(1, buf + off, n - off)) < 0) {
				if (errno == EINTR) {
					w = 0;
					continue;
				}
				err(1, "stdout");
			}
		}
	}
}

int
main(int argc, char *argv[])
{
	int ch, fd, rval;

	while ((ch = getopt(argc, argv, "u")) != -1) {
		switch (ch) {
		case 'u':
			break;
		default:
			fprintf(stderr, "usage: cat [-u] [file ...]\n");
			exit(1);
		}
	}
	argv += optind;
	rval = 0;
	if (*argv == NULL)
		return copy(0, "stdin");
	for (; *argv != NULL; argv++) {
		if (strcmp(*argv, "-") == 0) {
			rval |= copy(0, "stdin");
			continue;
		}
		if ((fd = open(*argv, O_RDONLY)) < 0) {
			warn("%s", *argv);
			rval = 1;
			continue;
		}
		rval |= copy(fd, *argv);
		close(fd);
	}
	return rval;
}
