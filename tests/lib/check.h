/*
 * What the in-guest test programs share.  The line protocol (Pintos
 * style): one line per check, "(prog) what: ok" or "(prog) what:
 * FAILED: why", and last "N passed, M failed" (check_done), the lines
 * the pytest files read.
 */
#ifndef _TESTS_CHECK_H_
#define _TESTS_CHECK_H_

extern const char *check_prog;		/* set first thing in main */
extern int passed, failed;

/*
 * check() evaluates the condition before the message's arguments, so an
 * errno printed in the message is the checked call's.
 */
#define check(cond, ...)	do {					\
	int ok_ = (cond);						\
	checkline(ok_, __VA_ARGS__);					\
} while (0)

void	checkline(int cond, const char *what, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
int	check_done(void);		/* the summary; the exit status */

/*
 * The name of a test file: check_dir/PROG.d/ and the rest (printf-style),
 * PROG being check_prog.  Four results are kept, so one call may use
 * several names.
 */
extern char check_dir[256];		/* -d: where the tests work */
char	*tpath(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Children: wait for pid (-1: any), and read the status it left. */
int	reap(int pid);			/* its raw status, or -1 */
int	exited_with(int status, int code);

#endif
