/*
 * xargs: run a command with arguments read from the standard input.
 *	xargs [-n number] [utility [argument ...]]
 * The arguments are the input's words (blanks and newlines separate
 * them); each run takes at most -n of them (default: as many as fit in
 * ARGMAX words).  The default utility is echo.  Exit status: 127 if the
 * utility cannot be run, 1 if a run failed, else 0.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define ARGMAX	256		/* words per run */
#define WORDMAX	1024		/* bytes per word */

static char *cmd[ARGMAX + 64];
static int nfixed;

/* Run the utility with the words collected; its exit status. */
static int
run(int n)
{
	pid_t pid;
	int st;

	cmd[nfixed + n] = NULL;
	if ((pid = fork()) < 0)
		err(1, "fork");
	if (pid == 0) {
		execvp(cmd[0], cmd);
		warn("%s", cmd[0]);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		err(1, "waitpid");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

int
main(int argc, char *argv[])
{
	char word[WORDMAX];
	int ch, i, n = 0, max = ARGMAX, len = 0, c, st, rval = 0;

	while ((ch = getopt(argc, argv, "n:")) != -1) {
		if (ch != 'n' || (max = atoi(optarg)) <= 0 || max > ARGMAX) {
			fprintf(stderr, "usage: xargs [-n number (1..%d)] "
			    "[utility [argument ...]]\n", ARGMAX);
			return 1;
		}
	}
	if (argc - optind > 63)
		errx(1, "too many arguments to the utility");
	if (optind == argc)
		cmd[nfixed++] = "echo";
	for (i = optind; i < argc; i++)
		cmd[nfixed++] = argv[i];
	for (;;) {
		c = getchar();
		if (c != EOF && c != ' ' && c != '\t' && c != '\n') {
			if (len == WORDMAX - 1)
				errx(1, "a word longer than %d bytes",
				    WORDMAX - 1);
			word[len++] = c;
			continue;
		}
		if (len > 0) {
			word[len] = '\0';
			if ((cmd[nfixed + n++] = strdup(word)) == NULL)
				err(1, "strdup");
			len = 0;
		}
		if (n > 0 && (n == max || c == EOF)) {
			if ((st = run(n)) == 127)
				return 127;
			if (st != 0)
				rval = 1;
			while (n > 0)
				free(cmd[nfixed + --n]);
		}
		if (c == EOF)
			break;
	}
	return rval;
}
