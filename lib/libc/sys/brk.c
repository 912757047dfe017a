/*
 * brk(2) and sbrk(2) over the break system call, which only sets the end
 * of the data segment.  The current break starts at the linker's "_end"
 * symbol (the end of bss, see lib/user.ld) and libc keeps track of it.
 *
 * The loader maps whole pages, so the rest of the page holding "_end" is
 * already there, and the kernel's break begins at the next page boundary
 * (it refuses to go below it).  libc therefore never asks for less: a
 * break inside that first page is only recorded here.
 */
#include <errno.h>
#include <unistd.h>

#define PAGESIZE	4096

extern char _end[];	/* end of bss: both ld (lib/user.ld) and tcc define it */
int	__sys_break(const char *);

static char *curbrk = _end;

int
brk(const char *addr)
{
	const char *base;

	base = (const char *)(((unsigned long)_end + PAGESIZE - 1) &
	    ~(unsigned long)(PAGESIZE - 1));
	if (__sys_break(addr > base ? addr : base) < 0)
		return -1;
	curbrk = (char *)addr;
	return 0;
}

void *
sbrk(int incr)
{
	char *old;

	old = curbrk;
	if (incr != 0) {
		if ((incr > 0 && curbrk + incr < curbrk) ||
		    (incr < 0 && curbrk + incr > curbrk)) {
			errno = ENOMEM;
			return (void *)-1;
		}
		if (brk(curbrk + incr) < 0)
			return (void *)-1;
	}
	return old;
}
