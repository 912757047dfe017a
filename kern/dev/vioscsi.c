/*
 * vioscsi: QEMU's virtio-scsi-pci as a SCSI host adapter.
 *
 * The adapter carries SCSI commands to targets 0..7, LUN 0 and up, on
 * its request queue (virtqueue 2).  A command is one descriptor chain:
 *   device-readable:  the request header (LUN address, tag, CDB)
 *                     the data-out buffer (writes)
 *   device-writable:  the response (virtio response, SCSI status, sense)
 *                     the data-in buffer (reads)
 * Each command in flight owns a ccb, which holds its header and response
 * in memory the device can reach; the ccb is the chain's cookie.  The
 * control and event queues are set up, as the device expects, but unused:
 * no task management, no hot-plug.
 *
 * Completion: while `cold' vioscsi_cmd polls the used ring until the
 * command is back or its timeout expires; otherwise the device interrupts
 * and vioscsi_intr reaps the used ring.  Either way vioscsi_done translates the response
 * into the scsi_xfer (scsi.h) and calls its xs_done.  There is no timeout
 * in interrupt mode: QEMU always answers, and a 1992 driver's watchdog
 * would need callouts this kernel does not have.
 *
 * At attach we probe each target with INQUIRY (polled: autoconfiguration
 * runs cold); a missing target answers BAD_TARGET or INCORRECT_LUN, and every
 * direct-access device found is handed to sdattach.
 */
#include "kern/systm.h"
#include "kern/malloc.h"
#include "kern/i386/cpu.h"
#include "kern/i386/machdep.h"
#include "kern/dev/pci.h"
#include "kern/dev/virtio.h"
#include "kern/dev/scsi.h"
#include "kern/dev/vioscsi.h"
#include "kern/dev/sd.h"

#define VIOSCSI_MAXUNITS	2
#define VIOSCSI_NTARGETS	8	/* a narrow SCSI-2 bus */
#define VIOSCSI_NCCB		16	/* commands in flight, all targets */
#define VIOSCSI_SEGS		4	/* header, data, response (max) */
#define VIOSCSI_TIMEOUT		10000	/* ms, polled commands by default */
#define VIOSCSI_PROBE_TIMEOUT	2000	/* ms, INQUIRY at attach */

struct vioscsi_ccb {
	struct virtio_scsi_cmd_req c_req;
	struct virtio_scsi_cmd_resp c_resp;
	struct scsi_xfer *c_xs;		/* NULL once given up (timed out) */
	int	c_busy;			/* owned by a command in the ring */
};

struct vioscsi_softc {
	struct virtio_softc sc_virtio;
	int	sc_unit;		/* vioscsiN and scsibusN */
	struct virtqueue sc_vq[3];	/* control, event, request */
	u_int32_t sc_cdbsize;		/* request header carries this CDB */
	u_int32_t sc_sensesize;		/* response carries this much sense */
	int	sc_ntargets;
	struct vioscsi_ccb *sc_ccbs;
	u_int64_t sc_tag;
};

static int nvioscsi;			/* adapters attached */

static void vioscsi_intr(void *);
static void vioscsi_reap(struct vioscsi_softc *);
static void vioscsi_probe(struct vioscsi_softc *);

void
vioscsi_attach(struct pci_attach_args *pa)
{
	struct vioscsi_softc *sc;
	struct virtio_softc *vsc;
	int i, unit = nvioscsi, maxtarget;

	if (unit == VIOSCSI_MAXUNITS) {
		printf("vioscsi at pci%d dev %d: too many adapters; "
		    "not attached\n", pa->pa_bus, pa->pa_dev);
		return;
	}
	if (!(pa->pa_bar[0] & PCI_BAR_IS_IO)) {
		printf("vioscsi%d at pci%d dev %d: BAR0 is not I/O space "
		    "(no legacy interface); not attached\n", unit,
		    pa->pa_bus, pa->pa_dev);
		return;
	}
	if (pa->pa_irq == PCI_IRQ_NONE) {
		printf("vioscsi%d at pci%d dev %d: no interrupt line; "
		    "not attached\n", unit, pa->pa_bus, pa->pa_dev);
		return;
	}
	printf("vioscsi%d at pci%d dev %d: virtio SCSI, irq %d\n", unit,
	    pa->pa_bus, pa->pa_dev, pa->pa_irq);
	nvioscsi++;

	sc = malloc(sizeof(*sc), M_WAITOK | M_ZERO);
	sc->sc_unit = unit;
	vsc = &sc->sc_virtio;
	if (virtio_init(vsc, PCI_BAR_IO_ADDR(pa->pa_bar[0]), 0) != 0) {
		printf("vioscsi%d: device does not reset; not attached\n",
		    unit);
		goto fail;
	}

	/* The request header and response have room for the defaults. */
	sc->sc_cdbsize = virtio_config_read4(vsc, VIRTIO_SCSI_CONFIG_CDB_SIZE);
	sc->sc_sensesize = virtio_config_read4(vsc,
	    VIRTIO_SCSI_CONFIG_SENSE_SIZE);
	if (sc->sc_cdbsize > VIRTIO_SCSI_CDB_SIZE ||
	    sc->sc_sensesize > VIRTIO_SCSI_SENSE_SIZE ||
	    sc->sc_cdbsize < SCSI_MAXCDB) {
		printf("vioscsi%d: cdb_size %u, sense_size %u unsupported; "
		    "not attached\n", unit, sc->sc_cdbsize, sc->sc_sensesize);
		goto fail;
	}
	if (virtio_config_read4(vsc, VIRTIO_SCSI_CONFIG_NUM_QUEUES) < 1) {
		printf("vioscsi%d: no request queue; not attached\n", unit);
		goto fail;
	}
	for (i = 0; i < 3; i++) {
		if (virtq_alloc(vsc, &sc->sc_vq[i], i) != 0) {
			printf("vioscsi%d: cannot set up virtqueue %d; "
			    "not attached\n", unit, i);
			goto fail;
		}
	}
	if (sc->sc_vq[VIOSCSI_REQUESTQ].vq_num < VIOSCSI_NCCB * VIOSCSI_SEGS) {
		printf("vioscsi%d: request queue too small (%d); "
		    "not attached\n", unit, sc->sc_vq[VIOSCSI_REQUESTQ].vq_num);
		goto fail;
	}
	sc->sc_ccbs = malloc(sizeof(struct vioscsi_ccb) * VIOSCSI_NCCB,
	    M_WAITOK | M_ZERO);

	intr_establish(pa->pa_irq, vioscsi_intr, sc);
	virtio_driver_ok(vsc);

	maxtarget = virtio_config_read2(vsc, VIRTIO_SCSI_CONFIG_MAX_TARGET);
	sc->sc_ntargets = MIN(maxtarget + 1, VIOSCSI_NTARGETS);
	printf("scsibus%d at vioscsi%d: %d targets\n", unit, unit,
	    sc->sc_ntargets);
	vioscsi_probe(sc);
	return;

fail:
	virtio_fail(vsc);
	free(sc);
}

/*
 * INQUIRY every target's LUN 0; attach sd to the disks.  Other device
 * types get a line saying they are not configured, as a BSD boot did.
 */
static void
vioscsi_probe(struct vioscsi_softc *sc)
{
	struct scsi_xfer xs;
	u_int8_t *inq;
	int t;

	KASSERT(cold);			/* the INQUIRYs below complete in place */
	inq = malloc(INQUIRY_LEN, M_WAITOK);
	for (t = 0; t < sc->sc_ntargets; t++) {
		memset(inq, 0, INQUIRY_LEN);
		memset(&xs, 0, sizeof(xs));
		xs.xs_hba = sc;
		xs.xs_target = t;
		xs.xs_lun = 0;
		xs.xs_cdb[0] = INQUIRY;
		xs.xs_cdb[4] = INQUIRY_LEN;
		xs.xs_cdblen = 6;
		xs.xs_data = inq;
		xs.xs_datalen = INQUIRY_LEN;
		xs.xs_flags = XS_DATA_IN;
		xs.xs_timeout = VIOSCSI_PROBE_TIMEOUT;
		if (vioscsi_cmd(&xs) != 0)
			break;
		if (xs.xs_error == XS_SELTIMEOUT)
			continue;			/* nobody there */
		if (xs.xs_error != XS_NOERROR) {
			printf("scsibus%d target %d: INQUIRY failed "
			    "(error %d, status 0x%x)\n", sc->sc_unit, t,
			    xs.xs_error, xs.xs_status);
			continue;
		}
		if (INQ_QUALIFIER(inq) == 3 || INQ_TYPE(inq) == T_NODEVICE)
			continue;			/* LUN not present */
		if (INQ_TYPE(inq) != T_DIRECT) {
			printf("scsibus%d target %d: device type %d "
			    "not configured\n", sc->sc_unit, t, INQ_TYPE(inq));
			continue;
		}
		sdattach(sc, sc->sc_unit, t, 0, inq);
	}
	free(inq);
}

/*
 * Start one command.  Returns 0 when the command was accepted: xs_done
 * will be called exactly once (before we return, while cold).  EAGAIN
 * if every ccb is busy; the caller did not get a command in flight.
 */
int
vioscsi_cmd(struct scsi_xfer *xs)
{
	struct vioscsi_softc *sc = xs->xs_hba;
	struct vioscsi_ccb *ccb = NULL;
	struct virtq_seg segs[VIOSCSI_SEGS];
	int i, s, nread = 0, nwrite = 0, timeout;
	u_int64_t start;

	KASSERT(sc != NULL && xs->xs_cdblen > 0 &&
	    xs->xs_cdblen <= (int)sc->sc_cdbsize);
	KASSERT(xs->xs_datalen == 0 ||
	    (u_int32_t)xs->xs_data >= KERNBASE_VA);	/* direct map only */
	xs->xs_flags &= ~XS_DONE;
	xs->xs_error = XS_NOERROR;
	xs->xs_status = SCSI_GOOD;
	xs->xs_senselen = 0;
	xs->xs_resid = 0;

	s = splbio();
	for (i = 0; i < VIOSCSI_NCCB; i++) {
		if (!sc->sc_ccbs[i].c_busy) {
			ccb = &sc->sc_ccbs[i];
			break;
		}
	}
	if (ccb == NULL) {
		splx(s);
		printf("vioscsi%d: out of command blocks\n", sc->sc_unit);
		return EAGAIN;
	}
	ccb->c_busy = 1;
	ccb->c_xs = xs;

	/* The request: SAM-2 single-level LUN address, flat space. */
	memset(&ccb->c_req, 0, sizeof(ccb->c_req));
	ccb->c_req.lun[0] = 1;
	ccb->c_req.lun[1] = xs->xs_target;
	ccb->c_req.lun[2] = 0x40 | ((xs->xs_lun >> 8) & 0x3f);
	ccb->c_req.lun[3] = xs->xs_lun & 0xff;
	ccb->c_req.tag = ++sc->sc_tag;
	ccb->c_req.task_attr = VIRTIO_SCSI_S_SIMPLE;
	memcpy(ccb->c_req.cdb, xs->xs_cdb, xs->xs_cdblen);
	memset(&ccb->c_resp, 0, sizeof(ccb->c_resp));

	segs[nread].vs_addr = &ccb->c_req;
	segs[nread++].vs_len = offsetof(struct virtio_scsi_cmd_req, cdb) +
	    sc->sc_cdbsize;
	if (xs->xs_datalen > 0 && (xs->xs_flags & XS_DATA_OUT)) {
		segs[nread].vs_addr = xs->xs_data;
		segs[nread++].vs_len = xs->xs_datalen;
	}
	segs[nread + nwrite].vs_addr = &ccb->c_resp;
	segs[nread + nwrite++].vs_len = offsetof(struct virtio_scsi_cmd_resp,
	    sense) + sc->sc_sensesize;
	if (xs->xs_datalen > 0 && (xs->xs_flags & XS_DATA_IN)) {
		segs[nread + nwrite].vs_addr = xs->xs_data;
		segs[nread + nwrite++].vs_len = xs->xs_datalen;
	}
	if (virtq_enqueue(&sc->sc_vq[VIOSCSI_REQUESTQ], segs, nread, nwrite,
	    ccb) != 0) {
		ccb->c_busy = 0;
		ccb->c_xs = NULL;
		splx(s);
		printf("vioscsi%d: request queue full\n", sc->sc_unit);
		return EAGAIN;
	}
	virtq_notify(&sc->sc_vq[VIOSCSI_REQUESTQ]);

	if (cold) {
		/*
		 * Poll the used ring (completing any other command there
		 * too).  Between looks, halt with interrupts on until one
		 * comes: ours, or the clock's, which keeps uptime_us()
		 * going for the timeout.  Autoconfiguration runs with
		 * interrupts on; the splbio() we open up is held only by
		 * this disk stack, to which an interrupt can do nothing
		 * but complete commands, as the loop does itself.
		 */
		timeout = xs->xs_timeout > 0 ? xs->xs_timeout : VIOSCSI_TIMEOUT;
		start = uptime_us();
		for (;;) {
			vioscsi_reap(sc);
			if ((xs->xs_flags & XS_DONE) ||
			    uptime_us() - start >= timeout * 1000ull)
				break;
			sti();
			halt();
			cli();
		}
		if (!(xs->xs_flags & XS_DONE)) {
			/* The ccb stays busy until the device gives it back. */
			ccb->c_xs = NULL;
			printf("vioscsi%d: target %d: command 0x%02x timed out "
			    "after %d ms\n", sc->sc_unit, xs->xs_target,
			    xs->xs_cdb[0], timeout);
			xs->xs_error = XS_TIMEOUT;
			xs->xs_flags |= XS_DONE;
			if (xs->xs_done != NULL)
				xs->xs_done(xs);
		}
	}
	splx(s);
	return 0;
}

/* Translate the device's answer into the scsi_xfer and hand it back. */
static void
vioscsi_done(struct vioscsi_softc *sc, struct vioscsi_ccb *ccb)
{
	struct virtio_scsi_cmd_resp *r = &ccb->c_resp;
	struct scsi_xfer *xs = ccb->c_xs;

	ccb->c_xs = NULL;
	ccb->c_busy = 0;
	if (xs == NULL)
		return;				/* timed out earlier */

	switch (r->response) {
	case VIRTIO_SCSI_S_OK:
		xs->xs_status = r->status;
		xs->xs_resid = MIN(r->resid, (u_int32_t)xs->xs_datalen);
		if (r->status == SCSI_GOOD)
			xs->xs_error = XS_NOERROR;
		else if (r->status == SCSI_CHECK) {
			xs->xs_error = XS_SENSE;
			xs->xs_senselen = MIN(MIN(r->sense_len,
			    sc->sc_sensesize), SCSI_SENSELEN);
			memcpy(xs->xs_sense, r->sense, xs->xs_senselen);
		} else if (r->status == SCSI_BUSY)
			xs->xs_error = XS_BUSY;
		else
			xs->xs_error = XS_DRIVER_STUFFUP;
		break;
	case VIRTIO_SCSI_S_BAD_TARGET:
	case VIRTIO_SCSI_S_INCORRECT_LUN:
		xs->xs_error = XS_SELTIMEOUT;
		break;
	case VIRTIO_SCSI_S_BUSY:
		xs->xs_error = XS_BUSY;
		break;
	case VIRTIO_SCSI_S_RESET:
	case VIRTIO_SCSI_S_ABORTED:
		xs->xs_error = XS_RESET;
		break;
	default:
		printf("vioscsi%d: target %d: virtio response %d\n",
		    sc->sc_unit, xs->xs_target, r->response);
		xs->xs_error = XS_DRIVER_STUFFUP;
		break;
	}
	if (xs->xs_error != XS_NOERROR && xs->xs_error != XS_SENSE)
		xs->xs_resid = xs->xs_datalen;
	xs->xs_flags |= XS_DONE;
	if (xs->xs_done != NULL)
		xs->xs_done(xs);
}

/* Complete every command the device has finished.  At splbio. */
static void
vioscsi_reap(struct vioscsi_softc *sc)
{
	struct vioscsi_ccb *ccb;

	while ((ccb = virtq_dequeue(&sc->sc_vq[VIOSCSI_REQUESTQ], NULL)))
		vioscsi_done(sc, ccb);
}

static void
vioscsi_intr(void *arg)
{
	struct vioscsi_softc *sc = arg;

	/* Reading the ISR lowers the line; 0 means another device's IRQ. */
	if ((virtio_isr(&sc->sc_virtio) & VIRTIO_ISR_QUEUE) == 0)
		return;
	vioscsi_reap(sc);
}
