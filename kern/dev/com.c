/*
 * The console: a 16550 UART on COM1, which QEMU connects to the terminal.
 * Output is polled (simple, and works in a panic); input arrives by
 * interrupt and goes to the tty line discipline.
 */
#include "kern/systm.h"
#include "kern/i386/cpu.h"
#include "kern/i386/machdep.h"
#include "kern/tty.h"

#define COM1	0x3f8
#define COM_IRQ	4
#define RBR	0	/* receive buffer */
#define THR	0	/* transmit holding */
#define IER	1	/* interrupt enable */
#define FCR	2	/* FIFO control */
#define LCR	3	/* line control */
#define MCR	4	/* modem control */
#define LSR	5	/* line status */
#define LSR_RXRDY 0x01
#define LSR_TXRDY 0x20

void
cninit(void)
{
	outb(COM1 + IER, 0);
	outb(COM1 + LCR, 0x80);		/* divisor latch */
	outb(COM1 + 0, 1);		/* 115200 baud */
	outb(COM1 + 1, 0);
	outb(COM1 + LCR, 0x03);		/* 8N1 */
	outb(COM1 + FCR, 0x07);		/* FIFOs on and cleared */
	outb(COM1 + MCR, 0x0b);		/* DTR, RTS, OUT2 (IRQ gate) */
}

void
cnputc(int c)
{
	int n;

	if (c == '\n')
		cnputc('\r');
	for (n = 0; n < 100000 && !(inb(COM1 + LSR) & LSR_TXRDY); n++)
		continue;
	outb(COM1 + THR, c);
}

static void
comintr(void *arg)
{
	while (inb(COM1 + LSR) & LSR_RXRDY)
		ttyinput(&constty, inb(COM1 + RBR));
}

void
comattach(void)
{
	intr_establish(COM_IRQ, comintr, NULL);
	outb(COM1 + IER, 0x01);		/* interrupt on received data */
}
