/*
 * sd: SCSI disks.  The entry points of the device switches (kern/conf.c),
 * the attach call a host adapter makes for each disk it finds, and the
 * hooks the rest of the kernel calls.
 */
#ifndef _DEV_SD_H_
#define _DEV_SD_H_

#include <sys/types.h>

struct buf;
struct uio;
struct proc;
struct diskstats;

/* bdevsw and cdevsw; minor = unit * 8 + partition */
int	sdopen(dev_t, int flags, int fmt);
int	sdclose(dev_t, int flags, int fmt);
void	sdstrategy(struct buf *);
int	sdioctl(dev_t, u_long cmd, caddr_t data, int flags);
long	sdpsize(dev_t);
int	sdread(dev_t, struct uio *, int ioflag);
int	sdwrite(dev_t, struct uio *, int ioflag);

/* from the host adapter's probe: inq is the target's INQUIRY data */
void	sdattach(void *hba, int bus, int target, int lun, const u_int8_t *inq);

int	sd_ndisks(void);		/* disks attached: sd0 .. sdN-1 */

/*
 * At shutdown, after the buffer cache is flushed: waits for each disk's
 * queue to drain and sends SYNCHRONIZE CACHE.  Call it from a process
 * (it sleeps) or while cold (it polls).
 */
void	sdsync_all(void);

/*
 * Disk subroutines for any disk driver (kern/subr_disk.c): label checks
 * and the thesis 7.2 counters, which diskstats(2) reads from every disk
 * attached.  The elevator queue is in kern/buf.h.
 */
struct disklabel;
const char *disklabel_check(struct disklabel *, u_int32_t nsectors);
void	disklabel_default(struct disklabel *, const char *typename,
	    u_int32_t nsectors, u_int32_t cyls, u_int32_t heads,
	    u_int32_t secs, u_int32_t rpm);

struct disk {
	struct diskstats *dk_stats;	/* what diskstats(2) copies out */
	int	dk_busy;		/* a command is at the disk */
	u_int64_t dk_stamp;		/* last busy/idle change, us */
	struct disk *dk_next;		/* the list of attached disks */
};
void	disk_attach(struct disk *, const char *name, int unit);
void	disk_detach(struct disk *);	/* the attach failed after all */
void	disk_busy(struct disk *);
void	disk_unbusy(struct disk *, struct buf *, int nbytes, int error);

#endif
