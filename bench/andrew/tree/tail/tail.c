/*
 * tail: the last part of a file.
 *	tail [-n count | -count | +count] [file]
 * -n count, -count: the last count lines (default 10).
 * -n +count, +count: from line count to the end.
 * The last lines are kept in a ring of count lines while reading, so
 * pipes work as well as files.
 */
#include <ctype.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
usage(void)
{
	fprintf(stderr, "usage: tail [-n count] [file]\n");
	exit(1);
}

static void
fromline(FILE *fp, long start)
{
	long line;
	int c;

	line = 1;
	while ((c = getc(fp)) != EOF) {
		if (line >= start)
			putchar(c);
		if (c == '\n')
			line++;
	}
}

static void
lastlines(FILE *fp, long count)
{
	char **ring, *line, *t;
	size_t *caps, cap, tc;
	long n, i;

	if (count == 0)
		return;
	ring = calloc(count, sizeof(char *));
	caps = calloc(count, sizeof(size_t));
	if (ring == NULL || caps == NULL)
		err(1, NULL);
	/* Read into line, then swap it into the ring: a failed read
	 * must not clobber the oldest line kept. */
	line = NULL;
	cap = 0;
	for (n = 0; getline(&line, &cap, fp) > 0; n++) {
		t = ring[n % count];
		tc = caps[n % count];
		ring[n % count] = line;
		caps[n % count] = cap;
		line = t;
		cap = tc;
	}
	for (i = n > count ? n - count : 0; i < n; i++)
		fputs(ring[i % count], stdout);
}

int
main(int argc, char *argv[])
{
	const char *arg;
	char *end;
	FILE *fp;
	long count;
	int i, from;

	count = 10;
	from = 0;
	for (i = 1; i < argc; i++) {
		arg = argv[i];
		if (strcmp(arg, "--") == 0) {
			i++;
			break;
		}
		if (strcmp(arg, "-n") == 0) {
			if (++i >= argc)
				usage();
			arg = argv[i];
		} else if (strncmp(arg, "-n", 2) == 0)
			arg += 2;
		else if (arg[0] == '-' && isdigit((unsigned char)arg[1]))
			arg++;
		else if (arg[0] != '+' || !isdigit((unsigned char)arg[1]))
			break;
		from = *arg == '+';
		count = strtol(arg + from, &end, 10);
		if (arg[from] == '\0' || *end != '\0' || count < 0)
			errx(1, "illegal offset -- %s", arg);
	}
	if (argc - i > 1)
		usage();
	fp = stdin;
	if (i < argc && (fp = fopen(argv[i], "r")) == NULL)
		err(1, "%s", argv[i]);
	if (from)
		fromline(fp, count);
	else
		lastlines(fp, count);
	return 0;
}
