/*
 * id: print user and group identities.
 *	id [user]
 *	id -g [-nr] [user]
 *	id -u [-nr] [user]
 *	id -G [-n] [user]
 * Without options: "uid=0(root) gid=0(wheel) groups=0(wheel)".
 */
#include <err.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int nflag;

static void
usage(void)
{
	fprintf(stderr, "usage: id [user]\n"
	    "       id -G [-n] [user]\n"
	    "       id -g [-nr] [user]\n"
	    "       id -u [-nr] [user]\n");
	exit(1);
}

static void
printuid(uid_t uid)
{
	struct passwd *pw;

	if (nflag && (pw = getpwuid(uid)) != NULL)
		printf("%s", pw->pw_name);
	else
		printf("%u", (unsigned)uid);
}

static void
printgid(gid_t gid)
{
	struct group *gr;

	if (nflag && (gr = getgrgid(gid)) != NULL)
		printf("%s", gr->gr_name);
	else
		printf("%u", (unsigned)gid);
}

static void
named(const char *label, unsigned id, const char *name)
{
	printf("%s%u", label, id);
	if (name != NULL)
		printf("(%s)", name);
}

/* The groups: the primary one, then those listing the user. */
static int
groups(const char *user, gid_t gid, gid_t *list, int max)
{
	struct group *gr;
	char **m;
	int n, i;

	n = 0;
	list[n++] = gid;
	if (user == NULL)
		return n;
	setgrent();
	while ((gr = getgrent()) != NULL && n < max) {
		for (m = gr->gr_mem; *m != NULL; m++)
			if (strcmp(*m, user) == 0)
				break;
		if (*m == NULL)
			continue;
		for (i = 0; i < n && list[i] != gr->gr_gid; i++)
			continue;
		if (i == n)
			list[n++] = gr->gr_gid;
	}
	endgrent();
	return n;
}

int
main(int argc, char *argv[])
{
	struct passwd *pw;
	struct group *gr;
	gid_t list[32];
	uid_t uid;
	gid_t gid;
	int ch, Gflag, gflag, uflag, n, i;
	char *user;

	Gflag = gflag = uflag = 0;
	while ((ch = getopt(argc, argv, "Ggnru")) != -1) {
		switch (ch) {
		case 'G':
			Gflag = 1;
			break;
		case 'g':
			gflag = 1;
			break;
		case 'n':
			nflag = 1;
			break;
		case 'r':
			break;
		case 'u':
			uflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1 || Gflag + gflag + uflag > 1)
		usage();
	if (argc == 1) {
		if ((pw = getpwnam(argv[0])) == NULL)
			errx(1, "%s: no such user", argv[0]);
		uid = pw->pw_uid;
		gid = pw->pw_gid;
	} else {
		uid = getuid();
		gid = getgid();
		pw = getpwuid(uid);
	}
	/* Copy the name: the next lookup reuses the passwd buffer. */
	user = pw != NULL ? strdup(pw->pw_name) : NULL;
	if (uflag) {
		printuid(uid);
		putchar('\n');
		return 0;
	}
	if (gflag) {
		printgid(gid);
		putchar('\n');
		return 0;
	}
	n = groups(user, gid, list, 32);
	if (Gflag) {
		for (i = 0; i < n; i++) {
			if (i > 0)
				putchar(' ');
			printgid(list[i]);
		}
		putchar('\n');
		return 0;
	}
	named("uid=", uid, user);
	gr = getgrgid(gid);
	named(" gid=", gid, gr != NULL ? gr->gr_name : NULL);
	printf(" groups=");
	for (i = 0; i < n; i++) {
		if (i > 0)
			putchar(',');
		gr = getgrgid(list[i]);
		named("", list[i], gr != NULL ? gr->gr_name : NULL);
	}
	putchar('\n');
	return 0;
}
