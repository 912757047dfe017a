/*
 * grep: print lines that match a pattern.
 *	grep [-cEFilnqsv] [-e pattern] [pattern] [file ...]
 * -c: print only a count of matching lines per file.
 * -E: the pattern is an extended regular expression.
 * -F: the pattern is a fixed string.
 * -i: ignore case.
 * -l: print only the names of files with matches.
 * -n: precede each line with its line number.
 * -q: print nothing; the exit status says whether anything matched.
 * -s: no messages about unreadable files.
 * -v: select the lines that do not match.
 * With several files, lines are preceded by the file name.  Exit status
 * 0 if a line was selected, 1 if none, 2 on an error.  The patterns are
 * POSIX basic (or, with -E, extended) regular expressions: libc's
 * regcomp(3).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <regex.h>

static int cflag, Eflag, Fflag, iflag, lflag, nflag, qflag, sflag, vflag;
static const char *pattern;
static regex_t re;

static void
usage(void)
{
	fprintf(stderr,
	    "usage: grep [-cEFilnqsv] [-e pattern] [pattern] [file ...]\n");
	exit(2);
}

static int
matches(const char *line)
{
	size_t n;
	const char *p;

	if (!Fflag)
		return regexec(&re, line, 0, NULL, 0) == 0;
	n = strlen(pattern);
	for (p = line; *p != '\0' || n == 0; p++) {
		if ((iflag ? strncasecmp(p, pattern, n) :
		    strncmp(p, pattern, n)) == 0)
			return 1;
		if (*p == '\0')
			break;
	}
	return 0;
}

/* Search one file; returns the number of lines selected. */
static long
grep(FILE *fp, const char *name, int showname)
{
	char *line;
	size_t cap;
	ssize_t len;
	long lineno, count;

	line = NULL;
	cap = 0;
	lineno = count = 0;
	while ((len = getline(&line, &cap, fp)) > 0) {
		lineno++;
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (matches(line) == vflag)
			continue;
		count++;
		if (qflag)
			exit(0);
		if (lflag) {
			printf("%s\n", name);
			break;
		}
		if (cflag)
			continue;
		if (showname)
			printf("%s:", name);
		if (nflag)
			printf("%ld:", lineno);
		printf("%s\n", line);
	}
	free(line);
	if (cflag) {
		if (showname)
			printf("%s:", name);
		printf("%ld\n", count);
	}
	return count;
}

int
main(int argc, char *argv[])
{
	FILE *fp;
	long found;
	int ch, rval, showname;

	while ((ch = getopt(argc, argv, "cEe:Filnqsv")) != -1) {
		switch (ch) {
		case 'c':
			cflag = 1;
			break;
		case 'E':
			Eflag = 1;
			break;
		case 'e':
			pattern = optarg;
			break;
		case 'F':
			Fflag = 1;
			break;
		case 'i':
			iflag = 1;
			break;
		case 'l':
			lflag = 1;
			break;
		case 'n':
			nflag = 1;
			break;
		case 'q':
			qflag = 1;
			break;
		case 's':
			sflag = 1;
			break;
		case 'v':
			vflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (pattern == NULL) {
		if (argc == 0)
			usage();
		pattern = *argv++;
		argc--;
	}
	if (!Fflag && (ch = regcomp(&re, pattern, REG_NOSUB |
	    (Eflag ? REG_EXTENDED : 0) | (iflag ? REG_ICASE : 0))) != 0) {
		char msg[100];

		regerror(ch, &re, msg, sizeof(msg));
		errx(2, "%s: %s", pattern, msg);
	}
	found = 0;
	rval = 0;
	if (argc == 0)
		found = grep(stdin, "(standard input)", 0);
	showname = argc > 1;
	for (; argc > 0; argc--, argv++) {
		if ((fp = fopen(*argv, "r")) == NULL) {
			if (!sflag)
				warn("%s", *argv);
			rval = 2;
			continue;
		}
		found += grep(fp, *argv, showname);
		fclose(fp);
	}
	if (fflush(stdout) == EOF)
		rval = 2;
	if (rval == 2 && !qflag)
		return 2;
	return found > 0 ? 0 : rval == 2 ? 2 : 1;
}
