/*
 * kill: send a signal to processes.
 *	kill [-s signal_name] pid ...
 *	kill -signal_name pid ...
 *	kill -signal_number pid ...
 *	kill -l [exit_status]
 * The default signal is TERM.  Names are those of sys_signame, in any
 * case, with or without "SIG".  A negative pid names a process group.
 *
 * The shell compiles this file too (with -DSHELL, see the Makefile): its
 * built-in kill turns %job into a process group and calls killcmd, so
 * nothing here exits, and the messages are written as err(3) would.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int	killcmd(int, char **);

static int
usage(void)
{
	fprintf(stderr, "usage: kill [-s signal_name] pid ...\n"
	    "       kill -l [exit_status]\n"
	    "       kill -signal_name pid ...\n"
	    "       kill -signal_number pid ...\n");
	return 2;
}

/* A signal by name or number, or -1. */
static int
signum(const char *s)
{
	char *end;
	int n;

	if (isdigit((unsigned char)*s)) {
		n = strtol(s, &end, 10);
		return *end == '\0' && n >= 0 && n < NSIG ? n : -1;
	}
	if (strncasecmp(s, "sig", 3) == 0)
		s += 3;
	for (n = 1; n < NSIG; n++)
		if (strcasecmp(s, sys_signame[n]) == 0)
			return n;
	return -1;
}

static void
upper(const char *s)
{
	for (; *s != '\0'; s++)
		putchar(toupper((unsigned char)*s));
}

static int
list(const char *status)
{
	int n;

	if (status != NULL) {
		n = atoi(status);
		if (n >= 128)
			n -= 128;
		if (n <= 0 || n >= NSIG) {
			fprintf(stderr, "kill: unknown signal %s\n", status);
			return 1;
		}
		upper(sys_signame[n]);
		putchar('\n');
		return 0;
	}
	for (n = 1; n < NSIG; n++) {
		upper(sys_signame[n]);
		putchar(n % 8 == 0 || n == NSIG - 1 ? '\n' : ' ');
	}
	return 0;
}

int
killcmd(int argc, char *argv[])
{
	char *end;
	int sig, rval;
	long pid;

	argc--;
	argv++;
	if (argc == 0)
		return usage();
	sig = SIGTERM;
	if (strcmp(argv[0], "-l") == 0)
		return list(argc > 1 ? argv[1] : NULL);
	if (strcmp(argv[0], "-s") == 0) {
		if (argc < 2)
			return usage();
		if ((sig = signum(argv[1])) < 0) {
			fprintf(stderr, "kill: %s: unknown signal; kill -l "
			    "lists signals\n", argv[1]);
			return 1;
		}
		argc -= 2;
		argv += 2;
	} else if (argv[0][0] == '-' && argv[0][1] != '\0' &&
	    strcmp(argv[0], "--") != 0) {
		if ((sig = signum(argv[0] + 1)) < 0) {
			fprintf(stderr, "kill: %s: unknown signal; kill -l "
			    "lists signals\n", argv[0] + 1);
			return 1;
		}
		argc--;
		argv++;
	}
	if (argc > 0 && strcmp(argv[0], "--") == 0) {
		argc--;
		argv++;
	}
	if (argc == 0)
		return usage();
	rval = 0;
	for (; argc > 0; argc--, argv++) {
		pid = strtol(argv[0], &end, 10);
		if (*argv[0] == '\0' || *end != '\0') {
			fprintf(stderr, "kill: illegal process id: %s\n",
			    argv[0]);
			rval = 1;
			continue;
		}
		if (kill((pid_t)pid, sig) < 0) {
			fprintf(stderr, "kill: %s: %s\n", argv[0],
			    strerror(errno));
			rval = 1;
		}
	}
	return rval;
}

#ifndef SHELL
int
main(int argc, char *argv[])
{
	return killcmd(argc, argv);
}
#endif
