/*
 * The two cascaded 8259A interrupt controllers, remapped to vectors
 * 32..47.  Drivers register a handler per IRQ; PCI devices may share one.
 */
#include "kern/systm.h"
#include "kern/i386/cpu.h"
#include "kern/i386/machdep.h"

#define PIC1	0x20
#define PIC2	0xa0
#define NHANDLERS 4			/* shared handlers per IRQ line */

static struct {
	intr_handler_t fn;
	void	*arg;
} handlers[16][NHANDLERS];
static u_int16_t irqmask = 0xffff & ~(1 << 2);	/* cascade stays open */

static void
pic_setmask(void)
{
	outb(PIC1 + 1, irqmask & 0xff);
	outb(PIC2 + 1, irqmask >> 8);
}

void
intr_init(void)
{
	outb(PIC1, 0x11);		/* ICW1: edge, cascade, ICW4 */
	outb(PIC2, 0x11);
	outb(PIC1 + 1, T_IRQ0);		/* ICW2: vector base */
	outb(PIC2 + 1, T_IRQ0 + 8);
	outb(PIC1 + 1, 1 << 2);		/* ICW3: slave on IRQ 2 */
	outb(PIC2 + 1, 2);
	outb(PIC1 + 1, 0x01);		/* ICW4: 8086 mode */
	outb(PIC2 + 1, 0x01);
	pic_setmask();
}

void
pic_unmask(int irq)
{
	int s = splhigh();

	irqmask &= ~(1 << irq);
	pic_setmask();
	splx(s);
}

void
intr_establish(int irq, intr_handler_t fn, void *arg)
{
	int i, s;

	if (irq < 0 || irq > 15)
		panic("intr_establish: irq %d", irq);
	s = splhigh();
	for (i = 0; i < NHANDLERS; i++) {
		if (handlers[irq][i].fn == NULL) {
			handlers[irq][i].fn = fn;
			handlers[irq][i].arg = arg;
			break;
		}
	}
	if (i == NHANDLERS)
		panic("intr_establish: irq %d full", irq);
	/*
	 * PCI lines are level-triggered but the PIC here is edge-triggered;
	 * QEMU's PIIX routes them through the ELCR, which SeaBIOS set up.
	 */
	splx(s);
	pic_unmask(irq);
}

void
intr_dispatch(int irq)
{
	int i;

	/* Handlers first: a level-triggered PCI line must drop before EOI. */
	for (i = 0; i < NHANDLERS && handlers[irq][i].fn; i++)
		handlers[irq][i].fn(handlers[irq][i].arg);
	if (irq >= 8)
		outb(PIC2, 0x20);
	outb(PIC1, 0x20);
}
