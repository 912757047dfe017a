/*
 * more: page through text.
 *	more [-n lines] [file ...]
 * Shows a screenful (23 lines, or -n) at a time, then waits at a
 * "--More--" prompt.  The console has no raw mode, so an answer is a line
 * typed on the terminal: Return (or space, Return) shows the next screen,
 * a number N shows N more lines, q quits.  When the output is not a
 * terminal, more copies its input like cat.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int lines = 23;
static FILE *tty;

/* Returns how many lines to show next; 0 to quit. */
static int
ask(const char *name, long done, long size)
{
	char ans[64];

	if (size > 0)
		printf("--More--(%ld%%)", done * 100 / size);
	else
		printf("--More--%s%s%s", name ? "(" : "", name ? name : "",
		    name ? ")" : "");
	fflush(stdout);
	if (fgets(ans, sizeof(ans), tty) == NULL || ans[0] == 'q' ||
	    ans[0] == 'Q')
		return 0;
	if (ans[0] >= '1' && ans[0] <= '9')
		return atoi(ans);
	return lines;
}

/* Page one file; returns 0 when the user quit. */
static int
page(FILE *fp, const char *name, int *left)
{
	char line[1024];
	long done = 0, size = 0;

	if (fp != stdin && fseek(fp, 0L, SEEK_END) == 0) {
		size = ftell(fp);
		fseek(fp, 0L, SEEK_SET);
	}
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (*left == 0 && (*left = ask(name, done, size)) == 0)
			return 0;
		fputs(line, stdout);
		done += strlen(line);
		if (strchr(line, '\n') != NULL)
			(*left)--;
	}
	return 1;
}

int
main(int argc, char *argv[])
{
	int ch, left, rval = 0, i;
	FILE *fp;
	char buf[8192];
	size_t n;

	while ((ch = getopt(argc, argv, "n:")) != -1) {
		if (ch != 'n' || (lines = atoi(optarg)) < 1) {
			fprintf(stderr, "usage: more [-n lines] [file ...]\n");
			exit(1);
		}
	}
	argc -= optind;
	argv += optind;
	if (!isatty(STDOUT_FILENO) || (tty = fopen("/dev/tty", "r")) == NULL) {
		for (i = 0; i < argc || (i == 0 && argc == 0); i++) {
			fp = argc ? fopen(argv[i], "r") : stdin;
			if (fp == NULL) {
				perror(argv[i]);
				rval = 1;
				continue;
			}
			while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
				fwrite(buf, 1, n, stdout);
			if (fp != stdin)
				fclose(fp);
		}
		return rval;
	}
	left = lines;
	for (i = 0; i < argc || (i == 0 && argc == 0); i++) {
		fp = argc ? fopen(argv[i], "r") : stdin;
		if (fp == NULL) {
			perror(argv[i]);
			rval = 1;
			continue;
		}
		if (argc > 1)
			printf("::::::::::::::\n%s\n::::::::::::::\n", argv[i]);
		if (!page(fp, argc ? argv[i] : NULL, &left)) {
			if (fp != stdin)
				fclose(fp);
			break;
		}
		if (fp != stdin)
			fclose(fp);
	}
	return rval;
}
