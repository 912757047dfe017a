/*
 * memhog: many processes grow their heaps until the kernel says ENOMEM,
 * all at once, then exit.  The kernel must refuse memory (sbrk, fork)
 * with an error and stay up: user pages never eat the reserve the
 * kernel's own allocations need.  Prints "(memhog) ..." lines and
 * "N passed, M failed".
 */
#include <sys/types.h>
#include <sys/wait.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NCHILD	20

int
main(void)
{
	int i, forked = 0, reaped = 0, status, failed = 0, p[2];
	char c;

	setvbuf(stdout, NULL, _IONBF, 0);
	pipe(p);
	for (i = 0; i < NCHILD; i++) {
		pid_t pid = fork();

		if (pid < 0)
			break;			/* out of memory or slots: fine */
		if (pid == 0) {
			close(p[1]);
			while (sbrk(256 * 1024) != (void *)-1)
				continue;
			/* Hold it until every hog has grown. */
			read(p[0], &c, 1);
			_exit(errno == ENOMEM ? 0 : 1);
		}
		forked++;
	}
	close(p[1]);			/* the children's read returns: exit */
	while (wait(&status) > 0) {
		reaped++;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			failed++;
	}
	printf("(memhog) %d hogs forked, %d reaped\n", forked, reaped);
	if (forked == 0 || reaped != forked)
		failed++;
	printf("(memhog) sbrk ends in ENOMEM: %s\n", failed ? "FAILED" : "ok");
	printf("%d passed, %d failed\n", failed ? 0 : 1, failed ? 1 : 0);
	return failed != 0;
}
