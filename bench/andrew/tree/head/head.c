/*
 * head: the first lines of files.
 *	head [-n count] [file ...]
 *	head [-count] [file ...]
 * The default count is 10.  With several files, each is introduced by
 * "==> name <==".
 */
#include <ctype.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
usage(void)
{
	fprintf(stderr, "usage: head [-n count] [file ...]\n");
	exit(1);
}

static long
getcount(const char *s)
{
	char *end;
	long n;

	n = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || n <= 0)
		errx(1, "illegal line count -- %s", s);
	return n;
}

static void
head(FILE *fp, long count)
{
	int c;

	while (count > 0 && (c = getc(fp)) != EOF) {
		putchar(c);
		if (c == '\n')
			count--;
	}
}

int
main(int argc, char *argv[])
{
	FILE *fp;
	long count;
	int i, first, rval;

	count = 10;
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (strcmp(argv[i], "-n") == 0) {
			if (++i >= argc)
				usage();
			count = getcount(argv[i]);
		} else if (strncmp(argv[i], "-n", 2) == 0)
			count = getcount(argv[i] + 2);
		else if (isdigit((unsigned char)argv[i][1]))
			count = getcount(argv[i] + 1);
		else
			usage();
	}
	if (i == argc) {
		head(stdin, count);
		return 0;
	}
	rval = 0;
	for (first = 1; i < argc; i++) {
		if ((fp = fopen(argv[i], "r")) == NULL) {
			warn("%s", argv[i]);
			rval = 1;
			continue;
		}
		if (argc - i > 1 || !first)
			printf("%s==> %s <==\n", first ? "" : "\n", argv[i]);
		first = 0;
		head(fp, count);
		fclose(fp);
	}
	return rval;
}
