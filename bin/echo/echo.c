/*
 * echo: write the arguments, separated by spaces, and a newline.
 *	echo [-n] [string ...]
 * -n: no newline at the end.
 *
 * The shell compiles this file too (with -DSHELL, see the Makefile) and
 * runs echocmd as its built-in echo, so the two cannot differ.  It
 * writes to stdout, which the shell flushes after the command.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int	echocmd(int, char **);

int
echocmd(int argc, char *argv[])
{
	int nflag;

	nflag = argc > 1 && strcmp(argv[1], "-n") == 0;
	argv += 1 + nflag;
	while (*argv != NULL) {
		fputs(*argv, stdout);
		if (*++argv != NULL)
			putchar(' ');
	}
	if (!nflag)
		putchar('\n');
	if (fflush(stdout) == EOF || ferror(stdout)) {
		clearerr(stdout);	/* the shell goes on writing */
		return 1;
	}
	return 0;
}

#ifndef SHELL
int
main(int argc, char *argv[])
{
	return echocmd(argc, argv);
}
#endif
