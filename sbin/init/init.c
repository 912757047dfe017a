/*
 * init: process 1.
 *
 * It opens the console as descriptors 0, 1 and 2, sets the standard
 * environment, runs "/bin/sh /etc/rc" once if /etc/rc exists, and then
 * keeps a login shell ("-sh") on the console: fork it as a session
 * and process group leader owning the console, wait, and start a new one
 * when it exits.  Orphaned processes are re-parented to init by the
 * kernel; waiting reaps them too.
 *
 * init ignores the keyboard signals so that a ^C on the console never
 * reaches it; every child sets them back to the default before exec,
 * because an ignored signal stays ignored across exec.
 */
#include <errno.h>
#include <fcntl.h>
#include <paths.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const int ignored[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGTSTP,
    SIGTTIN, SIGTTOU };
#define NIGNORED	(int)(sizeof(ignored) / sizeof(ignored[0]))

static void
setsignals(sig_t disposition)
{
	int i;

	for (i = 0; i < NIGNORED; i++)
		signal(ignored[i], disposition);
}

/* Make the console descriptors 0, 1 and 2. */
static int
openconsole(void)
{
	int fd;

	close(0);
	close(1);
	close(2);
	if ((fd = open(_PATH_CONSOLE, O_RDWR)) < 0)
		return -1;
	if (fd != 0) {
		dup2(fd, 0);
		close(fd);
	}
	dup2(0, 1);
	dup2(0, 2);
	return 0;
}

/*
 * In a new child: become a session and process group leader, take the
 * console (reopening it makes it the controlling terminal where the
 * kernel gives one to a session leader that opens a terminal) and put
 * our group in its foreground, then restore the default signals.
 */
static void
childsetup(void)
{
	if (setsid() < 0)
		setpgid(0, 0);
	openconsole();
	tcsetpgrp(0, getpid());
	setsignals(SIG_DFL);
}

static void
execfail(const char *path)
{
	dprintf(2, "init: cannot execute %s: %s\n", path, strerror(errno));
	sleep(1);		/* init will try again; not in a busy loop */
	_exit(127);
}

/* Wait for pid, reaping any other children (orphans) on the way. */
static int
waitfor(pid_t pid)
{
	pid_t p;
	int status;

	for (;;) {
		p = wait(&status);
		if (p == pid)
			return status;
		if (p < 0 && errno == ECHILD)
			return -1;
		/* an orphan reaped, or EINTR: keep waiting */
	}
}

static void
runrc(void)
{
	pid_t pid;

	if (access(_PATH_RC, F_OK) < 0)
		return;
	switch (pid = fork()) {
	case -1:
		dprintf(2, "init: fork: %s\n", strerror(errno));
		return;
	case 0:
		childsetup();
		execl(_PATH_BSHELL, "sh", _PATH_RC, (char *)NULL);
		execfail(_PATH_BSHELL);
	}
	waitfor(pid);
}

static void
runshell(void)
{
	time_t start;
	pid_t pid;
	int status;

	start = time(NULL);
	switch (pid = fork()) {
	case -1:
		dprintf(2, "init: fork: %s\n", strerror(errno));
		sleep(1);
		return;
	case 0:
		childsetup();
		execl(_PATH_BSHELL, "-sh", (char *)NULL);
		execfail(_PATH_BSHELL);
	}
	status = waitfor(pid);
	/* A shell that dies at once, again and again, must not spin. */
	if (status != 0 && time(NULL) - start < 1)
		sleep(1);
}

int
main(void)
{
	setsignals(SIG_IGN);
	if (openconsole() < 0)
		_exit(1);	/* no console, nowhere to say so */
	setenv("HOME", "/", 1);
	setenv("PATH", _PATH_DEFPATH, 1);
	setenv("USER", "root", 1);
	setenv("TERM", "vt100", 1);
	runrc();
	for (;;)
		runshell();
}
