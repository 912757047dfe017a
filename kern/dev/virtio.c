/*
 * Virtio, legacy PCI interface (virtio spec 0.9.5 / 1.x section 4.1.4.8
 * "Legacy Interfaces"), generic over devices.
 *
 * Device bring-up, in the order the spec requires:
 *   reset (status 0), ACKNOWLEDGE, DRIVER, feature negotiation (we accept
 *   only what the driver asks for and the device offers), one virtq_alloc
 *   per queue, then DRIVER_OK.  Legacy devices have no FEATURES_OK step.
 * A virtqueue is three rings in guest memory, legacy layout:
 *   descriptors (16 bytes each), then the available ring (driver to
 *   device), then, on the next 4 KB boundary, the used ring (device to
 *   driver); the device learns where they are from one page frame number.
 * Sending a request: take descriptors off the free list, chain them
 *   (device-readable segments first, then device-writable ones), put the
 *   head in avail->ring, advance avail->idx, then notify.  The device
 *   puts the head in used->ring when done; virtq_dequeue returns the
 *   chain's cookie and puts the descriptors back on the free list.
 * Callers serialize with splbio(): the interrupt handler dequeues.
 */
#include "kern/systm.h"
#include "kern/malloc.h"
#include "kern/i386/cpu.h"
#include "kern/dev/virtio.h"

/*
 * x86 keeps stores in order, so a compiler barrier would do; a locked
 * instruction makes the order explicit for a reader of the protocol.
 */
#define virtio_membar()	__asm volatile("lock; addl $0,(%%esp)" ::: "memory")

int
virtio_init(struct virtio_softc *vsc, int iobase, u_int32_t features)
{
	vsc->sc_iobase = iobase;
	outb(iobase + VIRTIO_PCI_STATUS, 0);		/* reset */
	if (inb(iobase + VIRTIO_PCI_STATUS) != 0)
		return ENXIO;
	outb(iobase + VIRTIO_PCI_STATUS, VIRTIO_STATUS_ACK);
	outb(iobase + VIRTIO_PCI_STATUS,
	    VIRTIO_STATUS_ACK | VIRTIO_STATUS_DRIVER);
	vsc->sc_features = inl(iobase + VIRTIO_PCI_HOST_FEATURES) & features;
	outl(iobase + VIRTIO_PCI_GUEST_FEATURES, vsc->sc_features);
	return 0;
}

void
virtio_driver_ok(struct virtio_softc *vsc)
{
	outb(vsc->sc_iobase + VIRTIO_PCI_STATUS, VIRTIO_STATUS_ACK |
	    VIRTIO_STATUS_DRIVER | VIRTIO_STATUS_DRIVER_OK);
}

void
virtio_fail(struct virtio_softc *vsc)
{
	outb(vsc->sc_iobase + VIRTIO_PCI_STATUS, VIRTIO_STATUS_FAILED);
}

/* Reading the ISR register also lowers the interrupt line. */
int
virtio_isr(struct virtio_softc *vsc)
{
	return inb(vsc->sc_iobase + VIRTIO_PCI_ISR);
}

u_int8_t
virtio_config_read1(struct virtio_softc *vsc, int off)
{
	return inb(vsc->sc_iobase + VIRTIO_PCI_CONFIG + off);
}

u_int16_t
virtio_config_read2(struct virtio_softc *vsc, int off)
{
	return inw(vsc->sc_iobase + VIRTIO_PCI_CONFIG + off);
}

u_int32_t
virtio_config_read4(struct virtio_softc *vsc, int off)
{
	return inl(vsc->sc_iobase + VIRTIO_PCI_CONFIG + off);
}

void
virtio_config_write4(struct virtio_softc *vsc, int off, u_int32_t v)
{
	outl(vsc->sc_iobase + VIRTIO_PCI_CONFIG + off, v);
}

/* Bytes of the legacy ring layout for a queue of num entries. */
static u_int32_t
vring_size(int num)
{
	u_int32_t s;

	s = sizeof(struct vring_desc) * num +
	    sizeof(u_int16_t) * (3 + num);		/* avail + used_event */
	s = roundup(s, VIRTIO_VRING_ALIGN);
	s += sizeof(u_int16_t) * 3 + sizeof(struct vring_used_elem) * num;
	return round_page(s);
}

/*
 * Set up queue `index': the device says how big it is (0: no such
 * queue); we allocate the rings and tell it their page frame number.
 */
int
virtq_alloc(struct virtio_softc *vsc, struct virtqueue *vq, int index)
{
	int io = vsc->sc_iobase, num, i;
	char *mem;

	outw(io + VIRTIO_PCI_QUEUE_SEL, index);
	num = inw(io + VIRTIO_PCI_QUEUE_NUM);
	if (num == 0 || (num & (num - 1)) != 0)
		return ENXIO;
	if (inl(io + VIRTIO_PCI_QUEUE_PFN) != 0)
		return EBUSY;				/* not reset? */

	memset(vq, 0, sizeof(*vq));
	vq->vq_vsc = vsc;
	vq->vq_index = index;
	vq->vq_num = num;
	vq->vq_npages = vring_size(num) / PAGE_SIZE;
	mem = page_alloc(vq->vq_npages, M_WAITOK | M_ZERO);
	if (mem == NULL)
		return ENOMEM;
	vq->vq_mem = mem;
	vq->vq_desc = (struct vring_desc *)mem;
	vq->vq_avail = (struct vring_avail *)(mem +
	    sizeof(struct vring_desc) * num);
	vq->vq_used = (struct vring_used *)(mem +
	    roundup(sizeof(struct vring_desc) * num +
	    sizeof(u_int16_t) * (3 + num), VIRTIO_VRING_ALIGN));
	vq->vq_cookie = malloc(sizeof(void *) * num, M_WAITOK | M_ZERO);

	/* All descriptors start on the free list, in order. */
	for (i = 0; i < num - 1; i++)
		vq->vq_desc[i].next = i + 1;
	vq->vq_free = 0;
	vq->vq_nfree = num;
	vq->vq_used_seen = 0;

	outl(io + VIRTIO_PCI_QUEUE_PFN, V2P(mem) >> PAGE_SHIFT);
	return 0;
}

/*
 * Queue one request: nread device-readable segments, then nwrite
 * device-writable ones, as one descriptor chain.  ENOMEM if the ring is
 * full (the caller keeps fewer requests in flight than that).  The
 * request is not seen by the device until virtq_notify.
 */
int
virtq_enqueue(struct virtqueue *vq, const struct virtq_seg *segs,
    int nread, int nwrite, void *cookie)
{
	int n = nread + nwrite, i;
	u_int16_t head, d, avail;

	KASSERT(n > 0 && cookie != NULL);
	if (n > vq->vq_nfree)
		return ENOMEM;
	head = d = vq->vq_free;
	for (i = 0; i < n; i++) {
		volatile struct vring_desc *dp = &vq->vq_desc[d];

		dp->addr = V2P(segs[i].vs_addr);
		dp->len = segs[i].vs_len;
		dp->flags = (i >= nread ? VRING_DESC_F_WRITE : 0) |
		    (i < n - 1 ? VRING_DESC_F_NEXT : 0);
		if (i < n - 1)
			d = dp->next;
		else
			vq->vq_free = dp->next;
	}
	vq->vq_nfree -= n;
	vq->vq_cookie[head] = cookie;

	avail = vq->vq_avail->idx;
	vq->vq_avail->ring[avail & (vq->vq_num - 1)] = head;
	virtio_membar();		/* the entry before the index */
	vq->vq_avail->idx = avail + 1;
	return 0;
}

void
virtq_notify(struct virtqueue *vq)
{
	virtio_membar();		/* the index before the doorbell */
	outw(vq->vq_vsc->sc_iobase + VIRTIO_PCI_QUEUE_NOTIFY, vq->vq_index);
}

/*
 * Take one finished chain off the used ring: its cookie, and in *lenp
 * the bytes the device wrote.  NULL when there is none.
 */
void *
virtq_dequeue(struct virtqueue *vq, u_int32_t *lenp)
{
	volatile struct vring_used_elem *ue;
	u_int16_t head, d;
	void *cookie;

	if (vq->vq_used_seen == vq->vq_used->idx)
		return NULL;
	virtio_membar();		/* the index before the entry */
	ue = &vq->vq_used->ring[vq->vq_used_seen & (vq->vq_num - 1)];
	head = ue->id;
	if (lenp != NULL)
		*lenp = ue->len;
	vq->vq_used_seen++;
	KASSERT(head < vq->vq_num && vq->vq_cookie[head] != NULL);
	cookie = vq->vq_cookie[head];
	vq->vq_cookie[head] = NULL;

	/* Give the chain back to the free list. */
	for (d = head; vq->vq_desc[d].flags & VRING_DESC_F_NEXT;
	    d = vq->vq_desc[d].next)
		vq->vq_nfree++;
	vq->vq_nfree++;
	vq->vq_desc[d].next = vq->vq_free;
	vq->vq_free = head;
	return cookie;
}
