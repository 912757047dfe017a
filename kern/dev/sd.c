/*
 * sd: the SCSI disk driver, in the shape of 4.4BSD's (and of a 1992
 * controller's limits): SCSI-2 commands, a disksort elevator queue, ONE
 * command outstanding per disk, transfers of at most MAXPHYS (64 KB).
 *
 * Attach (cold, polled), with the INQUIRY data of the adapter's probe:
 * TEST UNIT READY until the power-on UNIT ATTENTION is gone, READ
 * CAPACITY(10), MODE SENSE(6) page 4 (cylinders, heads) and page 5
 * (sectors per track), the rpm from the Block Device Characteristics
 * VPD page (B1h), the boot line, then the label.
 * We never ask for page 3, which QEMU lacks, nor trust page 4's rpm,
 * which QEMU fixes at 5400 (QEMU's mode_sense_page, hw/scsi/scsi-disk.c;
 * qemu/DRIVE.md, "What QEMU shows the guest"); its VPD page B1 gives the
 * rotation_rate the drive model set.  The default label carries that
 * rpm, so newfs's rotational layout (rotdelay) is the drive's.
 *
 * The label (sys/disklabel.h) is read from sector LABELSECTOR at attach
 * and again at each first open; a sector without a valid one (magics,
 * checksum, partitions inside the disk) gets a default label: 'a' and
 * 'c' are the whole disk.
 *
 * The I/O path: sdstrategy checks the request against its partition,
 * turns b_blkno into b_pblkno (from the start of the disk) and disksorts
 * it into the unit's queue; sdstart takes the head of the queue when the
 * unit is idle and sends READ(10) or WRITE(10); sddone (from the
 * adapter's interrupt, or before vioscsi_cmd returns while cold) retries
 * a few times on UNIT ATTENTION and busy, sets the error and b_resid,
 * calls biodone and starts the next.  Commands of our own (label,
 * SYNCHRONIZE CACHE) wait for the queue to drain and take the unit the
 * same way, so a cache flush comes after every write queued before it.
 * The write cache is off in QEMU (write-cache=off), so writes need no FUA.
 *
 * Counters (thesis 7.2, sys/diskstats.h) live in kern/subr_disk.c: the
 * disk is busy from when a command is sent until it completes, and each
 * buffer's READ/WRITE is counted and logged there.
 */
#include "kern/systm.h"
#include "kern/malloc.h"
#include "kern/buf.h"
#include "kern/conf.h"
#include "kern/uio.h"
#include "kern/proc.h"
#include "kern/i386/cpu.h"
#include "kern/dev/scsi.h"
#include "kern/dev/vioscsi.h"
#include "kern/dev/sd.h"
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <sys/disklabel.h>
#include <sys/diskstats.h>

#define SD_MAXUNITS	8
#define SD_RETRIES	4		/* for UNIT ATTENTION, busy, reset */
#define SD_TIMEOUT	10000		/* ms, for polled commands */
#define SD_MODELEN	64		/* MODE SENSE data we ask for */

struct sd_softc {
	char	sc_name[8];		/* "sd0" */
	int	sc_unit;
	void	*sc_hba;		/* host adapter, for vioscsi_cmd */
	int	sc_target, sc_lun;
	char	sc_vendor[9];		/* INQUIRY, trailing blanks trimmed */
	char	sc_product[17];
	u_int32_t sc_nsectors;		/* READ CAPACITY */
	u_int32_t sc_cyls, sc_heads, sc_secs;	/* MODE SENSE; 0 unknown */
	u_int32_t sc_rpm;			/* VPD page B1; 0 unknown */
	struct disklabel sc_label;
	u_int8_t sc_bopen, sc_copen;	/* partitions open, block / raw */

	struct buf_queue sc_q;		/* waiting, in elevator order */
	struct buf *sc_bp;		/* the buffer at the disk, or NULL */
	struct scsi_xfer sc_xs;		/* its command */
	int	sc_retries;		/* of sc_bp so far */
	int	sc_busy;		/* a command is outstanding */
	struct disk sc_dk;		/* counters */
	int	sc_instart;		/* sdstart is running (no recursion) */
	int	sc_wanted;		/* someone waits for the unit to idle */
};

static struct sd_softc *sd_units[SD_MAXUNITS];
static int nsd;

static void sdstart(struct sd_softc *);
static void sddone(struct scsi_xfer *);
static void sd_readlabel(struct sd_softc *, int verbose);

static struct sd_softc *
sd_lookup(int unit)
{
	return unit >= 0 && unit < nsd ? sd_units[unit] : NULL;
}

int
sd_ndisks(void)
{
	return nsd;
}

/* The unit has a command at the disk from here on. */
static void
sd_busy(struct sd_softc *sc)
{
	sc->sc_busy = 1;
	disk_busy(&sc->sc_dk);
}

/* It has not; bp (if any) is the buffer whose command is over. */
static void
sd_unbusy(struct sd_softc *sc, struct buf *bp, int nbytes, int error)
{
	sc->sc_busy = 0;
	disk_unbusy(&sc->sc_dk, bp, nbytes, error);
}

/* SCSI outcome to errno: 0, ENXIO (no such unit) or EIO. */
static int
sd_interpret(struct scsi_xfer *xs)
{
	switch (xs->xs_error) {
	case XS_NOERROR:
		return xs->xs_status == SCSI_GOOD ? 0 : EIO;
	case XS_SENSE:
		if (xs->xs_senselen > 2 &&
		    SENSE_KEY(xs->xs_sense) == SKEY_RECOVERED_ERROR)
			return 0;
		return EIO;
	case XS_SELTIMEOUT:
		return ENXIO;
	default:
		return EIO;
	}
}

/* Worth trying again: a reset told us so, or the target was busy. */
static int
sd_retryable(struct scsi_xfer *xs)
{
	if (xs->xs_error == XS_BUSY || xs->xs_error == XS_RESET)
		return 1;
	return xs->xs_error == XS_SENSE && xs->xs_senselen > 2 &&
	    (SENSE_KEY(xs->xs_sense) == SKEY_UNIT_ATTENTION ||
	    SENSE_KEY(xs->xs_sense) == SKEY_NOT_READY);
}

/* A fresh command for sc: opcode, CDB length, data to read if any. */
static void
sd_xsinit(struct sd_softc *sc, struct scsi_xfer *xs, int op, int cdblen,
    void *data, int len)
{
	memset(xs, 0, sizeof(*xs));
	xs->xs_hba = sc->sc_hba;
	xs->xs_target = sc->sc_target;
	xs->xs_lun = sc->sc_lun;
	xs->xs_timeout = SD_TIMEOUT;
	xs->xs_cdb[0] = op;
	xs->xs_cdblen = cdblen;
	xs->xs_data = data;
	xs->xs_datalen = len;
	xs->xs_flags = len ? XS_DATA_IN : 0;
}

static void
sd_cmddone(struct scsi_xfer *xs)
{
	wakeup(xs);
}

/*
 * One command of our own, with retries: the caller has set xs up with
 * sd_xsinit.  Waits for the queue to drain so that the unit still has
 * one command at a time; sleeps for completion, or polls while cold.
 */
static int
sd_cmd(struct sd_softc *sc, struct scsi_xfer *xs)
{
	int s, try, error;

	s = splbio();
	while (sc->sc_busy || bufq_first(&sc->sc_q) != NULL) {
		sc->sc_wanted = 1;
		tsleep(&sc->sc_wanted, 0, "sdidle", 0);
	}
	sd_busy(sc);
	for (try = 0; ; try++) {
		xs->xs_done = sd_cmddone;
		if (vioscsi_cmd(xs) != 0) {
			error = EIO;
			break;
		}
		while (!(xs->xs_flags & XS_DONE))
			tsleep(xs, 0, "sdcmd", 0);
		error = sd_interpret(xs);
		if (error == 0 || !sd_retryable(xs) || try == SD_RETRIES)
			break;
	}
	sd_unbusy(sc, NULL, 0, 0);
	sdstart(sc);
	splx(s);
	return error;
}

/* Copy an INQUIRY string and trim its blank padding. */
static void
sd_inqstr(char *dst, const u_int8_t *src, int len)
{
	memcpy(dst, src, len);
	dst[len] = '\0';
	while (len > 0 && (dst[len - 1] == ' ' || dst[len - 1] == '\0'))
		dst[--len] = '\0';
}

/* MODE SENSE(6) one page into buf; returns the page, or NULL. */
static u_int8_t *
sd_modepage(struct sd_softc *sc, int page, u_int8_t *buf)
{
	struct scsi_xfer xs;
	u_int8_t *p;
	int len;

	memset(buf, 0, SD_MODELEN);
	sd_xsinit(sc, &xs, MODE_SENSE_6, 6, buf, SD_MODELEN);
	xs.xs_cdb[1] = MS_DBD;
	xs.xs_cdb[2] = page;			/* current values */
	xs.xs_cdb[4] = SD_MODELEN;
	if (sd_cmd(sc, &xs) != 0)
		return NULL;
	len = SD_MODELEN - xs.xs_resid;
	p = buf + MS_HDRLEN + buf[3];		/* past block descriptors */
	if (p + 6 > buf + len || (p[0] & 0x3f) != page || p[1] < 4)
		return NULL;
	return p;
}

/*
 * The medium rotation rate of VPD page B1 (SPC-3; QEMU answers it even
 * at scsi_version=2), or 0: not reported, or a disk that does not spin.
 */
static u_int32_t
sd_rpm(struct sd_softc *sc, u_int8_t *buf)
{
	struct scsi_xfer xs;
	u_int32_t rpm;

	memset(buf, 0, SD_MODELEN);
	sd_xsinit(sc, &xs, INQUIRY, 6, buf, SD_MODELEN);
	xs.xs_cdb[1] = INQ_EVPD;
	xs.xs_cdb[2] = VPD_BLOCK_CHARACTERISTICS;
	xs.xs_cdb[4] = SD_MODELEN;
	if (sd_cmd(sc, &xs) != 0 || SD_MODELEN - xs.xs_resid < 6 ||
	    buf[1] != VPD_BLOCK_CHARACTERISTICS)
		return 0;
	rpm = _BE16(buf + 4);
	return rpm >= 0x401 && rpm < 0xffff ? rpm : 0;
}

/*
 * A disk the adapter found.  Failures leave the disk unattached with a
 * message; nothing here panics on what a disk says.
 */
void
sdattach(void *hba, int bus, int target, int lun, const u_int8_t *inq)
{
	struct sd_softc *sc;
	struct scsi_xfer xs;
	u_int8_t *buf, *p;
	const char *why;

	if (nsd == SD_MAXUNITS) {
		printf("scsibus%d target %d: more than %d disks; "
		    "not attached\n", bus, target, SD_MAXUNITS);
		return;
	}
	sc = malloc(sizeof(*sc), M_WAITOK | M_ZERO);
	buf = malloc(SD_MODELEN, M_WAITOK | M_ZERO);
	sc->sc_unit = nsd;
	snprintf(sc->sc_name, sizeof(sc->sc_name), "sd%d", sc->sc_unit);
	sc->sc_hba = hba;
	sc->sc_target = target;
	sc->sc_lun = lun;
	sd_inqstr(sc->sc_vendor, inq + INQ_VENDOR, 8);
	sd_inqstr(sc->sc_product, inq + INQ_PRODUCT, 16);
	bufq_init(&sc->sc_q);
	disk_attach(&sc->sc_dk, sc->sc_name, sc->sc_unit);
	printf("%s at scsibus%d target %d: <%s%s%s> ", sc->sc_name, bus,
	    target, sc->sc_vendor, sc->sc_vendor[0] ? " " : "",
	    sc->sc_product);

	/* sd_cmd retries through the power-on UNIT ATTENTION. */
	sd_xsinit(sc, &xs, TEST_UNIT_READY, 6, NULL, 0);
	why = "not ready";
	if (sd_cmd(sc, &xs) != 0)
		goto fail;
	sd_xsinit(sc, &xs, READ_CAPACITY_10, 10, buf, 8);
	why = "READ CAPACITY failed";
	if (sd_cmd(sc, &xs) != 0 || xs.xs_resid != 0)
		goto fail;
	sc->sc_nsectors = _BE32(buf) + 1;	/* it returns the last LBA */
	why = "sectors are not 512 bytes";
	if (_BE32(buf + 4) != DEV_BSIZE)
		goto fail;

	if ((p = sd_modepage(sc, PAGE_RIGID_GEOMETRY, buf)) != NULL) {
		sc->sc_cyls = _BE24(p + 2);
		sc->sc_heads = p[5];
	}
	if ((p = sd_modepage(sc, PAGE_FLEX_GEOMETRY, buf)) != NULL)
		sc->sc_secs = p[5];
	sc->sc_rpm = sd_rpm(sc, buf);
	printf("%uMB", sc->sc_nsectors / (1024 * 1024 / DEV_BSIZE));
	if (sc->sc_cyls && sc->sc_heads && sc->sc_secs)
		printf(", %u cyl, %u head, %u sec", sc->sc_cyls,
		    sc->sc_heads, sc->sc_secs);
	else
		printf(", %u sectors, geometry unknown", sc->sc_nsectors);
	if (sc->sc_rpm)
		printf(", %u rpm", sc->sc_rpm);
	printf("\n");
	free(buf);
	sc->sc_dk.dk_stats->ds_nsectors = sc->sc_nsectors;
	sd_units[nsd++] = sc;
	sd_readlabel(sc, 1);
	return;

fail:
	printf("%s; not attached\n", why);
	free(buf);
	disk_detach(&sc->sc_dk);
	free(sc);
}

/*
 * Read the label from the disk, or make up the default.  A label without
 * a 'c' gets one (the whole disk), so the raw device always exists.
 */
static void
sd_readlabel(struct sd_softc *sc, int verbose)
{
	struct scsi_xfer xs;
	struct disklabel *lp;
	const char *why;
	u_int8_t *buf;

	buf = malloc(DEV_BSIZE, M_WAITOK | M_ZERO);
	sd_xsinit(sc, &xs, READ_10, 10, buf, DEV_BSIZE);
	_PUT_BE32(&xs.xs_cdb[2], LABELSECTOR);
	_PUT_BE16(&xs.xs_cdb[7], 1);
	lp = (struct disklabel *)(buf + LABELOFFSET);
	if (sd_cmd(sc, &xs) != 0)
		why = "cannot read disk label";
	else
		why = disklabel_check(lp, sc->sc_nsectors);
	if (why == NULL) {
		if (lp->d_npartitions <= RAW_PART) {
			lp->d_partitions[RAW_PART].p_offset = 0;
			lp->d_partitions[RAW_PART].p_size = sc->sc_nsectors;
			lp->d_npartitions = RAW_PART + 1;
			lp->d_checksum = 0;
			lp->d_checksum = dkcksum(lp);
		}
		memcpy(&sc->sc_label, lp, sizeof(*lp));
	} else {
		if (verbose)
			printf("%s: %s; 'a' and 'c' are the whole disk\n",
			    sc->sc_name, why);
		disklabel_default(&sc->sc_label, sc->sc_product,
		    sc->sc_nsectors, sc->sc_cyls, sc->sc_heads, sc->sc_secs,
		    sc->sc_rpm);
	}
	free(buf);
}

int
sdopen(dev_t dev, int flags, int fmt)
{
	struct sd_softc *sc = sd_lookup(SDUNIT(dev));
	int part = SDPART(dev);

	if (sc == NULL)
		return ENXIO;
	/* Nothing open: someone may have written a new label meanwhile. */
	if (sc->sc_bopen == 0 && sc->sc_copen == 0)
		sd_readlabel(sc, 0);
	if (part >= sc->sc_label.d_npartitions ||
	    sc->sc_label.d_partitions[part].p_size == 0)
		return ENXIO;
	if (fmt == S_IFCHR)
		sc->sc_copen |= 1 << part;
	else
		sc->sc_bopen |= 1 << part;
	return 0;
}

/* SYNCHRONIZE CACHE(10), whole disk; a drive without it is no error. */
static int
sd_synccache(struct sd_softc *sc)
{
	struct scsi_xfer xs;
	int error;

	sd_xsinit(sc, &xs, SYNCHRONIZE_CACHE_10, 10, NULL, 0);
	error = sd_cmd(sc, &xs);
	if (error && xs.xs_error == XS_SENSE && xs.xs_senselen > 2 &&
	    SENSE_KEY(xs.xs_sense) == SKEY_ILLEGAL_REQUEST)
		error = 0;
	if (error)
		printf("%s: SYNCHRONIZE CACHE failed\n", sc->sc_name);
	return error;
}

int
sdclose(dev_t dev, int flags, int fmt)
{
	struct sd_softc *sc = sd_lookup(SDUNIT(dev));
	int part = SDPART(dev);

	if (sc == NULL)
		return ENXIO;
	if (fmt == S_IFCHR)
		sc->sc_copen &= ~(1 << part);
	else
		sc->sc_bopen &= ~(1 << part);
	if (sc->sc_bopen == 0 && sc->sc_copen == 0)
		return sd_synccache(sc);
	return 0;
}

void
sdsync_all(void)
{
	int unit;

	for (unit = 0; unit < nsd; unit++)
		sd_synccache(sd_units[unit]);
}

/*
 * Check bp against its partition and queue it.  A transfer that starts
 * at the end of the partition is EOF (b_resid = b_bcount, no error); one
 * that runs past the end is cut short there (b_resid says by how much);
 * one that starts beyond it is EINVAL.
 */
void
sdstrategy(struct buf *bp)
{
	struct sd_softc *sc = sd_lookup(SDUNIT(bp->b_dev));
	int part = SDPART(bp->b_dev), s;
	struct partition *pp;
	u_int64_t end;

	bp->b_resid = 0;
	if (sc == NULL || part >= sc->sc_label.d_npartitions) {
		bp->b_error = ENXIO;
		goto bad;
	}
	pp = &sc->sc_label.d_partitions[part];
	if (bp->b_blkno < 0 || bp->b_bcount % DEV_BSIZE != 0) {
		bp->b_error = EINVAL;
		goto bad;
	}
	KASSERT(bp->b_bcount <= MAXPHYS);
	end = (u_int64_t)bp->b_blkno + (bp->b_bcount >> DEV_BSHIFT);
	if (end > pp->p_size) {
		if ((u_int32_t)bp->b_blkno == pp->p_size) {
			bp->b_resid = bp->b_bcount;	/* EOF */
			biodone(bp);
			return;
		}
		if ((u_int32_t)bp->b_blkno > pp->p_size) {
			bp->b_error = EINVAL;
			goto bad;
		}
		bp->b_resid = (end - pp->p_size) << DEV_BSHIFT;
	}
	if (bp->b_bcount == 0) {
		biodone(bp);
		return;
	}
	bp->b_pblkno = bp->b_blkno + pp->p_offset;

	s = splbio();
	disksort(&sc->sc_q, bp);
	sdstart(sc);
	splx(s);
	return;

bad:
	bp->b_flags |= B_ERROR;
	bp->b_resid = bp->b_bcount;
	biodone(bp);
}

/* Send READ(10) or WRITE(10) for sc_bp: b_bcount less any cut-off tail. */
static void
sd_issue(struct sd_softc *sc)
{
	struct buf *bp = sc->sc_bp;
	struct scsi_xfer *xs = &sc->sc_xs;
	int nbytes = bp->b_bcount - bp->b_resid;

	sd_xsinit(sc, xs, (bp->b_flags & B_READ) ? READ_10 : WRITE_10, 10,
	    bp->b_data, nbytes);
	_PUT_BE32(&xs->xs_cdb[2], (u_int32_t)bp->b_pblkno);
	_PUT_BE16(&xs->xs_cdb[7], nbytes >> DEV_BSHIFT);
	if (!(bp->b_flags & B_READ))
		xs->xs_flags = XS_DATA_OUT;
	xs->xs_done = sddone;
	xs->xs_private = sc;
	if (vioscsi_cmd(xs) != 0) {
		xs->xs_error = XS_DRIVER_STUFFUP;
		xs->xs_flags |= XS_DONE;
		sddone(xs);
	}
}

/*
 * If the unit is idle, start the next request: one at a time.  While
 * cold the command completes inside sd_issue, and sddone's call back
 * into here returns at once; the loop then starts the next.
 */
static void
sdstart(struct sd_softc *sc)
{
	struct buf *bp;

	if (sc->sc_instart)
		return;
	sc->sc_instart = 1;
	while (!sc->sc_busy && (bp = bufq_first(&sc->sc_q)) != NULL) {
		bufq_remove(&sc->sc_q, bp);
		sc->sc_bp = bp;
		sc->sc_retries = 0;
		sd_busy(sc);
		bp->b_start_us = sc->sc_dk.dk_stamp;
		sd_issue(sc);
	}
	sc->sc_instart = 0;
	if (!sc->sc_busy && sc->sc_wanted) {
		sc->sc_wanted = 0;
		wakeup(&sc->sc_wanted);
	}
}

static const char *const sense_keys[16] = {
	"NO SENSE", "RECOVERED ERROR", "NOT READY", "MEDIUM ERROR",
	"HARDWARE ERROR", "ILLEGAL REQUEST", "UNIT ATTENTION", "DATA PROTECT",
	"BLANK CHECK", "VENDOR SPECIFIC", "COPY ABORTED", "ABORTED COMMAND",
	"EQUAL", "VOLUME OVERFLOW", "MISCOMPARE", "RESERVED",
};

static const char *const xs_errors[] = {
	"no error", "check condition", "busy", "selection timeout",
	"timeout", "bus reset", "adapter failure",
};

/* One line per failed I/O, as 4.4BSD's diskerr. */
static void
sd_printerr(struct sd_softc *sc, struct buf *bp, struct scsi_xfer *xs)
{
	printf("%s%c: %s error, sector %d: ", sc->sc_name,
	    'a' + SDPART(bp->b_dev), (bp->b_flags & B_READ) ? "read" : "write",
	    bp->b_pblkno);
	if (xs->xs_error == XS_SENSE && xs->xs_senselen > 13)
		printf("%s, asc 0x%02x ascq 0x%02x\n",
		    sense_keys[SENSE_KEY(xs->xs_sense)],
		    SENSE_ASC(xs->xs_sense), SENSE_ASCQ(xs->xs_sense));
	else if (xs->xs_error == XS_NOERROR)
		printf("status 0x%02x\n", xs->xs_status);
	else if (xs->xs_error < (int)nitems(xs_errors))
		printf("%s\n", xs_errors[xs->xs_error]);
	else
		printf("error %d\n", xs->xs_error);
}

/* The command for sc_bp is over (interrupt, or inside sd_issue if cold). */
static void
sddone(struct scsi_xfer *xs)
{
	struct sd_softc *sc = xs->xs_private;
	struct buf *bp = sc->sc_bp;
	int error, nbytes;

	error = sd_interpret(xs);
	if (error && sd_retryable(xs) && sc->sc_retries++ < SD_RETRIES) {
		sd_issue(sc);
		return;
	}
	sc->sc_bp = NULL;
	if (error) {
		sd_printerr(sc, bp, xs);
		bp->b_flags |= B_ERROR;
		bp->b_error = error;
		bp->b_resid = bp->b_bcount;
		nbytes = 0;
	} else {
		bp->b_resid += xs->xs_resid;
		nbytes = bp->b_bcount - bp->b_resid;
	}
	sd_unbusy(sc, bp, nbytes, error);
	biodone(bp);
	sdstart(sc);
}

int
sdioctl(dev_t dev, u_long cmd, caddr_t data, int flags)
{
	struct sd_softc *sc = sd_lookup(SDUNIT(dev));

	if (sc == NULL)
		return ENXIO;
	switch (cmd) {
	case DIOCGDINFO:
		memcpy(data, &sc->sc_label, sizeof(struct disklabel));
		return 0;
	default:
		return ENOTTY;
	}
}

long
sdpsize(dev_t dev)
{
	struct sd_softc *sc = sd_lookup(SDUNIT(dev));
	int part = SDPART(dev);

	if (sc == NULL || part >= sc->sc_label.d_npartitions)
		return -1;
	return sc->sc_label.d_partitions[part].p_size;
}

int
sdread(dev_t dev, struct uio *uio, int ioflag)
{
	return physio(sdstrategy, dev, B_READ, uio);
}

int
sdwrite(dev_t dev, struct uio *uio, int ioflag)
{
	return physio(sdstrategy, dev, B_WRITE, uio);
}
