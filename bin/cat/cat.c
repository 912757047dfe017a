/*
 * cat: copy files, or standard input ("-" or no file), to standard
 * output, unchanged.
 *	cat [-nu] [file ...]
 * -n numbers the output lines (from 1, on across the files); -u is
 * accepted for compatibility, output is never buffered anyway.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char buf[8192];
static int nflag;		/* -n: number the lines */
static long lineno;		/* -n: the last line's number */
static int midline;		/* -n: the last byte written was not '\n' */

/* -n's copy of n bytes: each line after its number. */
static void
numbered(const char *p, ssize_t n)
{
	ssize_t i;

	for (i = 0; i < n; i++) {
		if (!midline)
			printf("%6ld\t", ++lineno);
		putchar(p[i]);
		midline = p[i] != '\n';
	}
	if (ferror(stdout))
		err(1, "stdout");
}

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
		if (nflag) {
			numbered(buf, n);
			continue;
		}
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

	while ((ch = getopt(argc, argv, "nu")) != -1) {
		switch (ch) {
		case 'n':
			nflag = 1;
			break;
		case 'u':
			break;
		default:
			fprintf(stderr, "usage: cat [-nu] [file ...]\n");
			exit(1);
		}
	}
	argv += optind;
	rval = 0;
	if (*argv == NULL) {
		rval = copy(0, "stdin");
		fflush(stdout);
		return rval;
	}
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
	if (fflush(stdout) != 0)
		err(1, "stdout");
	return rval;
}
