/*
 * Time system calls: gettimeofday, settimeofday, nanosleep (getrusage is
 * in kern_resource.c, with the CPU time it reports).
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/uio.h"
#include "kern/syscallargs.h"
#include <sys/resource.h>

int
sys_gettimeofday(struct proc *p, struct gettimeofday_args *uap, int *retval)
{
	struct timeval tv;
	struct timezone tz = { 0, 0 };
	int error = 0;

	microtime(&tv);
	if (uap->tp)
		error = copyout(&tv, uap->tp, sizeof(tv));
	if (error == 0 && uap->tzp)
		error = copyout(&tz, uap->tzp, sizeof(tz));
	return error;
}

int
sys_settimeofday(struct proc *p, struct settimeofday_args *uap, int *retval)
{
	struct timeval tv;
	int error;

	if ((error = suser(p)) != 0)
		return error;
	if (uap->tv == NULL)
		return 0;
	if ((error = copyin(uap->tv, &tv, sizeof(tv))) != 0)
		return error;
	settime(tv.tv_sec);
	return 0;
}

int
sys_nanosleep(struct proc *p, struct nanosleep_args *uap, int *retval)
{
	struct timespec ts, rem;
	u_int64_t start, want, slept;
	int error, timo;

	if ((error = copyin(uap->rqtp, &ts, sizeof(ts))) != 0)
		return error;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000)
		return EINVAL;
	want = (u_int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
	start = uptime_us();
	while ((slept = uptime_us() - start) < want) {
		u_int64_t left = want - slept;

		/* round up to whole ticks, and at least one */
		timo = (left + 1000000 / hz - 1) / (1000000 / hz);
		if (timo > 0x7fffffff / 2)
			timo = 0x7fffffff / 2;
		error = tsleep(&ts, PCATCH, "nanosleep", timo);
		if (error == EWOULDBLOCK)
			continue;
		if (error) {
			if (uap->rmtp) {
				slept = uptime_us() - start;
				left = slept < want ? want - slept : 0;
				rem.tv_sec = left / 1000000;
				rem.tv_nsec = left % 1000000 * 1000;
				copyout(&rem, uap->rmtp, sizeof(rem));
			}
			return EINTR;
		}
	}
	return 0;
}
