/*
 * uniq: copy lines, each run of equal adjacent lines once.
 *	uniq [-c | -d | -u] [input [output]]
 * -c prefixes each line with how often it occurred, -d prints only lines
 * that repeat, -u only those that do not.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LINE	4096

static int cflag, dflag, uflag;

static void
show(FILE *out, const char *line, long n)
{
	if ((dflag && n == 1) || (uflag && n > 1))
		return;
	if (cflag)
		fprintf(out, "%4ld %s", n, line);
	else
		fputs(line, out);
}

int
main(int argc, char *argv[])
{
	static char prev[LINE], cur[LINE];
	FILE *in = stdin, *out = stdout;
	long n = 0;
	int ch;

	while ((ch = getopt(argc, argv, "cdu")) != -1)
		switch (ch) {
		case 'c': cflag = 1; break;
		case 'd': dflag = 1; break;
		case 'u': uflag = 1; break;
		default:
			fprintf(stderr, "usage: uniq [-c | -d | -u] "
			    "[input [output]]\n");
			return 1;
		}
	argc -= optind;
	argv += optind;
	if (argc > 0 && strcmp(argv[0], "-") != 0 &&
	    (in = fopen(argv[0], "r")) == NULL)
		err(1, "%s", argv[0]);
	if (argc > 1 && (out = fopen(argv[1], "w")) == NULL)
		err(1, "%s", argv[1]);
	while (fgets(cur, sizeof(cur), in) != NULL) {
		if (n > 0 && strcmp(cur, prev) == 0) {
			n++;
			continue;
		}
		if (n > 0)
			show(out, prev, n);
		strcpy(prev, cur);
		n = 1;
	}
	if (n > 0)
		show(out, prev, n);
	return fclose(out) == 0 ? 0 : 1;
}
