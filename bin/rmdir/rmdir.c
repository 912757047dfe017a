/*
 * rmdir: remove empty directories.
 *	rmdir [-p] directory ...
 * -p: also remove each parent named in the path, as long as it empties.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int
rmpath(char *path)
{
	char *slash;

	for (;;) {
		if ((slash = strrchr(path, '/')) == NULL)
			return 0;
		while (slash > path && slash[-1] == '/')
			slash--;
		if (slash == path)
			return 0;
		*slash = '\0';
		if (rmdir(path) < 0) {
			warn("%s", path);
			return 1;
		}
	}
}

int
main(int argc, char *argv[])
{
	int ch, pflag, rval;

	pflag = 0;
	while ((ch = getopt(argc, argv, "p")) != -1) {
		switch (ch) {
		case 'p':
			pflag = 1;
			break;
		default:
			fprintf(stderr, "usage: rmdir [-p] directory ...\n");
			exit(1);
		}
	}
	argv += optind;
	if (*argv == NULL) {
		fprintf(stderr, "usage: rmdir [-p] directory ...\n");
		exit(1);
	}
	rval = 0;
	for (; *argv != NULL; argv++) {
		if (rmdir(*argv) < 0) {
			warn("%s", *argv);
			rval = 1;
		} else if (pflag)
			rval |= rmpath(*argv);
	}
	return rval;
}
