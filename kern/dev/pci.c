/*
 * PCI: scan bus 0 and attach the drivers this kernel has.
 *
 * Configuration space is reached through mechanism #1: write the address
 * of a 32-bit register (enable bit, bus, device, function, register) to
 * port 0xCF8, then read or write the data at port 0xCFC.  The firmware
 * (SeaBIOS, which QEMU runs before the multiboot kernel) has already
 * assigned the BARs and the interrupt lines, so we only read them; we
 * turn on I/O, memory and bus mastering for the devices we attach.
 * Only bus 0 is scanned: QEMU's i440FX machine puts every device there.
 */
#include "kern/systm.h"
#include "kern/i386/cpu.h"
#include "kern/dev/pci.h"

#define PCI_CONF_ADDR	0xcf8
#define PCI_CONF_DATA	0xcfc
#define PCI_NDEV	32
#define PCI_NFUNC	8

void	vioscsi_attach(struct pci_attach_args *);

/* The drivers: matched on vendor and device id. */
static const struct pcidev {
	u_int16_t vendor, product;
	void	(*attach)(struct pci_attach_args *);
} pcidevs[] = {
	{ 0x1af4, 0x1004, vioscsi_attach },	/* virtio SCSI, transitional */
};

static u_int32_t
pci_addr(int bus, int dev, int func, int reg)
{
	return 0x80000000u | (bus << 16) | (dev << 11) | (func << 8) |
	    (reg & 0xfc);
}

u_int32_t
pci_conf_read(int bus, int dev, int func, int reg)
{
	outl(PCI_CONF_ADDR, pci_addr(bus, dev, func, reg));
	return inl(PCI_CONF_DATA);
}

void
pci_conf_write(int bus, int dev, int func, int reg, u_int32_t v)
{
	outl(PCI_CONF_ADDR, pci_addr(bus, dev, func, reg));
	outl(PCI_CONF_DATA, v);
}

/* Read what a driver needs and hand the function to its attach routine. */
static void
pci_attach_func(int bus, int dev, int func, u_int32_t id)
{
	struct pci_attach_args pa;
	const struct pcidev *pd;
	u_int32_t r;
	int i;

	memset(&pa, 0, sizeof(pa));
	pa.pa_bus = bus;
	pa.pa_dev = dev;
	pa.pa_func = func;
	pa.pa_vendor = id & 0xffff;
	pa.pa_product = id >> 16;
	pa.pa_class = pci_conf_read(bus, dev, func, PCI_CLASS_REG) >> 8;
	for (i = 0; i < 6; i++)
		pa.pa_bar[i] = pci_conf_read(bus, dev, func, PCI_BAR0 + 4 * i);
	r = pci_conf_read(bus, dev, func, PCI_INTR_REG);
	pa.pa_irq = r & 0xff;
	pa.pa_pin = (r >> 8) & 0xff;
	if (pa.pa_pin == 0 || pa.pa_irq > 15)
		pa.pa_irq = PCI_IRQ_NONE;

	for (pd = pcidevs; pd < pcidevs + nitems(pcidevs); pd++) {
		if (pd->vendor != pa.pa_vendor || pd->product != pa.pa_product)
			continue;
		/* Decode our registers and let the device master the bus. */
		r = pci_conf_read(bus, dev, func, PCI_COMMAND_REG);
		r |= PCI_CMD_IO | PCI_CMD_MEM | PCI_CMD_MASTER;
		pci_conf_write(bus, dev, func, PCI_COMMAND_REG, r & 0xffff);
		pd->attach(&pa);
		return;
	}
}

void
pci_init(void)
{
	int dev, func, nfunc;
	u_int32_t id, bhlc;

	for (dev = 0; dev < PCI_NDEV; dev++) {
		id = pci_conf_read(0, dev, 0, PCI_ID_REG);
		if ((id & 0xffff) == 0xffff)
			continue;			/* no device */
		bhlc = pci_conf_read(0, dev, 0, PCI_BHLC_REG);
		nfunc = (bhlc >> 16) & PCI_HDR_MULTIFN ? PCI_NFUNC : 1;
		for (func = 0; func < nfunc; func++) {
			if (func > 0) {
				id = pci_conf_read(0, dev, func, PCI_ID_REG);
				if ((id & 0xffff) == 0xffff)
					continue;
			}
			pci_attach_func(0, dev, func, id);
		}
	}
}
