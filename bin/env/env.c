/*
 * env: run a program in a changed environment, or print the environment.
 *	env [-i] [name=value ...] [utility [argument ...]]
 * -i (or "-"): start from an empty environment.
 * Exit status 127 if the utility is not found, 126 if it cannot be run.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	static char *empty[] = { NULL };
	char **ep;
	int ch;

	while ((ch = getopt(argc, argv, "i")) != -1) {
		switch (ch) {
		case 'i':
			environ = empty;
			break;
		default:
			fprintf(stderr, "usage: env [-i] [name=value ...] "
			    "[utility [argument ...]]\n");
			exit(1);
		}
	}
	argv += optind;
	if (*argv != NULL && strcmp(*argv, "-") == 0) {
		environ = empty;
		argv++;
	}
	for (; *argv != NULL && strchr(*argv, '=') != NULL; argv++)
		if (putenv(*argv) < 0)
			err(1, "%s", *argv);
	if (*argv != NULL) {
		execvp(*argv, argv);
		ch = errno;
		warn("%s", *argv);
		exit(ch == ENOENT ? 127 : 126);
	}
	for (ep = environ; *ep != NULL; ep++)
		printf("%s\n", *ep);
	return 0;
}
