/*
 * proctests: fork, exec, exit and wait under stress, in the style of
 * xv6's usertests.  One line per check, "(proctests) what: ok" or
 * "... FAILED: why", and a last line "N passed, M failed"; the exit
 * status is 0 only if nothing failed.
 *
 *	usage: proctests	(it also needs a writable /tmp)
 *
 * Every child reports through its exit status or a pipe; nothing waits
 * on a clock.  Children exit with _exit so that stdio buffers inherited
 * from the parent are never flushed twice.
 */
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/resource.h>
#include <sys/kinfo.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/lib/check.h"

#define FORKROUNDS	200	/* fork + exit + wait, one after another */
#define CHAINLEN	20	/* nested forks: child of a child of ... */
#define MANYARGS	1000	/* exec's argv entries, ~40 bytes each */
#define MANYENV		200	/* and environment entries, ~50 bytes each */
#define MAXPROCS	256	/* more than the kernel's process table */

static char *self;		/* this program's path, to exec it */

/* The number of processes in the system (getproc(2) with no buffer). */
static int
nprocs(void)
{
	return getproc(NULL, 0);
}

/* pid's entry in the process table (getproc(2)), or NULL. */
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

/* pid's process group and KP_* state (0: pid is gone). */
#define pgid_of(pid)	(procinfo(pid) ? procinfo(pid)->kp_pgid : -1)
#define state_of(pid)	(procinfo(pid) ? procinfo(pid)->kp_stat : 0)

/* Fork a child that blocks reading fd until every writer is gone. */
static pid_t
blocked_child(int rfd, int wfd)
{
	pid_t pid = fork();
	char c;

	if (pid == 0) {
		close(wfd);
		while (read(rfd, &c, 1) > 0)
			continue;
		_exit(0);
	}
	return pid;
}

static void
test_fork_rounds(void)
{
	int before = nprocs(), i, bad = 0, status;
	pid_t pid;

	for (i = 0; i < FORKROUNDS; i++) {
		pid = fork();
		if (pid == 0)
			_exit(i & 0xff);
		if (pid < 0) {
			bad = i + 1;
			break;
		}
		status = reap(pid);
		if (!exited_with(status, i & 0xff)) {
			bad = i + 1;
			break;
		}
	}
	check(bad == 0, "200 rounds of fork, exit and wait",
	    "round %d: errno %d (%s)", bad, errno, strerror(errno));
	check(nprocs() == before, "no process left behind by the rounds",
	    "%d processes before, %d after", before, nprocs());
}

/*
 * A chain: each process forks the next and exits with its child's exit
 * status plus one, so the first link exits with the chain's length.
 * Every link also checks that getppid() names the process that forked it.
 */
static void
test_fork_chain(void)
{
	int depth, status;
	pid_t pid, parent;

	pid = fork();
	if (pid == 0) {
		for (depth = 1; depth < CHAINLEN; depth++) {
			parent = getpid();
			pid = fork();
			if (pid < 0)
				_exit(200);
			if (pid > 0) {
				status = reap(pid);
				_exit(status != -1 && WIFEXITED(status) &&
				    WEXITSTATUS(status) < 200 ?
				    WEXITSTATUS(status) + 1 : 201);
			}
			if (getppid() != parent)
				_exit(202);
		}
		_exit(1);
	}
	status = reap(pid);
	check(exited_with(status, CHAINLEN), "a chain of 20 nested forks",
	    "status 0x%x (200: a fork failed, 202: wrong getppid)", status);
}

/*
 * Fork children that all stay alive until the process table is full;
 * fork must then fail with EAGAIN, and once they are released every one
 * is reaped and the table is as before.
 */
static void
test_fork_limit(void)
{
	static pid_t kids[MAXPROCS];
	int n = 0, err = 0, reaped = 0, status, i, before = nprocs();
	int p[2];
	pid_t pid;

	pipe(p);
	for (;;) {
		if (n == MAXPROCS) {
			err = -1;
			break;
		}
		pid = blocked_child(p[0], p[1]);
		if (pid < 0) {
			err = errno;
			break;
		}
		kids[n++] = pid;
	}
	check(err == EAGAIN, "fork fails with EAGAIN when the table is full",
	    "errno %d (%s) after %d children", err, strerror(err), n);
	check(n >= 32, "at least 32 children alive at once", "only %d", n);
	check(nprocs() == before + n, "getproc counts every child",
	    "%d processes, expected %d", nprocs(), before + n);
	close(p[1]);
	close(p[0]);
	for (i = 0; i < n; i++)
		if (exited_with(reap(kids[i]), 0))
			reaped++;
	check(reaped == n, "every child of a full table exits and is reaped",
	    "%d of %d", reaped, n);
	check(wait(&status) == -1 && errno == ECHILD,
	    "no children left after reaping", "wait found one");
	check(nprocs() == before, "the table drains", "%d before, %d after",
	    before, nprocs());
	pid = fork();
	if (pid == 0)
		_exit(0);
	check(pid > 0 && exited_with(reap(pid), 0),
	    "fork works again once the table drains", "errno %d", errno);
}

static void
test_exit_status(void)
{
	static const int codes[] = { 0, 1, 42, 127, 128, 255, 256, -1 };
	char what[64];
	unsigned i;
	int status, p[2];
	pid_t pid;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		pid = fork();
		if (pid == 0)
			_exit(codes[i]);
		status = reap(pid);
		snprintf(what, sizeof(what), "_exit(%d) is seen as %d",
		    codes[i], codes[i] & 0xff);
		check(exited_with(status, codes[i] & 0xff) &&
		    !WIFSIGNALED(status), what, "status 0x%x", status);
	}
	pid = fork();
	if (pid == 0)
		exit(3);		/* through stdio's exit, with atexit */
	check(exited_with(reap(pid), 3), "exit(3) from a child", "wrong");
	pipe(p);
	pid = blocked_child(p[0], p[1]);
	kill(pid, SIGKILL);
	status = reap(pid);
	check(status != -1 && WIFSIGNALED(status) && WTERMSIG(status) ==
	    SIGKILL && !WIFEXITED(status), "a SIGKILLed child's status",
	    "status 0x%x", status);
	close(p[0]);
	close(p[1]);
}

/* The child half of the exec tests: are argv and environ what we sent? */
static int
argcheck(int argc, char **argv)
{
	char want[64];
	int i;

	if (argc != MANYARGS + 2)
		return 10;
	for (i = 0; i < MANYARGS; i++) {
		snprintf(want, sizeof(want),
		    "arg%04d-abcdefghijklmnopqrstuvwxyz", i);
		if (strcmp(argv[i + 2], want) != 0)
			return 11;
	}
	if (argv[argc] != NULL)
		return 12;
	for (i = 0; i < MANYENV; i++) {
		snprintf(want, sizeof(want),
		    "VAR%03d=value-%03d-ABCDEFGHIJKLMNOPQRSTUVWXYZ", i, i);
		if (environ[i] == NULL || strcmp(environ[i], want) != 0)
			return 13;
	}
	return environ[MANYENV] == NULL ? 0 : 14;
}

static void
test_exec_args(void)
{
	static char strs[MANYARGS + MANYENV][64];
	static char *argv[MANYARGS + 3], *envp[MANYENV + 1];
	static char huge[80][1024];
	char *hugev[84];
	int i, status;
	pid_t pid;

	argv[0] = self;
	argv[1] = "-argcheck";
	for (i = 0; i < MANYARGS; i++) {
		snprintf(strs[i], sizeof(strs[i]),
		    "arg%04d-abcdefghijklmnopqrstuvwxyz", i);
		argv[i + 2] = strs[i];
	}
	argv[MANYARGS + 2] = NULL;
	for (i = 0; i < MANYENV; i++) {
		snprintf(strs[MANYARGS + i], sizeof(strs[0]),
		    "VAR%03d=value-%03d-ABCDEFGHIJKLMNOPQRSTUVWXYZ", i, i);
		envp[i] = strs[MANYARGS + i];
	}
	envp[MANYENV] = NULL;
	pid = fork();
	if (pid == 0) {
		execve(self, argv, envp);
		_exit(99);
	}
	status = reap(pid);
	check(exited_with(status, 0), "exec with 1000 arguments and 200 "
	    "environment strings", "status 0x%x (99: execve failed, 10-14: "
	    "the new image saw different strings)", status);

	/* 80 KB of arguments: more than ARG_MAX. */
	hugev[0] = self;
	hugev[1] = "-e2big";
	for (i = 0; i < 80; i++) {
		memset(huge[i], 'x', sizeof(huge[i]) - 1);
		hugev[i + 2] = huge[i];
	}
	hugev[82] = NULL;
	pid = fork();
	if (pid == 0) {
		execve(self, hugev, envp);
		_exit(errno == E2BIG ? 0 : 1);
	}
	status = reap(pid);
	check(exited_with(status, 0), "exec with too many argument bytes "
	    "fails with E2BIG", "status 0x%x (1: other errno, 2: it ran)",
	    status);
}

/*
 * Orphans: a child forks a grandchild and exits; the grandchild must then
 * have init (pid 1) as its parent.  It learns that its parent is gone when
 * the parent's end of a pipe closes, and reports getppid() on another.
 */
static void
test_orphans(void)
{
	int alive[2], report[2], ppid = 0, n, status;
	pid_t pid;

	pipe(report);
	pid = fork();
	if (pid == 0) {
		close(report[0]);
		pipe(alive);
		if (fork() == 0) {
			char c;
			int i;

			close(alive[1]);
			while (read(alive[0], &c, 1) > 0)
				continue;
			ppid = getppid();
			/* exit1 may not have reached the reparenting yet */
			for (i = 0; i < 1000 && ppid != 1; i++) {
				usleep(1000);
				ppid = getppid();
			}
			write(report[1], &ppid, sizeof(ppid));
			_exit(0);
		}
		_exit(0);
	}
	close(report[1]);
	status = reap(pid);
	check(exited_with(status, 0), "the orphan's parent exits", "status "
	    "0x%x", status);
	n = read(report[0], &ppid, sizeof(ppid));
	check(n == sizeof(ppid) && ppid == 1, "an orphan's parent is init",
	    "read %d, getppid() %d", n, ppid);
	close(report[0]);
	check(wait(&status) == -1 && errno == ECHILD,
	    "an orphan is not its grandparent's child", "wait found one");
}

/* A zombie whose parent exits is init's to reap. */
static void
test_zombie_orphan(void)
{
	int report[2], status, i;
	pid_t pid, zombie = 0;

	pipe(report);
	pid = fork();
	if (pid == 0) {
		pid_t z = fork();

		if (z == 0)
			_exit(0);
		for (i = 0; i < 5000 && state_of(z) != KP_ZOMB; i++)
			usleep(1000);
		write(report[1], &z, sizeof(z));
		_exit(state_of(z) == KP_ZOMB ? 0 : 1);
	}
	close(report[1]);
	read(report[0], &zombie, sizeof(zombie));
	close(report[0]);
	status = reap(pid);
	check(exited_with(status, 0), "a child leaves a zombie behind",
	    "status 0x%x", status);
	for (i = 0; i < 5000 && zombie > 0 && state_of(zombie) != 0; i++)
		usleep(1000);
	check(zombie > 0 && state_of(zombie) == 0, "init reaps the orphaned "
	    "zombie", "pid %d still there, state %d", zombie,
	    state_of(zombie));
}

/* Run path in a child; its exit status, or 100 + errno if exec failed. */
static int
exec_status(const char *path)
{
	char *argv[] = { (char *)path, NULL };
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execve(path, argv, environ);
		_exit(100 + errno);
	}
	status = reap(pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void
make_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, mode);

	write(fd, text, strlen(text));
	close(fd);
	chmod(path, mode);
}

static void
test_exec_formats(void)
{
	int st;

	make_file("/tmp/proctests.sh", "#!/bin/sh\nexit 7\n", 0755);
	st = exec_status("/tmp/proctests.sh");
	check(st == 7, "exec of a #! script runs its interpreter",
	    "status %d", st);
	make_file("/tmp/proctests.sh", "just some text\n", 0755);
	st = exec_status("/tmp/proctests.sh");
	check(st == 100 + ENOEXEC, "exec of a file that is no program: ENOEXEC",
	    "status %d", st);
	make_file("/tmp/proctests.sh", "#!/bin/sh\nexit 7\n", 0644);
	st = exec_status("/tmp/proctests.sh");
	check(st == 100 + EACCES, "exec without execute permission: EACCES",
	    "status %d", st);
	unlink("/tmp/proctests.sh");
}

static void
test_wnohang(void)
{
	struct rusage ru;
	int status, p[2], i, got = 0;
	pid_t pid;

	check(wait4(-1, &status, WNOHANG, NULL) == -1 && errno == ECHILD,
	    "WNOHANG without children: ECHILD", "errno %d", errno);
	pipe(p);
	pid = blocked_child(p[0], p[1]);
	check(wait4(pid, &status, WNOHANG, NULL) == 0,
	    "WNOHANG on a running child returns 0", "errno %d", errno);
	check(wait4(pid, &status, 0x100, NULL) == -1 && errno == EINVAL,
	    "wait4 with an unknown option: EINVAL", "errno %d", errno);
	check(waitpid(1, &status, WNOHANG) == -1 && errno == ECHILD,
	    "waiting for a process that is not our child: ECHILD", "errno "
	    "%d", errno);
	close(p[1]);
	close(p[0]);
	/* The child exits on EOF; poll for it without blocking. */
	for (i = 0; i < 5000 && got == 0; i++) {
		got = wait4(pid, &status, WNOHANG, &ru);
		if (got == 0)
			usleep(1000);
	}
	check(got == pid && WIFEXITED(status), "WNOHANG reaps the child once "
	    "it has exited", "wait4 returned %d", got);
}

/* Signals to a process group reach every member and no one else. */
static void
test_kill_group(void)
{
	pid_t kids[3], outsider;
	int p[2], i, status, killed = 0;

	pipe(p);
	for (i = 0; i < 3; i++) {
		kids[i] = fork();
		if (kids[i] == 0) {
			char c;

			setpgid(0, i == 0 ? 0 : kids[0]);
			close(p[1]);
			while (read(p[0], &c, 1) > 0)
				continue;
			_exit(0);
		}
		/* both set it, so neither can run ahead of the other */
		setpgid(kids[i], kids[0]);
	}
	outsider = blocked_child(p[0], p[1]);
	check(pgid_of(kids[2]) == kids[0], "three children in one group",
	    "pgid %d, want %d", pgid_of(kids[2]), kids[0]);
	check(kill(-kids[0], SIGTERM) == 0, "kill(-pgid, SIGTERM)",
	    "errno %d", errno);
	for (i = 0; i < 3; i++) {
		status = reap(kids[i]);
		if (status != -1 && WIFSIGNALED(status) &&
		    WTERMSIG(status) == SIGTERM)
			killed++;
	}
	check(killed == 3, "every member of the group dies", "%d of 3",
	    killed);
	close(p[1]);
	close(p[0]);
	check(exited_with(reap(outsider), 0), "a process outside the group "
	    "is spared", "it was killed");
	check(kill(-kids[0], SIGTERM) == -1 && errno == ESRCH,
	    "kill to an empty group: ESRCH", "errno %d", errno);
}

static volatile int usr1;

static void
onusr1(int sig)
{
	usr1 = sig;
}

/*
 * kill(0, sig) signals the caller's own group, the caller included: a
 * child starts a group with two blocked grandchildren and signals it.
 * The grandchildren are forked before the handler is set, so SIGUSR1
 * kills them; the child's handler runs before kill returns.
 */
static void
test_kill_own_group(void)
{
	struct sigaction sa;
	int p[2], i, status, killed = 0;
	pid_t pid, g[2];

	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		pipe(p);
		for (i = 0; i < 2; i++)
			g[i] = blocked_child(p[0], p[1]);
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = onusr1;
		sigaction(SIGUSR1, &sa, NULL);
		kill(0, SIGUSR1);
		if (usr1 != SIGUSR1)
			_exit(2);
		for (i = 0; i < 2; i++) {
			status = reap(g[i]);
			if (status != -1 && WIFSIGNALED(status) &&
			    WTERMSIG(status) == SIGUSR1)
				killed++;
		}
		_exit(killed == 2 ? 0 : 1);
	}
	status = reap(pid);
	check(exited_with(status, 0), "kill(0) signals the caller's whole "
	    "group", "status 0x%x (1: a member survived, 2: the caller's "
	    "handler did not run)", status);
}

int
main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "-argcheck") == 0)
		return argcheck(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "-e2big") == 0)
		return 2;
	if (argc != 1) {
		fprintf(stderr, "usage: proctests\n");
		return 64;
	}
	self = strchr(argv[0], '/') ? argv[0] : "/usr/tests/proctests";
	setvbuf(stdout, NULL, _IOLBF, 0);
	check_prog = "proctests";
	test_fork_rounds();
	test_fork_chain();
	test_fork_limit();
	test_exit_status();
	test_exec_args();
	test_exec_formats();
	test_orphans();
	test_zombie_orphan();
	test_wnohang();
	test_kill_group();
	test_kill_own_group();
	return check_done();
}
