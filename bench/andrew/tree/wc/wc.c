/*
 * wc: count lines, words and bytes.
 *	wc [-clw] [file ...]
 * Without options, all three.  A word is a maximal run of characters
 * that are not white space.  With several files, a total line follows.
 */
#include <ctype.h>
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cflag, lflag, wflag;
static long long tlines, twords, tbytes;

static void
show(long long lines, long long words, long long bytes, const char *name)
{
	if (lflag)
		printf(" %7lld", lines);
	if (wflag)
		printf(" %7lld", words);
	if (cflag)
		printf(" %7lld", bytes);
	if (name != NULL)
		printf(" %s", name);
	putchar('\n');
}

static int
count(int fd, const char *name)
{
	static unsigned char buf[8192];
	long long lines, words, bytes;
	int n, i, inword;

	lines = words = bytes = 0;
	inword = 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		bytes += n;
		for (i = 0; i < n; i++) {
			if (buf[i] == '\n')
				lines++;
			if (isspace(buf[i]))
				inword = 0;
			else if (!inword) {
				inword = 1;
				words++;
			}
		}
	}
	if (n < 0) {
		warn("%s", name != NULL ? name : "stdin");
		return 1;
	}
	show(lines, words, bytes, name);
	tlines += lines;
	twords += words;
	tbytes += bytes;
	return 0;
}

int
main(int argc, char *argv[])
{
	int ch, fd, rval, nfiles;

	while ((ch = getopt(argc, argv, "clw")) != -1) {
		switch (ch) {
		case 'c':
			cflag = 1;
			break;
		case 'l':
			lflag = 1;
			break;
		case 'w':
			wflag = 1;
			break;
		default:
			fprintf(stderr, "usage: wc [-clw] [file ...]\n");
			exit(1);
		}
	}
	argv += optind;
	if (!cflag && !lflag && !wflag)
		cflag = lflag = wflag = 1;
	if (*argv == NULL)
		return count(0, NULL);
	rval = 0;
	for (nfiles = 0; *argv != NULL; argv++, nfiles++) {
		if ((fd = open(*argv, O_RDONLY)) < 0) {
			warn("%s", *argv);
			rval = 1;
			continue;
		}
		rval |= count(fd, *argv);
		close(fd);
	}
	if (nfiles > 1)
		show(tlines, twords, tbytes, "total");
	return rval;
}
