/*
 * linuxraw: the Linux layer's edges, checked through raw "int $0x80"
 * system calls (a Linux program: glibc, "gcc -m32 -static" on the host).
 * glibc's wrappers would hide the raw answer, and some checks change or
 * clear the %gs segment glibc keeps its thread pointer in: those run in a
 * child that makes only raw calls and leaves by a raw exit.
 *
 *	linuxraw [-d dir] [section ...]
 *
 * Sections (all of them without one):
 *	openat	openat and statx with bad directory descriptors: EBADF, ENOTDIR
 *	tls	set_thread_area: segments that reach past user space, not
 *		present, clearing the one %gs holds; glibc's own still works
 *	mprotect  outside user space, unaligned, unmapped, bad protections
 *	clone	fork's form (glibc's fork(), CLONE_CHILD_SETTID...), vfork's
 *		(CLONE_VM|CLONE_VFORK, vfork(); system() and popen() on
 *		them); the thread forms refused cleanly
 *	writev	an unreadable iovec array or lengths past SSIZE_MAX: nothing
 *		written; a bad buffer after a good one: the partial count
 *	dup3	with and without O_CLOEXEC, its EINVALs; glibc's freopen
 *	signals	rt_sigaction's EINVALs; handlers on both of Linux's frames
 *		(glibc's restorers), the mask inside and after, blocking,
 *		signal numbers in kill and in wait's status; a forged
 *		sigreturn frame kills only its process
 *	term	the terminal's ioctls (TCGETS/TCSETS round trip, the window
 *		size, ENOTTY elsewhere), poll, pipe2, getcwd, prctl, uname
 *	nosys	(not in "all") unknown calls: ENOSYS, and one console line
 *	full	(not in "all") dir is on a full file system: write, writev
 *		and stdio's fwrite/fclose all say ENOSPC
 *
 * Prints one line per check, "(linuxraw) what: ok" or "(linuxraw) what:
 * FAILED: got ...", and last "N passed, M failed".
 */
#include "linuxraw.h"

static int passed, failed;

/* A raw system call: the value, or -errno, as the kernel put it in %eax. */
long
sys(long nr, long a, long b, long c, long d, long e)
{
	long r;

	__asm volatile("int $0x80" : "=a"(r)
	    : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e) : "memory");
	return r;
}

void __attribute__((noreturn))
rawexit(int code)
{
	sys(NR_exit, code, 0, 0, 0, 0);
	for (;;)
		continue;
}

/* The word at %gs:0 (glibc: the thread control block's own address). */
unsigned
gs0(void)
{
	unsigned v;

	__asm volatile("movl %%gs:0, %0" : "=r"(v));
	return v;
}

void
check(const char *what, int ok, long got)
{
	if (ok) {
		printf("(linuxraw) %s: ok\n", what);
		passed++;
	} else {
		printf("(linuxraw) %s: FAILED: got %ld\n", what, got);
		failed++;
	}
	fflush(stdout);
}

/* Check that a raw call answered exactly want (a value or -errno). */
void
expect(const char *what, long got, long want)
{
	check(what, got == want, got);
}

/*
 * Run body in a child made by the raw fork call, which must leave by
 * rawexit(); return its wait status (or -1 when fork failed).
 */
int
inchild(int (*body)(void *), void *arg)
{
	long pid = sys(NR_fork, 0, 0, 0, 0, 0);
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0)
		rawexit(body(arg));
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}


int
main(int argc, char *argv[])
{
	static const char *all[] = { "openat", "tls", "mprotect", "clone",
	    "writev", "dup3", "signals", "term", NULL };
	const char *dir = "/tmp", **sections = all;
	int i;

	if (argc > 2 && strcmp(argv[1], "-d") == 0) {
		dir = argv[2];
		argc -= 2;
		argv += 2;
	}
	if (argc > 1)
		sections = (const char **)argv + 1;
	if (chdir(dir) != 0) {
		perror(dir);
		return 2;
	}
	for (i = 0; sections[i] != NULL; i++) {
		const char *s = sections[i];

		if (strcmp(s, "openat") == 0)
			t_openat(dir);
		else if (strcmp(s, "tls") == 0)
			t_tls();
		else if (strcmp(s, "mprotect") == 0)
			t_mprotect();
		else if (strcmp(s, "clone") == 0)
			t_clone();
		else if (strcmp(s, "writev") == 0)
			t_writev(dir);
		else if (strcmp(s, "dup3") == 0)
			t_dup3(dir);
		else if (strcmp(s, "signals") == 0)
			t_signals();
		else if (strcmp(s, "term") == 0)
			t_term(dir);
		else if (strcmp(s, "nosys") == 0)
			t_nosys();
		else if (strcmp(s, "full") == 0)
			t_full(dir);
		else {
			fprintf(stderr, "linuxraw: unknown section %s\n", s);
			return 2;
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
