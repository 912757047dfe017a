/*
 * The kernel's name and version: the boot banner and uname(2) read them
 * here, so the two never disagree.
 */
#include "kern/systm.h"
#include "kern/uio.h"
#include "kern/syscallargs.h"
#include <sys/utsname.h>

const char ostype[] = "4.4BSD-LFS";
const char osrelease[] = "1.0";
const char version[] = "4.4BSD-LFS teaching kernel";

/* The names, for uname(2) and an emulation's. */
void
uname_fill(struct utsname *u)
{
	memset(u, 0, sizeof(*u));
	strlcpy(u->sysname, ostype, sizeof(u->sysname));
	strlcpy(u->nodename, "localhost", sizeof(u->nodename));
	strlcpy(u->release, osrelease, sizeof(u->release));
	strlcpy(u->version, version, sizeof(u->version));
	strlcpy(u->machine, "i386", sizeof(u->machine));
}

int
sys_uname(struct proc *p, struct uname_args *uap, int *retval)
{
	struct utsname u;

	uname_fill(&u);
	return copyout(&u, uap->name, sizeof(u));
}
