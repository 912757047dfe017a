/*
 * poll(2): wait until one of several descriptors is ready, or a timeout.
 *
 * Each kind of file answers for itself (fileops' fo_poll): a pipe by its
 * ring, the console by its queue of typed input, a disk file or a device
 * with no d_poll always.  A poller that finds nothing ready sleeps on one
 * channel for the whole system, pollwait; whatever may make a file ready
 * (a line typed, a pipe read, written or closed) calls pollwakeup(), and
 * every poller looks again.  4.4BSD's select records the waiting process
 * in each object instead (selrecord): one channel is a teaching shortcut
 * that costs only needless wakeups.  The console's input arrives in an
 * interrupt, so the scan and the sleep run at spltty, as ttread's do.
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/file.h"
#include "kern/malloc.h"
#include "kern/uio.h"
#include "kern/syscallargs.h"
#include "kern/i386/cpu.h"
#include <sys/poll.h>

static int pollwait;

void
pollwakeup(void)
{
	wakeup(&pollwait);
}

/* Fill in each revents; returns how many descriptors have any. */
static int
pollscan(struct proc *p, struct pollfd *fds, u_int n)
{
	struct file *fp;
	u_int i;
	int ready = 0, want;

	for (i = 0; i < n; i++) {
		want = fds[i].events | POLLERR | POLLHUP;
		if (fds[i].fd < 0)
			fds[i].revents = 0;
		else if (getfile(p, fds[i].fd, &fp) != 0)
			fds[i].revents = POLLNVAL;
		else
			fds[i].revents = fp->f_ops->fo_poll(fp, want) & want;
		if (fds[i].revents)
			ready++;
	}
	return ready;
}

int
sys_poll(struct proc *p, struct poll_args *uap, int *retval)
{
	struct pollfd *fds;
	u_int n = uap->nfds, size = n * sizeof(*fds);
	u_int64_t end = 0, now;
	int error, ready, s, timo;

	if (n > NOFILE)
		return EINVAL;
	fds = malloc(MAX(size, 1), M_WAITOK);
	if ((error = copyin(uap->fds, fds, size)) != 0)
		goto out;
	/* The deadline in uptime, as nanosleep's: ticks may come in bursts. */
	if (uap->timeout > 0)
		end = uptime_us() + (u_int64_t)uap->timeout * 1000;
	s = spltty();
	for (;;) {
		if ((ready = pollscan(p, fds, n)) != 0 || uap->timeout == 0)
			break;
		timo = 0;			/* no timeout: until woken */
		if (uap->timeout > 0) {
			if ((now = uptime_us()) >= end)
				break;
			/* whole ticks, rounded up */
			timo = (end - now + 1000000 / hz - 1) / (1000000 / hz);
		}
		error = tsleep(&pollwait, PCATCH, "poll", timo);
		if (error == EWOULDBLOCK)
			error = 0;
		else if (error) {	/* a signal: never restarted */
			error = EINTR;
			break;
		}
	}
	splx(s);
	if (error == 0 && (error = copyout(fds, uap->fds, size)) == 0)
		*retval = ready;
out:
	free(fds);
	return error;
}
