/*
 * Virtio over PCI, the legacy (virtio 0.9.5) interface: a device is a
 * block of registers in I/O BAR0 plus virtqueues in guest memory.
 * QEMU's "transitional" virtio-pci devices still offer it.
 */
#ifndef _DEV_VIRTIO_H_
#define _DEV_VIRTIO_H_

#include <sys/types.h>

/* legacy registers, offsets in I/O BAR0 */
#define VIRTIO_PCI_HOST_FEATURES	0x00	/* 32: device offers */
#define VIRTIO_PCI_GUEST_FEATURES	0x04	/* 32: driver accepts */
#define VIRTIO_PCI_QUEUE_PFN		0x08	/* 32: ring address >> 12 */
#define VIRTIO_PCI_QUEUE_NUM		0x0c	/* 16: ring size */
#define VIRTIO_PCI_QUEUE_SEL		0x0e	/* 16: which queue */
#define VIRTIO_PCI_QUEUE_NOTIFY		0x10	/* 16: "look at queue n" */
#define VIRTIO_PCI_STATUS		0x12	/* 8 */
#define VIRTIO_PCI_ISR			0x13	/* 8: read acknowledges */
#define VIRTIO_PCI_CONFIG		0x14	/* device config (no MSI-X) */

/* device status bits */
#define VIRTIO_STATUS_ACK		0x01	/* we found the device */
#define VIRTIO_STATUS_DRIVER		0x02	/* we can drive it */
#define VIRTIO_STATUS_DRIVER_OK		0x04	/* ready: queues are live */
#define VIRTIO_STATUS_FAILED		0x80	/* we gave up on it */

#define VIRTIO_ISR_QUEUE		0x01	/* a used ring advanced */
#define VIRTIO_ISR_CONFIG		0x02	/* device config changed */

/* The ring structures, laid out as the device reads them. */
struct vring_desc {
	u_int64_t addr;			/* physical */
	u_int32_t len;
	u_int16_t flags;
	u_int16_t next;
};
#define VRING_DESC_F_NEXT	1	/* chain continues at next */
#define VRING_DESC_F_WRITE	2	/* device writes this buffer */

struct vring_avail {
	u_int16_t flags;
	u_int16_t idx;			/* where the driver puts the next */
	u_int16_t ring[];
};

struct vring_used_elem {
	u_int32_t id;			/* head of the finished chain */
	u_int32_t len;			/* bytes the device wrote */
};

struct vring_used {
	u_int16_t flags;
	u_int16_t idx;			/* where the device puts the next */
	struct vring_used_elem ring[];
};

#define VIRTIO_VRING_ALIGN	4096	/* legacy: used ring on a new page */

struct virtio_softc {
	int	sc_iobase;		/* I/O BAR0 */
	u_int32_t sc_features;		/* negotiated */
};

/*
 * A virtqueue: the three rings in one physically contiguous page-aligned
 * allocation, a free list of descriptors threaded through their next
 * fields, and a cookie per chain head that virtq_dequeue gives back.
 */
struct virtqueue {
	struct virtio_softc *vq_vsc;
	int	vq_index;
	int	vq_num;			/* ring size (a power of 2) */
	volatile struct vring_desc *vq_desc;
	volatile struct vring_avail *vq_avail;
	volatile struct vring_used *vq_used;
	u_int16_t vq_free;		/* first free descriptor */
	int	vq_nfree;
	u_int16_t vq_used_seen;		/* used idx we have consumed up to */
	void	**vq_cookie;		/* per head descriptor */
	void	*vq_mem;
	int	vq_npages;
};

/* a piece of a request: kernel virtual, physically contiguous */
struct virtq_seg {
	void	*vs_addr;
	u_int32_t vs_len;
};

int	virtio_init(struct virtio_softc *, int iobase, u_int32_t features);
void	virtio_driver_ok(struct virtio_softc *);
void	virtio_fail(struct virtio_softc *);
int	virtio_isr(struct virtio_softc *);
u_int8_t virtio_config_read1(struct virtio_softc *, int off);
u_int16_t virtio_config_read2(struct virtio_softc *, int off);
u_int32_t virtio_config_read4(struct virtio_softc *, int off);
void	virtio_config_write4(struct virtio_softc *, int off, u_int32_t v);

int	virtq_alloc(struct virtio_softc *, struct virtqueue *, int index);
int	virtq_enqueue(struct virtqueue *, const struct virtq_seg *segs,
	    int nread, int nwrite, void *cookie);
void	virtq_notify(struct virtqueue *);
void	*virtq_dequeue(struct virtqueue *, u_int32_t *lenp);

#endif
