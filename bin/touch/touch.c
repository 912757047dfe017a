/*
 * touch: change file access and modification times to now, creating
 * files that do not exist.
 *	touch [-c] file ...
 * -c: do not create missing files.
 */
#include <sys/stat.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	int ch, cflag, fd, rval;

	cflag = 0;
	while ((ch = getopt(argc, argv, "c")) != -1) {
		switch (ch) {
		case 'c':
			cflag = 1;
			break;
		default:
			fprintf(stderr, "usage: touch [-c] file ...\n");
			exit(1);
		}
	}
	argv += optind;
	if (*argv == NULL) {
		fprintf(stderr, "usage: touch [-c] file ...\n");
		exit(1);
	}
	rval = 0;
	for (; *argv != NULL; argv++) {
		if (utimes(*argv, NULL) == 0)
			continue;
		if (errno != ENOENT) {
			warn("%s", *argv);
			rval = 1;
			continue;
		}
		if (cflag)
			continue;
		if ((fd = open(*argv, O_WRONLY | O_CREAT, 0666)) < 0) {
			warn("%s", *argv);
			rval = 1;
			continue;
		}
		close(fd);
	}
	return rval;
}
