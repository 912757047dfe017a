/*
 * Jobs: the children the shell forks, and waiting for them.
 *
 * A job is one pipeline (or one command): a process group of one or more
 * processes.  In an interactive shell (job control on) each job gets its
 * own process group, led by its first process; a foreground job is
 * given the terminal while it runs, so ^C goes to it and not to the
 * shell, and the shell takes the terminal back when it is done.  Both
 * parent and child call setpgid, so neither can run ahead of the other.
 *
 * The shell's own handling of signals (a SIGINT handler that only sets
 * a flag, SIGQUIT and SIGTERM caught and ignored, the terminal stop
 * signals ignored) is set here and undone in every child before it runs
 * anything; caught signals revert on exec anyway, ignored ones would
 * not.  Without job control, a background job ignores SIGINT and SIGQUIT
 * and reads /dev/null, as POSIX asks.
 *
 * Stopping: a foreground job that ^Z (SIGTSTP) or a background read
 * (SIGTTIN) stops is reported and kept, the shell takes the terminal
 * back; fg gives it the terminal again and continues it, bg continues
 * it in the background.  %n names job n, %% or %+ the current one (the
 * last stopped, else the last started), %- the one before.
 *
 * A command's status is its exit status, or 128 plus the number of the
 * signal that killed (or stopped) it; for a pipeline, the last command's.
 */
#include <sys/wait.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sh.h"

#define MAXJOBS	32

struct proc {
	pid_t	 pid;
	int	 status;
	int	 done;
	int	 stopped;	/* stopped, not done */
};

struct job {
	struct proc *procs;
	int	 nprocs;	/* forked so far */
	int	 nalloc;
	pid_t	 pgid;
	int	 bg;		/* a background job, kept for wait and jobs */
	int	 jobno;		/* [n], counting from 1 */
	int	 used;
	int	 stopped;	/* reported stopped; fg or bg continue it */
	unsigned age;		/* when it last started or stopped: %+ */
};

static unsigned jobclock;

static struct job jobtab[MAXJOBS];
int jobctl;			/* job control is on */
static int ttyfd = -1;		/* the terminal, for tcsetpgrp */
static pid_t rootpgrp;		/* the shell's own process group */
static int sigchanged;		/* the shell changed signal dispositions */

static void
onsigint(int sig)
{
	intpending = 1;
}

static void
ignoresig(int sig)
{
}

static void
setsig(int sig, void (*fn)(int))
{
	struct sigaction sa;

	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: ^C must interrupt read */
	sigaction(sig, &sa, NULL);
}

/* Turn on job control (interactive shells). */
void
setjobctl(void)
{
	int fd;

	if ((fd = fcntl(0, F_DUPFD, 10)) < 0)
		fd = 0;
	else
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	ttyfd = fd;
	setpgid(0, 0);		/* fails harmlessly if already a leader */
	rootpgrp = getpgrp();
	tcsetpgrp(ttyfd, rootpgrp);
	setsig(SIGINT, onsigint);
	setsig(SIGQUIT, ignoresig);
	setsig(SIGTERM, ignoresig);
	signal(SIGTSTP, SIG_IGN);
	signal(SIGTTIN, SIG_IGN);
	signal(SIGTTOU, SIG_IGN);
	sigchanged = 1;
	jobctl = 1;
}

/* In a child: the signals back to the defaults the shell found. */
void
resetsignals(void)
{
	if (!sigchanged)
		return;
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGTSTP, SIG_DFL);
	signal(SIGTTIN, SIG_DFL);
	signal(SIGTTOU, SIG_DFL);
	sigchanged = 0;
}

struct job *
makejob(int nprocs)
{
	struct job *jp;
	int i;

	for (i = 0; i < MAXJOBS; i++)
		if (!jobtab[i].used)
			break;
	if (i == MAXJOBS)
		sherror("too many jobs");
	jp = &jobtab[i];
	memset(jp, 0, sizeof(*jp));
	jp->used = 1;
	jp->jobno = i + 1;
	jp->age = ++jobclock;
	jp->nalloc = nprocs;
	jp->procs = ckmalloc(nprocs * sizeof(struct proc));
	return jp;
}

static void
freejob(struct job *jp)
{
	free(jp->procs);
	jp->used = 0;
}

/*
 * Fork a child for job jp (which may be NULL for a helper nobody waits
 * for).  Returns 0 in the child, the child's pid in the shell.
 */
pid_t
forkshell(struct job *jp, int mode)
{
	sigset_t intmask, omask;
	pid_t pid, pgid;
	int i, fd;

	fflush(stdout);
	fflush(stderr);
	/*
	 * Hold SIGINT across the fork: a ^C must not reach the child while
	 * it still runs the shell's handler, or it would be lost.
	 */
	sigemptyset(&intmask);
	sigaddset(&intmask, SIGINT);
	sigprocmask(SIG_BLOCK, &intmask, &omask);
	if ((pid = fork()) < 0) {
		sigprocmask(SIG_SETMASK, &omask, NULL);
		sherror("cannot fork: %s", strerror(errno));
	}
	pgid = jp != NULL && jp->nprocs > 0 ? jp->pgid : 0;
	if (pid == 0) {
		if (sigchanged) {
			signal(SIGINT, SIG_DFL);
			signal(SIGQUIT, SIG_DFL);
		}
		sigprocmask(SIG_SETMASK, &omask, NULL);
		if (jobctl && mode != FORK_NOJOB) {
			setpgid(0, pgid);
			if (mode == FORK_FG)	/* SIGTTOU is still ignored */
				tcsetpgrp(ttyfd, pgid != 0 ? pgid : getpid());
		}
		resetsignals();
		if (mode == FORK_BG && !jobctl) {
			signal(SIGINT, SIG_IGN);
			signal(SIGQUIT, SIG_IGN);
			close(0);
			if ((fd = open("/dev/null", O_RDONLY)) > 0) {
				dup2(fd, 0);
				close(fd);
			}
		}
		for (i = 0; i < MAXJOBS; i++)	/* the parent's, not ours */
			if (jobtab[i].used)
				freejob(&jobtab[i]);
		jobctl = 0;
		iflag = 0;
		return 0;
	}
	sigprocmask(SIG_SETMASK, &omask, NULL);
	if (jp != NULL) {
		if (jp->nprocs == 0)
			jp->pgid = pid;
		if (jobctl && mode != FORK_NOJOB) {
			setpgid(pid, jp->pgid);
			if (mode == FORK_FG)
				tcsetpgrp(ttyfd, jp->pgid);
		}
		if (jp->nprocs < jp->nalloc) {
			jp->procs[jp->nprocs].pid = pid;
			jp->procs[jp->nprocs].status = 0;
			jp->procs[jp->nprocs].done = 0;
			jp->procs[jp->nprocs].stopped = 0;
			jp->nprocs++;
		}
		jp->bg = mode == FORK_BG;
	}
	if (mode == FORK_BG) {
		backgndpid = pid;
		if (iflag && jp != NULL)
			fprintf(stderr, "[%d] %d\n", jp->jobno, (int)pid);
	}
	return pid;
}

static int
jobdone(struct job *jp)
{
	int i;

	for (i = 0; i < jp->nprocs; i++)
		if (!jp->procs[i].done)
			return 0;
	return 1;
}

/* Every process not done is stopped (and one is). */
static int
jobstopped(struct job *jp)
{
	int i, any = 0;

	for (i = 0; i < jp->nprocs; i++) {
		if (!jp->procs[i].done && !jp->procs[i].stopped)
			return 0;
		any |= jp->procs[i].stopped;
	}
	return any;
}

/*
 * Wait for one child and record its status.  Returns its pid, 0 if
 * none is ready (without block), -1 if there are none.  An interrupted
 * wait returns -2 when intr is set (the wait built-in).
 */
static pid_t
dowait(int block, int intr)
{
	struct proc *pp;
	pid_t pid;
	int status, i, j;

	do {
		pid = waitpid(-1, &status, (block ? 0 : WNOHANG) |
		    (jobctl ? WUNTRACED : 0));
		if (pid < 0 && errno == EINTR && intr && intpending)
			return -2;
	} while (pid < 0 && errno == EINTR);
	if (pid <= 0)
		return pid;
	for (i = 0; i < MAXJOBS; i++) {
		if (!jobtab[i].used)
			continue;
		for (j = 0; j < jobtab[i].nprocs; j++) {
			pp = &jobtab[i].procs[j];
			if (pp->pid == pid) {
				pp->status = status;
				pp->stopped = WIFSTOPPED(status);
				pp->done = !pp->stopped;
			}
		}
	}
	return pid;
}

/* The status $? reports for a wait status. */
static int
exitcode(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 128 + WSTOPSIG(status);
}

/* Wait for a foreground job; report if a signal killed or stopped it. */
int
waitforjob(struct job *jp)
{
	int i, st, sig;

	while (!jobdone(jp) && !jobstopped(jp)) {
		if (dowait(1, 0) < 0) {
			for (i = 0; i < jp->nprocs; i++)	/* lost them */
				jp->procs[i].done = 1;
		}
	}
	if (jobctl)
		tcsetpgrp(ttyfd, rootpgrp);
	if (!jobdone(jp)) {		/* stopped: kept for fg and bg */
		for (i = jp->nprocs - 1; i >= 0; i--)
			if (jp->procs[i].stopped)
				break;
		st = jp->procs[i].status;
		jp->bg = jp->stopped = 1;
		jp->age = ++jobclock;
		fprintf(stderr, "\n[%d] %d Stopped%s\n", jp->jobno,
		    (int)jp->pgid, WSTOPSIG(st) == SIGTTIN ? " (tty input)" :
		    WSTOPSIG(st) == SIGTTOU ? " (tty output)" : "");
		return exitcode(st);
	}
	sig = 0;
	for (i = jp->nprocs - 1; i >= 0; i--) {
		st = jp->procs[i].status;
		if (WIFSIGNALED(st) && WTERMSIG(st) != SIGPIPE) {
			sig = WTERMSIG(st);
			fprintf(stderr, "%s%s\n", strsignal(sig),
			    WCOREDUMP(st) ? " (core dumped)" : "");
			break;
		}
	}
	st = jp->nprocs > 0 ? exitcode(jp->procs[jp->nprocs - 1].status) : 0;
	freejob(jp);
	/* A ^C stops the whole command line, not just this job. */
	if (jobctl && sig == SIGINT)
		onint();
	return st;
}

/*
 * Reap finished children without blocking; with all set (the jobs
 * built-in) list every background job, else only report finished ones
 * (before a prompt, in an interactive shell).
 */
void
showjobs(int all)
{
	struct job *jp;
	int i, st, newly;

	while (dowait(0, 0) > 0)
		continue;
	for (i = 0; i < MAXJOBS; i++) {
		jp = &jobtab[i];
		if (!jp->used || !jp->bg)
			continue;
		if (!jobdone(jp)) {
			newly = jobstopped(jp) && !jp->stopped;
			if (newly) {		/* a background read, say */
				jp->stopped = 1;
				jp->age = ++jobclock;
			}
			if (all || (newly && iflag))
				printf("[%d] %d %s\n", jp->jobno,
				    (int)jp->pgid, jp->stopped ? "Stopped" :
				    "Running");
			continue;
		}
		if (!iflag && !all)
			continue;	/* kept for wait */
		st = jp->procs[jp->nprocs - 1].status;
		if (WIFSIGNALED(st))
			printf("[%d] %d %s\n", jp->jobno, (int)jp->pgid,
			    strsignal(WTERMSIG(st)));
		else if (WEXITSTATUS(st) != 0)
			printf("[%d] %d Exit %d\n", jp->jobno, (int)jp->pgid,
			    WEXITSTATUS(st));
		else
			printf("[%d] %d Done\n", jp->jobno, (int)jp->pgid);
		freejob(jp);
	}
	fflush(stdout);
}

/* The job with a process pid, or NULL. */
static struct job *
findjob(pid_t pid)
{
	int i, j;

	for (i = 0; i < MAXJOBS; i++)
		if (jobtab[i].used)
			for (j = 0; j < jobtab[i].nprocs; j++)
				if (jobtab[i].procs[j].pid == pid)
					return &jobtab[i];
	return NULL;
}

/* wait [pid ...]: wait for the given jobs, or for all background jobs. */
int
waitcmd(int argc, char **argv)
{
	struct job *jp;
	int i, j, status;

	status = 0;
	if (argc <= 1) {
		for (;;) {
			for (i = 0; i < MAXJOBS; i++)
				if (jobtab[i].used && jobtab[i].bg &&
				    !jobdone(&jobtab[i]))
					break;
			if (i == MAXJOBS)
				break;
			if (dowait(1, 1) == -2) {
				intpending = 0;
				return 128 + SIGINT;
			}
		}
		for (i = 0; i < MAXJOBS; i++)
			if (jobtab[i].used && jobtab[i].bg)
				freejob(&jobtab[i]);
		return 0;
	}
	for (j = 1; j < argc; j++) {
		if ((jp = findjob(atoi(argv[j]))) == NULL) {
			status = 127;
			continue;
		}
		while (!jobdone(jp)) {
			if (dowait(1, 1) == -2) {
				intpending = 0;
				return 128 + SIGINT;
			}
		}
		status = exitcode(jp->procs[jp->nprocs - 1].status);
		freejob(jp);
	}
	return status;
}

/*
 * The job a job specification names: %n, %% or %+ (the current job),
 * %- (the previous), or a process id; NULL with a message if none.
 */
static struct job *
getjob(const char *spec, const char *cmd)
{
	struct job *jp, *cur = NULL, *prev = NULL;
	int i;

	for (i = 0; i < MAXJOBS; i++) {
		jp = &jobtab[i];
		if (!jp->used || !jp->bg || jobdone(jp))
			continue;
		if (cur == NULL || jp->age > cur->age) {
			prev = cur;
			cur = jp;
		} else if (prev == NULL || jp->age > prev->age)
			prev = jp;
	}
	if (spec == NULL || strcmp(spec, "%%") == 0 || strcmp(spec, "%+") == 0 ||
	    strcmp(spec, "%") == 0)
		jp = cur;
	else if (strcmp(spec, "%-") == 0)
		jp = prev;
	else if (spec[0] == '%') {
		i = atoi(spec + 1);
		jp = i >= 1 && i <= MAXJOBS && jobtab[i - 1].used &&
		    !jobdone(&jobtab[i - 1]) ? &jobtab[i - 1] : NULL;
	} else
		jp = findjob(atoi(spec));
	if (jp == NULL)
		fprintf(stderr, "%s: %s: no such job\n", cmd, spec ? spec : "%%");
	return jp;
}

/* Continue a stopped job's processes (SIGCONT to its group). */
static void
continuejob(struct job *jp)
{
	int i;

	for (i = 0; i < jp->nprocs; i++)
		jp->procs[i].stopped = 0;
	jp->stopped = 0;
	jp->age = ++jobclock;
	kill(-jp->pgid, SIGCONT);
}

/* fg [job]: the job to the foreground, continued; waits for it. */
int
fgcmd(int argc, char **argv)
{
	struct job *jp;

	if (!jobctl) {
		fprintf(stderr, "fg: no job control\n");
		return 1;
	}
	if ((jp = getjob(argc > 1 ? argv[1] : NULL, "fg")) == NULL)
		return 1;
	printf("%d\n", (int)jp->pgid);
	fflush(stdout);
	jp->bg = 0;
	tcsetpgrp(ttyfd, jp->pgid);
	continuejob(jp);
	return waitforjob(jp);
}

/* bg [job ...]: continue stopped jobs in the background. */
int
bgcmd(int argc, char **argv)
{
	struct job *jp;
	int i, status = 0;

	if (!jobctl) {
		fprintf(stderr, "bg: no job control\n");
		return 1;
	}
	for (i = 1; i < argc || i == 1; i++) {
		if ((jp = getjob(argc > 1 ? argv[i] : NULL, "bg")) == NULL) {
			status = 1;
			if (argc <= 1)
				break;
			continue;
		}
		jp->bg = 1;
		continuejob(jp);
		printf("[%d] %d\n", jp->jobno, (int)jp->pgid);
		if (argc <= 1)
			break;
	}
	fflush(stdout);
	return status;
}

/*
 * kill: the kill program (bin/kill's source, compiled in), with each
 * %job operand turned into the job's process group (-pgid) or, without
 * job control, where the job has no group of its own, into its
 * processes' ids.  A "--" goes before the operands so that kill does
 * not take -pgid for a signal.
 */
int
killjobcmd(int argc, char **argv)
{
	struct arglist al;
	struct job *jp;
	char buf[16];
	int i, k, opts;

	al.v = NULL;
	al.n = al.cap = 0;
	arglistadd(&al, "kill");
	opts = 1;
	if (argc > 1 && argv[1][0] == '-' && argv[1][1] != '\0' &&
	    strcmp(argv[1], "--") != 0)
		opts = strcmp(argv[1], "-s") == 0 && argc > 2 ? 3 : 2;
	for (i = 1; i < opts; i++)
		arglistadd(&al, argv[i]);
	if (opts < argc && strcmp(argv[opts], "--") == 0)
		opts++;
	if (opts < argc && strcmp(argv[1], "-l") != 0)
		arglistadd(&al, "--");
	for (i = opts; i < argc; i++) {
		if (argv[i][0] != '%') {
			arglistadd(&al, argv[i]);
			continue;
		}
		if ((jp = getjob(argv[i], "kill")) == NULL)
			return 1;
		for (k = 0; k < jp->nprocs; k++) {
			if (jobctl)
				snprintf(buf, sizeof(buf), "-%d", (int)jp->pgid);
			else if (!jp->procs[k].done)
				snprintf(buf, sizeof(buf), "%d",
				    (int)jp->procs[k].pid);
			else
				continue;
			arglistadd(&al, ststrdup(buf));
			if (jobctl)
				break;		/* the group has them all */
		}
	}
	arglistadd(&al, NULL);
	return killcmd(al.n - 1, al.v);
}
