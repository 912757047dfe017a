/*
 * cut: select parts of each line.
 *	cut -c list [file ...]
 *	cut -f list [-d delim] [-s] [file ...]
 * -c (or -b): the characters at the listed positions.  -f: the listed
 * fields, separated by delim (a tab unless -d); lines without a delimiter
 * are printed whole, or not at all with -s.  A list is numbers and ranges
 * separated by commas: 1,3-5,7- (positions count from 1).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXPOS	4096

static char sel[MAXPOS + 2];		/* sel[i]: position i is selected */
static int open_end;			/* "N-": everything from N on */

static void
usage(void)
{
	fprintf(stderr, "usage: cut -c list [file ...]\n"
	    "       cut -f list [-d delim] [-s] [file ...]\n");
	exit(1);
}

static void
parse_list(const char *s)
{
	long lo, hi;
	char *end;

	while (*s) {
		lo = *s == '-' ? 1 : strtol(s, &end, 10);
		if (*s != '-')
			s = end;
		hi = lo;
		if (*s == '-') {
			s++;
			if (*s == ',' || *s == '\0') {
				hi = MAXPOS;
				if (open_end == 0 || lo < open_end)
					open_end = lo;
			} else {
				hi = strtol(s, &end, 10);
				s = end;
			}
		}
		if (lo < 1 || hi < lo || (*s != ',' && *s != '\0'))
			usage();
		for (; lo <= hi && lo <= MAXPOS; lo++)
			sel[lo] = 1;
		if (*s == ',')
			s++;
	}
}

static int
selected(int pos)
{
	return pos <= MAXPOS ? sel[pos] : open_end != 0;
}

static void
cut_line(char *line, int fields, int delim, int sflag)
{
	int pos = 1, first = 1;
	char *p, *f;

	if (!fields) {
		for (p = line; *p; p++, pos++)
			if (selected(pos))
				putchar(*p);
		putchar('\n');
		return;
	}
	if (strchr(line, delim) == NULL) {
		if (!sflag)
			printf("%s\n", line);
		return;
	}
	for (f = line;; pos++) {
		p = strchr(f, delim);
		if (p != NULL)
			*p = '\0';
		if (selected(pos)) {
			if (!first)
				putchar(delim);
			fputs(f, stdout);
			first = 0;
		}
		if (p == NULL)
			break;
		f = p + 1;
	}
	putchar('\n');
}

int
main(int argc, char *argv[])
{
	int ch, fields = -1, delim = '\t', sflag = 0, rval = 0;
	char line[8192];
	FILE *fp;
	size_t n;

	while ((ch = getopt(argc, argv, "b:c:d:f:s")) != -1) {
		switch (ch) {
		case 'b':
		case 'c':
			fields = 0;
			parse_list(optarg);
			break;
		case 'f':
			fields = 1;
			parse_list(optarg);
			break;
		case 'd':
			delim = optarg[0];
			break;
		case 's':
			sflag = 1;
			break;
		default:
			usage();
		}
	}
	if (fields < 0)
		usage();
	argv += optind;
	do {
		if (*argv == NULL || strcmp(*argv, "-") == 0)
			fp = stdin;
		else if ((fp = fopen(*argv, "r")) == NULL) {
			warn("%s", *argv);
			rval = 1;
			continue;
		}
		while (fgets(line, sizeof(line), fp) != NULL) {
			n = strlen(line);
			if (n > 0 && line[n - 1] == '\n')
				line[n - 1] = '\0';
			cut_line(line, fields, delim, sflag);
		}
		if (fp != stdin)
			fclose(fp);
	} while (*argv != NULL && *++argv != NULL);
	return rval;
}
