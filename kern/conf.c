/*
 * The device switches, and the memory devices /dev/null and /dev/zero.
 */
#include "kern/systm.h"
#include "kern/conf.h"
#include "kern/uio.h"
#include "kern/tty.h"
#include "kern/dev/sd.h"

int
enodev(void)
{
	return ENODEV;
}

int
nullop(void)
{
	return 0;
}

#define MEM_NULL	2
#define MEM_ZERO	12

static int
mmopen(dev_t dev, int flags, int fmt)
{
	return minor(dev) == MEM_NULL || minor(dev) == MEM_ZERO ? 0 : ENXIO;
}

static int
mmrw(dev_t dev, struct uio *uio, int ioflag)
{
	static char zeros[512];
	int error = 0;

	if (uio->uio_rw == UIO_WRITE) {		/* both discard writes */
		uio->uio_offset += uio->uio_resid;
		uio->uio_iov->iov_len = 0;
		uio->uio_resid = 0;
		return 0;
	}
	if (minor(dev) == MEM_NULL)
		return 0;			/* end of file */
	while (uio->uio_resid > 0 && error == 0)
		error = uiomove(zeros, MIN(uio->uio_resid,
		    (int)sizeof(zeros)), uio);
	return error;
}

static int
ttyopen(dev_t dev, int flags, int fmt)
{
	return cnopen(makedev(CONS_MAJOR, 0), flags, fmt);
}

#define N (void *)enodev
#define Z (void *)nullop
struct cdevsw cdevsw[] = {
	[CONS_MAJOR] = { "console", cnopen, cnclose, cnread, cnwrite, cnioctl,
	    cnpoll },
	[TTY_MAJOR] = { "tty", ttyopen, cnclose, cnread, cnwrite, cnioctl,
	    cnpoll },
	[MEM_MAJOR] = { "mem", mmopen, Z, mmrw, mmrw, N },
	[SD_CMAJOR] = { "rsd", sdopen, sdclose, sdread, sdwrite, sdioctl },
};
struct bdevsw bdevsw[] = {
	[SD_BMAJOR] = { "sd", sdopen, sdclose, sdstrategy, sdioctl, sdpsize },
};
const u_int ncdev = nitems(cdevsw);
const u_int nbdev = nitems(bdevsw);
