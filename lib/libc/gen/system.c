/*
 * system(3): run a command with /bin/sh -c and wait for it, with SIGINT
 * and SIGQUIT held off in the caller meanwhile.
 */
#include <errno.h>
#include <paths.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

int
system(const char *command)
{
	struct sigaction ign, oint, oquit;
	pid_t pid;
	int status;

	if (command == NULL)
		return access(_PATH_BSHELL, X_OK) == 0;
	ign.sa_handler = SIG_IGN;
	ign.sa_mask = 0;
	ign.sa_flags = 0;
	sigaction(SIGINT, &ign, &oint);
	sigaction(SIGQUIT, &ign, &oquit);
	switch (pid = fork()) {
	case -1:
		status = -1;
		break;
	case 0:
		sigaction(SIGINT, &oint, NULL);
		sigaction(SIGQUIT, &oquit, NULL);
		execl(_PATH_BSHELL, "sh", "-c", command, (char *)NULL);
		_exit(127);
	default:
		while (waitpid(pid, &status, 0) < 0) {
			if (errno != EINTR) {
				status = -1;
				break;
			}
		}
		break;
	}
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGQUIT, &oquit, NULL);
	return status;
}
