/*
 * wait(2) and waitpid(2) over wait4(2).
 */
#include <unistd.h>

pid_t
wait(int *status)
{
	return wait4(-1, status, 0, NULL);
}

pid_t
waitpid(pid_t pid, int *status, int options)
{
	return wait4(pid, status, options, NULL);
}
