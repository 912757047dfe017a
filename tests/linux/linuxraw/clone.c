/*
 * linuxraw: clone in fork's and vfork's forms; the thread forms refused.
 */
#include "linuxraw.h"

/* --- clone --------------------------------------------------------------- */

/* Reap one child; its exit status, or -1 for anything else. */
static int
reap(long pid)
{
	int st;

	if (pid <= 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static volatile int vfork_marker;	/* a vfork child's store */

/*
 * clone(CLONE_VM|CLONE_VFORK|SIGCHLD) onto stack; the child, in our
 * memory, sets vfork_marker to 1 and exits 3 without touching a stack
 * (it has one with nothing on it).  Returns what the parent got.
 */
static long
vfork_on(char *stack)
{
	long r;

	__asm volatile("int $0x80\n\t"
	    "testl %%eax, %%eax\n\t"
	    "jnz 1f\n\t"
	    "movl $1, vfork_marker\n\t"
	    "movl $1, %%eax\n\t"		/* exit(3) */
	    "movl $3, %%ebx\n\t"
	    "int $0x80\n"
	    "1:"
	    : "=a"(r)
	    : "a"(NR_clone), "b"(CLONE_VM | CLONE_VFORK | SIGCHLD), "c"(stack),
	      "d"(0), "S"(0), "D"(0)
	    : "memory");
	return r;
}

void
t_clone(void)
{
	volatile int ctid = -1, ptid = -1;
	long pid, me = getpid(), r;
	char *stack = malloc(16384), line[64];
	FILE *f;
	int st;

	pid = fork();
	if (pid == 0)
		_exit(getpid() != me && getppid() == me ? 7 : 8);
	st = reap(pid);
	check("glibc fork(): the child runs and exits 7", st == 7,
	    pid < 0 ? -errno : st);

	pid = sys(NR_clone, SIGCHLD, 0, 0, 0, 0);
	if (pid == 0)
		rawexit(sys(NR_getpid, 0, 0, 0, 0, 0) != me ? 0 : 1);
	st = reap(pid);
	check("clone(SIGCHLD): fork", st == 0, pid < 0 ? pid : st);

	pid = sys(NR_clone, SIGCHLD | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID,
	    0, 0, 0, (long)&ctid);
	if (pid == 0)
		rawexit(ctid == sys(NR_getpid, 0, 0, 0, 0, 0) ? 0 : 1);
	st = reap(pid);
	check("clone(SIGCHLD|CHILD_SETTID|CHILD_CLEARTID): the child's id is "
	    "in the child's memory", st == 0, pid < 0 ? pid : st);
	check("... and not in the parent's", ctid == -1, ctid);

	pid = sys(NR_clone, SIGCHLD | CLONE_PARENT_SETTID, 0, (long)&ptid, 0,
	    0);
	if (pid == 0)
		rawexit(0);
	check("clone(SIGCHLD|PARENT_SETTID): the child's id in the parent's "
	    "memory",
	    pid > 0 && ptid == pid, pid < 0 ? pid : ptid);
	reap(pid);

	pid = sys(NR_clone, SIGCHLD | CLONE_CHILD_SETTID, 0, 0, 0, KERNADDR);
	if (pid == 0)
		rawexit(0);
	st = reap(pid);
	check("clone(SIGCHLD|CHILD_SETTID) at a kernel address: a child, "
	    "nothing stored", st == 0, pid < 0 ? pid : st);

	pid = sys(NR_clone, SIGCHLD | CLONE_CHILD_SETTID, 0, 0, 0, 0x40000000);
	if (pid == 0)
		rawexit(0);
	st = reap(pid);
	check("clone(SIGCHLD|CHILD_SETTID) at an unmapped address: the same",
	    st == 0, pid < 0 ? pid : st);

	r = sys(NR_clone, CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
	    CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID |
	    CLONE_CHILD_CLEARTID, (long)(stack + 16384), (long)&ptid, 0,
	    (long)&ctid);
	if (r == 0)
		rawexit(0);
	check("clone, pthread_create's flags: ENOSYS or EINVAL",
	    r == -ENOSYS || r == -EINVAL, r);
	vfork_marker = 0;
	r = vfork_on(stack + 16384);
	check("clone, posix_spawn's CLONE_VM|CLONE_VFORK: the child ran in "
	    "our memory first", r > 0 && vfork_marker == 1, r);
	st = r > 0 ? reap(r) : -1;
	check("... and exited 3", st == 3, st);
	vfork_marker = 0;
	if ((pid = vfork()) == 0) {
		vfork_marker = 2;
		_exit(4);
	}
	check("glibc vfork(): the child ran in our memory first",
	    pid > 0 && vfork_marker == 2, pid);
	st = pid > 0 ? reap(pid) : -1;
	check("... and exited 4", st == 4, st);
	r = sys(NR_clone, CLONE_VM | SIGCHLD, (long)(stack + 16384), 0, 0, 0);
	if (r == 0)
		rawexit(0);
	check("clone, CLONE_VM without CLONE_VFORK: ENOSYS or EINVAL",
	    r == -ENOSYS || r == -EINVAL, r);
	st = system("exit 5");
	check("glibc system() (posix_spawn): the shell's status",
	    WIFEXITED(st) && WEXITSTATUS(st) == 5, st);
	f = popen("echo through popen", "r");
	check("glibc popen(): the command's output", f != NULL &&
	    fgets(line, sizeof(line), f) != NULL &&
	    strcmp(line, "through popen\n") == 0, errno);
	if (f != NULL)
		check("... pclose: its status", pclose(f) == 0, 0);
	r = sys(NR_clone, SIGUSR1, 0, 0, 0, 0);
	if (r == 0)
		rawexit(0);
	check("clone with SIGUSR1 at exit: ENOSYS or EINVAL",
	    r == -ENOSYS || r == -EINVAL, r);
	r = sys(NR_clone, SIGCHLD, (long)(stack + 16384), 0, 0, 0);
	if (r == 0)
		rawexit(0);
	check("clone(SIGCHLD) on a new stack: ENOSYS or EINVAL",
	    r == -ENOSYS || r == -EINVAL, r);
	expect("no child left behind by the refused forms: ECHILD",
	    sys(NR_wait4, -1, 0, WNOHANG, 0, 0), -ECHILD);
	free(stack);
}
