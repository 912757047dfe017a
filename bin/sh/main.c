/*
 * sh: the command interpreter.
 *	sh [-eix] [file [arg ...]]
 *	sh [-eix] -c string [name [arg ...]]
 *	sh [-eix] -s [arg ...]
 * With no file and no -c, commands come from standard input; the shell
 * is interactive (prompts, job control, survives errors) when standard
 * input and standard error are terminals, or with -i.  A login shell
 * (argv[0] starting with '-') first reads /etc/profile and
 * $HOME/.profile if they exist.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sh.h"

extern char **environ;

static void
usage(void)
{
	fprintf(stderr, "usage: sh [-eix] [-c string | -s | file] [arg ...]\n");
	exit(2);
}

/* Queue a profile to be read before the commands (it may be missing). */
static void
profile(const char *path)
{
	if (access(path, R_OK) == 0)
		setinputfile(path);
}

int
main(int argc, char **argv)
{
	char *cmdstr, *script, *home, *p, *dotprofile;
	int i, cflag, sflag, iforce, login;

	login = argv[0] != NULL && argv[0][0] == '-';
	initvar(environ);
	cflag = sflag = iforce = 0;
	for (i = 1; i < argc && (argv[i][0] == '-' || argv[i][0] == '+'); i++) {
		if (strcmp(argv[i], "--") == 0 || strcmp(argv[i], "-") == 0) {
			i++;
			break;
		}
		for (p = argv[i] + 1; *p != '\0'; p++) {
			switch (*p) {
			case 'c':
				cflag = 1;
				break;
			case 'e':
				eflag = argv[i][0] == '-';
				break;
			case 'x':
				xflag = argv[i][0] == '-';
				break;
			case 'i':
				iforce = 1;
				break;
			case 's':
				sflag = 1;
				break;
			case 'l':
				login = 1;
				break;
			default:
				fprintf(stderr, "sh: illegal option -%c\n", *p);
				usage();
			}
		}
	}
	cmdstr = script = NULL;
	if (cflag) {
		if (i >= argc)
			usage();
		cmdstr = argv[i++];
		arg0 = i < argc ? argv[i++] : argv[0];
	} else if (!sflag && i < argc) {
		script = argv[i++];
		arg0 = script;
	} else
		arg0 = argv[0];
	setparams(argc - i, argv + i);

	if (cmdstr != NULL)
		setinputstring(cmdstr);
	else if (script != NULL) {
		if (setinputfile(script) < 0) {
			fprintf(stderr, "sh: cannot open %s: %s\n", script,
			    strerror(errno));
			exit(127);
		}
	} else {
		iflag = iforce || (isatty(0) && isatty(2));
		setinputfd(0, iflag);
	}
	if (iflag) {
		setjobctl();
		Eflag = 1;		/* line editing, for a person at a terminal */
	}
	if (login) {
		/* pushed in reverse: /etc/profile is read first */
		if ((home = lookupvar("HOME")) != NULL) {
			dotprofile = ckmalloc(strlen(home) + 10);
			sprintf(dotprofile, "%s/.profile", home);
			profile(dotprofile);
			free(dotprofile);
		}
		profile("/etc/profile");
	}
	exitshell(cmdloop(1));
}
