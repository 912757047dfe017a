/*
 * SCSI-2 as the sd driver speaks it, and the one structure it shares with
 * a host adapter: struct scsi_xfer, a single command in flight.
 *
 * Protocol (the adapter side is vioscsi_cmd):
 *   the caller fills in xs_hba, xs_target, xs_lun, the CDB, the data
 *   buffer (kernel virtual and physically contiguous: buffer-cache and
 *   malloc memory are), its length, direction flags and xs_done;
 *   the adapter runs the command and, exactly once, fills in the result
 *   (xs_error, xs_status, xs_sense, xs_resid), sets XS_DONE and calls
 *   xs_done.  While `cold' that happens before vioscsi_cmd returns;
 *   otherwise from the adapter's interrupt handler.
 * The CDB layouts are in the SCSI-2 standard (X3.131-1994); the helper
 * macros below store its big-endian fields.
 */
#ifndef _DEV_SCSI_H_
#define _DEV_SCSI_H_

#include <sys/types.h>

/* operation codes (SCSI-2 section 8 and 9) */
#define TEST_UNIT_READY		0x00
#define REQUEST_SENSE		0x03
#define INQUIRY			0x12
#define MODE_SENSE_6		0x1a
#define READ_CAPACITY_10	0x25
#define READ_10			0x28
#define WRITE_10		0x2a
#define SYNCHRONIZE_CACHE_10	0x35

/* status byte */
#define SCSI_GOOD		0x00
#define SCSI_CHECK		0x02	/* CHECK CONDITION: sense data valid */
#define SCSI_BUSY		0x08
#define SCSI_RESV_CONFLICT	0x18

/* sense keys (fixed-format sense data, byte 2 bits 0-3) */
#define SKEY_NO_SENSE		0x0
#define SKEY_RECOVERED_ERROR	0x1
#define SKEY_NOT_READY		0x2
#define SKEY_MEDIUM_ERROR	0x3
#define SKEY_HARDWARE_ERROR	0x4
#define SKEY_ILLEGAL_REQUEST	0x5
#define SKEY_UNIT_ATTENTION	0x6
#define SKEY_DATA_PROTECT	0x7
#define SKEY_BLANK_CHECK	0x8
#define SKEY_VENDOR_SPECIFIC	0x9
#define SKEY_COPY_ABORTED	0xa
#define SKEY_ABORTED_COMMAND	0xb
#define SKEY_EQUAL		0xc
#define SKEY_VOLUME_OVERFLOW	0xd
#define SKEY_MISCOMPARE		0xe

#define SENSE_KEY(s)		((s)[2] & 0x0f)
#define SENSE_ASC(s)		((s)[12])
#define SENSE_ASCQ(s)		((s)[13])

/* INQUIRY data (36 bytes are standard) */
#define INQUIRY_LEN		36
#define INQ_QUALIFIER(b)	((b)[0] >> 5)	/* 3: no device here */
#define INQ_TYPE(b)		((b)[0] & 0x1f)
#define T_DIRECT		0x00		/* a disk */
#define T_NODEVICE		0x1f
#define INQ_VENDOR		8		/* 8 bytes, space padded */
#define INQ_PRODUCT		16		/* 16 bytes */
#define INQ_REVISION		32		/* 4 bytes */
#define INQ_EVPD		0x01		/* CDB byte 1: a VPD page */
#define VPD_BLOCK_CHARACTERISTICS 0xb1		/* bytes 4-5: rpm (SPC-3) */

/* MODE SENSE(6) */
#define MS_DBD			0x08		/* byte 1: no block descriptors */
#define MS_HDRLEN		4		/* mode parameter header */
#define PAGE_RIGID_GEOMETRY	0x04		/* cylinders, heads */
#define PAGE_FLEX_GEOMETRY	0x05		/* heads, sectors per track */

/* big-endian fields of CDBs and returned data */
#define _BE16(p)	(((u_int32_t)(p)[0] << 8) | (p)[1])
#define _BE24(p)	(((u_int32_t)(p)[0] << 16) | _BE16((p) + 1))
#define _BE32(p)	(((u_int32_t)(p)[0] << 24) | _BE24((p) + 1))
#define _PUT_BE16(p, v)	((p)[0] = (u_int8_t)((v) >> 8), (p)[1] = (u_int8_t)(v))
#define _PUT_BE32(p, v)	(_PUT_BE16((p), (v) >> 16), _PUT_BE16((p) + 2, (v)))

#define SCSI_MAXCDB	16
#define SCSI_SENSELEN	32		/* fixed-format sense, enough */

struct scsi_xfer {
	/* filled in by the caller */
	void	*xs_hba;		/* host adapter softc, from attach */
	int	xs_target;
	int	xs_lun;
	u_int8_t xs_cdb[SCSI_MAXCDB];
	int	xs_cdblen;
	void	*xs_data;		/* kernel virtual, contiguous */
	int	xs_datalen;
	int	xs_flags;		/* XS_* below */
	int	xs_timeout;		/* ms, while cold (0: the default) */
	void	(*xs_done)(struct scsi_xfer *);
	void	*xs_private;		/* for xs_done */

	/* filled in by the adapter */
	int	xs_error;		/* XS_NOERROR etc. below */
	u_int8_t xs_status;		/* SCSI status byte */
	u_int8_t xs_sense[SCSI_SENSELEN];
	int	xs_senselen;
	int	xs_resid;		/* data bytes not transferred */
};

/* xs_flags */
#define XS_DATA_IN	0x01		/* device to memory */
#define XS_DATA_OUT	0x02		/* memory to device */
#define XS_DONE		0x04		/* set by the adapter at completion */

/* xs_error: what became of the command, before looking at the status */
#define XS_NOERROR	0		/* completed: see xs_status */
#define XS_SENSE	1		/* CHECK CONDITION, xs_sense valid */
#define XS_BUSY		2		/* target or adapter busy: retry */
#define XS_SELTIMEOUT	3		/* no such target or LUN */
#define XS_TIMEOUT	4		/* no answer in time (polled) */
#define XS_RESET	5		/* aborted by a bus reset: retry */
#define XS_DRIVER_STUFFUP 6		/* adapter or transport failure */

#endif
