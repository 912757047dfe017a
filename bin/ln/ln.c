/*
 * ln: make links.
 *	ln [-fs] source [target]
 *	ln [-fs] source ... directory
 * -s: make symbolic links instead of hard links.
 * -f: remove an existing target first.
 * Without a target, the link is made in the current directory under
 * the source's last component.
 */
#include <sys/stat.h>
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fflag, sflag;

static void
usage(void)
{
	fprintf(stderr, "usage: ln [-fs] source [target]\n"
	    "       ln [-fs] source ... directory\n");
	exit(1);
}

static int
makelink(const char *source, const char *target)
{
	struct stat st;
	const char *base;
	char *path;
	int r;

	path = NULL;
	if (stat(target, &st) == 0 && S_ISDIR(st.st_mode)) {
		base = strrchr(source, '/');
		base = base != NULL ? base + 1 : source;
		if ((path = malloc(strlen(target) + strlen(base) + 2)) == NULL)
			err(1, NULL);
		sprintf(path, "%s/%s", target, base);
		target = path;
	}
	if (fflag && unlink(target) < 0 && errno != ENOENT) {
		warn("%s", target);
		free(path);
		return 1;
	}
	r = sflag ? symlink(source, target) : link(source, target);
	if (r < 0)
		warn("%s", target);
	free(path);
	return r < 0;
}

int
main(int argc, char *argv[])
{
	struct stat st;
	int ch, i, rval;

	while ((ch = getopt(argc, argv, "fs")) != -1) {
		switch (ch) {
		case 'f':
			fflag = 1;
			break;
		case 's':
			sflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 1)
		return makelink(argv[0], ".");
	if (argc < 2)
		usage();
	if (argc > 2 && (stat(argv[argc - 1], &st) < 0 ||
	    !S_ISDIR(st.st_mode)))
		usage();
	rval = 0;
	for (i = 0; i < argc - 1; i++)
		rval |= makelink(argv[i], argv[argc - 1]);
	return rval;
}
