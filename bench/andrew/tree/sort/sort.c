/*
 * sort: sort lines of text.
 *	sort [-fnru] [-o output] [file ...]
 * -f: fold lower case to upper case when comparing.
 * -n: compare by the number at the start of each line (leading blanks,
 *     an optional sign, digits, an optional fraction).
 * -r: reverse the order.
 * -u: output only the first of a run of lines that compare equal.
 * -o: write to output (which may be one of the inputs).
 * Lines that compare equal by -n or -f are ordered by their bytes,
 * unless -u is given.  All input is held in memory.
 */
#include <ctype.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static int fflag, nflag, rflag, uflag;
static char **lines;
static size_t nlines, cap;

static void
usage(void)
{
	fprintf(stderr, "usage: sort [-fnru] [-o output] [file ...]\n");
	exit(2);
}

static void
readlines(FILE *fp)
{
	char *line;
	size_t lcap;
	ssize_t len;

	line = NULL;
	lcap = 0;
	while ((len = getline(&line, &lcap, fp)) > 0) {
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (nlines == cap) {
			cap = cap == 0 ? 1024 : cap * 2;
			if ((lines = realloc(lines, cap * sizeof(char *))) == NULL)
				err(2, NULL);
		}
		if ((lines[nlines++] = strdup(line)) == NULL)
			err(2, NULL);
	}
	free(line);
}

/* Skip blanks and a sign; return the start of the digits. */
static const char *
number(const char *s, int *neg)
{
	while (isblank((unsigned char)*s))
		s++;
	*neg = *s == '-';
	s += *neg;
	while (*s == '0')
		s++;
	return s;
}

/* The fraction digits after the integer part at s, or "". */
static const char *
fraction(const char *s)
{
	while (isdigit((unsigned char)*s))
		s++;
	return *s == '.' ? s + 1 : "";
}

/* Compare the magnitudes of two numbers, digit by digit. */
static int
magcmp(const char *a, const char *b)
{
	size_t la, lb;
	int r, ca, cb;

	for (la = 0; isdigit((unsigned char)a[la]); la++)
		continue;
	for (lb = 0; isdigit((unsigned char)b[lb]); lb++)
		continue;
	if (la != lb)
		return la < lb ? -1 : 1;
	if ((r = strncmp(a, b, la)) != 0)
		return r < 0 ? -1 : 1;
	a = fraction(a);
	b = fraction(b);
	while (isdigit((unsigned char)*a) || isdigit((unsigned char)*b)) {
		ca = isdigit((unsigned char)*a) ? *a++ : '0';
		cb = isdigit((unsigned char)*b) ? *b++ : '0';
		if (ca != cb)
			return ca < cb ? -1 : 1;
	}
	return 0;
}

/* Compare the numbers at the start of two lines. */
static int
numcmp(const char *a, const char *b)
{
	int nega, negb, r;

	a = number(a, &nega);
	b = number(b, &negb);
	r = magcmp(a, b);
	if (nega == negb)
		return nega ? -r : r;
	if (r == 0 && magcmp(a, "0") == 0)
		return 0;		/* -0 and 0 */
	return nega ? -1 : 1;
}

/* The comparison the options ask for, without the final tie-break. */
static int
keycmp(const char *a, const char *b)
{
	if (nflag)
		return numcmp(a, b);
	if (fflag)
		return strcasecmp(a, b);
	return strcmp(a, b);
}

static int
linecmp(const void *pa, const void *pb)
{
	const char *a = *(char *const *)pa, *b = *(char *const *)pb;
	int r;

	if ((r = keycmp(a, b)) == 0 && !uflag)
		r = strcmp(a, b);
	return rflag ? -r : r;
}

int
main(int argc, char *argv[])
{
	const char *output;
	size_t i;
	FILE *fp;
	int ch;

	output = NULL;
	while ((ch = getopt(argc, argv, "fno:ru")) != -1) {
		switch (ch) {
		case 'f':
			fflag = 1;
			break;
		case 'n':
			nflag = 1;
			break;
		case 'o':
			output = optarg;
			break;
		case 'r':
			rflag = 1;
			break;
		case 'u':
			uflag = 1;
			break;
		default:
			usage();
		}
	}
	argv += optind;
	if (*argv == NULL)
		readlines(stdin);
	for (; *argv != NULL; argv++) {
		if (strcmp(*argv, "-") == 0) {
			readlines(stdin);
			continue;
		}
		if ((fp = fopen(*argv, "r")) == NULL)
			err(2, "%s", *argv);
		readlines(fp);
		fclose(fp);
	}
	qsort(lines, nlines, sizeof(char *), linecmp);
	if (output != NULL && freopen(output, "w", stdout) == NULL)
		err(2, "%s", output);
	for (i = 0; i < nlines; i++) {
		if (uflag && i > 0 && keycmp(lines[i - 1], lines[i]) == 0)
			continue;
		printf("%s\n", lines[i]);
	}
	if (fflush(stdout) == EOF)
		err(2, "%s", output != NULL ? output : "stdout");
	return 0;
}
