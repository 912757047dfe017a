/*
 * Signal descriptions (sys_siglist, for strsignal and the shell's "killed
 * by" messages) and names (sys_signame, for kill -l), as in 4.4BSD.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

const char *const sys_siglist[NSIG] = {
	"Signal 0",
	"Hangup",			/* SIGHUP */
	"Interrupt",			/* SIGINT */
	"Quit",				/* SIGQUIT */
	"Illegal instruction",		/* SIGILL */
	"Trace/BPT trap",		/* SIGTRAP */
	"Abort trap",			/* SIGABRT */
	"EMT trap",			/* SIGEMT */
	"Floating point exception",	/* SIGFPE */
	"Killed",			/* SIGKILL */
	"Bus error",			/* SIGBUS */
	"Segmentation fault",		/* SIGSEGV */
	"Bad system call",		/* SIGSYS */
	"Broken pipe",			/* SIGPIPE */
	"Alarm clock",			/* SIGALRM */
	"Terminated",			/* SIGTERM */
	"Urgent I/O condition",		/* SIGURG */
	"Suspended (signal)",		/* SIGSTOP */
	"Suspended",			/* SIGTSTP */
	"Continued",			/* SIGCONT */
	"Child exited",			/* SIGCHLD */
	"Stopped (tty input)",		/* SIGTTIN */
	"Stopped (tty output)",		/* SIGTTOU */
	"I/O possible",			/* SIGIO */
	"Cputime limit exceeded",	/* SIGXCPU */
	"Filesize limit exceeded",	/* SIGXFSZ */
	"Virtual timer expired",	/* SIGVTALRM */
	"Profiling timer expired",	/* SIGPROF */
	"Window size changes",		/* SIGWINCH */
	"Information request",		/* SIGINFO */
	"User defined signal 1",	/* SIGUSR1 */
	"User defined signal 2",	/* SIGUSR2 */
};

const char *const sys_signame[NSIG] = {
	"Signal 0", "hup", "int", "quit", "ill", "trap", "abrt", "emt",
	"fpe", "kill", "bus", "segv", "sys", "pipe", "alrm", "term",
	"urg", "stop", "tstp", "cont", "chld", "ttin", "ttou", "io",
	"xcpu", "xfsz", "vtalrm", "prof", "winch", "info", "usr1", "usr2",
};

char *
strsignal(int sig)
{
	static char buf[32];

	if (sig > 0 && sig < NSIG)
		return (char *)sys_siglist[sig];
	snprintf(buf, sizeof(buf), "Unknown signal: %d", sig);
	return buf;
}
