/*
 * time: run a command and report the time it took.
 *	time utility [argument ...]
 * On standard error, in 4.4BSD's format, the elapsed (real) time and
 * the user and system time of the command, from gettimeofday and the
 * resource usage wait4 returns.  The exit status is the command's (128
 * plus the signal if one killed it); 127 if it was not found, 126 if it
 * could not be run.
 */
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	struct timeval before, after;
	struct rusage ru;
	long sec, usec;
	pid_t pid;
	int status, e;

	if (getopt(argc, argv, "") != -1 || argv[optind] == NULL) {
		fprintf(stderr, "usage: time utility [argument ...]\n");
		exit(1);
	}
	argv += optind;
	gettimeofday(&before, NULL);
	switch (pid = fork()) {
	case -1:
		err(1, "fork");
	case 0:
		execvp(argv[0], argv);
		e = errno;
		warn("%s", argv[0]);
		_exit(e == ENOENT ? 127 : 126);
	}
	/* The command gets the keyboard signals; time waits them out. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			err(1, "wait4");
	gettimeofday(&after, NULL);
	sec = after.tv_sec - before.tv_sec;
	usec = after.tv_usec - before.tv_usec;
	if (usec < 0) {
		usec += 1000000;
		sec--;
	}
	fprintf(stderr, "%9ld.%02ld real %9ld.%02ld user %9ld.%02ld sys\n",
	    sec, usec / 10000, (long)ru.ru_utime.tv_sec,
	    (long)ru.ru_utime.tv_usec / 10000, (long)ru.ru_stime.tv_sec,
	    (long)ru.ru_stime.tv_usec / 10000);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
