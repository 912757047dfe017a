/*
 * PCI bus 0, found through configuration mechanism #1, and the record a
 * driver's attach routine receives for its device.
 */
#ifndef _DEV_PCI_H_
#define _DEV_PCI_H_

#include <sys/types.h>

/* configuration space registers */
#define PCI_ID_REG		0x00	/* vendor (low 16), device (high 16) */
#define PCI_COMMAND_REG		0x04	/* command (low 16), status (high) */
#define PCI_CMD_IO		0x0001
#define PCI_CMD_MEM		0x0002
#define PCI_CMD_MASTER		0x0004
#define PCI_CLASS_REG		0x08	/* class, subclass, interface, rev */
#define PCI_BHLC_REG		0x0c	/* header type is byte 2 */
#define PCI_HDR_MULTIFN		0x80
#define PCI_BAR0		0x10	/* six BARs, 4 bytes apart */
#define PCI_BAR_IS_IO		0x1
#define PCI_BAR_IO_ADDR(b)	((b) & ~0x3u)
#define PCI_BAR_MEM_ADDR(b)	((b) & ~0xfu)
#define PCI_INTR_REG		0x3c	/* line (byte 0), pin (byte 1) */
#define PCI_IRQ_NONE		0xff

struct pci_attach_args {
	int	pa_bus, pa_dev, pa_func;
	u_int16_t pa_vendor;
	u_int16_t pa_product;
	u_int32_t pa_class;		/* class << 16 | subclass << 8 | if */
	u_int32_t pa_bar[6];		/* raw BAR values */
	int	pa_irq;			/* interrupt line, or PCI_IRQ_NONE */
	int	pa_pin;			/* 1..4 = INTA..INTD, 0 none */
};

u_int32_t pci_conf_read(int bus, int dev, int func, int reg);
void	pci_conf_write(int bus, int dev, int func, int reg, u_int32_t v);
void	pci_init(void);

#endif
