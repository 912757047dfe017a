/*
 * chown: change the owner and group of files.
 *	chown [-R] owner[:group] file ...
 *	chown [-R] :group file ...
 * Owner and group are names (from /etc/passwd and /etc/group) or
 * numbers; "." also separates them, as in old BSD.
 * -R: change the files in directories too (links are not followed).
 */
#include <sys/stat.h>
#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
usage(void)
{
	fprintf(stderr, "usage: chown [-R] owner[:group] file ...\n"
	    "       chown [-R] :group file ...\n");
	exit(1);
}

static int
isnumber(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

static int
change(const char *path, uid_t uid, gid_t gid, int recurse)
{
	struct dirent *dp;
	struct stat st;
	char *sub;
	DIR *dir;
	int rval;

	rval = 0;
	if (chown(path, uid, gid) < 0) {
		warn("%s", path);
		rval = 1;
	}
	if (!recurse || lstat(path, &st) < 0 || !S_ISDIR(st.st_mode))
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
			rval |= change(sub, uid, gid, 1);
		free(sub);
	}
	closedir(dir);
	return rval;
}

int
main(int argc, char *argv[])
{
	struct passwd *pw;
	struct group *gr;
	char *owner, *group;
	uid_t uid;
	gid_t gid;
	int ch, Rflag, rval, i;

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
	owner = argv[0];
	group = strpbrk(owner, ":.");
	if (group != NULL)
		*group++ = '\0';
	uid = (uid_t)-1;
	gid = (gid_t)-1;
	if (*owner != '\0') {
		if ((pw = getpwnam(owner)) != NULL)
			uid = pw->pw_uid;
		else if (isnumber(owner))
			uid = strtoul(owner, NULL, 10);
		else
			errx(1, "%s: illegal user name", owner);
	}
	if (group != NULL && *group != '\0') {
		if ((gr = getgrnam(group)) != NULL)
			gid = gr->gr_gid;
		else if (isnumber(group))
			gid = strtoul(group, NULL, 10);
		else
			errx(1, "%s: illegal group name", group);
	}
	rval = 0;
	for (i = 1; i < argc; i++)
		rval |= change(argv[i], uid, gid, Rflag);
	return rval;
}
