/*
 * su: run a shell (or a command, with -c) as another user, root by
 * default.  This system keeps no password hashes (libc has no crypt), so
 * the rule is simple and safe: root may become anyone; anyone may become
 * a user whose password field in /etc/passwd is empty; everyone else is
 * refused.  "*" (as root's entry has) means no password will do.
 * /bin/su is installed set-user-id root so that it can change identity.
 *
 * usage: su [-] [user] [-c command]
 */
#include <sys/types.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
usage(void)
{
	fprintf(stderr, "usage: su [-] [user] [-c command]\n");
	exit(1);
}

int
main(int argc, char **argv)
{
	const char *user = "root", *command = NULL;
	char *shargv[5], arg0[64];
	struct passwd *pw;
	int login = 0, i, n = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-") == 0 || strcmp(argv[i], "-l") == 0)
			login = 1;
		else if (strcmp(argv[i], "-c") == 0) {
			if (++i >= argc)
				usage();
			command = argv[i];
		} else if (argv[i][0] == '-')
			usage();
		else
			user = argv[i];
	}
	if ((pw = getpwnam(user)) == NULL) {
		fprintf(stderr, "su: unknown user %s\n", user);
		return 1;
	}
	if (getuid() != 0 && pw->pw_passwd[0] != '\0') {
		fprintf(stderr, "su: Sorry\n");
		return 1;
	}
	if (setgid(pw->pw_gid) < 0 || setuid(pw->pw_uid) < 0) {
		fprintf(stderr, "su: cannot change to %s: %s\n", user,
		    strerror(errno));
		return 1;
	}
	setenv("USER", pw->pw_name, 1);
	setenv("HOME", pw->pw_dir, 1);
	if (login && chdir(pw->pw_dir) < 0)
		fprintf(stderr, "su: no directory %s\n", pw->pw_dir);
	snprintf(arg0, sizeof(arg0), "%s%s", login ? "-" : "", "su");
	shargv[n++] = arg0;
	if (command != NULL) {
		shargv[n++] = "-c";
		shargv[n++] = (char *)command;
	}
	shargv[n] = NULL;
	execv(pw->pw_shell[0] ? pw->pw_shell : "/bin/sh", shargv);
	fprintf(stderr, "su: %s: %s\n", pw->pw_shell, strerror(errno));
	return 1;
}
