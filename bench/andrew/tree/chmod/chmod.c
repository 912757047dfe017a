/*
 * chmod: change file modes.
 *	chmod [-R] mode file ...
 * The mode is octal (755) or symbolic: comma-separated clauses
 * [ugoa]*[+-=][rwxXst]* (several op-perms pairs may follow one who
 * list; u, g or o as perms copy that class's bits).  Without a who,
 * the bits the umask masks are not changed.
 * -R: change the files in directories too.
 */
#include <sys/stat.h>
#include <dirent.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static mode_t cmask;		/* the umask */

static void
usage(void)
{
	fprintf(stderr, "usage: chmod [-R] mode file ...\n");
	exit(1);
}

/* The new mode of a file, or -1 if the mode string is bad. */
static long
newmode(const char *spec, mode_t old, int isdir)
{
	mode_t mode, who, perm, class;
	const char *p;
	char *end;
	int op, nowho;

	if (*spec >= '0' && *spec <= '7') {
		mode = strtol(spec, &end, 8);
		return *end != '\0' || mode > 07777 ? -1 : (long)mode;
	}
	mode = old & 07777;
	for (p = spec;;) {
		who = 0;
		for (;; p++) {
			if (*p == 'u')
				who |= S_ISUID | S_IRWXU;
			else if (*p == 'g')
				who |= S_ISGID | S_IRWXG;
			else if (*p == 'o')
				who |= S_IRWXO;
			else if (*p == 'a')
				who |= 07777;
			else
				break;
		}
		nowho = who == 0;
		if (nowho)
			who = 07777 & ~cmask;
		if (*p != '+' && *p != '-' && *p != '=')
			return -1;
		while (*p == '+' || *p == '-' || *p == '=') {
			op = *p++;
			perm = 0;
			for (;; p++) {
				if (*p == 'r')
					perm |= 0444;
				else if (*p == 'w')
					perm |= 0222;
				else if (*p == 'x')
					perm |= 0111;
				else if (*p == 'X') {
					if (isdir || (old & 0111))
						perm |= 0111;
				} else if (*p == 's')
					perm |= S_ISUID | S_ISGID;
				else if (*p == 't')
					perm |= S_ISVTX;
				else if (*p == 'u' || *p == 'g' || *p == 'o') {
					class = *p == 'u' ? (old >> 6) & 7 :
					    *p == 'g' ? (old >> 3) & 7 : old & 7;
					perm |= class << 6 | class << 3 | class;
				} else
					break;
			}
			if (op == '=') {
				mode &= ~(nowho ? 07777 : who);
				mode |= perm & who;
			} else if (op == '+')
				mode |= perm & who;
			else
				mode &= ~(perm & who);
		}
		if (*p == '\0')
			return mode;
		if (*p++ != ',')
			return -1;
	}
}

static int
change(const char *path, const char *spec, int recurse)
{
	struct dirent *dp;
	struct stat st;
	char *sub;
	DIR *dir;
	long mode;
	int rval;

	if (stat(path, &st) < 0) {
		warn("%s", path);
		return 1;
	}
	if ((mode = newmode(spec, st.st_mode, S_ISDIR(st.st_mode))) < 0)
		errx(1, "invalid file mode: %s", spec);
	rval = 0;
	if (chmod(path, (mode_t)mode) < 0) {
		warn("%s", path);
		rval = 1;
	}
	if (!recurse || !S_ISDIR(st.st_mode) || lstat(path, &st) < 0 ||
	    !S_ISDIR(st.st_mode))
		return rval;
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
		if (lstat(sub, &st) == 0 && !S_ISLNK(st.st_mode))
			rval |= change(sub, spec, 1);
		free(sub);
	}
	closedir(dir);
	return rval;
}

int
main(int argc, char *argv[])
{
	int ch, i, Rflag, rval;

	Rflag = 0;
	while ((ch = getopt(argc, argv, "R")) != -1) {
		switch (ch) {
		case 'R':
			Rflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 2)
		usage();
	cmask = umask(0);
	umask(cmask);
	if (newmode(argv[0], 0, 0) < 0)
		errx(1, "invalid file mode: %s", argv[0]);
	rval = 0;
	for (i = 1; i < argc; i++)
		rval |= change(argv[i], argv[0], Rflag);
	return rval;
}
