/*
 * ps: process status, in the style of 4.4BSD ps.
 *	ps [-alx]
 * By default, your own processes that have a controlling terminal;
 * -a adds other users' processes, -x those without a terminal (kernel
 * processes such as update, daemons).  As in BSD, the options may also
 * be given without the dash ("ps ax").
 *
 * The table comes from getproc(2) (sys/kinfo.h), a snapshot copied out
 * of the kernel's process table in one system call.
 *
 * Columns: PID, TT (the terminal: "co" for the console, "??" for none),
 * STAT, TIME (user + system, minutes:seconds.hundredths) and COMMAND
 * (the program name; a kernel process's in parentheses, as BSD prints a
 * process whose arguments it cannot read).  -l adds UID, PPID, PGID, SZ
 * (resident user memory, KB) and WCHAN (what a sleeping process waits
 * for).
 *
 * STAT is one letter for the state (sys/kinfo.h KP_*):
 *	R runnable or running	S sleeping	T stopped
 *	Z zombie (exited, not yet waited for)
 *	I idle: a slot that fork is still building
 * followed by "s" for a session leader and "+" for a process in the
 * terminal's foreground process group.
 */
#include <sys/types.h>
#include <sys/kinfo.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int aflag, lflag, xflag;

static void
usage(void)
{
	fprintf(stderr, "usage: ps [-alx]\n");
	exit(1);
}

/* The foreground process group of our terminal, or -1. */
static pid_t
foreground(void)
{
	pid_t pg;
	int fd;

	for (fd = 0; fd <= 2; fd++)
		if ((pg = tcgetpgrp(fd)) > 0)
			return pg;
	return -1;
}

static char
stateletter(int stat)
{
	switch (stat) {
	case KP_IDL:
		return 'I';
	case KP_RUN:
		return 'R';
	case KP_SLEEP:
		return 'S';
	case KP_STOP:
		return 'T';
	case KP_ZOMB:
		return 'Z';
	}
	return '?';
}

static void
statstr(const struct kinfo_proc *kp, pid_t fg, char *buf)
{
	char *cp = buf;

	*cp++ = stateletter(kp->kp_stat);
	if (kp->kp_pid == kp->kp_sid)
		*cp++ = 's';
	if ((kp->kp_flag & KP_CONTROLT) && kp->kp_pgid == fg)
		*cp++ = '+';
	*cp = '\0';
}

/* Should this process be listed? */
static int
selected(const struct kinfo_proc *kp, uid_t uid)
{
	if (!aflag && kp->kp_uid != uid)
		return 0;
	if (!xflag && !(kp->kp_flag & KP_CONTROLT))
		return 0;
	return 1;
}

static void
header(void)
{
	if (lflag)
		printf("  UID   PID  PPID  PGID    SZ WCHAN   ");
	else
		printf("  PID ");
	printf("STAT TT      TIME COMMAND\n");
}

static void
line(const struct kinfo_proc *kp, pid_t fg)
{
	unsigned cs = (kp->kp_utime_ms + kp->kp_stime_ms) / 10;
	char stat[8];

	statstr(kp, fg, stat);
	if (lflag)
		printf("%5u %5d %5d %5d %5u %-7s ", kp->kp_uid, kp->kp_pid,
		    kp->kp_ppid, kp->kp_pgid, kp->kp_size_kb,
		    kp->kp_wmesg[0] ? kp->kp_wmesg : "-");
	else
		printf("%5d ", kp->kp_pid);
	printf("%-4s %-2s %3u:%02u.%02u ", stat,
	    (kp->kp_flag & KP_CONTROLT) ? "co" : "??",
	    cs / 6000, cs / 100 % 60, cs % 100);
	if (kp->kp_flag & KP_SYSTEM)
		printf("(%s)\n", kp->kp_comm);
	else
		printf("%s\n", kp->kp_comm);
}

static int
bypid(const void *a, const void *b)
{
	const struct kinfo_proc *x = a, *y = b;

	return x->kp_pid - y->kp_pid;
}

/* A snapshot of the process table; *np gets the number of entries. */
static struct kinfo_proc *
snapshot(int *np)
{
	struct kinfo_proc *kp;
	int n, room;

	if ((n = getproc(NULL, 0)) < 0)
		err(1, "getproc");
	/* Room for processes forked between the two calls. */
	room = n + 16;
	if ((kp = calloc(room, sizeof(*kp))) == NULL)
		err(1, "calloc");
	if ((n = getproc(kp, room)) < 0)
		err(1, "getproc");
	*np = n < room ? n : room;
	return kp;
}

int
main(int argc, char *argv[])
{
	struct kinfo_proc *kp;
	char *opts = NULL;
	uid_t uid = getuid();
	pid_t fg;
	int c, i, n;

	/* BSD style: "ps ax" means "ps -ax". */
	if (argc == 2 && argv[1][0] != '-')
		opts = argv[1];
	else {
		while ((c = getopt(argc, argv, "alx")) != -1) {
			switch (c) {
			case 'a':
				aflag = 1;
				break;
			case 'l':
				lflag = 1;
				break;
			case 'x':
				xflag = 1;
				break;
			default:
				usage();
			}
		}
		if (optind != argc)
			usage();
	}
	for (; opts && *opts; opts++) {
		if (*opts == 'a')
			aflag = 1;
		else if (*opts == 'l')
			lflag = 1;
		else if (*opts == 'x')
			xflag = 1;
		else {
			fprintf(stderr, "ps: illegal option -- %c\n", *opts);
			usage();
		}
	}
	kp = snapshot(&n);
	qsort(kp, n, sizeof(*kp), bypid);
	fg = foreground();
	header();
	for (i = 0; i < n; i++)
		if (selected(&kp[i], uid))
			line(&kp[i], fg);
	free(kp);
	return 0;
}
