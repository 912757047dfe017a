/*
 * sigtests: signal delivery, masks and interrupted system calls, in the
 * style of xv6's usertests.  One line per check, "(sigtests) what: ok"
 * or "... FAILED: why", and a last line "N passed, M failed"; the exit
 * status is 0 only if nothing failed.
 *
 *	usage: sigtests
 *
 * Where a signal must arrive while a process is blocked in the kernel
 * (in read, nanosleep, sigsuspend), the sender asks getproc(2) until the
 * target sleeps on the expected wait message, then signals it; so no
 * check depends on timing.  Checks that could kill this program (faults,
 * default actions) run in a child that reports through its exit status.
 */
#include <sys/types.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <sys/kinfo.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/lib/check.h"

#define MAXPROCS	256	/* more than the kernel's process table */
#define UNMAPPED	0x7fff0010u	/* between heap and stack: unmapped */

static char *self;

static int
killed_by(int status, int sig)
{
	return status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == sig;
}

/* pid's entry in the process table, or NULL. */
static struct kinfo_proc *
procinfo(pid_t pid)
{
	static struct kinfo_proc kp[MAXPROCS];
	int i, n = getproc(kp, MAXPROCS);

	for (i = 0; i < n && i < MAXPROCS; i++)
		if (kp[i].kp_pid == pid)
			return &kp[i];
	return NULL;
}

/* Wait (about five seconds at most) until pid sleeps on wmesg. */
static int
wait_sleeping(pid_t pid, const char *wmesg)
{
	struct kinfo_proc *kp;
	int tries;

	for (tries = 0; tries < 5000; tries++) {
		kp = procinfo(pid);
		if (kp && kp->kp_stat == KP_SLEEP &&
		    strncmp(kp->kp_wmesg, wmesg, strlen(wmesg)) == 0)
			return 1;
		usleep(1000);
	}
	return 0;
}

static sigset_t
curmask(void)
{
	sigset_t m;

	sigprocmask(SIG_BLOCK, NULL, &m);
	return m;
}

static void
catch(int sig, void (*fn)(int), sigset_t mask, int flags)
{
	struct sigaction sa;

	sa.sa_handler = fn;
	sa.sa_mask = mask;
	sa.sa_flags = flags;
	sigaction(sig, &sa, NULL);
}

static volatile int usr1, usr2, usr2_in_usr1;
static volatile sigset_t mask_in_handler;

static void
onusr1(int sig)
{
	usr1++;
}

static void
onusr2(int sig)
{
	usr2++;
}

/* Sends itself SIGUSR2, which sa_mask holds back until we return. */
static void
onusr1_masked(int sig)
{
	usr1++;
	mask_in_handler = curmask();
	kill(getpid(), SIGUSR2);
	usr2_in_usr1 = usr2;
}

static void
test_handler_mask(void)
{
	struct sigaction old;

	usr1 = usr2 = 0;
	catch(SIGUSR2, onusr2, 0, 0);
	catch(SIGUSR1, onusr1_masked, sigmask(SIGUSR2), 0);
	kill(getpid(), SIGUSR1);
	check(usr1 == 1, "a handler runs before kill() to self returns",
	    "ran %d times", usr1);
	check((mask_in_handler & sigmask(SIGUSR1)) &&
	    (mask_in_handler & sigmask(SIGUSR2)), "the signal and sa_mask are "
	    "blocked in the handler", "mask 0x%x", mask_in_handler);
	check(usr2_in_usr1 == 0 && usr2 == 1, "a signal held by sa_mask runs "
	    "when the handler returns", "%d in the handler, %d after",
	    usr2_in_usr1, usr2);
	check(curmask() == 0, "the mask is restored after the handler",
	    "mask 0x%x", curmask());
	catch(SIGUSR1, onusr1_masked, 0, SA_NODEFER);
	kill(getpid(), SIGUSR1);
	check(!(mask_in_handler & sigmask(SIGUSR1)), "SA_NODEFER leaves the "
	    "signal unblocked in its handler", "mask 0x%x", mask_in_handler);
	usr1 = 0;
	catch(SIGUSR1, onusr1, 0, SA_RESETHAND);
	kill(getpid(), SIGUSR1);
	sigaction(SIGUSR1, NULL, &old);
	check(usr1 == 1 && old.sa_handler == SIG_DFL, "SA_RESETHAND: the "
	    "handler runs once, then the action is the default",
	    "ran %d times, handler %p", usr1, (void *)old.sa_handler);
	catch(SIGUSR1, onusr1, 0, SA_RESETHAND);
	if (fork() == 0) {
		kill(getpid(), SIGUSR1);
		kill(getpid(), SIGUSR1);
		_exit(usr1 == 2 ? 0 : 1);
	}
	check(killed_by(reap(-1), SIGUSR1), "SA_RESETHAND: a second signal "
	    "takes the default action", "the process survived");
	check(sigaction(SIGSTOP, &old, NULL) == -1 && errno == EINVAL,
	    "catching SIGSTOP: EINVAL", "errno %d", errno);
}

static void
test_procmask(void)
{
	sigset_t set, old, pend;

	usr1 = 0;
	catch(SIGUSR1, onusr1, 0, 0);
	set = sigmask(SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	check(old == 0, "sigprocmask returns the old mask", "0x%x", old);
	kill(getpid(), SIGUSR1);
	kill(getpid(), SIGUSR1);
	sigpending(&pend);
	check(usr1 == 0 && (pend & sigmask(SIGUSR1)), "a blocked signal stays "
	    "pending", "handler ran %d times, pending 0x%x", usr1, pend);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	check(usr1 == 1, "unblocking delivers it, once, before sigprocmask "
	    "returns", "handler ran %d times", usr1);
	sigpending(&pend);
	check(pend == 0, "nothing pending afterwards", "pending 0x%x", pend);
	sigprocmask(SIG_BLOCK, &set, NULL);
	kill(getpid(), SIGUSR1);
	signal(SIGUSR1, SIG_IGN);
	sigpending(&pend);
	check(pend == 0, "SIG_IGN discards a pending signal", "pending 0x%x",
	    pend);
	sigprocmask(SIG_SETMASK, &old, NULL);
	set = ~0u;
	sigprocmask(SIG_SETMASK, &set, NULL);
	set = curmask();
	check(!(set & sigmask(SIGKILL)) && !(set & sigmask(SIGSTOP)),
	    "SIGKILL and SIGSTOP cannot be blocked", "mask 0x%x", set);
	sigprocmask(SIG_SETMASK, &old, NULL);
	signal(SIGUSR1, SIG_DFL);
}

static void
test_sigsuspend(void)
{
	sigset_t set = sigmask(SIGUSR1), none = 0;
	int rv;

	usr1 = 0;
	catch(SIGUSR1, onusr1, 0, 0);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (fork() == 0) {
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	rv = sigsuspend(&none);
	check(rv == -1 && errno == EINTR && usr1 == 1, "sigsuspend returns "
	    "EINTR after the handler", "returned %d, errno %d, handler ran %d "
	    "times", rv, errno, usr1);
	check(curmask() == set, "sigsuspend restores the mask",
	    "mask 0x%x", curmask());
	reap(-1);

	usr2 = 0;
	catch(SIGCHLD, onusr2, 0, 0);
	set = sigmask(SIGCHLD);
	sigprocmask(SIG_SETMASK, &set, NULL);
	if (fork() == 0)
		_exit(0);
	rv = sigsuspend(&none);
	check(rv == -1 && usr2 == 1, "SIGCHLD is delivered when a child "
	    "exits", "handler ran %d times", usr2);
	check(exited_with(reap(-1), 0), "and the child can be reaped",
	    "wait failed");
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGCHLD, SIG_DFL);
	signal(SIGUSR1, SIG_DFL);
}

/*
 * A child signals us while we block in read() on a pipe.  Without
 * SA_RESTART read fails with EINTR; with it, read resumes and gets the
 * byte the child writes once we sleep again.
 */
static void
test_interrupted_read(void)
{
	int p[2], n, status;
	char c = 0;
	pid_t pid;

	pipe(p);
	usr1 = 0;
	catch(SIGUSR1, onusr1, 0, 0);
	if ((pid = fork()) == 0) {
		int ok = wait_sleeping(getppid(), "piperd");

		kill(getppid(), SIGUSR1);
		if (!ok)
			write(p[1], "!", 1);	/* do not leave it blocked */
		_exit(ok ? 0 : 1);
	}
	n = read(p[0], &c, 1);
	status = reap(pid);
	check(n == -1 && errno == EINTR && usr1 == 1, "a signal interrupts a "
	    "blocked read: EINTR", "read %d, errno %d, handler ran %d times, "
	    "child status 0x%x", n, errno, usr1, status);

	usr1 = 0;
	catch(SIGUSR1, onusr1, 0, SA_RESTART);
	if ((pid = fork()) == 0) {
		int ok = wait_sleeping(getppid(), "piperd");

		kill(getppid(), SIGUSR1);
		ok = ok && wait_sleeping(getppid(), "piperd");
		write(p[1], "x", 1);
		_exit(ok ? 0 : 1);
	}
	n = read(p[0], &c, 1);
	status = reap(pid);
	check(n == 1 && c == 'x' && usr1 == 1 && exited_with(status, 0),
	    "SA_RESTART: the read resumes after the handler", "read %d, errno "
	    "%d, handler ran %d times, child status 0x%x", n, errno, usr1,
	    status);
	close(p[0]);
	close(p[1]);
	signal(SIGUSR1, SIG_DFL);
}

/* A child exiting (default SIGCHLD) must not interrupt a read. */
static void
test_sigchld_ignored(void)
{
	int p[2], n;
	char c = 0;
	pid_t a, b;

	pipe(p);
	if ((a = fork()) == 0) {
		close(p[0]);
		close(p[1]);
		wait_sleeping(getppid(), "piperd");
		_exit(0);
	}
	if ((b = fork()) == 0) {
		struct kinfo_proc *kp;
		int tries;

		for (tries = 0; tries < 5000; tries++) {
			kp = procinfo(a);
			if (kp && kp->kp_stat == KP_ZOMB)
				break;
			usleep(1000);
		}
		wait_sleeping(getppid(), "piperd");
		write(p[1], "y", 1);
		_exit(0);
	}
	n = read(p[0], &c, 1);
	check(n == 1 && c == 'y', "a child's exit does not interrupt a read "
	    "(SIGCHLD ignored by default)", "read %d, errno %d", n, errno);
	reap(a);
	reap(b);
	close(p[0]);
	close(p[1]);
}

static volatile int segv_sig;
static volatile unsigned segv_code;
static jmp_buf segv_env;

static void
onsegv_exit(int sig)
{
	_exit(sig == SIGSEGV ? 42 : 43);
}

static void
onsegv_jump(int sig, unsigned code)
{
	segv_sig = sig;
	segv_code = code;
	longjmp(segv_env, 1);
}

/* In a child: catch two faults in a row, longjmp'ing out of each. */
static int
segv_twice(void)
{
	volatile int i;

	catch(SIGSEGV, (void (*)(int))onsegv_jump, 0, 0);
	for (i = 0; i < 2; i++) {
		if (setjmp(segv_env) == 0) {
			(void)*(volatile int *)UNMAPPED;	/* faults */
			return 10 + i;			/* no fault */
		}
		if (segv_sig != SIGSEGV)
			return 20;
		if (segv_code != UNMAPPED)
			return 21;
	}
	return 0;
}

static void
test_segv(void)
{
	int status;

	if (fork() == 0) {
		catch(SIGSEGV, onsegv_exit, 0, 0);
		*(volatile int *)0 = 1;
		_exit(1);
	}
	status = reap(-1);
	check(exited_with(status, 42), "a SIGSEGV handler catches a NULL "
	    "write and exits cleanly", "status 0x%x", status);
	if (fork() == 0)
		_exit(segv_twice());
	status = reap(-1);
	check(exited_with(status, 0), "a handler gets SIGSEGV and the fault "
	    "address, longjmps out, and catches the next fault too",
	    "status 0x%x (1x: no fault, 20: wrong signal, 21: wrong address)",
	    status);
	if (fork() == 0) {
		catch(SIGSEGV, onsegv_exit, 0, 0);
		*(volatile char *)(void *)getpid = 0;
		_exit(1);
	}
	status = reap(-1);
	check(exited_with(status, 42) || exited_with(status, 43),
	    "writing to the program's text is a fault", "status 0x%x",
	    status);
	if (fork() == 0) {
		sigset_t set = sigmask(SIGSEGV);

		catch(SIGSEGV, onsegv_exit, 0, 0);
		sigprocmask(SIG_BLOCK, &set, NULL);
		*(volatile int *)UNMAPPED = 1;
		_exit(1);
	}
	check(killed_by(reap(-1), SIGSEGV), "a fault with SIGSEGV blocked "
	    "kills", "it survived");
	if (fork() == 0) {
		signal(SIGSEGV, SIG_IGN);
		*(volatile int *)UNMAPPED = 1;
		_exit(1);
	}
	check(killed_by(reap(-1), SIGSEGV), "a fault with SIGSEGV ignored "
	    "kills", "it survived");
}

static void
test_nanosleep(void)
{
	struct timespec req = { 10, 0 }, rem = { 0, 0 };
	struct timeval t0, t1;
	long ms;
	int rv;
	pid_t pid;

	usr1 = 0;
	catch(SIGUSR1, onusr1, 0, 0);
	if ((pid = fork()) == 0) {
		int ok = wait_sleeping(getppid(), "nanosle");

		kill(getppid(), SIGUSR1);
		_exit(ok ? 0 : 1);
	}
	gettimeofday(&t0, NULL);
	rv = nanosleep(&req, &rem);
	gettimeofday(&t1, NULL);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_usec - t0.tv_usec) / 1000;
	check(rv == -1 && errno == EINTR && usr1 == 1, "a signal interrupts "
	    "nanosleep: EINTR", "returned %d, errno %d, handler ran %d times",
	    rv, errno, usr1);
	check(ms < 9000 && rem.tv_sec <= 10 && (rem.tv_sec > 0 ||
	    rem.tv_nsec > 0) && rem.tv_sec * 1000 + rem.tv_nsec / 1000000 +
	    ms >= 9900, "nanosleep reports the time left", "slept %ld ms, "
	    "%ld.%09ld s left", ms, (long)rem.tv_sec, rem.tv_nsec);
	reap(pid);
	signal(SIGUSR1, SIG_DFL);
}

/*
 * SIGSTOP and SIGCONT: the parent sees the stop, ps's state is T, and a
 * read the child was blocked in carries on as if nothing had happened.
 */
static void
test_stop(void)
{
	struct kinfo_proc *kp;
	int p[2], status;
	pid_t pid;

	pipe(p);
	if ((pid = fork()) == 0) {
		char c;
		int n;

		close(p[1]);
		n = read(p[0], &c, 1);
		_exit(n == 1 && c == 'z' ? 0 : n == -1 && errno == EINTR ? 1 :
		    2);
	}
	close(p[0]);
	wait_sleeping(pid, "piperd");
	kill(pid, SIGSTOP);
	check(waitpid(pid, &status, WUNTRACED) == pid && WIFSTOPPED(status) &&
	    WSTOPSIG(status) == SIGSTOP, "wait4 WUNTRACED reports a stop",
	    "status 0x%x", status);
	kp = procinfo(pid);
	check(kp && kp->kp_stat == KP_STOP, "a stopped process's state is "
	    "stopped", "state %d", kp ? kp->kp_stat : -1);
	kill(pid, SIGCONT);
	signal(SIGPIPE, SIG_IGN);
	write(p[1], "z", 1);
	status = reap(pid);
	check(exited_with(status, 0), "a read survives stop and continue",
	    "status 0x%x (1: read failed with EINTR, 2: other)", status);
	signal(SIGPIPE, SIG_DFL);
	close(p[1]);
}

/* The child half of the exec check: what survived the exec? */
static int
sigstate(void)
{
	struct sigaction sa;

	sigaction(SIGUSR1, NULL, &sa);
	if (sa.sa_handler != SIG_DFL)
		return 1;
	sigaction(SIGUSR2, NULL, &sa);
	if (sa.sa_handler != SIG_IGN)
		return 2;
	return (curmask() & sigmask(SIGHUP)) ? 0 : 3;
}

static void
test_exec(void)
{
	int status;

	if (fork() == 0) {
		sigset_t set = sigmask(SIGHUP);
		char *argv[] = { self, "-sigstate", NULL };

		catch(SIGUSR1, onusr1, 0, 0);
		signal(SIGUSR2, SIG_IGN);
		sigprocmask(SIG_BLOCK, &set, NULL);
		execve(self, argv, environ);
		_exit(99);
	}
	status = reap(-1);
	check(exited_with(status, 0), "exec resets caught signals, keeps "
	    "ignored ones and the mask", "status 0x%x (1: handler kept, 2: "
	    "SIG_IGN lost, 3: mask lost, 99: exec failed)", status);
}

int
main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "-sigstate") == 0)
		return sigstate();
	if (argc != 1) {
		fprintf(stderr, "usage: sigtests\n");
		return 64;
	}
	self = strchr(argv[0], '/') ? argv[0] : "/usr/tests/sigtests";
	setvbuf(stdout, NULL, _IOLBF, 0);
	check_prog = "sigtests";
	test_handler_mask();
	test_procmask();
	test_sigsuspend();
	test_interrupted_read();
	test_sigchld_ignored();
	test_segv();
	test_nanosleep();
	test_stop();
	test_exec();
	return check_done();
}
