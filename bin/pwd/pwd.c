/*
 * pwd: print the working directory.
 *	pwd [-L | -P]
 * -L (the default): $PWD, if it is an absolute name of this directory
 * without . or .. in it (it may go through symbolic links, as the
 * shell's cd left it); -P, or a $PWD that is not right: the physical
 * name, found by climbing ".." (see getcwd(3)).
 *
 * The shell compiles this file too (with -DSHELL, see the Makefile) and
 * runs pwdcmd as its built-in pwd, so the two cannot differ; there $PWD
 * is the shell's variable, not its environment's, and cd uses goodpwd.
 */
#include <sys/stat.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef SHELL
#include "bin/sh/sh.h"
#define getenv	lookupvar
#endif

int	pwdcmd(int, char **);
int	goodpwd(const char *);

static int
endswith(const char *s, const char *suffix)
{
	size_t n, m;

	n = strlen(s);
	m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Is pwd a logical name of the working directory, as -L wants? */
int
goodpwd(const char *pwd)
{
	struct stat sdot, spwd;

	return pwd != NULL && pwd[0] == '/' &&
	    strstr(pwd, "/./") == NULL && strstr(pwd, "/../") == NULL &&
	    !endswith(pwd, "/.") && !endswith(pwd, "/..") &&
	    stat(pwd, &spwd) == 0 && stat(".", &sdot) == 0 &&
	    spwd.st_dev == sdot.st_dev && spwd.st_ino == sdot.st_ino;
}

int
pwdcmd(int argc, char *argv[])
{
	char buf[PATH_MAX], *pwd;
	size_t k;
	int i, physical;

	/* by hand, not getopt: the shell calls this again and again */
	physical = 0;
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if ((k = strspn(argv[i] + 1, "LP")) != strlen(argv[i] + 1)) {
			fprintf(stderr, "pwd: illegal option -- %c\n",
			    argv[i][1 + k]);
			break;
		}
		physical = argv[i][k] == 'P';
	}
	if (i != argc) {
		fprintf(stderr, "usage: pwd [-LP]\n");
		return 1;
	}
	pwd = getenv("PWD");
	if (!physical && goodpwd(pwd)) {
		printf("%s\n", pwd);
		return 0;
	}
	if (getcwd(buf, sizeof(buf)) == NULL) {
		fprintf(stderr, "pwd: getcwd: %s\n", strerror(errno));
		return 1;
	}
	printf("%s\n", buf);
	return 0;
}

#ifndef SHELL
int
main(int argc, char *argv[])
{
	return pwdcmd(argc, argv);
}
#endif
