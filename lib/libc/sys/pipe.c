/*
 * pipe(2): the trap takes no arguments and returns the read end in %eax
 * and the write end in %edx, which is how a C function returns a 64-bit
 * value, so the stub is declared to return one.
 */
#include <unistd.h>

u_int64_t __sys_pipe(void);

int
pipe(int *fds)
{
	u_int64_t r;

	r = __sys_pipe();
	if ((int)r == -1)
		return -1;
	fds[0] = (int)(r & 0xffffffff);
	fds[1] = (int)(r >> 32);
	return 0;
}
