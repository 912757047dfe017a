/*
 * echo: write the arguments, separated by spaces, and a newline.
 *	echo [-n] [string ...]
 * -n: no newline at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(int argc, char *argv[])
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
	if (fflush(stdout) == EOF || ferror(stdout))
		return 1;
	return 0;
}
