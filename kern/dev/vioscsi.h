/*
 * The virtio SCSI host adapter (virtio spec 1.1 section 5.6): its
 * configuration space and the request and response a command travels in.
 * The legacy interface uses the guest's (little-endian) byte order.
 */
#ifndef _DEV_VIOSCSI_H_
#define _DEV_VIOSCSI_H_

#include <sys/types.h>

/* device configuration, offsets from VIRTIO_PCI_CONFIG */
#define VIRTIO_SCSI_CONFIG_NUM_QUEUES	0	/* 32: request queues */
#define VIRTIO_SCSI_CONFIG_SEG_MAX	4	/* 32 */
#define VIRTIO_SCSI_CONFIG_MAX_SECTORS	8	/* 32 */
#define VIRTIO_SCSI_CONFIG_CMD_PER_LUN	12	/* 32 */
#define VIRTIO_SCSI_CONFIG_EVENT_SIZE	16	/* 32 */
#define VIRTIO_SCSI_CONFIG_SENSE_SIZE	20	/* 32: read-write */
#define VIRTIO_SCSI_CONFIG_CDB_SIZE	24	/* 32: read-write */
#define VIRTIO_SCSI_CONFIG_MAX_CHANNEL	28	/* 16 */
#define VIRTIO_SCSI_CONFIG_MAX_TARGET	30	/* 16 */
#define VIRTIO_SCSI_CONFIG_MAX_LUN	32	/* 32 */

/* queues: 0 control (task management), 1 events, 2.. requests */
#define VIOSCSI_CONTROLQ	0
#define VIOSCSI_EVENTQ		1
#define VIOSCSI_REQUESTQ	2

#define VIRTIO_SCSI_CDB_SIZE	32	/* the defaults, which we require */
#define VIRTIO_SCSI_SENSE_SIZE	96

/*
 * Request header, device-readable, followed by data-out.  Only
 * offsetof(cdb) + cdb_size bytes are sent: the device finds the data
 * right after that many.
 */
struct virtio_scsi_cmd_req {
	u_int8_t  lun[8];		/* 1, target, 0x40 | lun >> 8, lun */
	u_int64_t tag;			/* our id for the command */
	u_int8_t  task_attr;		/* VIRTIO_SCSI_S_SIMPLE */
	u_int8_t  prio;
	u_int8_t  crn;
	u_int8_t  cdb[VIRTIO_SCSI_CDB_SIZE];
} __attribute__((packed));

/* Response, device-writable, followed by data-in; also cut at sense_size. */
struct virtio_scsi_cmd_resp {
	u_int32_t sense_len;		/* valid bytes of sense */
	u_int32_t resid;		/* data bytes not transferred */
	u_int16_t status_qualifier;
	u_int8_t  status;		/* SCSI status byte */
	u_int8_t  response;		/* VIRTIO_SCSI_S_* below */
	u_int8_t  sense[VIRTIO_SCSI_SENSE_SIZE];
} __attribute__((packed));

#define VIRTIO_SCSI_S_SIMPLE		0	/* task attribute */

/* response: did the command reach a logical unit and run? */
#define VIRTIO_SCSI_S_OK		0
#define VIRTIO_SCSI_S_OVERRUN		1
#define VIRTIO_SCSI_S_ABORTED		2
#define VIRTIO_SCSI_S_BAD_TARGET	3	/* no such target */
#define VIRTIO_SCSI_S_RESET		4
#define VIRTIO_SCSI_S_BUSY		5
#define VIRTIO_SCSI_S_TRANSPORT_FAILURE	6
#define VIRTIO_SCSI_S_TARGET_FAILURE	7
#define VIRTIO_SCSI_S_NEXUS_FAILURE	8
#define VIRTIO_SCSI_S_FAILURE		9
#define VIRTIO_SCSI_S_INCORRECT_LUN	12	/* target without that LUN */

struct pci_attach_args;
struct scsi_xfer;

void	vioscsi_attach(struct pci_attach_args *);
int	vioscsi_cmd(struct scsi_xfer *);

#endif
