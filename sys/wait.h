/*
 * wait4(2) status encoding and options, as 4.4BSD.
 */
#ifndef _SYS_WAIT_H_
#define _SYS_WAIT_H_

#define WNOHANG		1
#define WUNTRACED	2

#define _WSTATUS(x)	((x) & 0177)
#define _WSTOPPED	0177
#define WIFSTOPPED(x)	(_WSTATUS(x) == _WSTOPPED)
#define WSTOPSIG(x)	(((x) >> 8) & 0xff)
#define WIFSIGNALED(x)	(_WSTATUS(x) != _WSTOPPED && _WSTATUS(x) != 0)
#define WTERMSIG(x)	(_WSTATUS(x))
#define WIFEXITED(x)	(_WSTATUS(x) == 0)
#define WEXITSTATUS(x)	(((x) >> 8) & 0xff)
#define WCOREFLAG	0200
#define WCOREDUMP(x)	((x) & WCOREFLAG)

#define W_EXITCODE(ret, sig)	((ret) << 8 | (sig))
#define W_STOPCODE(sig)		((sig) << 8 | _WSTOPPED)

#define WAIT_ANY	(-1)

#endif
