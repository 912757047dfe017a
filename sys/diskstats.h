/*
 * Per-disk counters (thesis 7.2), as the diskstats(2) system call
 * (SYS_diskstats) copies them out:
 *
 *	int diskstats(int unit, struct diskstats *buf, int reset);
 *
 * copies unit's counters to buf (if not NULL), then zeroes them if reset
 * is non-zero; ENXIO for a unit that does not exist.
 *
 * An I/O is a READ or WRITE command for one buffer; it is synchronous
 * when the buffer lacks B_ASYNC (someone waits for it).  The disk is
 * busy while a command is outstanding (one at a time per disk), idle
 * otherwise, so ds_busy_us + ds_idle_us = ds_now_us - ds_since_us.
 * Times are microseconds since boot.  ds_log is a ring of the last
 * DISKSTATS_NLOG I/Os: the next one goes to ds_log[ds_lognext], and the
 * ds_logcount most recent (at most DISKSTATS_NLOG) end just before it.
 *
 * The layout is the same for the i386 guest and a 64-bit host tool: only
 * fixed-size types, every 64-bit field on an 8-byte offset.
 */
#ifndef _SYS_DISKSTATS_H_
#define _SYS_DISKSTATS_H_

#include <sys/types.h>

#define DISKSTATS_VERSION	1
#define DISKSTATS_NLOG		1000
#define DISKSTATS_NAMELEN	16

struct diskstats_io {
	u_int64_t io_begin_us;		/* command sent to the disk */
	u_int64_t io_end_us;		/* command completed */
	u_int32_t io_sector;		/* first sector, from disk start */
	u_int32_t io_bytes;		/* bytes transferred */
	u_int32_t io_flags;		/* DSIO_* below */
	u_int32_t io_pad;
};

#define DSIO_READ	0x1		/* else a write */
#define DSIO_SYNC	0x2		/* synchronous */
#define DSIO_ERROR	0x4		/* failed */

struct diskstats {
	u_int32_t ds_version;		/* DISKSTATS_VERSION */
	u_int32_t ds_unit;
	char	  ds_name[DISKSTATS_NAMELEN];	/* "sd1" */
	u_int64_t ds_nsectors;		/* disk size, DEV_BSIZE sectors */
	u_int64_t ds_reads;		/* READ commands */
	u_int64_t ds_writes;		/* WRITE commands */
	u_int64_t ds_syncreads;		/* of which synchronous */
	u_int64_t ds_syncwrites;
	u_int64_t ds_rsectors;		/* sectors read */
	u_int64_t ds_wsectors;		/* sectors written */
	u_int64_t ds_busy_us;		/* a command outstanding */
	u_int64_t ds_idle_us;		/* none */
	u_int64_t ds_since_us;		/* counters started: boot or reset */
	u_int64_t ds_now_us;		/* this snapshot was taken */
	u_int32_t ds_lognext;		/* next slot of ds_log */
	u_int32_t ds_logcount;		/* valid entries */
	struct diskstats_io ds_log[DISKSTATS_NLOG];
};

#endif
