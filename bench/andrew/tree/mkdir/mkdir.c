/*
 * mkdir: make directories.
 *	mkdir [-p] [-m mode] directory ...
 * -p: make missing parents too, and do not complain if the directory
 *     exists already.
 * -m: the mode (octal) of the new directories, instead of 0777 less
 *     the umask.
 */
#include <sys/stat.h>
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
usage(void)
{
	fprintf(stderr, "usage: mkdir [-p] [-m mode] directory ...\n");
	exit(1);
}

/* mkdir -p: make each missing component of path. */
static int
mkpath(char *path, mode_t mode)
{
	struct stat st;
	char *slash;

	slash = path;
	for (;;) {
		slash += strspn(slash, "/");
		slash += strcspn(slash, "/");
		if (*slash == '\0')
			break;
		*slash = '\0';
		if (mkdir(path, 0777) < 0 && errno != EEXIST) {
			warn("%s", path);
			return 1;
		}
		*slash = '/';
	}
	if (mkdir(path, mode) < 0) {
		if (errno != EEXIST || stat(path, &st) < 0 ||
		    !S_ISDIR(st.st_mode)) {
			if (errno == EEXIST)
				errno = ENOTDIR;
			warn("%s", path);
			return 1;
		}
	}
	return 0;
}

int
main(int argc, char *argv[])
{
	mode_t mode;
	char *end;
	int ch, pflag, mflag, r, rval;

	pflag = mflag = 0;
	mode = 0777;
	while ((ch = getopt(argc, argv, "m:p")) != -1) {
		switch (ch) {
		case 'm':
			mode = strtol(optarg, &end, 8);
			if (*optarg == '\0' || *end != '\0' || mode > 07777)
				errx(1, "invalid file mode: %s", optarg);
			mflag = 1;
			break;
		case 'p':
			pflag = 1;
			break;
		default:
			usage();
		}
	}
	argv += optind;
	if (*argv == NULL)
		usage();
	rval = 0;
	for (; *argv != NULL; argv++) {
		if (pflag)
			r = mkpath(*argv, mode);
		else if ((r = mkdir(*argv, mode) < 0 ? 1 : 0) != 0)
			warn("%s", *argv);
		/* An explicit mode is not cut down by the umask. */
		if (r == 0 && mflag)
			chmod(*argv, mode);
		rval |= r;
	}
	return rval;
}
