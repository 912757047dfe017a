/*
 * rm: remove directory entries.
 *	rm [-fr] file ...
 * -f: no complaint about missing files; exit status 0 for them.
 * -r, -R: remove directories and everything under them.
 */
#include <sys/stat.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fflag, rflag;

static int
rmtree(const char *path)
{
	struct dirent *dp;
	struct stat st;
	char *sub;
	DIR *dir;
	int rval;

	if (lstat(path, &st) < 0) {
		if (fflag && errno == ENOENT)
			return 0;
		warn("%s", path);
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (unlink(path) < 0) {
			warn("%s", path);
			return 1;
		}
		return 0;
	}
	if (!rflag) {
		warnx("%s: is a directory", path);
		return 1;
	}
	rval = 0;
	if ((dir = opendir(path)) == NULL) {
		warn("%s", path);
		return 1;
	}
	while ((dp = readdir(dir)) != NULL) {
		if (strcmp(dp->d_name, ".") == 0 || strcmp(dp->d_name, "..") == 0)
			continue;
		if ((sub = malloc(strlen(path) + strlen(dp->d_name) + 2)) == NULL)
			err(1, NULL);
		sprintf(sub, "%s/%s", path, dp->d_name);
		rval |= rmtree(sub);
		free(sub);
	}
	closedir(dir);
	if (rmdir(path) < 0) {
		warn("%s", path);
		return 1;
	}
	return rval;
}

/* Refuse "." and ".." as the last component, as BSD rm does. */
static int
dotdot(const char *path)
{
	const char *p;

	p = strrchr(path, '/');
	p = p != NULL ? p + 1 : path;
	return strcmp(p, ".") == 0 || strcmp(p, "..") == 0;
}

int
main(int argc, char *argv[])
{
	int ch, rval;

	while ((ch = getopt(argc, argv, "fRr")) != -1) {
		switch (ch) {
		case 'f':
			fflag = 1;
			break;
		case 'R':
		case 'r':
			rflag = 1;
			break;
		default:
			fprintf(stderr, "usage: rm [-fr] file ...\n");
			exit(1);
		}
	}
	argv += optind;
	if (*argv == NULL) {
		if (fflag)
			return 0;
		fprintf(stderr, "usage: rm [-fr] file ...\n");
		exit(1);
	}
	rval = 0;
	for (; *argv != NULL; argv++) {
		if (dotdot(*argv)) {
			warnx("\".\" and \"..\" may not be removed");
			rval = 1;
			continue;
		}
		rval |= rmtree(*argv);
	}
	return rval;
}
