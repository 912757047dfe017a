/*
 * Device switches (4.4BSD conf.h): a device number's major indexes
 * bdevsw (block devices, used by the buffer cache and file systems) or
 * cdevsw (character devices: the console, raw disks, memory devices).
 * Minor numbers of disks: unit * 8 + partition ('a' = 0, 'c' = 2).
 */
#ifndef _KERN_CONF_H_
#define _KERN_CONF_H_

#include <sys/types.h>

struct buf;
struct uio;
struct proc;

struct bdevsw {
	const char *d_name;
	int	(*d_open)(dev_t, int flags, int fmt);
	int	(*d_close)(dev_t, int flags, int fmt);
	void	(*d_strategy)(struct buf *);
	int	(*d_ioctl)(dev_t, u_long cmd, caddr_t data, int flags);
	long	(*d_psize)(dev_t);	/* partition size in sectors */
};

struct cdevsw {
	const char *d_name;
	int	(*d_open)(dev_t, int flags, int fmt);
	int	(*d_close)(dev_t, int flags, int fmt);
	int	(*d_read)(dev_t, struct uio *, int ioflag);
	int	(*d_write)(dev_t, struct uio *, int ioflag);
	int	(*d_ioctl)(dev_t, u_long cmd, caddr_t data, int flags);
	int	(*d_poll)(dev_t, int events);	/* NULL: always ready */
};

/* majors: fixed, as the device nodes in the root image name them */
#define CONS_MAJOR	0	/* cdev: /dev/console */
#define MEM_MAJOR	2	/* cdev: /dev/null (minor 2), /dev/zero (12) */
#define SD_BMAJOR	4	/* bdev: /dev/sdNx */
#define SD_CMAJOR	13	/* cdev: /dev/rsdNx */
#define TTY_MAJOR	1	/* cdev: /dev/tty, the process' terminal */

#define SDUNIT(dev)	(minor(dev) >> 3)
#define SDPART(dev)	(minor(dev) & 7)
#define RAW_PART	2

extern struct bdevsw bdevsw[];
extern struct cdevsw cdevsw[];
extern const u_int nbdev, ncdev;

int	enodev(void);
int	nullop(void);

/* raw I/O for character disks: at most MAXPHYS per transfer */
int	physio(void (*strategy)(struct buf *), dev_t dev, int flags,
	    struct uio *uio);

#endif
